#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor nccl (issue 13, first half): the NCCL libraries and net plugins on the nccl-libs and nccl-bad
# fixtures, each NCCL version's predicted GID index, --nccl-version, NCCL_IB_* settings, --from, bad input.
# usage: nccl_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
lib() { echo "[l for l in d['libraries'] if l['real_path'] == '$1'][0]"; }
pred() { echo "[p for p in d['predictions'] if p['version'] == '$1'][0]"; }
SYS=/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3
CONDA=/opt/conda/envs/train/lib/libnccl.so.2.18.3
WHEEL=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2

# A copy of a fixture with its own job environment (NUL-separated NAME=VALUE arguments).
with_env() {
	local from=$1 to=$scratch/$2; shift 2
	rm -rf "$to"; cp -a "$FIX/$from" "$to"; mkdir -p "$to/proc/self"
	printf '%s\0' "$@" > "$to/proc/self/environ"
}

# ---- the libraries ----
expect "nccl lists the three NCCLs, each with its version and CUDA from the file" 1 \
	"^  2.28.3\+cuda13.0 +$SYS$" -- --root "$FIX/nccl-libs" nccl
grep -qE "^  2.18.3\+cuda12.1 +$CONDA$" "$out" && grep -qE "^  2.28.9\+cuda13.0 +$WHEEL$" "$out"
result "the conda env's 2.18.3 and the wheel's 2.28.9 are listed with their real paths" $?
grep -qF "found as /usr/lib/x86_64-linux-gnu/libnccl.so.2 (the linker's cache (/etc/ld.so.cache))" "$out" &&
	grep -qF "found as $WHEEL (venv /opt/torch/.venv)" "$out" &&
	grep -qF "(conda env train (/opt/conda/envs/train))" "$out"
result "each library says where it was found: ld.so.cache, the venv on PATH, the conda env" $?
grep -qF "package: dpkg libnccl2 2.28.3-1+cuda13.0" "$out" && grep -qF "package: pip nvidia-nccl-cu13 2.28.9" "$out"
result "packaging: dpkg's owner and version of the system NCCL, the wheel's METADATA" $?
grep -qE "^  net plugin +/opt/conda/envs/train/lib/libnccl-net.so$" "$out" &&
	grep -qF "a net plugin may replace NCCL's IB transport" "$out"
result "the net plugin beside the conda NCCL is listed with what it means" $?
[ "$(grep -c "found as" "$out")" -eq 7 ]
result "symlinks are one library: 7 names for 4 files (deduplicated by real path)" $?

expect "nccl --json: roce-doctor/nccl/v1" 1 '"schema"' -- --root "$FIX/nccl-libs" --json nccl
json_ok roce-doctor/nccl/v1
result "nccl --json parses" $?
py "len(d['libraries']) == 4 and [l['kind'] for l in d['libraries']].count('net_plugin') == 1"
result "json: four libraries, one of them a net plugin" $?
py "$(lib $SYS)['elf_version'] == '2.28.3' and $(lib $SYS)['name_version'] == '2.28.3' and $(lib $SYS)['cuda'] == '13.0' and $(lib $SYS)['package'] == {'manager': 'dpkg', 'name': 'libnccl2', 'version': '2.28.3-1+cuda13.0'}"
result "json: the system NCCL's version from its .rodata, its file name and dpkg" $?
py "$(lib $WHEEL)['version'] == '2.28.9' and $(lib $WHEEL)['name_version'] is None and $(lib $WHEEL)['package']['name'] == 'nvidia-nccl-cu13'"
result "json: the wheel's libnccl.so.2 has no version in its name; the banner and METADATA say 2.28.9" $?
py "d['net_plugin'] is None and d['nccl_version'] is None and d['settings']['NCCL_IB_GID_INDEX'] is None"
result "json: NCCL_NET_PLUGIN and NCCL_IB_GID_INDEX unset are null" $?

