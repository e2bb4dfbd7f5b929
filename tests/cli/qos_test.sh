#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# check's lossless audit (qos.*) on the qos-* fixtures and copies of them changed one link at a time: NCCL_IB_TC
# unset, PFC on another priority, no PFC at all, an unreadable capture; a pause storm and ECN off everywhere; the
# same answer from a snapshot.
#   qos_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIXTURES=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/lib/tap.sh"

expect "trust dscp, PFC on 3, NCCL_IB_TC=106: lossless" 0 \
	'OK +qos\.lossless +mlx5_0/1: traffic class 106 \(NCCL_IB_TC\) -> DSCP 26 -> priority 3 \(trust dscp, dscp map\) -> PFC on' \
	-- --root "$FIXTURES/qos-dscp-pfc3" check -v --only qos

copy() { rm -rf "$scratch/t"; cp -a "$FIXTURES/$1" "$scratch/t"; }
cap=var/lib/roce-doctor/capture

copy qos-dscp-pfc3
printf 'HOME=/root\0' > "$scratch/t/proc/self/environ"
expect "NCCL_IB_TC unset: priority 0 is lossy, warn" 1 'WARN +qos\.lossless +mlx5_0/1: traffic class 0 \(NCCL_IB_TC unset\) -> DSCP 0 -> priority 0' \
	-- --root "$scratch/t" check --only qos
grep -qE '^ +fix: export NCCL_IB_TC=106 ' "$out"; result "... fixed by NCCL_IB_TC=106 in the job" $?

copy qos-dscp-pfc3
sed -i 's/^enabled .*/enabled 0 0 0 0 1 0 0 0/' "$scratch/t/$cap"/mlnx_qos-*.txt
expect "PFC on 4 while DSCP 26 maps to 3: warn" 1 'priority 4 is lossless' -- --root "$scratch/t" check --only qos
grep -qE '^ +fix: export NCCL_IB_TC=130 ' "$out"; result "... fixed by the NCCL_IB_TC whose DSCP maps to 4 (130)" $?

copy qos-dscp-pfc3
sed -i 's/^enabled .*/enabled 0 0 0 0 0 0 0 0/' "$scratch/t/$cap"/mlnx_qos-*.txt
expect "no PFC and no ECN: warn, neither lossless nor congestion-controlled" 1 'neither lossless \(PFC\) nor congestion-controlled' \
	-- --root "$scratch/t" check --only qos
grep -qF 'dcb pfc set dev ens19f0np0 prio-pfc 3:on' "$out" && grep -qF 'mlnx_qos -i ens19f0np0 --pfc 0,0,0,1,0,0,0,0 --trust dscp' "$out"
result "... with both NIC fixes, dcb and mlnx_qos" $?

expect "trust pcp without a VLAN: both findings" 1 'WARN +qos\.trust_pcp_untagged +mlx5_0/1' \
	-- --root "$FIXTURES/qos-pcp-untagged" check --only qos
grep -q 'untagged and lands on priority 0' "$out"; result "... and the chain says priority 0, untagged" $?

copy qos-dscp-pfc3
echo 'this is not mlnx_qos output' > "$scratch/t/$cap/mlnx_qos-ens19f0np0.txt"
expect "a capture that is not mlnx_qos text: info, said" 0 'INFO +qos\.lossless +mlx5_0/1: ens19f0np0: the DCB settings could not be read' \
	-- --root "$scratch/t" check -v --only qos

expect "no capture in the tree: nothing said" 0 '.' -- --root "$FIXTURES/cx6lx-2port" check -v --only qos
! grep -q 'qos\.' "$out"; result "... no qos finding at all" $?

# what PFC did: the counters of qos-pause-storm (ethtool -S captured per netdev)
expect "a pause storm received on priority 3: warn, a receiver further on" 1 \
	'WARN +qos\.pause_storm +mlx5_0/1: ens19f0np0 priority 3: the switch sent this NIC 15437 pause frames for 385237 packets it sent \(4\.0%\)' \
	-- --root "$FIXTURES/qos-pause-storm" check -v --only qos
grep -qE '^ +fix: ethtool -S ens19f0np0 \| grep prio3_pause ' "$out" &&
	grep -qE 'OK +qos\.pause_storm +mlx5_1/1: ens19f1np1: pause frames on lossless priority 3 below 1%' "$out" &&
	grep -qE 'OK +qos\.lossless +mlx5_0/1' "$out"
