#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# explain on pasted QoS settings and counters: the qos-* fixture trees' own settings pasted as mlnx_qos -i, as
# dcb text and as dcb -j (with ibdev2netdev naming the ports and the NCCL log stating NCCL_IB_TC) must give
# the findings check gives on the tree; the published pastes in tests/pastes are read; a paste cut short is
# said, never judged; counters get their meaning.
#   explain_pastes_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIXTURES=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
pastes=$src/tests/pastes
. "$src/tests/lib/tap.sh"
cap=var/lib/roce-doctor/capture

# The tree's settings as a user pastes them, in FORM (mlnx_qos, dcb, dcb-json), with the NCCL line when the
# tree's environment sets NCCL_IB_TC.
paste_of() { # TREE FORM
	python3 - "$1" "$2" <<'PY'
import glob, os, sys
tree, form = sys.argv[1], sys.argv[2]
print("$ ibdev2netdev")
for dev in sorted(glob.glob(tree + "/sys/class/infiniband/*")):
    for nd in sorted(os.listdir(dev + "/device/net")):
        print("%s port 1 ==> %s (Up)" % (os.path.basename(dev), nd))
names = {0: "default", 8: "CS1", 16: "CS2", 24: "CS3", 32: "CS4", 40: "CS5", 48: "CS6", 56: "CS7", 10: "AF11",
         12: "AF12", 14: "AF13", 18: "AF21", 20: "AF22", 22: "AF23", 26: "AF31", 28: "AF32", 30: "AF33",
         34: "AF41", 36: "AF42", 38: "AF43", 46: "EF"}
for f in sorted(glob.glob(tree + "/var/lib/roce-doctor/capture/mlnx_qos-*.txt")):
    nd = os.path.basename(f)[len("mlnx_qos-"):-4]
    text = open(f).read()
    if form == "mlnx_qos":
        print("[root@node-a ~]# mlnx_qos -i " + nd)
        sys.stdout.write(text)
        continue
    trust = [l.split(":")[1].strip() for l in text.splitlines() if l.startswith("Priority trust state:")][0]
    pfc = [int(x) for l in text.splitlines() if l.startswith("enabled ") for x in l.split()[1:]]
    dscp = {}
    for l in text.splitlines():
        if l.startswith("prio:"):
            p = int(l.split()[0][5:])
            for d in l.split("dscp:")[1].strip(",").split(","):
                dscp[int(d)] = p
    onoff = lambda v: "on" if v else "off"
    if form == "dcb":
        print("$ dcb pfc show dev " + nd)
        print("pfc-cap 8 macsec-bypass off delay 0")
        print("prio-pfc " + " ".join("%d:%s" % (i, onoff(v)) for i, v in enumerate(pfc)))
        print("$ dcb apptrust show dev " + nd)
        print("order: " + ("dscp pcp " if trust == "dscp" else "pcp "))
        if trust == "dscp":
            print("$ dcb app show dev " + nd)
            print("dscp-prio " + " ".join("%s:%d" % (names.get(d, d), dscp[d]) for d in sorted(dscp)))
    else:
        print("$ dcb -j pfc show dev " + nd)
        print('{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[%s]}' % ",".join("true" if v else "false" for v in pfc))
        print("$ dcb -j -p apptrust show dev " + nd)
        print('{\n    "order": [ %s ]\n}' % ('"dscp","pcp"' if trust == "dscp" else '"pcp"'))
        if trust == "dscp":
            print("$ dcb -j app show dev " + nd)
            print('{"dscp_prio":[%s]}' % ",".join('[%d,%d," "]' % (d, dscp[d]) for d in sorted(dscp)))
env = open(tree + "/proc/self/environ").read().split("\0")
for e in env:
    if e.startswith("NCCL_IB_TC="):
        print("node-a:2071:2071 [0] NCCL INFO NCCL_IB_TC set by environment to %s." % e.split("=", 1)[1])
PY
}