# ---- the GID each version will use ----
expect "NCCL 2.18.3 uses index 0, link-local, and is told to pin 5" 1 \
	"^  mlx5_0/1 \(ens19f0np0\): 0 - NCCL before 2.21 does not choose: index 0 unless NCCL_IB_GID_INDEX is set; 0 is fe80::5aa2:e1ff:feb0:3772 RoCE v1, link-local" \
	-- --root "$FIX/nccl-libs" nccl
grep -qF "NCCL 2.18.3 in conda env train (/opt/conda/envs/train) uses 0 on every HCA, not routable RoCE v2 everywhere: set NCCL_IB_GID_INDEX=5" "$out" &&
	grep -qxF "  fix: export NCCL_IB_GID_INDEX=5" "$out"
result "2.18.3's advice names where it is and the exact export" $?
grep -qF "leave NCCL_IB_GID_INDEX unset: NCCL 2.28.9 in venv /opt/torch/.venv picks 5 on every HCA" "$out" &&
	grep -qF "mlx5_1/1 (ens19f1np1): 5 - NCCL chooses index 5 (AF_INET, RoCE v2): ::ffff:192.168.88.11 RoCE v2" "$out"
result "2.28.9 chooses 5 itself: leave the index unset" $?
grep -qE "^warn  nccl.versions_differ  NCCL 2.28.3 .* uses 5 on every HCA; NCCL 2.18.3 .* uses 0 on every HCA" "$out" &&
	grep -qF "  fix: export NCCL_IB_GID_INDEX=5   # the same for every NCCL on the node" "$out"
result "two NCCLs that would differ: nccl.versions_differ with the index for both" $?
run --root "$FIX/nccl-libs" --json nccl
py "$(pred 2.18.3)['ports'][0]['verdict'] == 'link-local' and $(pred 2.18.3)['chooses_gid'] is False and $(pred 2.28.9)['ports'][1]['index'] == 5 and $(pred 2.28.9)['ports'][1]['chosen_by_nccl'] and d['findings'][0]['id'] == 'nccl.versions_differ'"
result "json: predictions per version, verdicts and the finding" $?

expect "--nccl-version 2.18 overrides what was found: index 0, exit 1" 1 "^NCCL 2.18 \(--nccl-version\): FAIL" \
	-- --root "$FIX/nccl-libs" nccl --nccl-version 2.18
[ "$(grep -c '^NCCL [0-9]' "$out")" -eq 1 ] && ! grep -q versions_differ "$out"
result "--nccl-version predicts that version only" $?
expect "--nccl-version 2.23 on a host without NCCL: picks 5 itself, exit 0" 0 \
	"leave NCCL_IB_GID_INDEX unset: NCCL 2.23 in --nccl-version picks 5 on every HCA" -- --root "$FIX/cx6lx-2port" nccl --nccl-version 2.23
expect "2.20.3 is before the automatic choice, 2.21.5 is the first with it" 0 "NCCL chooses index 5" \
	-- --root "$FIX/cx6lx-2port" nccl --nccl-version 2.21.5
expect "2.20.3 still uses index 0" 1 ": 0 - NCCL before 2.21 does not choose" -- --root "$FIX/cx6lx-2port" nccl --nccl-version 2.20.3
expect "a node without RDMA (NCCL over sockets): no GID to choose, exit 0" 0 \
	"no RoCE port: NCCL 2.18 in --nccl-version has no GID to choose" -- --root "$FIX/no-rdma" nccl --nccl-version 2.18
expect "no NCCL on the node: exit 2, says what was searched" 2 "^no NCCL library found" -- --root "$FIX/cx6lx-2port" nccl

# ---- NCCL's settings change the prediction ----
with_env nccl-libs pinned5 HOME=/root PATH=/opt/torch/.venv/bin NCCL_IB_GID_INDEX=5
expect "NCCL_IB_GID_INDEX=5: every NCCL uses 5, nothing differs, exit 0" 0 \
	"NCCL_IB_GID_INDEX=5 from /proc/self/environ" -- --root "$scratch/pinned5" nccl
