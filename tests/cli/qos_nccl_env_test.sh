#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# nccl-env's NCCL_IB_TC on the qos fixtures and copies changed one link at a time: the class that lands on the
# lossless priority with the chain as its comment (106 for PFC on 3, 130 for PFC on 4), a line saying why it is
# left unset (trust pcp, no PFC, a class the port forces), nothing without DCB settings; from a snapshot; and
# with --peer on the fixture pairs of tests/cli/pair_fixtures.py.
#   qos_nccl_env_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

cap=var/lib/roce-doctor/capture
copy() { rm -rf "$scratch/t"; cp -a "$FIXTURES/$1" "$scratch/t"; }

expect "trust dscp, PFC on 3: NCCL_IB_TC=106 with its chain" 0 \
	"^export NCCL_IB_TC='106'   # TC 106 -> DSCP 26 -> priority 3 \(trust dscp\) -> PFC on \(ens19f0np0, ens19f1np1\)$" \
	-- --root "$FIXTURES/qos-dscp-pfc3" nccl-env
[ "$(env -i sh -c "$(cat "$out"; echo 'echo "$NCCL_IB_TC"')")" = 106 ]
result "... and eval sets it" $?

expect "PFC on 4 (DSCP 26 still on 3): NCCL_IB_TC=130, DSCP 32" 0 \
	"^export NCCL_IB_TC='130'   # TC 130 -> DSCP 32 -> priority 4 \(trust dscp\) -> PFC on" \
	-- --root "$FIXTURES/qos-peer-pfc4" nccl-env

expect "trust pcp without a VLAN: no NCCL_IB_TC, a line says why" 0 \
	'^# NCCL_IB_TC left unset: ens19f0np0 trusts pcp, so the priority comes from the VLAN PCP \(NCCL_IB_SL\), not from the class, and untagged frames land on priority 0' \
	-- --root "$FIXTURES/qos-pcp-untagged" nccl-env
! grep -q '^export NCCL_IB_TC' "$out"; result "... and no export of it" $?

copy qos-dscp-pfc3
sed -i 's/^enabled .*/enabled 0 0 0 0 0 0 0 0/' "$scratch/t/$cap"/mlnx_qos-*.txt
expect "no PFC priority at all: no NCCL_IB_TC, said" 0 \
	'^# NCCL_IB_TC left unset: ens19f0np0 has no PFC-enabled priority' -- --root "$scratch/t" nccl-env
! grep -q '^export NCCL_IB_TC' "$out"; result "... and no export of it" $?

copy qos-dscp-pfc3
for d in mlx5_0 mlx5_1; do
	mkdir -p "$scratch/t/sys/class/infiniband/$d/tc/1" && echo 106 > "$scratch/t/sys/class/infiniband/$d/tc/1/traffic_class"
done
expect "the NIC forces a class on every port: no NCCL_IB_TC, said" 0 \
	'^# mlx5_0/1 forces traffic class 106 \(tc/1/traffic_class\): its packets carry it whatever NCCL_IB_TC says' \
	-- --root "$scratch/t" nccl-env
! grep -q '^export NCCL_IB_TC' "$out"; result "... and no export of it" $?

copy qos-dscp-pfc3
sed -i 's/^enabled .*/enabled 0 0 0 0 1 0 0 0/' "$scratch/t/$cap/mlnx_qos-ens19f1np1.txt"
expect "one port lossless on 3, the other on 4: no NCCL_IB_TC, said" 0 \
	'^# NCCL_IB_TC left unset: the ports. lossless priorities need different classes \(mlx5_0/1: 106, mlx5_1/1: 130\)' \
	-- --root "$scratch/t" nccl-env
! grep -q '^export NCCL_IB_TC' "$out"; result "... and no export of it" $?

expect "no DCB settings (cx6lx-2port): nothing about NCCL_IB_TC" 0 '^export NCCL_IB_HCA' -- --root "$FIXTURES/cx6lx-2port" nccl-env
! grep -q 'NCCL_IB_TC' "$out"; result "... not a word" $?

run --root "$FIXTURES/qos-dscp-pfc3" nccl-env --format json
[ "$rc" -eq 0 ] && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
v = [x for x in d["variables"] if x["name"] == "NCCL_IB_TC"]
sys.exit(0 if len(v) == 1 and v[0]["value"] == "106" and "priority 3" in v[0]["comment"] and d["notes"] == [] else 1)' "$out"
result "--format json: NCCL_IB_TC among the variables, notes empty" $?
run --root "$FIXTURES/qos-pcp-untagged" nccl-env --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["notes"]) == 2 and all("trusts pcp" in n for n in d["notes"]) else 1)' "$out"
result "--format json: the reasons in notes" $?
expect "--format env: NCCL_IB_TC=106 after its chain" 0 '^NCCL_IB_TC=106$' -- --root "$FIXTURES/qos-dscp-pfc3" nccl-env --format env

"$BIN" --root "$FIXTURES/qos-peer-pfc4" snapshot --output "$scratch/s.json" 2>/dev/null
expect "--from a snapshot: the same NCCL_IB_TC" 0 "^export NCCL_IB_TC='130'" -- --from "$scratch/s.json" nccl-env

# --peer: one class for both nodes, or none and why
fx=$scratch/pairs
python3 "$(dirname "$0")/pair_fixtures.py" "$BIN" "$FIXTURES" "$fx" || { echo "Bail out! pair fixtures"; exit 1; }
peer() { local c=$1; shift; run --from "$fx/$c/a.json" nccl-env --peer 192.168.88.2 --peer-fixture "$fx/$c/peer" "$@"; }
peer qos-clean
[ "$rc" -eq 0 ] && grep -qE "^export NCCL_IB_TC='106'   # TC 106 -> DSCP 26 -> priority 3 .* on both nodes$" "$out" &&
	grep -q -- '-x NCCL_IB_TC=106 ' "$out"
result "--peer, the same chain on both: NCCL_IB_TC=106 for both, pushed by mpirun -x" $?
peer qos-b-pfc4
[ "$rc" -eq 0 ] && ! grep -q '^export NCCL_IB_TC' "$out" &&
	grep -qE "^# NCCL_IB_TC left unset: a's lossless priority needs 106 .*, b's 130 .*roce-doctor check --peer" "$out"
result "--peer, different PFC maps: no common NCCL_IB_TC, the note points at check --peer" $?
peer clean
[ "$rc" -eq 0 ] && ! grep -q 'NCCL_IB_TC' "$out"
result "--peer without DCB settings: nothing about NCCL_IB_TC" $?
tap_end
