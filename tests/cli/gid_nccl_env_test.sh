#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# gid --suggest and nccl-env on hosts with ports NCCL cannot use, IPv6-only tables, one address on two netdevs,
# and rails of different speeds (issue 10: the GID choice and nccl-env items).
# usage: gid_nccl_env_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }

# ---- ports in one spelling: DEV/PORT ----
expect "suggest lines spell the port DEV/PORT" 0 '^mlx5_0/1 \(ens19f0np0\): 5 - RoCE v2 GID of 192\.168\.88\.1' -- \
	--root "$FIX/cx6lx-2port" gid --suggest
! grep -q ' port 1 ' "$out"; result "suggest lines no longer say 'port 1'" $?
expect "devices --brief keeps ibdev2netdev's spelling" 0 '^mlx5_0 port 1 ==> ens19f0np0 \(Up\)$' -- \
	--root "$FIX/cx6lx-2port" devices --brief

# ---- IPv6-only table: the reason says what is there and what works ----
run --root "$FIX/ipv6-only" gid --suggest
[ "$rc" -eq 2 ] && ! grep -q 'only fe80:: link-local' "$out"; result "ipv6-only: no false 'only fe80:: link-local' reason" $?
grep -q '2001:db8:42::10 (RoCE v2)' "$out" && grep -q -- '--family ipv6 would work: index 3' "$out" &&
	grep -q 'NCCL_IB_ADDR_FAMILY=AF_INET6' "$out"
result "ipv6-only: lists the routable GID and that --family ipv6 gives index 3" $?

# ---- unused ports are left out, with the real reason, and do not fail the host ----
U="$FIX/eight-hca-unused"
expect "unused ports: the host still answers 3, exit 0" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$U" gid --suggest
grep -q '^mlx5_8/1 (eth8): left out - down: state DOWN, phys state Polling, eth8 has no carrier' "$out"
result "no cable: left out as down, not 'add an IPv4 address'" $?
grep -q '^mlx5_9/1 (eth9): left out - no address: .*NCCL would still open it: exclude it with NCCL_IB_HCA=\^mlx5_9:1' "$out"
result "ACTIVE port without an address: left out with the exclusion" $?
grep -q 'NCCL_IB_HCA=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1$' "$out"
result "ACTIVE port without an address: and the NCCL_IB_HCA of the ports with an answer" $?
[ "$(sed -n '$p' "$out" | cut -d' ' -f1)" = mlx5_9/1 ] && [ "$(grep -c 'left out' "$out")" -eq 2 ]
result "left-out ports come after the chosen ones" $?
x=$("$BIN" --root "$U" gid --suggest) || x=failed
[ "${x%%$'\n'*}" = NCCL_IB_GID_INDEX=3 ]; result "x=\$(roce-doctor gid --suggest) || exit 1 accepts the host" $?
run --root "$U" --json gid --suggest
[ "$rc" -eq 0 ] && py 'd["gid_index"]==3 and d["consistent"] and len(d["ports"])==8 and [(p["device"],p["port"],p["netdev"]) for p in d["left_out"]]==[("mlx5_8",1,"eth8"),("mlx5_9",1,"eth9")] and d["left_out"][0]["reason"].startswith("down:")'
result "json: left_out [{device, port, netdev, reason}], ports without them" $?
run --root "$U" gid --suggest mlx5_8:1
[ "$rc" -eq 2 ] && grep -q '^mlx5_8/1 (eth8): left out - down' "$out"; result "a named port left out: exit 2 and why" $?
expect "a named port that answers: exit 0" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$U" gid --suggest mlx5_7
# check agrees: the port with no cable is one NCCL leaves out, reported with the cable advice, never failed
run --root "$U" check
grep -q '^  INFO  port.state         mlx5_8/1 (eth8) is DOWN, physical state Polling (no carrier: ' "$out" \
	&& grep -q '^        fix: ethtool eth8   # .Link detected: no.: check the cable, the transceiver and the switch port' "$out" \
	&& grep -q '^             mlxlink -d 0000:dc:00.0 -m ' "$out" && ! grep -q 'ip link set eth8 up' "$out" \
	&& ! grep -qE '^  (FAIL|WARN) .*(eth8|mlx5_8)' "$out"
result "check: the spare port with no cable is info with ethtool/mlxlink, not a netdev.state failure with ip link set up" $?
# the ACTIVE port without an address, which NCCL_IB_HCA does not name, beside eight working rails: the port
# gid --suggest and nccl-env leave out, so a warning (NCCL still opens it), never the failure that drains the
# node; both fixes give one exclusion, never two edits
[ "$rc" -eq 1 ] && ! grep -q '^  FAIL ' "$out" && [ "$(grep -c '^  WARN ' "$out")" -eq 1 ] \
	&& grep -q '^  WARN  netdev.ipv4        eth9 has no IPv4 address: .*gid --suggest and nccl-env leave it out, but NCCL still opens it' "$out" \
	&& [ "$(grep -c 'export NCCL_IB_HCA=^mlx5_8:1,mlx5_9:1   # ' "$out")" -eq 2 ] \
	&& [ "$(grep -E '^ +(fix: )?export NCCL_IB_HCA=' "$out" | sed 's/ *#.*//; s/.*export //' | sort -u)" = 'NCCL_IB_HCA=^mlx5_8:1,mlx5_9:1' ]