! grep -q "versions_differ\|FAIL" "$out" && grep -qF "NCCL 2.18.3 in conda env train (/opt/conda/envs/train) uses 5 on every HCA: right" "$out"
result "the pinned index is right for the old NCCL too" $?
with_env nccl-libs pinned3 HOME=/root PATH=/opt/torch/.venv/bin NCCL_IB_GID_INDEX=3
expect "NCCL_IB_GID_INDEX=3 (link-local): 2.28 is told to unset it, 2.18 to pin 5" 1 \
	"uses 3 on every HCA because NCCL_IB_GID_INDEX=3 pins it; unset, it picks a routable RoCE v2 GID on every HCA itself" \
	-- --root "$scratch/pinned3" nccl
grep -qxF "  fix: unset NCCL_IB_GID_INDEX" "$out" && grep -qxF "  fix: export NCCL_IB_GID_INDEX=5" "$out"
result "version-correct fixes: unset for 2.28, export 5 for 2.18" $?
with_env cx6lx-2port v1 NCCL_IB_ROCE_VERSION_NUM=1
expect "NCCL_IB_ROCE_VERSION_NUM=1: 2.21+ picks the RoCE v1 entry 4 (and it is not routable)" 1 \
	"mlx5_0/1 \(ens19f0np0\): 4 - NCCL chooses index 4 \(AF_INET, RoCE v1\)" -- --root "$scratch/v1" nccl --nccl-version 2.28
with_env cx6lx-2port range NCCL_IB_ADDR_RANGE=10.0.0.0/8
expect "NCCL_IB_ADDR_RANGE that holds no GID: NCCL stays on 0" 1 \
	"mlx5_0/1 \(ens19f0np0\): 0 - NCCL chooses index 0 \(AF_INET in 10.0.0.0/8, RoCE v2\)" -- --root "$scratch/range" nccl --nccl-version 2.28
with_env cx6lx-2port range2 NCCL_IB_ADDR_RANGE=192.168.88.0/24
expect "NCCL_IB_ADDR_RANGE that holds the address: 5" 0 ": 5 - NCCL chooses index 5 \(AF_INET in 192.168.88.0/24" \
	-- --root "$scratch/range2" nccl --nccl-version 2.28
with_env ipv6-only v6 NCCL_IB_ADDR_FAMILY=AF_INET6
expect "NCCL_IB_ADDR_FAMILY=AF_INET6 on an IPv6-only port: 3, the global v2 entry" 0 \
	"mlx5_0/1 \(ens1np0\): 3 - NCCL chooses index 3 \(AF_INET6, RoCE v2\): 2001:db8:42::10 RoCE v2" -- --root "$scratch/v6" nccl --nccl-version 2.23
expect "the same port for AF_INET (the default): no IPv4 GID, NCCL ends on a link-local one" 1 \
	"\(AF_INET, RoCE v2\): fe80::" -- --root "$FIX/ipv6-only" nccl --nccl-version 2.23
# ... and the answer is the one check and nccl-env give: NCCL_IB_ADDR_FAMILY=AF_INET6 and the index, never a -1
! grep -q -- '-1' "$out" && grep -q 'set NCCL_IB_ADDR_FAMILY=AF_INET6 (it then picks 3), or NCCL_IB_GID_INDEX=3' "$out" \
	&& grep -q '^  fix: export NCCL_IB_ADDR_FAMILY=AF_INET6   # ' "$out" && grep -q '^       export NCCL_IB_GID_INDEX=3   # ' "$out"
result "nccl 2.23 on IPv6-only: set NCCL_IB_ADDR_FAMILY=AF_INET6 and index 3, no '-1'" $?
nccl_fix=$(sed -n 's/^  fix: //p; s/^       export/export/p' "$out")
run --root "$FIX/ipv6-only" check --family ipv6 --only gid.env
[ "$rc" -eq 2 ] && grep -q '^  FAIL  gid.env ' "$out" && [ "$(sed -n 's/^        fix: //p; s/^             export/export/p' "$out")" = "$nccl_fix" ]
result "check --family ipv6 on IPv6-only: gid.env fails with nccl's fix, word for word" $?
run --root "$FIX/ipv6-only" nccl-env --family ipv6
[ "$rc" -eq 0 ] && grep -q "^export NCCL_IB_GID_INDEX='3'" "$out" && grep -q "^export NCCL_IB_ADDR_FAMILY='AF_INET6'" "$out"
result "nccl-env --family ipv6: the index and NCCL_IB_ADDR_FAMILY=AF_INET6" $?

