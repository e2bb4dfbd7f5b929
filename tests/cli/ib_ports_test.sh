#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# InfiniBand ports in NCCL's GID prediction and the advice built on it (issue 13): NCCL addresses an IB port by
# LID, so `nccl`, `gid --suggest`, `nccl-env` and gid.env list it with that (its LID, no GID index to set) and never
# say "every HCA" of a host where one HCA is IB; the RoCE advice for the RoCE port beside it stays what it was.
# Fixtures: infiniband (one IB port), ib-roce-mixed (mlx5_0 IB, mlx5_1 RoCE on the same VPI card). Also the
# H100 VM without RDMA: one answer (no RDMA device), no ib_uverbs/rdma_ucm findings piled on it.
# usage: ib_ports_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout; about 30 runs, 2 s idle)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
IB=$FIX/infiniband
MIXED=$FIX/ib-roce-mixed
py() { python3 -c "$1" "$out"; }

# ---- nccl: the IB port is listed with what NCCL does there ----
expect "nccl 2.23, IB only: the port listed, by LID 0x5 (SM LID 0x1)" 0 \
	'^  mlx5_0/1 \(ib0\): LID - InfiniBand: NCCL addresses it by LID 0x5 \(SM LID 0x1\); GID index 0 \(fe80::b8ce:f603:a1:b2c0\)' \
	-- --root "$IB" nccl --nccl-version 2.23
grep -q 'no RoCE port: NCCL 2.23 in --nccl-version addresses InfiniBand mlx5_0/1 by LID, with no GID index to set' "$out" &&
	! grep -q 'every HCA' "$out"
result "nccl 2.23, IB only: the advice names the IB port, no 'every HCA'" $?

run --root "$IB" --json nccl --nccl-version 2.18
[ "$rc" -eq 0 ] && py 'import json,sys
d=json.load(open(sys.argv[1])); p=d["predictions"][0]; q=p["ports"]
assert p["ok"] and p["fix"] is None and len(q) == 1, p
q=q[0]
assert (q["port"], q["link_layer"], q["state"], q["lid"], q["verdict"]) == ("mlx5_0/1", "InfiniBand", "ACTIVE", 5, "InfiniBand"), q
assert q["index"] == 0 and q["suggested"] is None and not q["chosen_by_nccl"] and "without a GRH" in q["reason"], q'
result "nccl --json 2.18, IB only: link_layer, state, lid, verdict InfiniBand, no suggestion" $?

expect "nccl 2.18, mixed: the RoCE port still needs 3 pinned" 1 \
	'^  NCCL 2.18 in --nccl-version uses 0 on every RoCE HCA, not routable RoCE v2 everywhere: set NCCL_IB_GID_INDEX=3; InfiniBand mlx5_0/1: by LID, no GID index to set$' \
	-- --root "$MIXED" nccl --nccl-version 2.18
grep -q '^  mlx5_0/1 (ib0): LID - InfiniBand: NCCL before 2.22 addresses it by LID 0x5' "$out" &&
	grep -q '^  mlx5_1/1 (enp170s0f1np1): 0 - NCCL before 2.21 does not choose' "$out" &&
	grep -q '^  fix: export NCCL_IB_GID_INDEX=3$' "$out" && ! grep -q 'on every HCA' "$out"
result "nccl 2.18, mixed: both ports in host order, the RoCE fix unchanged, never 'every HCA'" $?

expect "nccl 2.23, mixed: leave it unset, 3 on every RoCE HCA, IB by LID" 0 \
	'^  leave NCCL_IB_GID_INDEX unset: NCCL 2.23 in --nccl-version picks 3 on every RoCE HCA; InfiniBand mlx5_0/1: by LID' \
	-- --root "$MIXED" nccl --nccl-version 2.23

# ---- gid --suggest ----
expect "gid --suggest, mixed: 3 for the RoCE port, the IB port listed by its LID" 0 \
	'^mlx5_0/1 \(ib0\): none - InfiniBand link layer: NCCL addresses the port by its LID 0x5, not by a GID index' \
	-- --root "$MIXED" gid --suggest
grep -qx 'NCCL_IB_GID_INDEX=3' "$out" && grep -q '^mlx5_1/1 (enp170s0f1np1): 3 - ' "$out"
result "gid --suggest, mixed: the RoCE answer unchanged" $?
run --root "$MIXED" --json gid --suggest
[ "$rc" -eq 0 ] && py 'import json,sys
d=json.load(open(sys.argv[1])); r={p["device"]: p for p in d["ports"]}
assert d["gid_index"] == 3 and d["consistent"] and sorted(r) == ["mlx5_0", "mlx5_1"], d
assert r["mlx5_0"]["link_layer"] == "InfiniBand" and r["mlx5_0"]["gid_index"] is None, r
assert r["mlx5_1"]["gid_index"] == 3, r'
result "gid --suggest --json, mixed: both ports, IB gid_index null" $?
expect "gid --suggest, IB only: still no index to suggest (exit 2), the LID named" 2 \
	'^mlx5_0/1 \(ib0\): none - InfiniBand link layer: .*LID 0x5' -- --root "$IB" gid --suggest

