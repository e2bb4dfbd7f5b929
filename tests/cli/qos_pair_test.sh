#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The lossless chain across nodes: compare over snapshots of the qos fixtures (qos-dscp-pfc3 and its peer with
# another PFC map, qos-peer-pfc4) and check --peer on fixture pairs made of them (tests/cli/pair_fixtures.py,
# the peer read through --peer-fixture): the finding names the node that differs from the lossless (or the
# majority) side, with the dcb / mlnx_qos / NCCL_IB_TC command for that node.
#   qos_pair_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

py=$(python3 -c 'import sys; print(sys.executable)')
snap() { "$BIN" --root "$1" snapshot --output "$2" 2>/dev/null; }
mkdir -p "$scratch/s"
snap "$FIXTURES/qos-dscp-pfc3" "$scratch/s/pfc3.json"
snap "$FIXTURES/qos-peer-pfc4" "$scratch/s/pfc4.json"
cp "$scratch/s/pfc3.json" "$scratch/s/pfc3-twin.json"
S=$scratch/s

# fields ID: "severity|nodes|fix lines" of each compare finding with that id, one a line
fields() {
	"$py" -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["id"] == sys.argv[2]:
        print("%s|%s|%s" % (f["severity"], ",".join(f.get("nodes", [])), " / ".join(f["fix_lines"])))' "$out" "$1"
}

expect "compare, two nodes with different PFC maps: warn per port" 1 \
	'WARN +compare\.pfc +mlx5_0/1: PFC-enabled priority set of mlx5_0/1 differs between the two nodes: 3 on .*pfc3\.json; 4 on .*pfc4\.json' \
	-- compare "$S/pfc3.json" "$S/pfc4.json"
grep -qF 'to align on 3:' "$out" &&
	grep -qE 'on [^ ]*pfc4\.json \(4\): `dcb pfc set dev ens19f0np0 prio-pfc 3:on 4:off` \(or `mlnx_qos -i ens19f0np0 --pfc 0,0,0,1,0,0,0,0`\)' "$out" &&
	grep -qE 'on [^ ]*pfc4\.json \(4\): `dcb pfc set dev ens19f1np1 prio-pfc 3:on 4:off`' "$out"
result "... the fix is on the PFC-on-4 node, aligned on the lossless side's 3" $?
# the same pair given the other way round: still the pfc4 node (the lossless side wins the tie, not the order)
run compare "$S/pfc4.json" "$S/pfc3.json"
[ "$rc" -eq 1 ] && grep -qE 'on [^ ]*pfc4\.json \(4\): `dcb pfc set dev ens19f0np0' "$out"
result "... in either order" $?

run --json compare "$S/pfc3.json" "$S/pfc4.json" "$S/pfc3-twin.json"
[ "$rc" -eq 1 ] && [ "$(fields compare.pfc | cut -d'|' -f1,2 | sort -u)" = "warn|$S/pfc4.json" ] &&
	fields compare.pfc | grep -qF '(4): `dcb pfc set dev ens19f0np0 prio-pfc 3:on 4:off`' &&
	[ "$(fields compare.trust)" = "ok||" ] && [ "$(fields compare.dscp_map)" = "ok||" ]
result "compare, three nodes: the majority's PFC on 3, the odd node named; trust and DSCP map agree" $?

run compare "$S/pfc3.json" "$S/pfc3-twin.json"
[ "$rc" -eq 0 ] && ! grep -qE 'compare\.(pfc|trust|dscp_map|traffic_class)' "$out"
result "compare, the same chain on both: nothing to say (ok findings only with -v)" $?

# NCCL_IB_TC unset on one node: its packets ride priority 0; the tie aligns on the node with 106
rm -rf "$scratch/t"; cp -a "$FIXTURES/qos-dscp-pfc3" "$scratch/t"
printf 'HOME=/root\0' > "$scratch/t/proc/self/environ"
snap "$scratch/t" "$S/tc-unset.json"
expect "compare, NCCL_IB_TC unset on one node: compare.traffic_class names it" 1 \
	'WARN +compare\.traffic_class +NCCL_IB_TC: traffic class of NCCL.s packets differs between the two nodes' \
	-- compare "$S/tc-unset.json" "$S/pfc3.json"