# ---- check's gid.env knows the NCCLs on the node ----
expect "check: NCCL_IB_GID_INDEX unset with an NCCL 2.18 on the node is a warning naming it, with the export" 1 \
	"WARN +gid.env +NCCL_IB_GID_INDEX is unset: NCCL 2.18.3 in conda env train \(/opt/conda/envs/train\) uses 0 on every HCA" \
	-- --root "$FIX/nccl-libs" check --only gid.env
grep -qxF "        fix: export NCCL_IB_GID_INDEX=5" "$out"
result "check gid.env's fix for the old NCCL is the export" $?
mkdir -p "$scratch/only-new" && cp -a "$FIX/nccl-libs/." "$scratch/only-new" && rm -r "$scratch/only-new/opt/conda"
expect "check: every NCCL on the node is 2.21 or later: gid.env ok, leave it unset" 0 \
	"OK +gid.env +NCCL_IB_GID_INDEX is unset, and every NCCL on the node picks a routable RoCE v2 GID itself: NCCL 2.28.3 in the linker's cache .* picks 5 on every HCA; NCCL 2.28.9" \
	-- --root "$scratch/only-new" check --only gid.env -v
rm "$scratch/only-new/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2" \
	"$scratch/only-new/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3"
cp "$FIX/nccl-libs/opt/conda/envs/train/lib/libnccl.so.2.18.3" "$scratch/only-new/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3"
expect "check: the only NCCL is 2.18 (whatever its name says): gid.env fails" 2 \
	"FAIL +gid.env +NCCL_IB_GID_INDEX is unset: NCCL 2.18.3 in the linker's cache" -- --root "$scratch/only-new" check --only gid.env
expect "check: no NCCL on the node: the generic info stands" 0 "INFO +gid.env +NCCL_IB_GID_INDEX is unset: NCCL >= 2.21 picks per HCA" \
	-- --root "$FIX/cx6lx-2port" check --only gid.env -v

# ---- damaged files: a warning naming each, never a wrong version ----
run --root "$FIX/nccl-bad" nccl
grep -qF "warning: /etc/ld.so.cache: not a glibc ld.so cache, or truncated" "$err" &&
	grep -qF "warning: /opt/bad/lib/libnccl.so.2: not an ELF file" "$err" &&
	grep -qF "warning: /opt/bad/lib/libnccl.so.2.19.3: truncated or damaged ELF headers" "$err" &&
	grep -qF "warning: /opt/bad/lib/libnccl.so.2.20.3: no \"NCCL version X.Y.Z\" string in its .rodata" "$err" &&
	grep -qF "warning: /opt/loop/libnccl.so: a symlink loop" "$err"
result "nccl-bad: each damaged file and the loop is a warning naming it" $?
[ "$rc" -eq 1 ] && grep -qE "^  2.19.3 +/opt/bad/lib/libnccl.so.2.19.3$" "$out" && grep -qE "^  - +/opt/bad/lib/libnccl.so.2$" "$out"
result "nccl-bad: a truncated library keeps the version of its name, a text file none" $?
grep -qxF 'a plain program here (dlopen("libnccl.so.2")) finds no libnccl.so.2: it fails with "libnccl.so.2: cannot open shared object file"' "$out"
result "nccl-bad: a text file named libnccl.so.2 is skipped as ld.so skips it: nothing loads" $?
grep -qF "NCCL of unknown version in LD_LIBRARY_PATH uses 3 on every HCA, not routable RoCE v2 everywhere: set NCCL_IB_GID_INDEX=5" "$out"
result "an NCCL of unknown version (maybe before 2.21) is told to pin, not to unset" $?