# ---- nccl-env ----
run --root "$MIXED" nccl-env
[ "$rc" -eq 0 ] && grep -qx "export NCCL_IB_HCA='mlx5_1:1'   # 1 usable RoCE port(s)" "$out" &&
	grep -q 'left out mlx5_0/1 (ib0): InfiniBand link layer: .*add mlx5_0:1 to it to keep NCCL using the port' "$err"
result "nccl-env, mixed: RoCE env, and how to keep the IB port that NCCL_IB_HCA drops" $?
bad "nccl-env, IB only: no RoCE port, and why none is needed" 2 \
	'no usable RoCE port: only InfiniBand, where NCCL needs no GID setting' -- --root "$IB" nccl-env

# ---- gid.env ----
expect "check, IB only: gid.env ok with the index unset (no 'older NCCL uses index 0')" 0 \
	'OK    gid.env +NCCL_IB_GID_INDEX is unset: right, there is no RoCE port and NCCL addresses InfiniBand mlx5_0/1 by LID' \
	-- --root "$IB" check --only gid.env -v
! grep -q 'link-local' "$out"; result "check, IB only: no link-local warning" $?
cp -a "$IB" "$scratch/ib-env" && mkdir -p "$scratch/ib-env/proc/self" &&
	printf 'HOME=/root\0NCCL_IB_GID_INDEX=3\0' >"$scratch/ib-env/proc/self/environ"
expect "check, IB only, NCCL_IB_GID_INDEX=3: info, nothing to apply to, unset it" 0 \
	'INFO  gid.env +NCCL_IB_GID_INDEX is 3 \(/proc/self/environ\) and has no RoCE port to apply to: NCCL addresses InfiniBand mlx5_0/1 by LID' \
	-- --root "$scratch/ib-env" check --only gid.env
grep -q 'fix: unset NCCL_IB_GID_INDEX' "$out"; result "check, IB only, pinned: the fix unsets it" $?
expect "check, mixed: gid.env for the RoCE port, the IB port named as going by LID" 0 \
	'INFO  gid.env +NCCL_IB_GID_INDEX is unset: NCCL >= 2.21 picks per HCA, .*; InfiniBand mlx5_0/1 goes by LID' \
	-- --root "$MIXED" check --only gid.env
grep -q 'fix: export NCCL_IB_GID_INDEX=3' "$out"; result "check, mixed: the RoCE fix stays" $?
# The mixed host with nccl-libs' NCCLs (2.18.3 in a conda env, 2.28.3 and 2.28.9): their advice by version.
cp -a "$MIXED" "$scratch/mixed-nccl" && cp -a "$FIX/nccl-libs/etc" "$FIX/nccl-libs/usr" "$FIX/nccl-libs/opt" \
	"$FIX/nccl-libs/var" "$FIX/nccl-libs/proc" "$scratch/mixed-nccl/" 2>/dev/null
expect "check, mixed, NCCL 2.18 found: warns with the RoCE pin, the IB port by LID" 1 \
	'WARN  gid.env +NCCL_IB_GID_INDEX is unset: NCCL 2.18.3 .*set NCCL_IB_GID_INDEX=3; InfiniBand mlx5_0/1: by LID, no GID index to set' \
	-- --root "$scratch/mixed-nccl" check --only gid.env

# ---- snapshots carry the LIDs ----
run --root "$IB" snapshot
cp "$out" "$scratch/ib.json"
py 'import json,sys
p=json.load(open(sys.argv[1]))["host"]["devices"][0]["ports"][0]
assert (p["lid"], p["sm_lid"]) == (5, 1), p'
result "snapshot: an IB port's lid and sm_lid" $?
expect "nccl --from the snapshot: the same LID" 0 'by LID 0x5 \(SM LID 0x1\)' -- --from "$scratch/ib.json" nccl --nccl-version 2.23
python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for dev in d["host"]["devices"]:
    for p in dev["ports"]:
        del p["lid"], p["sm_lid"]
json.dump(d, open(sys.argv[2], "w"))' "$scratch/ib.json" "$scratch/old.json"
expect "nccl --from a snapshot taken before LIDs were read: LID unknown, not refused" 0 \
	'NCCL addresses it by its LID \(unknown here\)' -- --from "$scratch/old.json" nccl --nccl-version 2.23
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["host"]["devices"][0]["ports"][0]["lid"] = 70000
json.dump(d, open(sys.argv[2], "w"))' "$scratch/ib.json" "$scratch/bad.json"
bad "a snapshot with a LID beyond 16 bits is refused by its path" 3 \
	'host\.devices\[0\]\.ports\[0\]\.lid: expected an integer from 0 to 65535 or null, got 70000' \
	-- --from "$scratch/bad.json" nccl --nccl-version 2.23

# ---- a GPU VM without RDMA: one answer ----
run --root "$FIX/h100-vm" check
grep -q 'FAIL  rdma.devices' "$out" && ! grep -q 'kernel.modules' "$out" && [ "$(grep -c '^  FAIL' "$out")" -eq 1 ]
result "h100-vm: no RDMA device is the one failure; no ib_uverbs/rdma_ucm findings beside it" $?

tap_end
