#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# check's report on a big host (issue 10): the verdict first, one table row per rail with the bad cell marked,
# only the findings that are not ok (-v: all), one finding per root cause, colour and wrapping only where
# asked, and the structured members of check's JSON.
# usage: check_report_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "$1" "$out" "${@:2}"; }
esc=$'\033'

# A copy of cx6lx-2port with mlx5_1's netdev ens19f1np1 down (the port DOWN with it) ...
down="$scratch/down"; cp -a "$FIX/cx6lx-2port" "$down"
port1="$(readlink -f "$down/sys/class/infiniband/mlx5_1")/ports/1"
echo down > "$down/sys/class/net/ens19f1np1/operstate"; echo 0 > "$down/sys/class/net/ens19f1np1/carrier"
echo "1: DOWN" > "$port1/state"; echo "3: Disabled" > "$port1/phys_state"
# ... a spare: the same with NCCL_IB_HCA unset (NCCL leaves the down port out, as gid --suggest does); $down names
# both ports in the capture's environment, so NCCL is told to use the down one.
spare="$scratch/spare"; cp -a "$down" "$spare"
mkdir -p "$down/proc/self"; printf 'NCCL_IB_HCA=mlx5_0:1,mlx5_1:1\0' > "$down/proc/self/environ"
# ... and one whose ens19f1np1 has no IPv4 address: mlx5_1's ::ffff: GIDs (4, 5) gone, as the kernel empties them.
noip="$scratch/noip"; cp -a "$FIX/cx6lx-2port" "$noip"
port1="$(readlink -f "$noip/sys/class/infiniband/mlx5_1")/ports/1"
for i in 4 5; do
	echo 0000:0000:0000:0000:0000:0000:0000:0000 > "$port1/gids/$i"
	rm -f "$port1/gid_attrs/types/$i" "$port1/gid_attrs/ndevs/$i"
done
# $noip's job names both ports (rails): the unaddressed one fails. $noip_spare leaves NCCL_IB_HCA unset: the
# host cannot tell that port from one for other traffic, so it warns (the port gid --suggest leaves out).
noip_spare="$scratch/noip-spare"; cp -a "$noip" "$noip_spare"
mkdir -p "$noip/proc/self"; printf 'NCCL_IB_HCA=mlx5_0:1,mlx5_1:1\0' > "$noip/proc/self/environ"

# ---- the layout on the eight-HCA host ----
run --root "$FIX/eight-hca" check
[ "$rc" -eq 0 ] && head -1 "$out" | grep -q '^verdict: info (0 fail, 0 warn, 7 info, 62 ok)$'
result "eight-hca: the verdict is the first line" $?
sed -n 3p "$out" | grep -qE '^PORT +NETDEV +STATE +RATE +MTU +GID +NUMA$' \
	&& [ "$(grep -cE '^mlx5_[0-9]/1 +eth[0-9] +ACTIVE +(100 Gb/s!|200 Gb/s) +9000 +3 +[01]$' "$out")" -eq 10 ] \
	&& grep -qE '^mlx5_7/1 +eth7 +ACTIVE +200 Gb/s +9000 +3 +1$' "$out"
result "eight-hca: a table with one row per rail: port, netdev, state, speed, MTU, GID index, NUMA node" $?
! grep -qE '^  OK ' "$out" && grep -q '^62 ok finding(s) not shown: -v shows them$' "$out" \
	&& grep -q '^  INFO  gid.env ' "$out" && [ "$(wc -l < "$out")" -le 40 ]
result "eight-hca: only the findings that are not ok, and a line counting the folded ok ones" $?
[ "$(grep -cE '^mlx5_[0-9]/1 .*!' "$out")" -eq 2 ] && grep -qE '^mlx5_0/1 +eth0 +ACTIVE +100 Gb/s! ' "$out" \
	&& grep -qE '^mlx5_9/1 +eth9 +ACTIVE +100 Gb/s! ' "$out" && [ "$(grep -c '^  INFO  port.rail_speed ' "$out")" -eq 2 ]
result "eight-hca: the table marks only the speed of the two 100 Gb/s ports, which port.rail_speed reports" $?
run --root "$FIX/eight-hca" check -v
[ "$rc" -eq 0 ] && [ "$(grep -c '^  OK    port.state ' "$out")" -eq 10 ] && [ "$(grep -c '^  OK ' "$out")" -eq 62 ] \
	&& ! grep -q 'not shown' "$out" && head -1 "$out" | grep -q '^verdict: info'
