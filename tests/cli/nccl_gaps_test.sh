#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Issue 13's remaining gaps: NCCL_IB_HCA read as each NCCL on the node reads it (an empty ':port' is port 0
# before 2.30.7, every port from it on; ':rail:plane' read from 2.30.7 on); gid --suggest's and nccl-env's
# GID index advice by the NCCL versions found (or --nccl-version).
# usage: nccl_gaps_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
WHEEL=opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2

# nccl-libs (NCCL 2.28.3, 2.18.3, 2.28.9) with the job environment given as NAME=VALUE arguments.
with_env() {
	local to=$scratch/$1; shift
	rm -rf "$to"; cp -a "$FIX/nccl-libs" "$to"
	printf '%s\0' HOME=/root PATH=/opt/torch/.venv/bin:/usr/bin:/bin "$@" > "$to/proc/self/environ"
}
# ... and an NCCL 2.30.7 on LD_LIBRARY_PATH: the wheel's library with its version bytes changed.
with_2307() {
	with_env "$@" LD_LIBRARY_PATH=/usr/local/nvidia/lib64
	mkdir -p "$scratch/$1/usr/local/nvidia/lib64"
	python3 -c 'import sys; b=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(b.replace(b"2.28.9",b"2.30.7"))' \
		"$scratch/$1/$WHEEL" "$scratch/$1/usr/local/nvidia/lib64/libnccl.so.2"
}

# ---- NCCL_IB_HCA by version ----
with_env old NCCL_IB_HCA=mlx5_0:,mlx5_1:
run --root "$scratch/old" check --only nccl.ib_hca
[ "$rc" -eq 2 ] && grep -qF "FAIL  nccl.ib_hca        NCCL_IB_HCA (/proc/self/environ): NCCL_IB_HCA=mlx5_0:,mlx5_1: selects no HCA port here" "$out" &&
	grep -qF "(NCCL 2.28.9, the newest here: it reads the empty port of 'mlx5_0:', 'mlx5_1:' as port 0, which no HCA has" "$out" &&
	grep -qx '        fix: export NCCL_IB_HCA=mlx5_0,mlx5_1' "$out"
result "NCCL_IB_HCA=mlx5_0:,mlx5_1: selects nothing for the newest NCCL here (2.28.9: an empty port is port 0)" $?
run --root "$scratch/old" check --only port.state
grep -qE '^mlx5_0/1 .*\(not in NCCL_IB_HCA: not checked\)$' "$out" && grep -qE '^mlx5_1/1 .*\(not in NCCL_IB_HCA: not checked\)$' "$out"
result "check's port table follows the same reading: neither port is NCCL's" $?

with_2307 mixed NCCL_IB_HCA=mlx5_0:,mlx5_1:
run --root "$scratch/mixed" check --only nccl.ib_hca -v
[ "$rc" -eq 2 ] && grep -qF "OK    nccl.ib_hca        NCCL_IB_HCA (/proc/self/environ): NCCL_IB_HCA=mlx5_0:,mlx5_1: selects 2 port(s)" "$out" &&
	grep -qF "FAIL  nccl.ib_hca        NCCL_IB_HCA for NCCL 2.18.3: NCCL 2.18.3 (/opt/conda/envs/train/lib/libnccl.so.2.18.3) reads NCCL_IB_HCA=mlx5_0:,mlx5_1: otherwise than NCCL 2.30.7 (/usr/local/nvidia/lib64/libnccl.so.2)" "$out" &&
	grep -qF "NCCL_IB_HCA for NCCL 2.28.9: NCCL 2.28.9 (/$WHEEL) reads" "$out" &&
	grep -qF "it selects 0 port(s) where 2.30.7 selects 2" "$out" &&
	[ "$(grep -c '^        fix: export NCCL_IB_HCA=mlx5_0,mlx5_1$' "$out")" -eq 3 ]
result "2.30.7 beside older NCCLs: each older one named with its path, what it reads, and one spelling for all" $?

run --root "$scratch/mixed" check --only nccl.ib_hca --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["id"] == "nccl.ib_hca" and x["subject"] == "NCCL_IB_HCA for NCCL 2.28.3"]
sys.exit(0 if len(f) == 1 and f[0]["severity"] == "fail" and f[0]["fix"] == "export NCCL_IB_HCA=mlx5_0,mlx5_1" else 1)' "$out"
result "the same in JSON: one nccl.ib_hca finding per NCCL that reads it otherwise" $?

with_env rails NCCL_IB_HCA=mlx5_0::0:0,mlx5_1::0:1
run --root "$scratch/rails" check --only nccl.ib_hca
[ "$rc" -eq 2 ] && grep -qF "it does not read the ':rail:plane' fields of 'mlx5_0::0:0', 'mlx5_1::0:1' (read from 2.30.7 on)" "$out" &&
	grep -qx '        fix: export NCCL_IB_HCA=mlx5_0:1:0:0,mlx5_1:1:0:1' "$out"
result "hca::rail:plane on NCCL 2.28: the fix writes the one port, so every version selects it and 2.30.7 keeps the rails" $?

