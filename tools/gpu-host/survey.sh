#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# GPU host survey for issue 13/16 fixtures. Writes under $OUT.
exec > "$OUT/log.txt" 2>&1
S() { echo; echo "=== $*"; timeout 120 bash -c "$*"; echo "--- rc=$?"; }
S 'uname -a; cat /etc/os-release | head -3; id; nproc'
S 'nvidia-smi'
S 'nvidia-smi topo -m'
S 'nvidia-smi -q | head -60'
S 'which lspci setpci readelf strings file objdump python3 pip; lspci -tv; lspci -nn'
S 'ls -l /sys/bus/pci/devices/'
S 'for d in /sys/bus/pci/devices/*; do printf "%s %s class=%s vendor=%s device=%s numa=%s cur=%s/%s max=%s/%s drv=%s\n" "${d##*/}" "$(readlink -f $d)" "$(cat $d/class)" "$(cat $d/vendor)" "$(cat $d/device)" "$(cat $d/numa_node 2>/dev/null)" "$(cat $d/current_link_speed 2>/dev/null)" "$(cat $d/current_link_width 2>/dev/null)" "$(cat $d/max_link_speed 2>/dev/null)" "$(cat $d/max_link_width 2>/dev/null)" "$(basename $(readlink $d/driver) 2>/dev/null)"; done'
S 'for d in /sys/bus/pci/devices/*; do echo "${d##*/}"; ls $d; od -An -tx1 $d/config | head -20; done 2>&1 | head -400'
S 'ls /sys/devices/system/node/; cat /sys/devices/system/node/node*/cpulist; ls /sys/class/infiniband /sys/class/net; ls -l /sys/class/net'
S 'grep -i -E "nv|peer|dma" /proc/modules; ls /sys/module | grep -i -E "nv|peer"; cat /proc/driver/nvidia/version; ls /proc/driver/nvidia/gpus/; cat /proc/driver/nvidia/gpus/*/information'
S 'cat /proc/cmdline; ls /sys/kernel/iommu_groups | head; cat /sys/module/nvidia/parameters/* 2>/dev/null | head -50; ls /sys/module/nvidia/parameters'
S 'ldconfig -p | grep -i -E "nccl|cuda|ibverbs"; echo LD_LIBRARY_PATH=$LD_LIBRARY_PATH; echo PATH=$PATH; env | grep -i -E "nccl|cuda|conda|venv|python" '
S 'find / -xdev \( -name "libnccl*" -o -name "*nccl*dist-info" -o -name "nccl.h" \) 2>/dev/null | head -50'
S 'for f in $(find / -xdev -name "libnccl*.so*" 2>/dev/null | head -20); do echo "## $f"; ls -lL "$f"; readlink -f "$f"; readelf -h -S "$f" | grep -E "Class|Type|Machine|rodata|\.data |Number of section"; grep -abo -E "NCCL version [0-9]+\.[0-9]+\.[0-9]+[^ ]{0,20}" "$f" | head -5; strings -a "$f" | grep -E "^(NCCL_|2\.[0-9]+\.[0-9]+)" | head -5; done'
S 'python3 -c "import torch,sys;print(sys.executable, torch.__version__, torch.__file__, torch.cuda.nccl.version(), torch.version.cuda)"'
S 'python3 -m pip show -f nvidia-nccl-cu13 nvidia-nccl-cu12 torch 2>&1 | grep -v -E "^\s+(nvidia/[a-z]+/include|torch/)" | head -80; python3 -m pip list 2>/dev/null | grep -i -E "nvidia|torch|nccl"'
S 'python3 -c "import site,sys;print(site.getsitepackages(), sys.prefix, sys.base_prefix)"; ls -la /opt /opt/torch 2>/dev/null; cat /opt/torch/.venv/pyvenv.cfg'
S 'for d in $(python3 -c "import site;print(\" \".join(site.getsitepackages()))"); do ls $d/nvidia 2>/dev/null; ls -la $d/nvidia/nccl/lib $d/torch/lib 2>/dev/null | grep -i -E "nccl|total"; ls -d $d/nvidia_nccl*; cat $d/nvidia_nccl*/METADATA | head -20; cat $d/nvidia_nccl*/RECORD; done'
# PCI tree as files, for a fixture
mkdir -p /tmp/pci
S 'cd /; for d in $(find /sys/devices -maxdepth 6 -type d -path "*/pci*" 2>/dev/null); do [ -f $d/class ] || continue; mkdir -p /tmp/pci$d; for a in class vendor device subsystem_vendor subsystem_device revision numa_node local_cpulist current_link_speed current_link_width max_link_speed max_link_width enable; do [ -r $d/$a ] && cat $d/$a > /tmp/pci$d/$a 2>/dev/null; done; [ -r $d/config ] && cat $d/config > /tmp/pci$d/config; [ -L $d/driver ] && ln -s "$(readlink $d/driver)" /tmp/pci$d/driver; done; mkdir -p /tmp/pci/sys/bus/pci/devices; for l in /sys/bus/pci/devices/*; do ln -s "$(readlink $l)" /tmp/pci$l; done; for n in /sys/devices/system/node/node*; do mkdir -p /tmp/pci$n; cat $n/cpulist > /tmp/pci$n/cpulist; done; cd /tmp/pci && tar czf $OUT/pci-tree.tar.gz sys && tar tzvf $OUT/pci-tree.tar.gz | head -80'
cp /etc/ld.so.cache "$OUT/ld.so.cache" 2>/dev/null
# NCCL logs (no RDMA device here)
cat > /tmp/ar.py <<'PY'
import os, sys, datetime, torch, torch.distributed as dist
rank = int(os.environ.get("RANK", "0")); world = int(os.environ.get("WORLD_SIZE", "1"))
dist.init_process_group("nccl", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=int(os.environ.get("TMO","20"))))
dev = int(os.environ.get("DEV", "0")); torch.cuda.set_device(dev)
t = torch.ones(1 << 20, device="cuda"); dist.all_reduce(t); torch.cuda.synchronize()
print("allreduce ok", t[0].item(), file=sys.stderr); dist.destroy_process_group()
PY
mkdir -p /tmp/logs
L() { name=$1; shift; echo "=== log $name: $*"; ( cd /tmp && timeout 90 env "$@" > /tmp/logs/$name.log 2>&1; echo "rc=$?" >> /tmp/logs/$name.log ); tail -5 /tmp/logs/$name.log; }
export MASTER_ADDR=127.0.0.1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
L nccl-info-1rank NCCL_DEBUG=INFO MASTER_PORT=29501 python3 /tmp/ar.py
L nccl-net-ib-forced NCCL_DEBUG=INFO NCCL_NET=IB MASTER_PORT=29502 python3 /tmp/ar.py
L nccl-socket-ifname-bad NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=ens99 MASTER_PORT=29503 python3 /tmp/ar.py
L nccl-ib-hca-typo NCCL_DEBUG=INFO NCCL_IB_HCA=mlx5_O NCCL_DEBUG_SUBSYS=INIT,NET MASTER_PORT=29504 python3 /tmp/ar.py
L nccl-info-subsys-all NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALL NCCL_IB_GID_INDEX=3 MASTER_PORT=29505 python3 /tmp/ar.py
L torch-store-timeout TMO=5 RANK=1 WORLD_SIZE=2 MASTER_PORT=29599 python3 /tmp/ar.py
( cd /tmp; env NCCL_DEBUG=INFO MASTER_PORT=29506 RANK=0 WORLD_SIZE=2 python3 /tmp/ar.py > /tmp/logs/nccl-dup-gpu-r0.log 2>&1 & env NCCL_DEBUG=INFO MASTER_PORT=29506 RANK=1 WORLD_SIZE=2 timeout 90 python3 /tmp/ar.py > /tmp/logs/nccl-dup-gpu-r1.log 2>&1; wait; tail -5 /tmp/logs/nccl-dup-gpu-r*.log )
L nccl-socket-peer-dead NCCL_DEBUG=INFO TMO=10 RANK=0 WORLD_SIZE=2 MASTER_PORT=29507 python3 /tmp/ar.py
cd /tmp/logs && tar czf $OUT/nccl-logs.tar.gz . && ls -la
echo SURVEY DONE
