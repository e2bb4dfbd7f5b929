#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# loader-survey.sh: on a GPU host (run through the device tool, $OUT set), what the dynamic loader maps for a
# torch job, where Python environments live, the container evidence, and failure logs of jobs that skip or hang
# in a collective (two GPUs). Writes $OUT/survey.txt and $OUT/loader.tar.gz. Optional: .carry/bin/roce-doctor
# and .carry/lib (its libraries) to run roce-doctor on the host.
exec > "$OUT/survey.txt" 2>&1
S() { echo; echo "=== $*"; timeout 120 bash -c "$*"; echo "--- rc=$?"; }
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
S 'uname -a; cat /etc/os-release | head -4; nvidia-smi -L; nvidia-smi topo -m; echo PATH=$PATH; echo LD_LIBRARY_PATH=$LD_LIBRARY_PATH; which -a python3 torchrun'
S 'gcc -dumpmachine; ls -d /usr/lib/*-linux-gnu /lib/*-linux-gnu; cat /etc/ld.so.conf; cat /etc/ld.so.conf.d/*; ls /etc/ld.so.conf.d'
S 'ldconfig -p | grep -E "nccl|libcuda|libibverbs"'
S 'dpkg -S $(find / -xdev -name "libnccl*" 2>/dev/null | grep -v -E "^/(proc|sys)") 2>&1; dpkg -L libnccl2 libnccl-dev 2>&1 | grep -i nccl; dpkg -s libnccl2 2>&1 | head -12'
S 'find / -xdev \( -name "libnccl*.so*" -o -name "libnccl-net*.so" -o -name pyvenv.cfg -o -name conda-meta -o -name "nvidia_nccl*" \) 2>/dev/null | grep -v ^/proc'
S 'P=$(python3 -c "import torch,os;print(os.path.dirname(torch.__file__))"); echo $P; for f in $P/lib/*.so*; do echo "## $f"; readelf -d $f | grep -E "NEEDED|RPATH|RUNPATH"; done'
S 'for f in $(find / -xdev -name "libnccl.so*" 2>/dev/null | grep -v ^/proc); do echo "## $f"; readelf -d $f | grep -E "SONAME|RPATH|RUNPATH|NEEDED"; done'
cat > /tmp/maps.py <<'PY'
import torch, sys
torch.cuda.init()
import torch.distributed as dist
v = torch.cuda.nccl.version()
maps = [l.split()[-1] for l in open("/proc/self/maps") if "nccl" in l]
print("torch", torch.__version__, "nccl", v, "mapped:", sorted(set(maps)))
PY
S 'python3 /tmp/maps.py'
S 'LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu python3 /tmp/maps.py'
S 'LD_PRELOAD=$(ldconfig -p | awk "/libnccl.so.2 /{print \$NF; exit}") python3 /tmp/maps.py'
S 'LD_DEBUG=libs python3 -c "import torch" 2>&1 | grep -i -E "nccl" | head -40'
S 'LD_DEBUG=libs LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu python3 -c "import torch" 2>&1 | grep -i -E "nccl" | head -40'
S 'cat /opt/torch/.venv/pyvenv.cfg; ls -la /opt /opt/torch /opt/torch/.venv/bin | head -40; ls /root /home 2>/dev/null; ls -d /opt/conda /root/miniconda3 /root/.conda /usr/local/lib/python3*/dist-packages 2>&1'
S 'ls -la /.dockerenv /run/.containerenv 2>&1; cat /proc/1/cgroup; cat /proc/1/environ | tr "\0" "\n" | grep -v -i -E "key|token|secret|pass"; cat /proc/1/comm; systemd-detect-virt 2>&1; cat /sys/class/dmi/id/product_name /sys/class/dmi/id/sys_vendor 2>&1; cat /proc/cpuinfo | grep -m1 -i hypervisor; mount | head -20'
S 'ls /sys/devices/system/node; cat /sys/bus/pci/devices/*/numa_node | sort | uniq -c; nvidia-smi -q | grep -i -E "numa|bus id"; nvidia-smi topo -m'
S 'env | grep -E "^(NCCL|CUDA|NV|TORCH)" | sort'
if [ -x .carry/bin/roce-doctor ]; then
  export LD_LIBRARY_PATH_RD=$PWD/.carry/lib
  RD() { echo; echo "=== roce-doctor $*"; LD_LIBRARY_PATH=$LD_LIBRARY_PATH_RD timeout 60 .carry/bin/roce-doctor "$@"; echo "--- rc=$?"; }
  RD nccl; RD nccl --format json; RD topo; RD topo --format json
  NCCL_IB_HCA=mlx5_0 NCCL_SOCKET_IFNAME=eth0 NCCL_NET_PLUGIN=aws-ofi NCCL_VERSION=2.28.3-1 RD check -v
  NCCL_NET_PLUGIN=aws-ofi RD nccl
  RD snapshot --output /tmp/snap.json; cp /tmp/snap.json $OUT/snapshot.json 2>/dev/null