result "check: mlx5_9 (ACTIVE, no address, not named) warns, exit 1 as gid --suggest leaves it out; one exclusion" $?
# named by NCCL_IB_HCA, the same port is a rail the job was told to use: a failure again
N="$scratch/unused-named"; cp -a "$U" "$N"; mkdir -p "$N/proc/self"
printf 'NCCL_IB_HCA=mlx5_1:1,mlx5_2:1,mlx5_9:1\0' > "$N/proc/self/environ"
run --root "$N" check
[ "$rc" -eq 2 ] && grep -q '^  FAIL  netdev.ipv4        eth9 has no IPv4 address: no RoCE v2 IPv4 GID exists for mlx5_9/1;' "$out"
result "check: the unaddressed port named in NCCL_IB_HCA fails (a rail that lost its address)" $?
# with that exclusion in the job's environment: nothing fails, and the excluded spare is said to be left out
X="$scratch/unused-excluded"; cp -a "$U" "$X"; mkdir -p "$X/proc/self"
printf 'NCCL_IB_HCA=^mlx5_8:1,mlx5_9:1\0' > "$X/proc/self/environ"
run --root "$X" check -v
[ "$rc" -eq 0 ] && ! grep -qE '^  (FAIL|WARN) ' "$out" \
	&& grep -q '^  OK    port.state         mlx5_8/1 is DOWN, physical state Polling, and left out by NCCL_IB_HCA=^mlx5_8:1,mlx5_9:1 (/proc/self/environ)' "$out"
result "check: after the exclusion the host passes, the excluded spare reported as left out" $?

# ---- one address on two netdevs of a port (the port's netdev and a VLAN on it) ----
V="$FIX/cx6lx-vlan"
expect "same address on a VLAN: the port's own netdev wins" 0 '^mlx5_0/1 \(ens19f0np0\): 7 - RoCE v2 GID of 192\.168\.88\.1 on ens19f0np0' -- \
	--root "$V" gid --suggest mlx5_0
grep -q 'index 5 holds the same address on ens19f0np0.100 and lost: not the port.s own netdev ens19f0np0' "$out"
result "the other candidate is named, with why it lost" $?
expect "--netdev chooses the VLAN's GID" 0 '^NCCL_IB_GID_INDEX=5$' -- --root "$V" gid --suggest --netdev ens19f0np0.100 mlx5_0
grep -q 'index 7 holds the same address on ens19f0np0 and lost: --netdev ens19f0np0.100' "$out"; result "--netdev: the loser named" $?
expect "--peer under --root: the reason says routes are unknown" 0 'routes are unknown under --root' -- \
	--root "$V" gid --suggest --peer 192.168.88.2 mlx5_0
run --root "$V" --json gid --suggest mlx5_0
py 'd["ports"][0]["gid_index"]==7 and d["ports"][0]["other_candidates"]==[{"index":5,"address":"192.168.88.1","netdev":"ens19f0np0.100"}]'
result "json: other_candidates carry their netdev" $?
bad "--netdev on no candidate GID is an error" 2 '^roce-doctor: --netdev eth7 holds no RoCE v2 IPv4 GID on the selected ports \(candidates on: ens19f0np0, ens19f0np0.100, ens19f1np1\)$' -- \
	--root "$V" gid --suggest --netdev eth7
bad "--netdev needs --suggest" 64 'only with --suggest' -- --root "$V" gid --netdev eth7

# ---- nccl-env: left-out ports and mixed speeds said ----
run --root "$U" nccl-env
[ "$rc" -eq 0 ] && grep -q '^roce-doctor: nccl-env: left out mlx5_8/1 (eth8): down: state DOWN' "$err" &&
	grep -q '^roce-doctor: nccl-env: left out mlx5_9/1 (eth9): no address' "$err"
result "nccl-env names the ports it leaves out, and why, on stderr" $?
run --root "$FIX/eight-hca" nccl-env
grep -q '^roce-doctor: warning: the chosen ports differ in speed: mlx5_0/1, mlx5_9/1 at 100 Gb/s; .*mlx5_8/1 at 200 Gb/s' "$err" &&
	grep -q 'to keep only the fastest (200 Gb/s) rails: export NCCL_IB_HCA=mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_8:1$' "$err"
result "nccl-env warns on rails of different speeds with the NCCL_IB_HCA of the fastest" $?
run --root "$U" nccl-env --format json
[ "$rc" -eq 0 ] && py '[(p["device"],p["port"]) for p in d["left_out"]]==[("mlx5_8",1),("mlx5_9",1)] and any("differ in speed" in w for w in d["warnings"])'
result "nccl-env json: left_out and the speed warning in warnings" $?
run --root "$FIX/cx6lx-2port" nccl-env
[ "$rc" -eq 0 ] && [ ! -s "$err" ]; result "nccl-env on a clean two-port host says nothing on stderr" $?
bad "nccl-env without a usable port still names the ports left out" 2 'left out mlx5_0/1 \(ib0\): InfiniBand link layer' -- \
	--root "$FIX/infiniband" nccl-env

tap_end