grep -qE 'on [^ ]*tc-unset\.json \(0\): `export NCCL_IB_TC=106`' "$out"
result "... with export NCCL_IB_TC=106 on it" $?
! grep -qE '^  (WARN|INFO) +compare\.nccl_settings +NCCL_IB_TC' "$out"
result "... and only there: compare.nccl_settings leaves NCCL_IB_TC to it (one difference, one finding)" $?

# the other classes: rdma_cm's ToS, a forced class and NCCL_IB_FIFO_TC set on one node only (qos-peer-tos)
snap "$FIXTURES/qos-peer-tos" "$S/tos.json"
run --json compare "$S/pfc3.json" "$S/tos.json"
[ "$rc" -eq 1 ] && [ "$(fields compare.roce_tos | cut -d'|' -f1 | sort -u)" = "info" ] &&
	fields compare.roce_tos | grep -qF "on $S/pfc3.json (0): \`cma_roce_tos -d mlx5_1 -p 1 -t 106\`" &&
	[ "$(fields compare.forced_tc | cut -d'|' -f1)" = "info" ] &&
	fields compare.forced_tc | grep -qF "on $S/pfc3.json (none): \`echo 106 > /sys/class/infiniband/mlx5_1/tc/1/traffic_class\`" &&
	[ "$(fields compare.fifo_tc | cut -d'|' -f1)" = "warn" ] &&
	fields compare.fifo_tc | grep -qF "on $S/tos.json (0): \`unset NCCL_IB_FIFO_TC\`" &&
	! fields compare.nccl_settings | grep -q NCCL_IB_FIFO_TC
result "compare, rdma_cm's ToS, a forced class and NCCL_IB_FIFO_TC on one node: each named once, with its command" $?
run --json compare "$S/pfc3.json" "$S/pfc3-twin.json"
[ "$(fields compare.roce_tos)" = "ok||" ] && [ "$(fields compare.forced_tc)" = "ok||" ] && [ "$(fields compare.fifo_tc)" = "ok||" ]
result "... and nothing set on either: one ok each" $?

# compare of snapshots without DCB settings (cx6lx-2port: no capture) says nothing about QoS
snap "$FIXTURES/cx6lx-2port" "$S/plain.json"
run --json compare "$S/plain.json" "$S/plain.json"
! grep -qE '"compare\.(pfc|trust|dscp_map|traffic_class)"' "$out"
result "compare without DCB settings: no lossless finding at all" $?

# check --peer on fixture pairs
fx=$scratch/pairs
"$py" "$(dirname "$0")/pair_fixtures.py" "$BIN" "$FIXTURES" "$fx" || { echo "Bail out! pair fixtures"; exit 1; }
# pf: each finding of the pair report, shown or covered: "id|severity|node|fix lines|covered by"
pf() { "$py" "$(dirname "$0")/pair_report_lines.py" "$out" > "$scratch/pf"; }
peer() {
	local c=$1; shift
	run --json --from "$fx/$c/a.json" check --peer 192.168.88.2 --peer-fixture "$fx/$c/peer" "$@"
	pf
}
count() { grep -cE -- "$1" "$scratch/pf"; }

peer qos-clean
[ "$rc" -eq 0 ] && [ "$(count '^pair\.(pfc|trust|dscp_map|traffic_class)\|ok\|null\|')" -eq 8 ] &&
	[ "$(count '^(pair|compare)\.(pfc|trust|dscp_map|traffic_class)\|(info|warn|fail)')" -eq 0 ]
result "check --peer, the same chain on both: pair.pfc, .trust, .dscp_map, .traffic_class ok on both rails" $?