with_env rails2 NCCL_IB_HCA==mlx5_0:1:0:0,mlx5_1:1:0:1
run --root "$scratch/rails2" check --only nccl.ib_hca
[ "$rc" -eq 0 ] && grep -qF "INFO  nccl.ib_hca        NCCL_IB_HCA for NCCL 2.18.3: NCCL 2.18.3 (/opt/conda/envs/train/lib/libnccl.so.2.18.3) reads NCCL_IB_HCA==mlx5_0:1:0:0,mlx5_1:1:0:1 without its rails and planes" "$out" &&
	grep -qx "        fix: pip install -U 'nvidia-nccl-cu13>=2.30.7'" "$out" &&
	grep -qx "        fix: conda install -c conda-forge 'nccl>=2.30.7'   # in conda env train (/opt/conda/envs/train)" "$out"
result "rails and planes that an older NCCL does not read: said per NCCL, with its upgrade" $?

with_env plain NCCL_IB_HCA==mlx5_0:1,mlx5_1:1
run --root "$scratch/plain" check --only nccl.ib_hca
[ "$rc" -eq 0 ] && ! grep -q "NCCL_IB_HCA for NCCL" "$out"
result "a value every version reads alike gives no per-version finding" $?

# ---- gid --suggest and nccl-env by NCCL version ----
CONDA='NCCL 2.18.3 (conda env train (/opt/conda/envs/train): /opt/conda/envs/train/lib/libnccl.so.2.18.3)'
run --root "$FIX/nccl-libs" gid --suggest
[ "$rc" -eq 0 ] && [ "$(head -1 "$out")" = "NCCL_IB_GID_INDEX=5" ] &&
	grep -qxF "$CONDA: set NCCL_IB_GID_INDEX=5 (it would use 0 on every HCA, link-local: before 2.21 NCCL does not choose)" "$out" &&
	grep -qxF "NCCL 2.28.9 (venv /opt/torch/.venv: /$WHEEL): leave it unset; it will pick 5 on every HCA" "$out"
result "gid --suggest: each NCCL found, with its path: 2.18.3 must be told 5, 2.28.9 picks 5 itself" $?

with_env v1 NCCL_IB_ROCE_VERSION_NUM=1
run --root "$scratch/v1" gid --suggest --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = {x["version"]: x for x in d["nccl_versions"]}
sys.exit(0 if v["2.28.9"]["gid_index"] == 5 and v["2.28.9"]["advice"] == "set NCCL_IB_GID_INDEX=5 (it would pick 4 on every HCA, RoCE v1)"
         and v["2.28.9"]["path"] == "/'"$WHEEL"'" and v["2.28.9"]["where"] == "venv /opt/torch/.venv" else 1)' "$out"
result "gid --suggest --json: a 2.21+ NCCL whose own choice is wrong here (NCCL_IB_ROCE_VERSION_NUM=1) is told what to set" $?

run --root "$FIX/nccl-libs" nccl-env
[ "$rc" -eq 0 ] && grep -qxF "# $CONDA: set NCCL_IB_GID_INDEX=5 (it would use 0 on every HCA, link-local: before 2.21 NCCL does not choose)" "$out" &&
	grep -qxF "export NCCL_IB_GID_INDEX='5'   # RoCE v2 IPv4 GID on every chosen port (unset, NCCL 2.18.3 would use 0)" "$out"
result "nccl-env with an NCCL before 2.21 on the node: the index is set, and the comment says which NCCL needs it" $?

run --root "$FIX/nccl-libs" nccl-env --nccl-version 2.28
[ "$rc" -eq 0 ] && ! grep -q NCCL_IB_GID_INDEX= "$out" &&
	grep -qxF "# NCCL 2.28 (--nccl-version): leave it unset; it will pick 5 on every HCA" "$out" &&
	grep -qF "NCCL_IB_GID_INDEX left to NCCL" "$out"
result "nccl-env --nccl-version 2.28: NCCL_IB_GID_INDEX is left out, NCCL picks 5 on every HCA itself" $?

run --root "$FIX/nccl-libs" nccl-env --nccl-version 2.28 --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = d["nccl_versions"]
sys.exit(0 if len(n) == 1 and n[0]["gid_index"] is None and n[0]["path"] is None
         and "NCCL_IB_GID_INDEX" not in [v["name"] for v in d["variables"]] else 1)' "$out"
result "nccl-env JSON: nccl_versions, and no NCCL_IB_GID_INDEX variable" $?

run --root "$FIX/eight-hca" nccl-env
[ "$rc" -eq 0 ] && grep -qxF "export NCCL_IB_GID_INDEX='3'   # RoCE v2 IPv4 GID on every chosen port" "$out" && ! grep -q "^# NCCL " "$out"
result "nccl-env with no NCCL found: the index as before, no version lines" $?

bad "nccl-env --nccl-version x: usage error" 64 "bad --nccl-version 'x'" -- --root "$FIX/nccl-libs" nccl-env --nccl-version x
bad "gid --nccl-version without --suggest: usage error" 64 "apply only with --suggest" -- --root "$FIX/nccl-libs" gid --nccl-version 2.18

tap_end
