#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor compare's rules on real snapshots: NCCL libraries by path and version, firmware mixed inside one
# node, which node has which severity of a check id, equal host names; and the text that leads with the odd nodes.
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

# the nodes of the findings with id $1 that are not ok, comma-separated, sorted
finding_nodes() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(",".join(sorted({n for f in d["findings"] if f["id"]==sys.argv[2] and f["severity"] not in ("ok","info") for n in f["nodes"]})))' "$out" "$1"
}

# NCCL: nccl-libs has three NCCLs (2.28.3 system, 2.18.3 conda, 2.28.9 venv); cx6lx-2port has none.
"$BIN" --root "$FIXTURES/nccl-libs" snapshot --json-lines >"$scratch/libs.jsonl" 2>/dev/null
"$BIN" --root "$FIXTURES/cx6lx-2port" snapshot --json-lines >"$scratch/bare.jsonl" 2>/dev/null
sed 's/"hostname":[^,]*,/"hostname":"bare",/' "$scratch/bare.jsonl" >"$scratch/bare-named.jsonl"
for i in 1 2; do sed "s/\"hostname\":[^,]*,/\"hostname\":\"l$i\",/" "$scratch/libs.jsonl"; done >"$scratch/two.jsonl"
run --json compare "$scratch/two.jsonl" "$scratch/bare-named.jsonl"
[ "$rc" -eq 1 ] && [ "$(finding_nodes compare.nccl_version)" = bare ] &&
	grep -q 'libnccl.so.2' "$out" && grep -q '2.18.3' "$out" && grep -q '2.28.9' "$out"
result "NCCL: the node without the others' three libraries is named" $?

# 200 nodes; on n117 the system library was upgraded to 2.19.3
python3 - "$scratch/libs.jsonl" >"$scratch/200.jsonl" <<'PY'
import json, sys
base = json.loads(open(sys.argv[1]).readline())
for i in range(1, 201):
    d = json.loads(json.dumps(base))
    d["identity"]["hostname"] = "n%03d" % i
    if i == 117:
        for lib in d["system"]["nccl_libs"]["libraries"]:
            if lib["real_path"].endswith("libnccl.so.2.28.3"):
                lib["real_path"] = lib["real_path"].replace("2.28.3", "2.19.3")
                for k in ("version", "elf_version", "name_version"):
                    lib[k] = "2.19.3"
                lib["package"]["version"] = "2.19.3-1+cuda12.2"
        for load in d["system"]["nccl_libs"].get("loads", []):   # which library each program loads, by real path
            if (load.get("real_path") or "").endswith("libnccl.so.2.28.3"):
                load["real_path"] = load["real_path"].replace("2.28.3", "2.19.3")
    print(json.dumps(d))
PY
run --json compare "$scratch/200.jsonl"
[ "$rc" -eq 1 ] && [ "$(finding_nodes compare.nccl_version)" = n117 ]
result "NCCL: of 200 nodes, the one whose libnccl2 is 2.19.3 is named" $?
run compare "$scratch/200.jsonl"
grep -q 'fix: on n117: .*`apt install libnccl2=2.28.3-1+cuda13.0`' "$out"
result "NCCL: its fix installs the others' libnccl2 on n117" $?

# 200 nodes in text: the verdict and the odd row lead, not 200 rows
run compare "$scratch/200.jsonl"
head -1 "$out" | grep -q '^verdict: warn (200 nodes' && [ "$(wc -l <"$out")" -lt 40 ] &&
	[ "$(grep -cE '^n[0-9]{3} ' "$out")" -eq 1 ] && grep -qE '^n117 .* 2\.19\.3,2\.18\.3,2\.28\.9! ' "$out" &&
	grep -qx '(199 other nodes: no cell differs; -v shows every row)' "$out"
result "200 nodes: verdict first, the odd row and a count of the rest, fewer than 40 lines" $?
run compare -v "$scratch/200.jsonl"
[ "$(grep -cE '^n[0-9]{3} ' "$out")" -eq 200 ]
result "200 nodes with -v: every row" $?

# The same file twice is one node, said once on stderr
run --json compare "$scratch/libs.jsonl" "$scratch/libs.jsonl"
[ "$rc" -le 1 ] && [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nodes"]))' "$out")" = 1 ] &&
	[ "$(grep -c 'given more than once: compared once' "$err")" -eq 1 ] && [ "$(wc -l <"$err")" -eq 1 ] &&
	! grep -q compare.hostname <(grep -v '"ok"' "$out")
result "the same file given twice: one node, said once on stderr" $?
ln -s "$scratch/libs.jsonl" "$scratch/link.jsonl"
run --json compare "$scratch/libs.jsonl" "$scratch/link.jsonl" "$scratch/bare-named.jsonl"
[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nodes"]))' "$out")" = 2 ] &&
	grep -q 'link.jsonl is the same file as .*libs.jsonl: compared once' "$err"
result "a link to a file already given: the same node, said so" $?