result "... with the command that finds the congested receiver; the calm port ok; the chain itself ok" $?
copy qos-pause-storm
grep -E 'prio3_(pause|packets)' "$FIXTURES/qos-pause-storm/$cap/ethtool-S-ens19f0np0.txt" | sed 's/^ *//' > "$scratch/t/$cap/ethtool-S-ens19f0np0.txt"
expect "a grepped ethtool -S capture reads the same" 1 'WARN +qos\.pause_storm +mlx5_0/1: .*15437 pause frames' \
	-- --root "$scratch/t" check --only qos.pause_storm
run --root "$FIXTURES/qos-pause-storm" snapshot --output "$scratch/storm.json"
"$BIN" --from "$scratch/storm.json" check --only qos.pause_storm > "$scratch/from.txt" 2>&1
grep -qE 'WARN +qos\.pause_storm +mlx5_0/1: .*15437 pause frames' "$scratch/from.txt"
result "the snapshot carries the counters: check --from says the same" $?

expect "ECN off everywhere on a lossy fabric: warn" 1 \
	'WARN +qos\.lossless +mlx5_0/1: .* -> priority 3 \(trust dscp, dscp map\) -> PFC off, ECN off: .*neither lossless' \
	-- --root "$FIXTURES/qos-ecn-off" check --only qos
grep -qF 'echo 1 > /sys/class/net/ens19f0np0/ecn/roce_np/enable/3; echo 1 > /sys/class/net/ens19f0np0/ecn/roce_rp/enable/3' "$out" &&
	grep -qF 'dcb pfc set dev ens19f0np0 prio-pfc 3:on' "$out"
result "... fixed by PFC, or by ECN on priority 3" $?

run check --list
grep -qE '^ *qos\.pause_storm ' "$out" && grep -qE '^ *qos\.discards ' "$out"
result "check --list documents qos.pause_storm and qos.discards" $?
grep -qE '^ *qos\.roce_tos ' "$out"; result "check --list documents qos.roce_tos" $?

# rdma_cm's default_roce_tos (configfs) 106 while NCCL_IB_TC is unset: perftest -R rides 3, NCCL 0
expect "rdma_cm's default_roce_tos on priority 3, NCCL's class on 0: info, both chains" 1 \
	'INFO +qos\.roce_tos +mlx5_0/1: .*traffic class 106 \(rdma_cm.s default_roce_tos\) -> DSCP 26 -> priority 3 \(trust dscp, dscp map\) -> PFC on.*NCCL: traffic class 0 \(NCCL_IB_TC unset\) -> DSCP 0 -> priority 0' \
	-- --root "$FIXTURES/qos-roce-tos" check -v --only qos
grep -qE '^ +fix: export NCCL_IB_TC=106 ' "$out" && grep -qE 'INFO +qos\.roce_tos +mlx5_1/1' "$out"
result "... fixed by NCCL_IB_TC=106, on each port" $?
copy qos-roce-tos
printf 'HOME=/root\0NCCL_IB_TC=106\0' > "$scratch/t/proc/self/environ"
expect "rdma_cm and NCCL on the same priority: nothing said" 0 'OK +qos\.lossless +mlx5_0/1' -- --root "$scratch/t" check -v --only qos
! grep -q 'qos\.roce_tos' "$out"; result "... no qos.roce_tos finding" $?
copy qos-roce-tos
echo 0 > "$scratch/t/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"
printf 'HOME=/root\0NCCL_IB_TC=106\0' > "$scratch/t/proc/self/environ"
expect "rdma_cm's ToS 0 on a lossy priority, NCCL lossless: info, fixed in configfs" 0 'INFO +qos\.roce_tos +mlx5_0/1' \
	-- --root "$scratch/t" check -v --only qos
grep -qF 'fix: echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos' "$out"
result "... the fix writes NCCL's class into rdma_cm's configfs" $?
# NCCL_IB_FIFO_TC (NCCL 2.22+: the class of its CTS messages), read as the newest NCCL on the node reads it
with_nccl() { # VERSION ENVIRON...: qos-dscp-pfc3 with a libnccl.so.VERSION and that job environment
	copy qos-dscp-pfc3
	mkdir -p "$scratch/t/usr/lib/x86_64-linux-gnu"
	: > "$scratch/t/usr/lib/x86_64-linux-gnu/libnccl.so.$1"
	ln -s "libnccl.so.$1" "$scratch/t/usr/lib/x86_64-linux-gnu/libnccl.so.2"
	shift
	printf '%s\0' HOME=/root "$@" > "$scratch/t/proc/self/environ"
}
with_nccl 2.28.9 NCCL_IB_TC=106 NCCL_IB_FIFO_TC=0
expect "NCCL 2.28.9, NCCL_IB_FIFO_TC=0 while NCCL_IB_TC=106 is lossless: warn, both chains" 1 \
	'WARN +qos\.fifo_tc +mlx5_0/1: NCCL.s CTS messages ride a lossy priority while its data is lossless: traffic class 0 \(NCCL_IB_FIFO_TC\) -> DSCP 0 -> priority 0 .*-> PFC off.*data: traffic class 106 \(NCCL_IB_TC\) -> DSCP 26 -> priority 3' \
	-- --root "$scratch/t" check -v --only qos