# thousands of site-packages: bounded, with a warning, and what was found before still listed
cp -a "$FIX/nccl-libs" "$scratch/many"
mkdir -p "$scratch/many/opt/torch/.venv/lib/python3."{101..2200}/site-packages
run --root "$scratch/many" nccl
[ "$rc" -eq 1 ] && grep -qF "more than 4096 directories searched for NCCL" "$err" && grep -qE "^  2.28.3\+cuda13.0 +$SYS$" "$out"
result "2100 python3.N/site-packages: the search stops at 4096 directories with one warning" $?
[ "$(grep -c "more than 4096" "$err")" -eq 1 ]
result "the directory cap warns once" $?

# ---- --from answers as --root ----
"$BIN" --root "$FIX/nccl-libs" snapshot > "$scratch/libs.json" 2>/dev/null
for args in "nccl" "--json nccl" "nccl --nccl-version 2.19"; do
	# shellcheck disable=SC2086
	run --root "$FIX/nccl-libs" $args; want=$(cat "$out"); want_rc=$rc
	# shellcheck disable=SC2086
	run --from "$scratch/libs.json" $args
	[ "$rc" -eq "$want_rc" ] && [ "$(cat "$out")" = "$want" ]
	result "--from a snapshot gives what --root gave: $args" $?
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]["nccl_libs"]=None; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/libs.json" "$scratch/old.json"
bad "--from a snapshot without nccl_libs: exit 3, one line" 3 "^roce-doctor: snapshot .*old.json was taken without the NCCL libraries" \
	-- --from "$scratch/old.json" nccl
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["system"]["nccl_libs"]; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/libs.json" "$scratch/older.json"
expect "--from an older snapshot with no nccl_libs member still answers devices" 0 "mlx5_0" -- --from "$scratch/older.json" devices
bad "... and nccl says the snapshot has no NCCL libraries, exit 3" 3 "was taken without the NCCL libraries" \
	-- --from "$scratch/older.json" nccl
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]["nccl_libs"]["libraries"][0]["real_path"]="lib.so"; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/libs.json" "$scratch/rel.json"
bad "--from: a relative real_path is refused by its JSON path" 3 "system.nccl_libs.libraries\[0\].real_path: expected an absolute path" \
	-- --from "$scratch/rel.json" nccl

# ---- torch-host: which NCCL a job loads, as ld.so searches (the surveyed H200 host) ----
TH=$FIX/torch-host
WDIR=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib
TORCH=/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so
LOGIN=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
load() { echo "[l for l in d['loads'] if l['program'] == $1][0]"; }
expect "torch-host, a login shell's PATH without the venv: both NCCLs are found" 0 "^NCCL libraries: 2, net plugins: 0$" \
	-- --root "$TH" nccl
grep -qE "^  2.28.9\+cuda13.0 +$WHEEL$" "$out" && grep -qF "found as $WHEEL (venv /opt/torch/.venv)" "$out"
result "the venv in /opt/torch, not on PATH, is searched: the wheel's 2.28.9 with its venv" $?
grep -qxF "a torch job here (venv /opt/torch/.venv) loads NCCL 2.28.9 ($WHEEL): the DT_RPATH of $TORCH finds it before LD_LIBRARY_PATH and the linker's cache; only LD_PRELOAD changes that" "$out"
result "a torch job loads the wheel's NCCL, through libtorch_cuda.so's DT_RPATH" $?
grep -qxF "a plain program here (dlopen(\"libnccl.so.2\")) loads NCCL 2.28.3 ($SYS): the linker's cache (/etc/ld.so.cache) names it (/lib/x86_64-linux-gnu/libnccl.so.2)" "$out"
result "a plain program loads the system's NCCL, through the cache" $?
run --root "$TH" --json nccl
py "$(load "'$TORCH'")['by'] == 'DT_RPATH' and $(load "'$TORCH'")['real_path'] == '$WHEEL' and $(load "'$TORCH'")['where'] == 'venv /opt/torch/.venv' and $(load None)['by'] == 'ld.so.cache' and $(load None)['real_path'] == '$SYS' and $(load None)['needed'] == 'libnccl.so.2'"
result "json: loads, one per program, with the step that found each" $?

