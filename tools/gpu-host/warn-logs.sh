#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# warn-logs.sh: on a host with two GPUs (run through the device tool, $OUT set), two-rank PyTorch jobs that
# make NCCL print WARN lines explain has no pattern of its own for: rank 1's GPU memory nearly all taken
# before NCCL's init (MODE=oom), and an NCCL_ALGO no release knows (MODE=algo). Under torchrun --tee 3.
# Writes $OUT/warn.tar.gz and $OUT/warn.txt.
exec > "$OUT/warn.txt" 2>&1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 OMP_NUM_THREADS=1
cat > /tmp/warn.py <<'PY'
import datetime, os, torch, torch.distributed as dist
rank = int(os.environ["RANK"]); torch.cuda.set_device(rank)
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=30))
hog = []
if os.environ.get("MODE") == "oom" and rank == 1:
    free, total = torch.cuda.mem_get_info()
    while free > (64 << 20):   # leave NCCL less than it needs for its buffers
        hog.append(torch.empty(max(free - (48 << 20), 1 << 20) // 2, dtype=torch.uint8, device="cuda"))
        free, total = torch.cuda.mem_get_info()
    print(f"rank 1: {free >> 20} MiB of GPU memory left", flush=True)
t = torch.ones(1 << 20, device="cuda")
dist.all_reduce(t); torch.cuda.synchronize()
print("rank", rank, "done", flush=True)
dist.destroy_process_group()
PY
mkdir -p /tmp/logs && cd /tmp || exit 1
timeout 150 env NCCL_DEBUG=WARN MODE=oom torchrun --nproc_per_node=2 --master_port=29801 --tee 3 /tmp/warn.py \
	> /tmp/logs/oom-rank1.log 2>&1; echo "rc=$?" >> /tmp/logs/oom-rank1.log
timeout 150 env NCCL_DEBUG=WARN NCCL_ALGO=NoSuchAlgo MODE=algo torchrun --nproc_per_node=2 --master_port=29802 \
	--tee 3 /tmp/warn.py > /tmp/logs/algo-unknown.log 2>&1; echo "rc=$?" >> /tmp/logs/algo-unknown.log
for f in /tmp/logs/*.log; do echo "##### $f"; grep -v "^\[default.\]:frame\|^frame" "$f" | head -60; done
tar czf $OUT/warn.tar.gz -C /tmp logs
echo WARN DONE
