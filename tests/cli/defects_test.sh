#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A new user's first ten minutes (s10): port.link_layer on a host with both InfiniBand and RoCE ports, the
# rdma.devices fix on a host without an RDMA NIC, and --output left alone by a bw/lat that never started.
# A FIFO in a replayed tree (s11): read as an unreadable file, never waited on.
# Fixtures: ib-roce-mixed, infiniband, h100-vm (no RDMA NIC, modules known), no-rdma (modules unknown),
# softroce and dgx-h100 (copied, a file replaced by a FIFO).
# usage: defects_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout; about 15 runs, 1 s idle)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "$1" "$out"; }

# ---- port.link_layer: an IB port beside RoCE ports is no RoCE misconfiguration ----
run --root "$FIX/ib-roce-mixed" check
! grep -q 'where RoCE is expected' "$out" && ! grep -q 'LINK_TYPE_P' "$out"
result "mixed host: no 'InfiniBand link layer where RoCE is expected' (and no mlxconfig advice) for the IB port" $?
run --root "$FIX/ib-roce-mixed" check -v --only port.link_layer
[ "$rc" -eq 0 ] && grep -q "OK    port.link_layer .*mlx5_0/1: InfiniBand port beside this host's RoCE ports: NCCL uses it natively, by LID 0x5" "$out"
result "mixed host, -v: ok, named as an InfiniBand port NCCL uses by its LID" $?
run --root "$FIX/ib-roce-mixed" --json check --only port.link_layer
py 'import json,sys
f=json.load(open(sys.argv[1]))["findings"]
assert [(x["id"], x["severity"], x["subject"], x["fix"]) for x in f] == [("port.link_layer", "ok", "mlx5_0/1", None)], f'
result "mixed host, --json: one ok finding for mlx5_0/1, no fix" $?
run --root "$FIX/infiniband" check --only port.link_layer
grep -q 'INFO  port.link_layer .*InfiniBand link layer where RoCE is expected' "$out" && grep -q 'LINK_TYPE_P1=2' "$out"
result "IB-only host: the info and its mlxconfig advice stay" $?

# ---- rdma.devices: the fix that applies to the host ----
run --root "$FIX/h100-vm" check --only rdma.devices
[ "$rc" -eq 2 ] && grep -q 'FAIL  rdma.devices .*no RDMA device and no RDMA-capable NIC: no driver of one' "$out" &&
	grep -qx '        fix: rdma link add rxe0 type rxe netdev IFACE   # Soft-RoCE on IFACE, for testing .*' "$out" &&
	grep -q 'attach an RDMA NIC' "$out" && ! grep -q 'modprobe mlx5_ib' "$out"
result "h100-vm (virtio and nvidia only): no RDMA NIC said, Soft-RoCE or a NIC, no modprobe mlx5_ib" $?
t=$scratch/h100-cx7
cp -a "$FIX/h100-vm" "$t" && echo 'mlx5_core 2416640 0 - Live 0xffffffffc0b00000' >>"$t/proc/modules"
run --root "$t" check --only rdma.devices
[ "$rc" -eq 2 ] && grep -q 'FAIL  rdma.devices .*no RDMA device: mlx5_core without mlx5_ib' "$out" &&
	grep -qx '        fix: modprobe mlx5_ib   # mlx5_core is loaded: a ConnectX NIC' "$out"
result "the same VM with mlx5_core loaded: modprobe mlx5_ib, naming why" $?
run --root "$FIX/no-rdma" check --only rdma.devices
[ "$rc" -eq 2 ] && grep -q 'fix: modprobe mlx5_ib' "$out" && grep -q '^ *rdma link add rxe0 type rxe netdev eth0   # Soft-RoCE' "$out"
result "no-rdma (modules unknown): both fixes, Soft-RoCE on the host's eth0 rather than IFACE" $?

# ---- --output: a bw or lat that never started leaves the file alone ----
# a port of 127.0.0.1 bound and held, not listening, while the test runs: a connection to it is refused, and
# no other test can start listening there in the meantime (python exits when the script ends)
coproc HOLD { python3 -c 'import socket, sys; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1], flush=True); sys.stdin.read()'; }
read -r port <&"${HOLD[0]}"
mkdir "$scratch/out" && report=$scratch/out/report
if "$BIN" gid --suggest >/dev/null 2>&1; then
	for c in bw lat; do
		echo 'the last report' >"$report"
		run "$c" 127.0.0.1 -p "$port" --timeout 1 --output "$report"
		[ "$rc" -eq 3 ] && [ "$(cat "$report")" = 'the last report' ] && grep -q "cannot connect to 127.0.0.1:$port" "$err"
		result "$c --output FILE with nothing listening: exit 3, FILE keeps the last report" $?
		rm -f "$report"
		run "$c" 127.0.0.1 -p "$port" --timeout 1 --output "$report"
		[ "$rc" -eq 3 ] && [ ! -e "$report" ] && [ -z "$(ls -A "$scratch/out")" ]
		result "$c --output FILE with nothing listening: no FILE, no temporary file left" $?
		run --json "$c" 127.0.0.1 -p "$port" --timeout 1 --output "$report"
		[ "$rc" -eq 3 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["error"]["kind"]=="connect" else 1)' "$report"
		result "$c --json --output FILE: the document with its error, whole" $?
		rm -f "$report"
	done
else
	# no usable RDMA port here: the run stops before any report (exit 2); the file is still left alone
	echo 'the last report' >"$report"
	run bw 127.0.0.1 -p "$port" --output "$report"
	[ "$rc" -eq 2 ] && [ "$(cat "$report")" = 'the last report' ]
	result "bw --output FILE without a usable port: exit 2, FILE keeps the last report" $?
fi

# ---- a FIFO in a replayed tree (or a hostile /etc) is an unreadable file, never waited on (s11) ----
# Before: the open of the FIFO blocked for ever (no writer), so check hung; timeout(1) bounds each run.
trun() { timeout 20 "$BIN" "$@" >"$out" 2>"$err"; rc=$?; }
t=$scratch/fifo-provider
cp -a "$FIX/softroce" "$t" && rm "$t/etc/libibverbs.d/rxe.driver" && mkfifo "$t/etc/libibverbs.d/rxe.driver"
trun --root "$t" check --only verbs.provider
[ "$rc" -eq 2 ] && grep -q 'FAIL  verbs.provider' "$out"
result "a FIFO for /etc/libibverbs.d/rxe.driver: check ends, rxe0 has no provider (exit 2)" $?
trun --root "$t" snapshot
[ "$rc" -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out"
result "the same tree: snapshot ends with a whole document" $?
t=$scratch/fifo-sysfs
cp -a "$FIX/softroce" "$t" && p=$(find "$t/sys" -path '*rxe0/ports/1/state' | head -1) && rm "$p" && mkfifo "$p"
trun --root "$t" devices
[ "$rc" -ne 124 ] && [ "$rc" -lt 128 ] && [ "$(wc -l <"$err")" -le 1 ]
result "a FIFO for rxe0's port state: devices ends (rc $rc), at most one line on stderr" $?
t=$scratch/fifo-pci
cp -a "$FIX/dgx-h100" "$t" && p=$(find "$t/sys/devices" -name config | head -1) && rm "$p" && mkfifo "$p"
trun --root "$t" topo
[ "$rc" -ne 124 ] && [ "$rc" -lt 128 ]
result "a FIFO for a PCI bridge's config space: topo ends (rc $rc)" $?

tap_end