with_env torch-host lib-path "${LOGIN[@]}" LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:$WDIR
expect "LD_LIBRARY_PATH naming the system directory: a torch job still loads the wheel's NCCL (DT_RPATH comes first)" 0 \
	"^a torch job here \(venv /opt/torch/.venv\) loads NCCL 2.28.9 \($WHEEL\): the DT_RPATH" -- --root "$scratch/lib-path" nccl
grep -qF "a plain program here (dlopen(\"libnccl.so.2\")) loads NCCL 2.28.3 ($SYS): LD_LIBRARY_PATH finds it first (/usr/lib/x86_64-linux-gnu/libnccl.so.2)" "$out"
result "... while a plain program takes LD_LIBRARY_PATH's" $?
grep -qF "package: dpkg libnccl2 2.28.3-1+cuda13.0" "$out" && ! grep -qF "libnccl-dev" "$out"
result "found through LD_LIBRARY_PATH, the system NCCL is still libnccl2's (libnccl-dev owns only the .so link)" $?
grep -qF "package: pip nvidia-nccl-cu13 2.28.9" "$out" && grep -qxF "      found as $WHEEL (venv /opt/torch/.venv; LD_LIBRARY_PATH)" "$out" &&
	[ "$(grep -c "^  2.28.9+cuda13.0 " "$out")" -eq 1 ] && grep -qF "NCCL 2.28.9 in venv /opt/torch/.venv has no GID to choose" "$out"
result "the wheel found through LD_LIBRARY_PATH keeps its package and venv, listed once with both ways" $?
run --root "$scratch/lib-path" --json nccl
py "len(d['libraries']) == 2 and $(lib $SYS)['package']['name'] == 'libnccl2' and $(lib $WHEEL)['package']['name'] == 'nvidia-nccl-cu13' and $(lib $WHEEL)['found'][0]['where'] == 'venv /opt/torch/.venv'"
result "json: one identity per library however it was found" $?

with_env torch-host preload "${LOGIN[@]}" LD_PRELOAD=/lib/x86_64-linux-gnu/libnccl.so.2
expect "LD_PRELOAD of the system NCCL: a torch job loads it first" 0 \
	"^a torch job here \(venv /opt/torch/.venv\) loads NCCL 2.28.3 \($SYS\): LD_PRELOAD names it \(/lib/x86_64-linux-gnu/libnccl.so.2\)" \
	-- --root "$scratch/preload" nccl

# torch's DT_RPATH turned into a DT_RUNPATH (what --enable-new-dtags writes): LD_LIBRARY_PATH comes first then
with_env torch-host runpath "${LOGIN[@]}" LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
python3 - "$scratch/runpath$TORCH" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28); shnum, = struct.unpack_from('<H', b, 0x3c)
for i in range(shnum):
    s = shoff + 64 * i
    if struct.unpack_from('<I', b, s + 4)[0] == 6:   # SHT_DYNAMIC
        off, size = struct.unpack_from('<QQ', b, s + 24)
        for e in range(off, off + size, 16):
            if struct.unpack_from('<q', b, e)[0] == 15:   # DT_RPATH -> DT_RUNPATH
                struct.pack_into('<q', b, e, 29)
open(sys.argv[1], 'wb').write(b)
PY
expect "a DT_RUNPATH comes after LD_LIBRARY_PATH: that torch loads the system's NCCL" 0 \
	"^a torch job here \(venv /opt/torch/.venv\) loads NCCL 2.28.3 \($SYS\): LD_LIBRARY_PATH finds it first" -- --root "$scratch/runpath" nccl
with_env torch-host runpath2 "${LOGIN[@]}"
cp "$scratch/runpath$TORCH" "$scratch/runpath2$TORCH"
expect "... and without LD_LIBRARY_PATH, its DT_RUNPATH finds the wheel" 0 \
	"^a torch job here \(venv /opt/torch/.venv\) loads NCCL 2.28.9 \($WHEEL\): the DT_RUNPATH of $TORCH finds it" -- --root "$scratch/runpath2" nccl