fi
# Failure logs with two ranks (two GPUs): a rank that skips a collective, a job hung in its first collective.
cat > /tmp/skip.py <<'PY'
import os, sys, time, datetime, torch, torch.distributed as dist
rank = int(os.environ["RANK"]); torch.cuda.set_device(rank)
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=int(os.environ.get("TMO", "20"))))
t = torch.ones(1 << 20, device="cuda")
mode = os.environ.get("MODE", "skip")
if mode == "skip":
    dist.all_reduce(t); torch.cuda.synchronize()
    if rank == 0:
        dist.all_reduce(t); torch.cuda.synchronize()
    else:
        time.sleep(int(os.environ.get("SLEEP", "60")))
elif mode == "hang":
    if rank == 0:
        dist.all_reduce(t); torch.cuda.synchronize()
    else:
        time.sleep(int(os.environ.get("SLEEP", "60")))
print("done", rank, file=sys.stderr)
dist.destroy_process_group()
PY
mkdir -p /tmp/logs
N=$(nvidia-smi -L | wc -l)
if [ "$N" -ge 2 ]; then
  cd /tmp
  echo "=== skip (watchdog)"; timeout 120 env NCCL_DEBUG=INFO MODE=skip TMO=15 SLEEP=45 OMP_NUM_THREADS=1 torchrun --nproc_per_node=2 --master_port=29601 /tmp/skip.py > /tmp/logs/torch-watchdog-skipped-collective.log 2>&1; echo "rc=$?" >> /tmp/logs/torch-watchdog-skipped-collective.log
  echo "=== skip (per rank)"; for r in 0 1; do timeout 120 env NCCL_DEBUG=INFO MODE=skip TMO=15 SLEEP=45 RANK=$r WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29602 python3 /tmp/skip.py > /tmp/logs/torch-skip-r$r.log 2>&1 & done; wait; for r in 0 1; do echo rc=done >> /tmp/logs/torch-skip-r$r.log; done
  echo "=== hang (killed, long timeout)"; timeout -s INT 40 env NCCL_DEBUG=INFO MODE=hang TMO=600 SLEEP=300 OMP_NUM_THREADS=1 torchrun --nproc_per_node=2 --master_port=29603 /tmp/skip.py > /tmp/logs/torch-hang-first-collective.log 2>&1; echo "rc=$?" >> /tmp/logs/torch-hang-first-collective.log
  echo "=== net named but absent"; timeout 90 env NCCL_DEBUG=INFO NCCL_NET=AWS_Libfabric MODE=none OMP_NUM_THREADS=1 torchrun --nproc_per_node=2 --master_port=29604 /tmp/skip.py > /tmp/logs/nccl-net-absent.log 2>&1; echo "rc=$?" >> /tmp/logs/nccl-net-absent.log
  echo "=== plugin aws-ofi named but absent"; timeout 90 env NCCL_DEBUG=INFO NCCL_NET_PLUGIN=aws-ofi MODE=none OMP_NUM_THREADS=1 torchrun --nproc_per_node=2 --master_port=29605 /tmp/skip.py > /tmp/logs/nccl-net-plugin-aws-ofi.log 2>&1; echo "rc=$?" >> /tmp/logs/nccl-net-plugin-aws-ofi.log
fi
ls -la /tmp/logs; tail -n 30 /tmp/logs/*.log
cd /tmp && tar czf $OUT/loader.tar.gz logs
echo SURVEY DONE