result "check -v prints the ok findings in place" $?
run --root "$FIX/eight-hca" check --verbose --only netdev.mtu
[ "$rc" -eq 0 ] && [ "$(grep -c '^  OK    netdev.mtu ' "$out")" -eq 10 ]; result "check --verbose, after the command, too" $?

# ---- one finding per root cause ----
run --root "$down" check
[ "$rc" -eq 2 ] && grep -q '^  FAIL  netdev.state       ens19f1np1 (under mlx5_1/1) is down; mlx5_1/1: port is DOWN, physical state Disabled: its netdev is set down$' "$out" \
	&& ! grep -q '^  FAIL  port.state' "$out" && [ "$(grep -c '^  FAIL ' "$out")" -eq 1 ] \
	&& [ "$(grep -c 'fix: ip link set ens19f1np1 up' "$out")" -eq 1 ]
result "a DOWN netdev is one finding (netdev.state naming the port too), not port.state and netdev.state" $?
grep -qE '^mlx5_1/1 +ens19f1np1 \(down\)! +DOWN! +25 Gb/s +9000 +5 +0$' "$out" \
	&& grep -qE '^mlx5_0/1 +ens19f0np0 +ACTIVE +25 Gb/s +9000 +5 +0$' "$out" && grep -q '^(! marks a cell' "$out"
result "the table marks the DOWN rail's netdev and state cells, not the healthy rail's" $?
run --root "$down" --json check
py 'import json,sys
d=json.load(open(sys.argv[1])); bad=[f for f in d["findings"] if f["severity"] in ("warn","fail")]
f=bad[0]; r=[p for p in d["ports"] if p["device"]=="mlx5_1"][0]
sys.exit(0 if len(bad)==1 and f["id"]=="netdev.state" and f["covers"]==["port.state"] and f["device"]=="mlx5_1"
  and f["port"]==1 and f["netdev"]=="ens19f1np1" and f["fix_lines"][0]=="ip link set ens19f1np1 up"
  and d["counts"]["fail"]==1 and r["marked"]=={"netdev":"fail","state":"fail"} and r["netdev_state"]=="down"
  and r["state"]=="DOWN" else 1)'
result "JSON: the merged finding covers port.state; its port row marks netdev and state" $?
run --root "$down" check -v --only port.state
[ "$rc" -eq 2 ] && grep -q '^  FAIL  port.state         mlx5_1/1: port is DOWN' "$out"
result "check --only port.state still reports the port on its own" $?
run --root "$spare" check
[ "$rc" -eq 0 ] && grep -q '^  INFO  port.state         mlx5_1/1 (ens19f1np1) is DOWN, physical state Disabled (its netdev is set down): NCCL opens only ACTIVE ports' "$out" \
	&& grep -q '^        fix: ip link set ens19f1np1 up$' "$out" && grep -q '^             export NCCL_IB_HCA=^mlx5_1:1   # or leave' "$out" \
	&& ! grep -q '^  FAIL ' "$out"
result "a down port NCCL leaves out (NCCL_IB_HCA unset, the other port up) is reported with its fix and how to exclude it, not failed" $?
run --root "$noip" --json check
py 'import json,sys
d=json.load(open(sys.argv[1])); bad=[f for f in d["findings"] if f["severity"]=="fail"]
sys.exit(0 if [(f["id"],f["covers"]) for f in bad]==[("netdev.ipv4",["gid.rocev2"])] and "mlx5_1/1: no RoCE v2 IPv4 GID" in bad[0]["message"] else 1)'
result "no IPv4 on a netdev is one netdev.ipv4 finding covering gid.rocev2" $?
run --root "$noip_spare" --json check
py 'import json,sys
d=json.load(open(sys.argv[1])); bad=[(f["id"],f["severity"],f["covers"]) for f in d["findings"] if f["severity"] in ("warn","fail")]
sys.exit(0 if bad==[("netdev.ipv4","warn",["gid.rocev2"])] and d["verdict"]=="warn" else 1)'
result "the same port with NCCL_IB_HCA unset beside a working rail: a warning covering gid.rocev2, not a failure" $?
run --root "$noip" --json check --family ipv6
py 'import json,sys
d=json.load(open(sys.argv[1])); bad=sorted((f["netdev"],f["id"],f["covers"]) for f in d["findings"] if f["severity"]=="fail")
sys.exit(0 if bad==[("ens19f0np0","netdev.ipv6",["gid.rocev2"]),("ens19f1np1","netdev.ipv6",["gid.rocev2"])] else 1)'
result "--family ipv6: no global IPv6 address is one netdev.ipv6 finding per rail, covering gid.rocev2" $?
run --root "$noip" check --family ipv6
[ "$(grep -cE '^mlx5_[01]/1 +ens19f[01]np[01]! +ACTIVE +25 Gb/s +9000 +-! +0$' "$out")" -eq 2 ]
result "--family ipv6: the table marks each rail's netdev and its missing GID index" $?

