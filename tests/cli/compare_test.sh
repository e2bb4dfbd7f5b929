#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor compare: snapshots of copies of eight-hca with planted differences (an MTU, a firmware) are
# compared from files, a directory, stdin (JSON lines, pdsh prefixes, concatenated documents) and a real pdsh
# launch, and exactly the planted nodes are named; every bad input gets one line naming file, line and member.
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

# Trees n1..n5 (hostname in etc/hostname), n2 with eth2 at MTU 1500, n4 with an older mlx5_3 firmware.
for i in 1 2 3 4 5; do
	cp -r "$FIXTURES/eight-hca" "$scratch/n$i"
	mkdir -p "$scratch/n$i/etc" && echo "n$i" >"$scratch/n$i/etc/hostname"
done
echo 1500 >"$(find "$scratch/n2/sys/devices" -path '*/net/eth2/mtu')"
echo 20.35.1012 >"$(find "$scratch/n4/sys/devices" -path '*/infiniband/mlx5_3/fw_ver')"
mkdir "$scratch/dir"
for i in 1 2 3 4 5; do
	"$BIN" --root "$scratch/n$i" snapshot --json-lines >"$scratch/dir/n$i.jsonl" 2>/dev/null
done
S=$scratch/dir

# The nodes the non-ok findings name, sorted, one line: what "names exactly the odd nodes" compares.
odd_nodes() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(",".join(sorted({n for f in d["findings"] if f["severity"] not in ("ok","info") for n in f["nodes"]})))' "$out"
}
named() { [ "$(odd_nodes)" = "$1" ] || { echo "# named: $(odd_nodes), want $1"; return 1; }; }

run --json compare "$S"/n1.jsonl "$S"/n2.jsonl "$S"/n3.jsonl "$S"/n4.jsonl "$S"/n5.jsonl
[ "$rc" -eq 1 ] && json_ok roce-doctor/compare/v1 && named n2,n4
result "files: the MTU and firmware nodes are named, exit 1 (warn)" $?

run compare "$S"/n1.jsonl "$S"/n3.jsonl "$S"/n5.jsonl
[ "$rc" -eq 0 ] && grep -qE '^verdict: (ok|info) \(3 nodes' "$out"
result "identical nodes: verdict no worse than info, exit 0" $?

run compare "$S"
[ "$rc" -eq 1 ] && grep -qE '^n2 .* 9000,1500! ' "$out" && grep -qE '^n4 .*20\.35\.1012! ' "$out" &&
	[ "$(grep -c '!' "$out")" -eq 2 ] && grep -qE 'WARN +compare\.mtu' "$out" && grep -q 'fix: on n2' "$out" &&
	head -1 "$out" | grep -q '^verdict: warn (5 nodes' && ! grep -qE '^n[135] ' "$out" &&
	grep -qx '(3 other nodes: no cell differs; -v shows every row)' "$out"
result "directory: verdict first, the odd rows with their cells marked and a count of the rest, findings with fixes" $?

run compare -v "$S"
grep -qE '^  OK +compare\.hostname' "$out" && [ "$(grep -cE '^n[1-5] ' "$out")" -eq 5 ]
result "-v shows the ok findings and every row" $?

