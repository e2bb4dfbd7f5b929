#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# nccl-failure-logs.sh: more real NCCL/PyTorch failure logs for explain (issue 16), on the GPU host (run via the device tool, $OUT set). Writes $OUT/more-logs.tar.gz
exec > "$OUT/more.txt" 2>&1
cat > /tmp/ar.py <<'PY'
import os, sys, datetime, torch, torch.distributed as dist
rank = int(os.environ.get("RANK", "0")); world = int(os.environ.get("WORLD_SIZE", "1"))
dist.init_process_group("nccl", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=int(os.environ.get("TMO","20"))))
dev = int(os.environ.get("DEV", "0")); torch.cuda.set_device(dev)
t = torch.ones(1 << 20, device="cuda"); dist.all_reduce(t); torch.cuda.synchronize()
print("allreduce ok", t[0].item(), file=sys.stderr); dist.destroy_process_group()
PY
mkdir -p /tmp/logs
L() { name=$1; shift; echo "=== log $name: $*"; ( cd /tmp && timeout 60 env "$@" > /tmp/logs/$name.log 2>&1; echo "rc=$?" >> /tmp/logs/$name.log ); tail -4 /tmp/logs/$name.log; }
export MASTER_ADDR=127.0.0.1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
which python3 torchrun; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'
SYS=$(ldconfig -p | awk '/libnccl.so.2 /{print $NF; exit}'); echo "system nccl: $SYS"
L nccl-ib-disable NCCL_DEBUG=INFO NCCL_IB_DISABLE=1 MASTER_PORT=29511 python3 /tmp/ar.py
L nccl-net-plugin-missing NCCL_DEBUG=INFO NCCL_NET_PLUGIN=doesnotexist MASTER_PORT=29512 python3 /tmp/ar.py
L nccl-warn-ifname-bad NCCL_DEBUG=WARN NCCL_SOCKET_IFNAME=ens99 MASTER_PORT=29513 python3 /tmp/ar.py
L nccl-socket-family-v6 NCCL_DEBUG=INFO NCCL_SOCKET_FAMILY=AF_INET6 MASTER_PORT=29514 python3 /tmp/ar.py
L torch-master-unresolvable NCCL_DEBUG=INFO MASTER_ADDR=node-b.invalid TMO=8 RANK=1 WORLD_SIZE=2 MASTER_PORT=29515 python3 /tmp/ar.py
L torchrun-tee-info NCCL_DEBUG=INFO OMP_NUM_THREADS=1 torchrun --nproc_per_node=1 --master_port=29516 --tee 3 /tmp/ar.py
[ -n "$SYS" ] && L nccl-system-2.28.3-preload NCCL_DEBUG=INFO LD_PRELOAD=$SYS MASTER_PORT=29517 python3 /tmp/ar.py
L nccl-ib-gid-index-bad NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET NCCL_IB_GID_INDEX=abc NCCL_IB_HCA==mlx5_0:1 MASTER_PORT=29518 python3 /tmp/ar.py
cd /tmp/logs && tar czf $OUT/more-logs.tar.gz . && ls -la
echo MORE DONE