# ---- JSON: device, port, netdev, file, fix_lines on every finding ----
members_ok='import json,sys
d=json.load(open(sys.argv[1]))
for f in d["findings"]:
    assert f["fix_lines"]==(f["fix"].split("\n") if f["fix"] else []), f
    for k in ("device","port","netdev","file"): assert k in f, (k,f)
    assert f["port"] is None or f["device"] is not None, f   # a port has its device; a device may stand alone
'
for fx in eight-hca cx6lx-2port check-seed000 check-env; do
	run --root "$FIX/$fx" --json check
	py "$members_ok"; result "$fx: every finding has device, port, netdev, file and fix_lines (the fix split)" $?
done
# A finding about a whole device (its subject the bare name) names the device, no port (s11; null before).
run --root "$FIX/softroce-no-provider" --json check --only verbs.provider
py 'import json,sys
f=json.load(open(sys.argv[1]))["findings"]
assert [(x["subject"], x["device"], x["port"], x["netdev"]) for x in f] == [("rxe0", "rxe0", None, None)], f'
result "softroce-no-provider: verbs.provider's finding names device rxe0, port and netdev null" $?
run --root "$FIX/eight-hca" --json check
py 'import json,sys
d=json.load(open(sys.argv[1])); F=d["findings"]
g=[f for f in F if f["id"]=="gid.rocev2" and f["subject"]=="mlx5_3/1"][0]
m=[f for f in F if f["id"]=="netdev.mtu" and f["subject"]=="eth5"][0]
e=[f for f in F if f["id"]=="gid.env"][0]; r=[f for f in F if f["id"]=="rdma.devices"][0]
sys.exit(0 if (g["device"],g["port"],g["netdev"],g["file"])==("mlx5_3",1,"eth3",None)
  and (m["device"],m["port"],m["netdev"])==("mlx5_5",1,"eth5") and (e["device"],e["port"],e["netdev"],e["file"])==(None,None,None,None)
  and r["file"]=="/sys/class/infiniband" and e["fix_lines"]==["export NCCL_IB_GID_INDEX=3"]
  and len(d["ports"])==10 and all(p["gid_index"]==3 and p["marked"]==({"rate_gbps":"info"} if p["rate_gbps"]==100 else {}) and p["selected"] for p in d["ports"])
  and [p["numa_node"] for p in d["ports"]]==[0]*5+[1]*5 and d["ports"][1]["rate_gbps"]==200 else 1)'
result "eight-hca JSON: a port subject gives device, port and its netdev; a netdev subject its port; ports rows" $?
run --root "$FIX/check-seed000" --json check
py 'import json,sys
d=json.load(open(sys.argv[1])); F={(f["id"],f["subject"]):f for f in d["findings"]}
h=F[("nccl.ib_hca","NCCL_IB_HCA (/etc/nccl.conf:2)")]; p=F[("memlock.pam","/etc/security/limits.d/99-nccl.conf:1")]
s=F[("memlock.systemd","/etc/systemd/system.conf.d/90-memlock.conf:2")]; w=F[("firewall.firewalld","firewalld")]
sys.exit(0 if h["file"]=="/etc/nccl.conf" and h["device"] is None and p["file"]=="/etc/security/limits.d/99-nccl.conf"
  and s["file"]=="/etc/systemd/system.conf.d/90-memlock.conf" and s["port"] is None and w["file"] is None
  and len(w["fix_lines"])==7 and w["fix_lines"][0].startswith("systemctl disable --now firewalld") else 1)'
result "check-seed000 JSON: file is the path the subject names, without its line; several fix lines" $?
run --root "$FIX/check-env" --json check
py 'import json,sys
d=json.load(open(sys.argv[1])); F=d["findings"]
g=[f for f in F if f["id"]=="gid.env" and f["severity"]=="fail"][0]; s=[f for f in F if f["id"]=="nccl.socket_ifname"][0]
sel={p["device"]:p["selected"] for p in d["ports"]}
sys.exit(0 if (g["device"],g["port"],g["netdev"])==("mlx5_0",1,"ens19f0np0") and s["file"]=="/proc/self/environ"
  and s["netdev"] is None and sel=={"mlx5_0":True,"mlx5_1":False} and d["ports"][0]["marked"]=={"gid_index":"fail"} else 1)'