cat "$S"/*.jsonl >"$scratch/all.stream"
"$BIN" --json compare - <"$scratch/all.stream" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] && named n2,n4
result "stdin: JSON lines" $?

# 100 nodes (past the first allocation of 64): n2's MTU copy planted once, renamed
{ for i in $(seq 1 99); do sed "s/\"hostname\":\"n1\"/\"hostname\":\"m$i\"/" "$S/n1.jsonl"; done
  sed 's/"hostname":"n2"/"hostname":"m100"/' "$S/n2.jsonl"; } >"$scratch/hundred.stream"
"$BIN" --json compare - <"$scratch/hundred.stream" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] && named m100
result "100 nodes on stdin: the one odd node named" $?

for i in 1 2 3 4 5; do "$BIN" --root "$scratch/n$i" snapshot; done >"$scratch/pretty.json" 2>/dev/null
run --json compare "$scratch/pretty.json"
[ "$rc" -eq 1 ] && named n2,n4
result "one file of concatenated pretty documents" $?

# Two snapshots of n1: the hostname collides (a warning), and they are told apart by file name.
cp "$S/n1.jsonl" "$scratch/n1-again.jsonl"
run --json compare "$S" "$scratch/n1-again.jsonl"
[ "$rc" -eq 1 ] && python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
h=[f for f in d["findings"] if f["id"]=="compare.hostname"][0]
names={n["name"] for n in d["nodes"]}
sys.exit(0 if h["severity"]=="warn" and sys.argv[2] in names and sys.argv[3] in names else 1)' "$out" "$S/n1.jsonl" "$scratch/n1-again.jsonl"
result "hostname collision: a warning, the nodes named by file" $?

# pdsh's prefix names a node whose snapshot has no hostname
for i in 1 2 3 4 5; do sed 's/"hostname":"n[0-9]"/"hostname":null/' "$S/n$i.jsonl" | sed "s/^/p$i: /"; done >"$scratch/pdsh.out"
"$BIN" --json compare - <"$scratch/pdsh.out" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] && named p2,p4
result "pdsh prefixes stripped, and they name nodes without a hostname" $?

if command -v pdsh >/dev/null; then
	for i in 1 2 3 4; do rm -f "$scratch/n$i/etc/hostname"; done
	pdsh -R exec -w 'n[1-4]' sh -c "'$BIN' --root '$scratch/%h' snapshot --json-lines" 2>"$err" |
		"$BIN" --json compare - >"$out" 2>>"$err"; rc=$?
	[ "$rc" -eq 1 ] && named n2,n4 && [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nodes"]))' "$out")" = 4 ]
	result "a real pdsh launch (-R exec, 4 hosts): the planted nodes named" $?
else
	n=$((n + 1)); echo "ok $n - # SKIP pdsh not installed (tools/install-deps installs it)"
fi

# Bad input: one line naming the file, line and member; exit 3; nothing on stdout.
line=$(head -1 "$S/n1.jsonl")
echo 'hello' >"$scratch/notjson.json"
bad "not JSON" 3 "notjson.json line 1: not a JSON document" -- compare "$S/n3.jsonl" "$scratch/notjson.json"
head -c 3000 "$S/n1.jsonl" >"$scratch/cut.json"
bad "truncated" 3 "cut.json line 1: truncated .*line 1 column 3000" -- compare "$S/n3.jsonl" "$scratch/cut.json"
echo "${line/roce-doctor\/snapshot\/v1/roce-doctor/check/v1}" >"$scratch/other.json"
bad "another schema" 3 'other.json line 1: schema: expected "roce-doctor/snapshot/v1"' -- compare "$scratch/other.json"
echo "${line/roce-doctor\/snapshot\/v1/roce-doctor/snapshot/v2}" >"$scratch/newer.json"
bad "a newer version" 3 'newer.json line 1: schema: .*newer' -- compare "$scratch/newer.json"
echo "${line/\"hca_type\":\"MT4125\"/\"hca_type\":5}" >"$scratch/type.json"
bad "a member of the wrong type" 3 'type.json line 1: identity\.devices\[0\]\.hca_type: expected a string' -- compare "$scratch/type.json"
python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); d["host"]["devices"]*=40; print(json.dumps(d))' <"$S/n1.jsonl" >"$scratch/long.json"
bad "an oversized array" 3 'long.json line 1: host\.devices: expected an array of at most' -- compare "$scratch/long.json"
python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); d["identity"]["hostname"]="h"*5000; print(json.dumps(d))' <"$S/n1.jsonl" >"$scratch/longstr.json"
bad "an oversized string" 3 'longstr.json line 1: identity\.hostname: .*at most 255' -- compare "$scratch/longstr.json"
{ cat "$S/n1.jsonl"; echo '{"schema": broken'; cat "$S/n2.jsonl"; } >"$scratch/broken.stream"
"$BIN" compare - <"$scratch/broken.stream" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 3 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q '(stdin) line 2: truncated (line 3 starts the next document)' "$err"
result "a stream with a broken line: its line named, no partial report" $?
bad "empty stdin" 3 '\(stdin\): no snapshot' -- compare - </dev/null
bad "a missing file" 3 'cannot read snapshot .*nope.json: No such file' -- compare "$scratch/nope.json"
mkdir "$scratch/empty"
bad "a directory without snapshots" 3 'empty has no \*\.json or \*\.jsonl' -- compare "$scratch/empty"
bad "no SNAPSHOT: usage error" 64 'no SNAPSHOT given' -- compare
bad "an unknown option: usage error" 64 'unrecognized option' -- compare --frob "$S"

tap_end
