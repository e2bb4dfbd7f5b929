#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# gpu.peermem knows GPUDirect RDMA over dma-buf (issue 13): per state of the fixtures (h100-vm: the real H100's
# open module, no RDMA device; dgx-h100: proprietary module, neither path; gb10-twin: open module, NIC side known
# only live or from a snapshot, here an edited one), NCCL_DMABUF_ENABLE=0, and a bad recorded test refused.
# usage: gdr_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout; about 1 s idle, one python3)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

expect "h100-vm: the open module 580 allows dma-buf, no RDMA device to ask (info, not 'no GPUDirect')" 0 \
	'INFO  gpu.peermem +dma-buf: 1 NVIDIA GPU.*open nvidia module 580\.159\.04, kernel 6\.18\.44-fc-v657-gpu.*there is no RDMA device$' \
	-- --root "$FIX/h100-vm" check --only gpu.peermem
! grep -q 'no GPUDirect RDMA' "$out"; result "h100-vm: does not say 'no GPUDirect RDMA'" $?

expect "dgx-h100: proprietary module, no nvidia_peermem: warn" 1 \
	'WARN  gpu.peermem +0000:1a:00\.0: 8 NVIDIA GPU.*proprietary nvidia module 535\.161\.08 exports no dma-buf' \
	-- --root "$FIX/dgx-h100" check --only gpu.peermem
grep -q 'fix: modprobe nvidia_peermem' "$out" && grep -q 'apt install nvidia-driver-535-open' "$out"
result "dgx-h100: both fixes, the module and the open driver" $?

expect "gb10-twin under --root: GPU side ready, NIC side only live: info with the live command" 0 \
	'INFO  gpu.peermem +dma-buf: .*open nvidia module 580\.95\.05.*not under --root' \
	-- --root "$FIX/gb10-twin" check --only gpu.peermem
grep -q 'fix: roce-doctor check --only gpu.peermem' "$out"; result "gb10-twin: fix runs the test on the host" $?

# A snapshot of gb10-twin with NCCL's NIC test recorded as a live run would record it.
run --root "$FIX/gb10-twin" snapshot
cp "$out" "$scratch/gb10.json"
# One python3 (its start is most of this test's time): checks what was recorded, writes the edited copies.
python3 - "$scratch" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/gb10.json"))
g = d["system"]["gpudirect"]
if g != {"nvidia_module": "open", "driver_version": "580.95.05", "kernel_release": "6.11.0-1016-nvidia",
         "dmabuf_test": None}:
    sys.exit(1)
for name, step, errs in (("ok", "ibv_reg_dmabuf_mr", (9, 9)), ("refused", "ibv_reg_dmabuf_mr", (9, 95)),
                         ("bad", "ibv_reg_mr", (9,))):
    g["dmabuf_test"] = [{"device": "rocep1s0f%d" % i, "step": step, "errno": e} for i, e in enumerate(errs)]
    json.dump(d, open("%s/%s.json" % (sys.argv[1], name), "w"))
PY
result "snapshot records the module, the kernel, and no NIC test (null) under --root" $?
expect "--from a snapshot whose NICs answered EBADF: ok through dma-buf" 0 \
	'OK    gpu.peermem +dma-buf: 1 NVIDIA GPU.*through dma-buf.*rocep1s0f0, rocep1s0f1 take dma-buf' \
	-- --from "$scratch/ok.json" check -v --only gpu.peermem
expect "--from a snapshot where one NIC answered EOPNOTSUPP: warn naming it, both fixes" 1 \
	'WARN  gpu.peermem +rocep1s0f1: .*refuses dma-buf memory regions \(ibv_reg_dmabuf_mr: Operation not supported\)' \
	-- --from "$scratch/refused.json" check --only gpu.peermem
grep -q 'fix: modprobe nvidia_peermem' "$out" && grep -q 'rdma-core (>= 34)' "$out"
result "refused: the module, or a provider that registers dma-buf" $?
bad "--from a snapshot with an unknown test step: refused with its path" 3 \
	'gpudirect\.dmabuf_test\[0\]\.step.*"ibv_reg_dmabuf_mr", "ibv_open_device" or "ibv_alloc_pd"' \
	-- --from "$scratch/bad.json" check --only gpu.peermem

cp -a "$FIX/gb10-twin" "$scratch/off"
mkdir -p "$scratch/off/proc/self"
printf '%s\0' HOME=/root NCCL_DMABUF_ENABLE=0 > "$scratch/off/proc/self/environ"
expect "NCCL_DMABUF_ENABLE=0 in the job's environment: dma-buf is out, warn" 1 \
	'WARN  gpu.peermem .*NCCL_DMABUF_ENABLE=0 \(/proc/self/environ\) turns it off' \
	-- --root "$scratch/off" check --only gpu.peermem
grep -q 'unset NCCL_DMABUF_ENABLE' "$out"; result "NCCL_DMABUF_ENABLE=0: the fix unsets it" $?
tap_end