grep -qE '^ +fix: unset NCCL_IB_FIFO_TC ' "$out" && grep -qE 'OK +qos\.lossless +mlx5_0/1' "$out"
result "... fixed by unsetting it; the data's chain itself ok" $?
with_nccl 2.23.4 NCCL_IB_TC=106 NCCL_IB_FIFO_TC=0
expect "NCCL 2.23.4 reads NCCL_IB_FIFO_TC=0 as NCCL_IB_TC: nothing said" 0 'OK +qos\.lossless' -- --root "$scratch/t" check -v --only qos
! grep -q 'qos\.fifo_tc' "$out"; result "... no qos.fifo_tc finding" $?
with_nccl 2.28.9 NCCL_IB_TC=106 NCCL_IB_FIFO_TC=104
expect "NCCL_IB_FIFO_TC=104 on NCCL_IB_TC's priority: ok" 0 \
	'OK +qos\.fifo_tc +mlx5_0/1: NCCL.s CTS messages: traffic class 104 \(NCCL_IB_FIFO_TC\) -> DSCP 26 -> priority 3' \
	-- --root "$scratch/t" check -v --only qos
with_nccl 2.21.5 NCCL_IB_TC=106 NCCL_IB_FIFO_TC=0
expect "NCCL 2.21.5 has no NCCL_IB_FIFO_TC: info, said once" 0 \
	'INFO +qos\.fifo_tc +NCCL_IB_FIFO_TC: NCCL 2\.21\.5, the newest found on the node, reads no NCCL_IB_FIFO_TC' \
	-- --root "$scratch/t" check -v --only qos
[ "$(grep -c 'qos\.fifo_tc' "$out")" -eq 1 ]; result "... one finding, no chain followed" $?
run check --list
grep -qE '^ *qos\.fifo_tc ' "$out"; result "check --list documents qos.fifo_tc" $?

# trust pcp on a VLAN: rdma_cm's PCP is the VLAN's egress map at the ToS's skb priority (106: 2), NCCL's NCCL_IB_SL
copy qos-roce-tos
sed -i 's/^Priority trust state: .*/Priority trust state: pcp/' "$scratch/t/$cap"/mlnx_qos-*.txt
printf 'HOME=/root\0NCCL_IB_SL=3\0' > "$scratch/t/proc/self/environ"
for nd in ens19f0np0 ens19f1np1; do
	dev=$(readlink -f "$scratch/t/sys/class/net/$nd")
	printf 'DEVTYPE=vlan\nINTERFACE=%s\n' "$nd" > "$dev/uevent"
	mkdir -p "$scratch/t/proc/net/vlan"
	# the layout of the kernel's net/8021q/vlanproc.c
	printf '%s  VID: 100\t REORDER_HDR: 1  dev->priv_flags: 1021\n         total frames received            0\nDevice: %s\nINGRESS priority mappings: 0:0  1:0  2:0  3:0  4:0  5:0  6:0 7:0\n EGRESS priority mappings: %s\n' \
		"$nd" "$nd" "$([ "$nd" = ens19f1np1 ] && echo '2:3 ')" > "$scratch/t/proc/net/vlan/$nd"
done
expect "trust pcp, VLAN without an egress map: rdma_cm on PCP 0, NCCL_IB_SL=3 on 3: info" 1 \
	'INFO +qos\.roce_tos +mlx5_0/1: .*traffic class 106 \(rdma_cm.s default_roce_tos\) -> DSCP 26 -> priority 0 \(trust pcp, VLAN PCP from the egress map at skb priority 2\) -> PFC off' \
	-- --root "$scratch/t" check -v --only qos
grep -qF 'fix: ip link set dev ens19f0np0 type vlan egress-qos-map 2:3' "$out" && ! grep -q 'qos\.roce_tos +mlx5_1/1' "$out"
result "... fixed in the egress map; the port whose map sends 2 to 3 agrees with NCCL" $?
grep -qE 'WARN +qos\.vlan_egress +mlx5_0/1: ens19f0np0 trusts pcp and its RoCE frames leave the VLAN ens19f0np0 with PCP 0' "$out" &&
	grep -qF 'fix: ip link set dev ens19f0np0 type vlan egress-qos-map 0:3 1:3 2:3 3:3 4:3 5:3 6:3 7:3 ' "$out" &&
	grep -qE 'OK +qos\.vlan_egress +mlx5_1/1: ens19f1np1: .*leave with PCP 3' "$out" && ! grep -qF 'NCCL_IB_SL=3   #' "$out"
