#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run-nccl.sh: roce-doctor's NCCL finder next to what the GPU machine itself says about its NCCLs.
# usage: bash run-nccl.sh [DIR] > run-nccl.log 2>&1
#   DIR holds the carried roce-doctor binary and lib/ (its shared libraries); default: this script's directory.
# Compare: every libnccl that `find` and `ldconfig -p` list appears in `roce-doctor nccl` (by real path), with
# the version grep finds in the file, the dpkg/pip versions, and the one torch maps (/proc/self/maps).
set -u
DIR=${1:-$(cd "$(dirname "$0")" && pwd)}
RD="$DIR/roce-doctor"
# Prepended, not replaced: the finder reads LD_LIBRARY_PATH from its own environment, and the job's value
# (/usr/local/nvidia/lib64:/usr/local/nvidia/lib on the surveyed node) is part of what it must search.
export LD_LIBRARY_PATH="$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
section() { printf '\n===== %s =====\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@" 2>&1; printf '[exit %s]\n' "$?"; }

section "machine"
run date -u
run uname -r
run env -0 | tr '\0' '\n' | grep -E '^(PATH|LD_LIBRARY_PATH|VIRTUAL_ENV|CONDA_PREFIX|HOME|NCCL_[A-Z_]*)=' | sort
run command -v python3

section "roce-doctor nccl"
run "$RD" --version
run "$RD" nccl
section "roce-doctor --json nccl"
run "$RD" --json nccl
section "roce-doctor nccl --nccl-version 2.18 (the pre-2.21 rule on this host's tables)"
run "$RD" nccl --nccl-version 2.18
section "roce-doctor check --only gid.env -v"
run "$RD" check --only gid.env -v
section "snapshot's nccl_libs, read back with --from"
"$RD" snapshot > /tmp/run-nccl-snapshot.json 2>/dev/null
run python3 -c 'import json; print(json.dumps(json.load(open("/tmp/run-nccl-snapshot.json"))["system"]["nccl_libs"], indent=1))'
run "$RD" --from /tmp/run-nccl-snapshot.json nccl

section "what the machine says: the linker"
run ldconfig -p | grep -i nccl
section "what the machine says: every libnccl* file on the root file system (60 s at most)"
files=$(timeout 60 find / -xdev \( -name 'libnccl*.so*' -o -name 'libnccl-net*' \) 2>/dev/null | sort)
for f in $files; do
	printf '%s -> %s (%s bytes)\n' "$f" "$(readlink -f "$f")" "$(stat -Lc %s "$f")"
done
section "the version strings in each real file (grep -abo, first 4)"
for r in $(for f in $files; do readlink -f "$f"; done | sort -u); do
	echo "$r:"; grep -abo 'NCCL version [0-9][0-9.]*[+a-z0-9.]*' "$r" | head -4
	command -v readelf > /dev/null && readelf -SW "$r" 2>/dev/null | grep -E ' \.rodata '
done
section "packages"
run dpkg-query -W -f '${Package} ${Version}\n' 'libnccl*'
run dpkg -S libnccl
for p in nvidia-nccl-cu13 nvidia-nccl-cu12 torch; do
	run python3 -c "import importlib.metadata as m; d = m.distribution('$p'); print(d.metadata['Name'], d.version, d._path)"
done
run python3 -m pip list 2>/dev/null | grep -iE 'nccl|torch'
section "what torch loads"
run python3 -c '
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version())
maps = {l.split()[-1] for l in open("/proc/self/maps") if "nccl" in l}
print("mapped:", *sorted(maps), sep="\n  ")'