# Firmware: on f2, mlx5_3 (one of eight HCAs of board MT_0000000223) was upgraded alone to 20.37.1000.
for i in 1 2 3; do
	cp -r "$FIXTURES/eight-hca" "$scratch/f$i"
	mkdir -p "$scratch/f$i/etc" && echo "f$i" >"$scratch/f$i/etc/hostname"
done
echo 20.37.1000 >"$(find "$scratch/f2/sys/devices" -path '*/infiniband/mlx5_3/fw_ver')"
for i in 1 2 3; do "$BIN" --root "$scratch/f$i" snapshot --json-lines 2>/dev/null; done >"$scratch/fw.jsonl"
run --json compare "$scratch/fw.jsonl"
[ "$rc" -eq 1 ] && [ "$(finding_nodes compare.firmware)" = f2 ]
result "firmware mixed inside one node: the node is named, not ok" $?
run compare "$scratch/fw.jsonl"
grep -qE 'WARN +compare\.firmware .*firmware of board MT_0000000223 differs inside f2: mlx5_3 runs 20\.37\.1000; its other 7 HCAs' "$out" &&
	grep -qE 'fix: on f2: burn firmware 20\.36\.1010 on mlx5_3 \(now 20\.37\.1000\)' "$out" &&
	[ "$(grep -c 'burn firmware' "$out")" -eq 1 ] && ! grep -q 'OK +compare\.firmware' "$out"
result "firmware mixed inside one node: the device and its version named, one burn for it" $?

# Two VMs whose host name was never set (the kernel's "(none)"): a warning that says so, not a failed pair.
for i in 1 3; do sed 's/"hostname":"f[0-9]"/"hostname":"(none)"/' <(sed -n ${i}p "$scratch/fw.jsonl") >"$scratch/vm$i.json"; done
run compare "$scratch/vm1.json" "$scratch/vm3.json"
[ "$rc" -eq 1 ] && grep -qE 'WARN +compare\.hostname +hostnames: the host name is unset \(the kernel.s \(none\)\) on 2 nodes' "$out" &&
	grep -q 'MPI hostfiles and Slurm node names' "$out" && grep -q 'hostnamectl set-hostname NAME' "$out"
result "host name (none) on two nodes: a warning naming it unset, with hostnamectl" $?

# compare and --from read the same inputs the same way (one reader)
: >"$scratch/empty.json"
head -c 300 /dev/urandom | tr '{' x >"$scratch/random.bin"
for bad_input in empty.json random.bin; do
	"$BIN" compare "$scratch/$bad_input" >"$out" 2>"$scratch/c.err"; c_rc=$?
	"$BIN" --from "$scratch/$bad_input" devices >>"$out" 2>"$err"; rc=$?
	[ "$c_rc" -eq 3 ] && [ "$rc" -eq 3 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && cmp -s "$err" "$scratch/c.err"
	result "$bad_input: compare and --from refuse it with the same one line" $?
done
"$BIN" --root "$FIXTURES/cx6lx-2port" snapshot | sed 's/^/node7: /' >"$scratch/pdsh.json"
run --from "$scratch/pdsh.json" devices
[ "$rc" -eq 0 ] && grep -q '^mlx5_0 ' "$out"
result "--from a pdsh 'host: {...}' file: read as compare reads it" $?
{ "$BIN" --root "$FIXTURES/cx6lx-2port" snapshot; "$BIN" --root "$FIXTURES/nccl-libs" snapshot; } >"$scratch/pretty2.json" 2>/dev/null
run --json compare "$scratch/pretty2.json"
[ "$rc" -le 2 ] && [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nodes"]))' "$out")" = 2 ]
result "two indented documents in one file: compare reads both" $?
run --from "$scratch/pretty2.json" devices
cut=$(grep -o "sed -n '[0-9]*,[0-9]*p'" "$err" | grep -o "[0-9]*,[0-9]*p")
[ "$rc" -eq 3 ] && grep -q '2 snapshots in it (lines 1-[0-9]*, [0-9]*-[0-9]*)' "$err" && [ -n "$cut" ] &&
	sed -n "$cut" "$scratch/pretty2.json" >"$scratch/first.json" && "$BIN" --from "$scratch/first.json" devices >/dev/null
result "two indented documents: --from names both spans, and its sed takes out a whole snapshot" $?

# --root and --from: compare's own reason, not bw's live RDMA devices
bad "--root with compare: compare's reason" 64 '^roce-doctor compare: --root cannot be used with compare: compare reads the snapshots given as its arguments.*--root DIR snapshot > node.json' -- --root "$FIXTURES/eight-hca" compare "$scratch/fw.jsonl"
! grep -q 'live RDMA' "$err"
result "--root with compare: no word of live RDMA devices" $?
bad "--from with compare: compare's reason" 64 '^roce-doctor compare: --from cannot be used with compare: compare reads the snapshots given as its arguments' -- compare --from "$scratch/fw.jsonl" "$scratch/fw.jsonl"

tap_end
