#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cascade-logs.sh: on a host with two GPUs (run through the device tool, $OUT set), the logs of two-rank
# PyTorch jobs in which one rank dies during the job and the other fails after it: what explain must tell
# apart as cause and cascade. Rank 1 runs STEPS all_reduces and then, per MODE, is SIGKILLed (what the OOM
# killer does: it prints nothing) or raises an exception; rank 0 goes on issuing all_reduces. NCCL over its
# socket transport (P2P and SHM off, the way two nodes without RDMA talk) and over NVLink (the defaults).
# Each job once under torchrun (--tee 3: both ranks interleaved, as people paste it; --log-dir: per rank)
# and once as two plain python3 processes, one file each. Writes $OUT/cascade.tar.gz and $OUT/cascade.txt.
exec > "$OUT/cascade.txt" 2>&1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 OMP_NUM_THREADS=1
cat > /tmp/cascade.py <<'PY'
import datetime, os, signal, sys, time, torch, torch.distributed as dist
rank = int(os.environ["RANK"]); torch.cuda.set_device(rank)
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=int(os.environ.get("TMO", "30"))))
t = torch.ones(1 << 20, device="cuda")
for step in range(1, 41):
    if rank == 1 and step > int(os.environ.get("STEPS", "5")):
        print(f"rank 1: step {step}: {os.environ['MODE']}", file=sys.stderr, flush=True)
        if os.environ["MODE"] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("a failure of the training script on rank 1")
    dist.all_reduce(t); torch.cuda.synchronize()
    print(f"rank {rank}: step {step} done", file=sys.stderr, flush=True)
    time.sleep(0.2)
dist.destroy_process_group()
PY
nvidia-smi -L; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'
mkdir -p /tmp/logs && cd /tmp || exit 1
port=29700
job() { # NAME MODE TRANSPORT-ENV...
	local name=$1 mode=$2
	shift 2
	port=$((port + 1))
	echo "=== $name: torchrun"
	timeout 150 env NCCL_DEBUG=INFO MODE=$mode TMO=30 "$@" torchrun --nproc_per_node=2 --master_port=$port \
		--tee 3 --log-dir /tmp/logs/$name-ranks /tmp/cascade.py > /tmp/logs/$name.log 2>&1
	echo "rc=$?" >> /tmp/logs/$name.log
	port=$((port + 1))
	echo "=== $name: one python3 per rank"
	for r in 0 1; do
		timeout 150 env NCCL_DEBUG=INFO MODE=$mode TMO=30 RANK=$r WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 \
			MASTER_PORT=$port "$@" python3 /tmp/cascade.py > /tmp/logs/$name-r$r.log 2>&1 &
	done
	wait
	for r in 0 1; do echo "rc=done" >> /tmp/logs/$name-r$r.log; done
}
job kill-socket kill NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1
job kill-nvlink kill
job raise-socket raise NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1
find /tmp/logs -type f | sort | xargs wc -l
for f in /tmp/logs/*.log; do echo "##### $f"; grep -v -E "NCCL INFO (Channel|Connected|P2P|comm 0x|Trees|Ring|NCCL_|cudaDriver|Bootstrap|NET/|CC Off|Using|ncclCommInit|init\.cc|Setting|Assigned|Init|threadThresholds|[0-9]+ coll channels|TUNER|Enabled|CPU|GPU|PROFILER|ENV|RAS|Allocated|Check|MNNVL|nvmlInit|Could not)" "$f" | tail -n 25; done
tar czf $OUT/cascade.tar.gz -C /tmp logs
echo CASCADE DONE