peer qos-b-pfc4
[ "$rc" -eq 1 ] && [ "$(count '^pair\.pfc\|warn\|b\|dcb pfc set dev ens19f[01]np[01] prio-pfc 3:on 4:off   # on b \(node-b\) / mlnx_qos -i ens19f[01]np[01] --pfc 0,0,0,1,0,0,0,0   # or the same with the other tool, on b \(node-b\)\|$')" -eq 2 ] &&
	[ "$(count '^compare\.pfc\|warn\|null\|.*\|pair\.pfc/b$')" -eq 2 ]
result "check --peer, b with PFC on 4: pair.pfc on b with its dcb and mlnx_qos lines, compare.pfc covered by it" $?
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any("a (node-a)'"'"'s chain is lossless" in f["message"] and "b (node-b) aligns on a (node-a)" in f["message"] for f in d["findings"] if f["id"]=="pair.pfc") else 1)' "$out"
result "... the message says which side is lossless and who aligns on whom" $?

peer qos-a-pfc4
[ "$rc" -eq 1 ] && [ "$(count '^pair\.pfc\|warn\|a\|dcb pfc set dev ens19f[01]np[01] prio-pfc 3:on 4:off   # on a \(node-a\)')" -eq 2 ] &&
	[ "$(count '^pair\.pfc\|warn\|b\|')" -eq 0 ]
result "check --peer, a with PFC on 4: the fix is on a, the node that differs from the lossless side" $?

peer qos-b-pcp
[ "$rc" -eq 1 ] && [ "$(count '^pair\.trust\|warn\|b\|mlnx_qos -i ens19f[01]np[01] --trust dscp   # on b \(node-b\) / dcb app add dev ens19f[01]np[01] dscp-prio 26:3')" -eq 2 ]
result "check --peer, b trusting pcp without a VLAN: pair.trust on b, mlnx_qos --trust dscp or dcb app" $?

peer qos-b-tc-unset
[ "$rc" -eq 1 ] && [ "$(count '^pair\.traffic_class\|warn\|b\|export NCCL_IB_TC=106   # on b \(node-b\)')" -eq 2 ]
result "check --peer, NCCL_IB_TC unset on b: pair.traffic_class on b, export NCCL_IB_TC=106" $?

peer qos-b-tos
[ "$rc" -eq 1 ] && [ "$(count '^pair\.roce_tos\|warn\|a\|cma_roce_tos -d mlx5_[01] -p 1 -t 106   # on a \(node-a\)')" -eq 2 ] &&
	[ "$(count '^pair\.forced_tc\|info\|b\|echo -1 > /sys/class/infiniband/mlx5_1/tc/1/traffic_class   # on b \(node-b\)')" -eq 1 ] &&
	[ "$(count '^pair\.fifo_tc\|warn\|b\|unset NCCL_IB_FIFO_TC   # on b \(node-b\)')" -eq 1 ] &&
	[ "$(count '^pair\.fifo_tc\|info\|b\|unset NCCL_IB_FIFO_TC')" -eq 1 ]
result "check --peer, b with rdma_cm's ToS 106, a forced class, NCCL_IB_FIFO_TC=0: each on the node that aligns" $?

peer clean
[ "$rc" -eq 0 ] && [ "$(count '^(pair|compare)\.(pfc|trust|dscp_map|traffic_class)\|')" -eq 0 ]
result "check --peer without DCB settings on either node: no lossless finding" $?

# roce-doctor-checks(7)'s PAIR and COMPARE sections document the new ids
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/lib/checks_man.sh"
documented=$(checks_man_ids "$src/man/roce-doctor-checks.7" PAIR; checks_man_ids "$src/man/roce-doctor-checks.7" COMPARE)
missing=""   # every id, not only the loop's last one, decides the result
for id in pair.pfc pair.trust pair.dscp_map pair.traffic_class compare.pfc compare.trust compare.dscp_map compare.traffic_class; do
	grep -qxF "$id" <<< "$documented" || missing="$missing $id"
done
[ -n "$documented" ] && [ -z "$missing" ]
result "roce-doctor-checks(7) documents the pair and compare lossless ids${missing:+ (lacks:$missing)}" $?
tap_end