result "... qos.vlan_egress warns on the empty map (every skb priority to 3), ok where ToS 106 reaches PCP 3" $?
run --root "$scratch/t" snapshot --output "$scratch/vlan.json"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["system"]["qos"]["ports"]; assert [x["vlan_egress"] for x in p] == [[0]*8, [0, 0, 3, 0, 0, 0, 0, 0]], p' "$scratch/vlan.json"
result "the snapshot carries the VLAN's egress map" $?

run --root "$FIXTURES/qos-roce-tos" snapshot --output "$scratch/tos.json"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["system"]["qos"]["ports"]; assert [x["default_roce_tos"] for x in p] == [106, 106], p' "$scratch/tos.json"
result "the snapshot carries default_roce_tos" $?
"$BIN" --from "$scratch/tos.json" check --only qos.roce_tos > "$scratch/from.txt" 2>&1
grep -qE 'INFO +qos\.roce_tos +mlx5_0/1' "$scratch/from.txt"; result "... and check --from says the same" $?

# MLNX_OFED's qos sysfs: PFC priority 3 mapped into a buffer without bytes on the first port
expect "a PFC priority in a buffer without bytes: warn, the map's fix" 1 \
	'WARN +qos\.pfc_buffer +mlx5_0/1: ens19f0np0: PFC priority 3 lands in receive buffer 0, which has no bytes' \
	-- --root "$FIXTURES/qos-ofed-sysfs" check -v --only qos
grep -qE '^ +fix: mlnx_qos -i ens19f0np0 --prio2buffer 0,0,0,1,0,0,0,0 ' "$out" &&
	grep -qE 'dcb buffer set dev ens19f0np0 prio-buffer 3:1 ' "$out" &&
	grep -qE 'OK +qos\.pfc_buffer +mlx5_1/1: ens19f1np1: priority 3 in buffer 1 \(114944 bytes, xoff at 91392\)' "$out"
result "... moved into the buffer that pauses (mlnx_qos and dcb); the other port ok" $?
run --root "$FIXTURES/qos-ofed-sysfs" snapshot --output "$scratch/ofed.json"
python3 - "$scratch/ofed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["system"]["qos"]["ports"][0]["dcb"]
assert d["prio_buffer"] == [0] * 8 and d["buffer_size"] == [0, 114944, 0, 0, 0, 0, 0, 0], d
assert d["buffer_xoff"][1] == 91392 and d["port_buffer_size"] == 262016 and d["spare_buffer_size"] == 147072, d
PY
result "the snapshot carries the buffers' map, sizes and thresholds" $?
"$BIN" --from "$scratch/ofed.json" check --only qos.pfc_buffer > "$scratch/from.txt" 2>&1
grep -qE 'WARN +qos\.pfc_buffer +mlx5_0/1' "$scratch/from.txt"; result "... and check --from says the same" $?

# the same answer from a snapshot
run --root "$FIXTURES/qos-pcp-untagged" snapshot --output "$scratch/s.json"
live=$("$BIN" --root "$FIXTURES/qos-pcp-untagged" --json check --only qos | python3 -c 'import json,sys; print(sorted((f["id"], f["subject"], f["severity"], f["message"]) for f in json.load(sys.stdin)["findings"]))')
from=$("$BIN" --from "$scratch/s.json" --json check --only qos | python3 -c 'import json,sys; print(sorted((f["id"], f["subject"], f["severity"], f["message"]) for f in json.load(sys.stdin)["findings"]))')
[ -n "$live" ] && [ "$live" = "$from" ]; result "check --from a snapshot gives the same qos findings as --root" $?
python3 - "$scratch/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["system"]["qos"]["ports"][0]
assert p["dcb"]["trust"] == "pcp" and p["dcb"]["pfc"] == [0, 0, 0, 1, 0, 0, 0, 0] and p["dcb"]["trust_source"] == "mlnx_qos", p
PY
result "the snapshot carries each port's DCB settings" $?

# a snapshot whose qos member is malformed: one line naming the member
python3 - "$scratch/s.json" > "$scratch/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["system"]["qos"]["ports"][0]["dcb"]["pfc"] = [0, 0, 0, 1]
print(json.dumps(d))
PY
bad "a snapshot with a short PFC list: one line naming it" 3 'qos\.ports\[0\]\.dcb\.pfc: expected 8 values' -- --from "$scratch/bad.json" check
tap_end
