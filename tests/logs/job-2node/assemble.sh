#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Writes this directory's logs of one four-rank job on two nodes (node-a: ranks 0, 1; node-b: ranks 2, 3)
# from real lines of the single-node logs next to it (see README.md): the host in NCCL's prefix renamed to
# the node, PyTorch's "[rank0]:" to the rank given, nothing else changed. Run from this directory.
set -eu
h100=../h100-nccl-2.28.9
gpu=../gpu-2rank
# host RANK: the line's NCCL host and PyTorch rank prefix rewritten
relabel() {
	sed -E "s/(^|\] )vm:([0-9]+:[0-9]+ \[)/\1$1:\2/; s/^\[rank[0-9]+\]:/[rank$2]:/"
}
relabel node-a 0 <"$gpu/torch-skip-r0.log" >rank0.log
# rank 1: the init of the same job's rank 1, up to NCCL's "Init COMPLETE" (its later lines answer rank 0's
# timeout, which is another story)
sed -n '1,/Init COMPLETE/p' "$gpu/torch-skip-r1.log" | relabel node-a 1 >rank1.log
# rank 2: node-b's NCCL_SOCKET_IFNAME names an interface it does not have: no bootstrap interface
relabel node-b 2 <"$h100/nccl-socket-ifname-bad.log" >rank2.log
# rank 3: node-b runs the system's NCCL 2.28.3 (LD_PRELOAD), the others the wheel's 2.28.9
relabel node-b 3 <"$h100/nccl-system-2.28.3-preload.log" >rank3.log
# srun --label: each rank's lines prefixed "RANK: ", interleaved in runs of five lines, blank lines left out
python3 - rank0.log rank1.log rank2.log rank3.log >srun-label.log <<'PY'
import sys
ranks = [[l for l in open(f).read().splitlines() if l.strip()] for f in sys.argv[1:]]
at = [0] * len(ranks)
while any(a < len(r) for a, r in zip(at, ranks)):
    for i, r in enumerate(ranks):
        for line in r[at[i]:at[i] + 5]:
            print(f"{i}: {line}")
        at[i] += 5
PY