# ld.so searches its trusted directories after the cache
cp -a "$TH" "$scratch/no-cache" && rm "$scratch/no-cache/etc/ld.so.cache"
expect "no /etc/ld.so.cache: the system NCCL in /lib/x86_64-linux-gnu is still found" 0 \
	"found as /lib/x86_64-linux-gnu/libnccl.so.2 \(ld.so's system directory\)" -- --root "$scratch/no-cache" nccl
grep -qF "a plain program here (dlopen(\"libnccl.so.2\")) loads NCCL 2.28.3 ($SYS): ld.so's system directory holds it (/lib/x86_64-linux-gnu/libnccl.so.2), though /etc/ld.so.cache does not name it" "$out"
result "... and it is what a plain program loads" $?
cp -a "$TH" "$scratch/lib64" && rm -r "$scratch/lib64/etc/ld.so.cache" "$scratch/lib64/etc/ld.so.conf.d/x86_64-linux-gnu.conf" "$scratch/lib64/lib" &&
	mv "$scratch/lib64/usr/lib/x86_64-linux-gnu" "$scratch/lib64/usr/lib64"
expect "a tree without multiarch (Fedora, RHEL): /usr/lib64 is the trusted directory" 0 \
	"found as /usr/lib64/libnccl.so.2 \(ld.so's system directory\)" -- --root "$scratch/lib64" nccl

# environments where training hosts keep them, not on PATH
cp -a "$TH" "$scratch/home-venv" && mv "$scratch/home-venv/opt/torch/.venv" "$scratch/home-venv/home/ubuntu/venv"
expect "a venv in /home/ubuntu/venv, not on PATH, is searched" 0 \
	"^a torch job here \(venv /home/ubuntu/venv\) loads NCCL 2.28.9 \(/home/ubuntu/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2\)" \
	-- --root "$scratch/home-venv" nccl
cp -a "$TH" "$scratch/conda-home" && mkdir -p "$scratch/conda-home/root/.conda/envs" &&
	mv "$scratch/conda-home/opt/torch/.venv" "$scratch/conda-home/root/.conda/envs/train" &&
	rm "$scratch/conda-home/root/.conda/envs/train/pyvenv.cfg"
expect "a conda env in ~/.conda/envs of root is searched" 0 \
	"^a torch job here \(conda env train \(/root/.conda/envs/train\)\) loads NCCL 2.28.9" -- --root "$scratch/conda-home" nccl

cp -a "$FIX/nccl-libs" "$scratch/conda-path" && mkdir -p "$scratch/conda-path/root" &&
	mv "$scratch/conda-path/opt/conda" "$scratch/conda-path/root/miniconda3" &&
	mkdir -p "$scratch/conda-path/root/miniconda3/envs/train/bin" "$scratch/conda-path/root/miniconda3/envs/train/conda-meta" &&
	: > "$scratch/conda-path/root/miniconda3/envs/train/bin/python3" &&
	printf '%s\0' HOME=/root PATH=/root/miniconda3/envs/train/bin:/usr/bin > "$scratch/conda-path/proc/self/environ"
expect "an activated conda env on PATH is searched as conda's: its lib/ holds conda's NCCL" 1 \
	"found as /root/miniconda3/envs/train/lib/libnccl.so.2 \(conda env train \(/root/miniconda3/envs/train\)\)" \
	-- --root "$scratch/conda-path" nccl

# a damaged libtorch_cuda.so: a warning naming it, the rest still answered
cp -a "$TH" "$scratch/bad-torch" && head -c 100 "$TH$TORCH" > "$scratch/bad-torch$TORCH"
run --root "$scratch/bad-torch" nccl
[ "$rc" -eq 0 ] && grep -qF "warning: $TORCH: truncated or damaged ELF headers; which NCCL it loads is not known" "$err" &&
	grep -qF "a plain program here" "$out"