result "check-env JSON: gid.env on its port, the environ file, NCCL_IB_HCA=^mlx5_1 leaves mlx5_1 unselected" $?
run --root "$FIX/check-env" check
grep -qE '^mlx5_1/1 .*  \(not in NCCL_IB_HCA: not checked\)$' "$out" && grep -qE '^mlx5_0/1 +ens19f0np0 +ACTIVE +25 Gb/s +9000 +5! +0$' "$out"
result "check-env text: the unselected rail says so; the pinned GID index cell is marked" $?

# ---- colour and wrapping ----
long='firewall-cmd --permanent --add-port=4791/udp --add-port=29500/tcp --add-port=49152-65535/tcp'
run --root "$FIX/check-seed000" check --color=always
grep -q "${esc}\[1;31mFAIL${esc}\[0m  nccl.ib_hca" "$out" && grep -q "^verdict: ${esc}\[1;31mfail${esc}\[0m" "$out"
result "--color=always colours severities even into a file" $?
TERM=dumb NO_COLOR=1 run --root "$FIX/check-seed000" check --color always
grep -q "$esc" "$out"; result "--color always wins over NO_COLOR and TERM=dumb" $?
for when in never auto; do
	run --root "$FIX/check-seed000" check --color=$when
	! grep -q "$esc" "$out" && grep -q "FAIL  nccl.ib_hca" "$out"; result "--color=$when: no colour into a file" $?
done
COLUMNS=60 run --root "$FIX/check-seed000" check
grep -q "^  INFO  firewall.rules     iptables: legacy iptables table(s) loaded (filter): their rules are not read$" "$out"
result "not a terminal: messages are not wrapped, even with COLUMNS set" $?
# Every line that is neither a fix line nor the table fits 60 columns; the long fix line stays whole.
narrow='import re,sys
lines=[re.sub("\x1b\\[[0-9;]*m","",l.rstrip("\r\n")) for l in open(sys.argv[1])]
fixing=False; over=[]
for l in lines:
    fixing = l.startswith("        fix: ") or (fixing and l.startswith("             "))
    if not fixing and not re.match("^(mlx5_|PORT )", l) and len(l)>int(sys.argv[2]): over.append(l)
sys.exit(1 if over else 0)'
COLUMNS=60 run --root "$FIX/check-seed000" check --color=always
py "$narrow" 60 && grep -q "^             $long$" "$out" && grep -qE '^ {27}[a-z]' "$out"
result "--color=always with COLUMNS=60: prose wraps under its message, fix lines never" $?
if command -v script >/dev/null; then
	# A real terminal (script's pty): auto colours, NO_COLOR and TERM=dumb turn it off, the width is the tty's.
	tty_run() { script -qec "stty cols 70 2>/dev/null; $* 2>/dev/null" /dev/null > "$out" 2>"$err"; rc=$?; }
	tty_run "$BIN" --root "$FIX/check-seed000" check
	grep -q "$esc" "$out" && py "$narrow" 70 && grep -q "$long" "$out"
	result "on a terminal: colour by default, prose wrapped to its width, fix lines whole" $?
	tty_run NO_COLOR=1 "$BIN" --root "$FIX/check-seed000" check
	! grep -q "$esc" "$out" && grep -q 'FAIL  nccl.ib_hca' "$out"; result "on a terminal: NO_COLOR turns colour off" $?
	tty_run TERM=dumb "$BIN" --root "$FIX/check-seed000" check
	! grep -q "$esc" "$out" && grep -q 'FAIL  nccl.ib_hca' "$out"; result "on a terminal: TERM=dumb turns colour off" $?
	tty_run "$BIN" --root "$FIX/check-seed000" check --color=never
	! grep -q "$esc" "$out" && grep -q 'FAIL  nccl.ib_hca' "$out"; result "on a terminal: --color=never" $?
else
	for t in colour no_color term_dumb never; do n=$((n + 1)); echo "ok $n - terminal $t # SKIP no script(1)"; done
fi
bad "--color with a bad word: exit 64, the word named on stderr, nothing on stdout" 64 \
	"^roce-doctor check: bad --color 'sometimes': expected auto, always or never$" -- --root "$FIX/eight-hca" check --color=sometimes
tap_end