# check's qos findings on the tree and explain's on the pastes, as sorted (id, subject, severity, message, fix)
findings_of_check() { "$BIN" --root "$1" --json check --only qos | python3 -c '
import json, sys
print(sorted((f["id"], f["subject"], f["severity"], f["message"], f["fix"]) for f in json.load(sys.stdin)["findings"]))'; }
findings_of_explain() { "$BIN" --json explain "$1" | python3 -c '
import json, sys
p = json.load(sys.stdin)["pastes"]
print(sorted((f["id"], f["subject"], f["severity"], f["message"], f["fix"]) for f in p["findings"]) if p else "no pastes")'; }

same_as_check() { # NAME TREE
	local form want got
	want=$(findings_of_check "$2")
	for form in mlnx_qos dcb dcb-json; do
		paste_of "$2" $form > "$scratch/paste.txt"
		got=$(findings_of_explain "$scratch/paste.txt")
		[ -n "$want" ] && [ "$want" != "[]" ] && [ "$want" = "$got" ]
		rc=$?
		[ $rc -eq 0 ] || { echo "# check:   $want"; echo "# explain: $got"; }
		result "$1: explain on its $form paste gives check's findings" $rc
	done
}

copy() { rm -rf "$scratch/t"; cp -a "$FIXTURES/$1" "$scratch/t"; }

same_as_check "trust dscp, PFC on 3, NCCL_IB_TC=106" "$FIXTURES/qos-dscp-pfc3"
copy qos-dscp-pfc3
printf 'HOME=/root\0' > "$scratch/t/proc/self/environ"
same_as_check "NCCL_IB_TC unset" "$scratch/t"
copy qos-dscp-pfc3
sed -i 's/^enabled .*/enabled 0 0 0 0 1 0 0 0/' "$scratch/t/$cap"/mlnx_qos-*.txt
same_as_check "PFC on 4 while DSCP 26 maps to 3" "$scratch/t"
copy qos-dscp-pfc3
sed -i 's/^enabled .*/enabled 0 0 0 0 0 0 0 0/' "$scratch/t/$cap"/mlnx_qos-*.txt
same_as_check "no PFC, no ECN" "$scratch/t"
same_as_check "trust pcp without a VLAN" "$FIXTURES/qos-pcp-untagged"

# mixed with a real NCCL log, and compressed: the log's problems stay, NCCL_IB_TC comes from the log
copy qos-dscp-pfc3
log=$src/tests/logs/from-source/nccl-2.18-retry-exceeded.log
sed '0,/set by environment/s/^\(.*NCCL INFO \)NCCL_[A-Z_]* set by environment to .*$/&\n\1NCCL_IB_TC set by environment to 106./' \
	"$log" > "$scratch/mixed.log"
{ paste_of "$scratch/t" mlnx_qos | grep -v 'NCCL_IB_TC'; } >> "$scratch/mixed.log"
grep -q 'NCCL_IB_TC set by environment to 106' "$scratch/mixed.log"; result "the mixed file carries NCCL's own NCCL_IB_TC line" $?
want=$(findings_of_check "$scratch/t")
got=$(findings_of_explain "$scratch/mixed.log")
[ "$want" = "$got" ]; result "a NCCL log with mlnx_qos pastes after it: check's findings, NCCL_IB_TC from the log" $?
problems() { "$BIN" --json explain "$1" | python3 -c 'import json,sys; print(sorted(p["id"] for p in json.load(sys.stdin)["findings"]))'; }
[ "$(problems "$log")" = "$(problems "$scratch/mixed.log")" ]; result "... and the log's own problems are unchanged by the pastes" $?
gzip -c "$scratch/mixed.log" > "$scratch/mixed.log.gz"
[ "$want" = "$(findings_of_explain "$scratch/mixed.log.gz")" ]; result "... the same from the gzip-compressed file" $?

# the published pastes (tests/pastes/README.md cites each)
expect "mlnx_qos -i of MLNX_OFED 4.2: read, DSCP 0 lands on PFC priority 0" 0 \
	'ok +qos\.lossless .*priority 0 \(trust dscp, dscp map\) -> PFC on' -- explain "$pastes/mlnx_qos-ofed42-dscp-pfc0267.txt"
cat "$pastes/mlnx_qos-ofed42-dscp-pfc0267.txt" > "$scratch/p.txt"
echo 'vm:445:445 [0] NCCL INFO NCCL_IB_TC set by environment to 106.' >> "$scratch/p.txt"
expect "... with NCCL_IB_TC=106 in the log: DSCP 26 rides priority 3, lossy: warn" 1 \
	'warn +qos\.lossless .*DSCP 26 -> priority 3 \(trust dscp, dscp map\) -> PFC off' -- explain "$scratch/p.txt"
grep -qF 'export NCCL_IB_TC=2   #' "$out"; result "... fixed by the NCCL_IB_TC that lands on the lossless priority 0" $?
cat "$pastes/dcb-pfc-man-eth0.txt" "$pastes/dcb-apptrust-man-eth0.txt" > "$scratch/p.txt"
expect "dcb pfc and apptrust from the man pages: trust port first, the priority is not known: info" 0 \
	'info +qos\.lossless .*eth0.*|info +qos\.lossless .*priority unknown \(trust mode unknown\)' -- explain "$scratch/p.txt"
expect "dcb app alone: PFC not pasted, said, nothing judged" 0 'note: eni1np1: its PFC settings are not pasted' \
	-- explain "$pastes/dcb-app-eni1np1.txt"
! grep -q 'qos\.lossless' "$out"; result "... and no lossless finding from half the settings" $?
cat "$pastes/dcb-pfc-stats-eni1np1.txt" "$pastes/dcb-ets-eni1np1.txt" "$pastes/dcb-buffer-eni1np1.txt" > "$scratch/p.txt"
run --json explain "$scratch/p.txt"
python3 - "$out" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["pastes"]
kinds = [b["kind"] for b in p["blocks"]]
assert kinds == ["dcb", "dcb", "dcb"] and all(b["netdev"] == "eni1np1" for b in p["blocks"]), p["blocks"]
assert any("trust mode is not pasted" in n for n in p["notes"]), p["notes"]
PY
result "dcb pfc -s, ets and buffer of one port: three blocks of eni1np1, the missing trust said" $?
expect "ethtool -S | grep prio from byteps#179: the traffic rides priority 0" 0 'traffic on enp178s0f0: priority 0$' \
	-- explain "$pastes/ethtool-S-grep-prio-byteps179.txt"

printf '{"pfc_cap":8,"prio_pfc":[false,false,false,true,false,false,false,false]}\n' > "$scratch/p.txt"
expect "a dcb -j document alone: read, and not taken for a log with nothing in it" 0 'dcb -j line 1' -- explain "$scratch/p.txt"
! grep -q 'log\.too_little' "$out"; result "... no log.too_little" $?

# counters: their meaning, and how much they moved between two pastes
sed 's/out_of_sequence 0/out_of_sequence 1811/; s/np_cnp_sent 0/np_cnp_sent 52/' "$pastes/rdma-statistic-mlx5_2.txt" > "$scratch/c.txt"
expect "rdma statistic: out_of_sequence means packets lost on the path" 0 \
	'counter out_of_sequence 1811 on mlx5_2: packets lost on the path: .* \(check qos\.lossless\)' -- explain "$scratch/c.txt"
grep -q 'counter np_cnp_sent 52 on mlx5_2: ECN at work' "$out"; result "... and np_cnp_sent that ECN is at work" $?
! grep -q 'counter rx_write_requests' "$out"; result "... and plain traffic is not listed" $?
{ cat "$pastes/rdma-statistic-mlx5_2.txt"; sed 's/packet_seq_err 0/packet_seq_err 40/' "$pastes/rdma-statistic-mlx5_2.txt"; } > "$scratch/c.txt"
expect "the same counters pasted before and after: packet_seq_err moved by 40" 0 \
	'counter packet_seq_err 40 \(was 0: moved 40\) on mlx5_2: packets lost on the path' -- explain "$scratch/c.txt"
printf '$ ethtool -S ens1f0np0 | grep -E "pause|discard"\n     rx_prio3_pause: 1523\n     tx_prio3_pause: 0\n     rx_discards_phy: 17\n' > "$scratch/c.txt"
expect "ethtool -S grepped: pause frames are PFC at work, discards are drops" 0 \
	'counter rx_prio3_pause 1523 on ens1f0np0: PFC at work' -- explain "$scratch/c.txt"
grep -q 'counter rx_discards_phy 17 on ens1f0np0: drops' "$out"; result "... rx_discards_phy is a drop" $?
printf '$ grep . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence:9\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/duplicate_request:0\n' > "$scratch/c.txt"
expect "hw_counters through grep: read as counters of mlx5_0/1" 0 'counter out_of_sequence 9 on mlx5_0: packets lost' \
	-- explain "$scratch/c.txt"

# cma_roce_tos and the forced traffic class
{ paste_of "$FIXTURES/qos-dscp-pfc3" mlnx_qos; printf '$ cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class\nGlobal tclass=96\n'; } > "$scratch/p.txt"
expect "a forced traffic class pasted: the chain follows it, and NCCL_IB_TC is said to be overridden" 0 \
	'info +qos\.tc_forced +mlx5_0/1: mlx5_0 forces traffic class 96' -- explain "$scratch/p.txt"
printf '# cma_roce_tos -d mlx5_0 -p 1\n106\n' > "$scratch/p.txt"
run --json explain "$scratch/p.txt"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pastes"]; assert p["blocks"][0]["kind"]=="sysfs" and p["blocks"][0]["device"]=="mlx5_0", p
assert p["ports"] == [{"device": "mlx5_0", "port": 1, "netdev": None, "read": False, "trust": None, "pfc": None, "ecn": [], "forced_tc": None, "default_roce_tos": 106}], p["ports"]' "$out"
result "cma_roce_tos's value: read as mlx5_0/1's default_roce_tos" $?

# pastes cut short: said, not judged, no crash
head -n 12 "$pastes/mlnx_qos-ofed42-dscp-pfc0267.txt" > "$scratch/cut.txt"
expect "mlnx_qos cut before its PFC table: info, the settings could not be read" 0 \
	'info +qos\.lossless .*the DCB settings could not be read' -- explain "$scratch/cut.txt"
grep -q 'note: the mlnx_qos -i paste at line 1 ends before its PFC table' "$out"; result "... and the paste's cut is said" $?
paste_of "$FIXTURES/qos-dscp-pfc3" dcb-json | sed '/dscp_prio/{s/^\(.\{80\}\).*/\1/;q}' > "$scratch/cut.txt"
expect "dcb -j cut mid-document: said, its settings not used" 0 'note: the dcb -j output at line [0-9]+ is cut short' \
	-- explain "$scratch/cut.txt"
grep -q 'info  qos.lossless  mlx5_0/1: ens19f0np0: the DCB settings could not be read' "$out"
result "... and the port the cut paste was of is not judged on the rest" $?
printf '$ dcb -j pfc show dev eth0\n{"pfc_cap":8,"prio_pfc":[false,false,false,"on",false,false,false,false]}\n' > "$scratch/cut.txt"
expect "dcb -j with a malformed member: the member is named" 0 'note: the dcb -j output at line 2 has prio_pfc\[3\]: expected true or false' \
	-- explain "$scratch/cut.txt"
tap_end