result "a truncated libtorch_cuda.so: one warning naming it, the plain program's choice still given" $?

"$BIN" --root "$TH" snapshot > "$scratch/torch.json" 2>/dev/null
for args in "nccl" "--json nccl"; do
	# shellcheck disable=SC2086
	run --root "$TH" $args; want=$(cat "$out"); want_rc=$rc
	# shellcheck disable=SC2086
	run --from "$scratch/torch.json" $args
	[ "$rc" -eq "$want_rc" ] && [ "$(cat "$out")" = "$want" ]
	result "torch-host: --from a snapshot gives what --root gave: $args" $?
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]["nccl_libs"]["loads"][1]["real_path"]="/x/libnccl.so.2"; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/torch.json" "$scratch/bad-load.json"
bad "--from: a load naming no listed library is refused by its JSON path" 3 "system.nccl_libs.loads\[1\]: real_path: \"/x/libnccl.so.2\" is none of the libraries" \
	-- --from "$scratch/bad-load.json" nccl
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["system"]["nccl_libs"]["loads"]; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/torch.json" "$scratch/no-loads.json"
expect "--from a snapshot without loads (an older roce-doctor): the libraries, no load line" 0 "^NCCL libraries: 2" \
	-- --from "$scratch/no-loads.json" nccl
! grep -q "^a torch job" "$out"
result "... and no load is made up" $?

# A snapshot keeps every source's warnings; nccl --from says those nccl reads itself, as --root does (check
# --from still says the limits files' ones: check reads them)
for fx in check-seed000 check-fresh; do
	"$BIN" --root "$FIX/$fx" snapshot > "$scratch/$fx.json" 2>/dev/null
	"$BIN" --root "$FIX/$fx" nccl > /dev/null 2> "$scratch/root.err"
	"$BIN" --from "$scratch/$fx.json" nccl > /dev/null 2> "$scratch/from.err"
	diff "$scratch/root.err" "$scratch/from.err" > /dev/null
	result "$fx: nccl --from warns as nccl --root does (no pam or systemd line)" $?
	"$BIN" --root "$FIX/$fx" check > /dev/null 2> "$scratch/root.err"
	"$BIN" --from "$scratch/$fx.json" check > /dev/null 2> "$scratch/from.err"
	grep -qE 'limits.conf|system.conf.d' "$scratch/from.err" && diff "$scratch/root.err" "$scratch/from.err" > /dev/null
	result "$fx: check --from still says the limits files' warnings, as check --root" $?
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["system"]["warning_sources"]; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/check-seed000.json" "$scratch/unsaid.json"
expect "--from a snapshot without warning_sources (an older roce-doctor): every warning said" 2 "^NCCL libraries: 0" \
	-- --from "$scratch/unsaid.json" nccl
grep -qF "pam_limits skips it" "$err"
result "... the pam line included, its source unknown" $?
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]["warning_sources"][0]="pam"; json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/check-seed000.json" "$scratch/badsrc.json"
bad "--from: an unknown warning source is refused by its JSON path" 3 "system.warning_sources\[0\]: expected a source name" \
	-- --from "$scratch/badsrc.json" nccl
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]["warning_sources"].append(None); json.dump(d, open(sys.argv[2], "w"))' \
	"$scratch/check-seed000.json" "$scratch/longsrc.json"
bad "--from: warning_sources longer than warnings is refused" 3 "system.warning_sources: expected one entry per warning" \
	-- --from "$scratch/longsrc.json" nccl

# ---- bad input ----
bad "--nccl-version 2 is a usage error" 64 "bad --nccl-version '2': expected X.Y or X.Y.Z" -- --root "$FIX/nccl-libs" nccl --nccl-version 2
bad "--nccl-version 2.x is a usage error" 64 "bad --nccl-version '2.x'" -- nccl --nccl-version 2.x
bad "an argument is a usage error" 64 "unexpected argument 'extra'" -- nccl extra
bad "nccl takes no --family" 64 "family" -- nccl --family ipv4
tap_end
