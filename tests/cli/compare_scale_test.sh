#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor compare at scale: where a finding's text lists the first nodes of an odd value and "(+N more)",
# its JSON `nodes` still names every odd node (a launcher's script reads them), and nothing else changes.
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

# Two real snapshots of eight-hca: as it is, and with eth2 at MTU 1500.
cp -r "$FIXTURES/eight-hca" "$scratch/tree"
"$BIN" --root "$scratch/tree" snapshot --json-lines >"$scratch/base.jsonl" 2>/dev/null
echo 1500 >"$(find "$scratch/tree/sys/devices" -path '*/net/eth2/mtu')"
"$BIN" --root "$scratch/tree" snapshot --json-lines >"$scratch/mtu.jsonl" 2>/dev/null

# 40 nodes, 12 of them (every third from m03) at MTU 1500: more than the 8 names a finding's text lists.
odd=()
for i in $(seq -w 1 40); do
	if [ $((10#$i % 3)) -eq 0 ] && [ "${#odd[@]}" -lt 12 ]; then
		odd+=("m$i"); sed "s/\"hostname\":[^,]*,/\"hostname\":\"m$i\",/" "$scratch/mtu.jsonl"
	else
		sed "s/\"hostname\":[^,]*,/\"hostname\":\"m$i\",/" "$scratch/base.jsonl"
	fi
done >"$scratch/forty.jsonl"
want=$(IFS=,; echo "${odd[*]}")

# the nodes of the first finding with id $1, comma-separated, in report order
finding_nodes() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(",".join(next(f["nodes"] for f in d["findings"] if f["id"]==sys.argv[2])))' "$out" "$1"
}

run --json compare "$scratch/forty.jsonl"
got=$(finding_nodes compare.mtu 2>/dev/null)
[ "$rc" -eq 1 ] && json_ok roce-doctor/compare/v1 && [ "$got" = "$want" ] || echo "# compare.mtu nodes: $got, want $want"
[ "$rc" -eq 1 ] && [ "$got" = "$want" ]
result "12 odd MTU nodes: the JSON names all 12, in input order" $?

python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
f=next(f for f in d["findings"] if f["id"]=="compare.mtu")
sys.exit(0 if "(+4 more)" in f["message"] else 1)' "$out"
result "12 odd MTU nodes: the message still lists 8 and (+4 more)" $?

python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
odd=set(sys.argv[2].split(","))
s=[f for f in d["findings"] if f["id"]=="compare.check_summary" and f["severity"] in ("warn","fail")]
sys.exit(0 if s and all(set(f["nodes"])==odd for f in s) else 1)' "$out" "$want"
result "check summary: each failing check id names all 12 nodes in JSON" $?

run compare "$scratch/forty.jsonl"
[ "$rc" -eq 1 ] && grep -qE 'MTU.*m24 \(\+4 more\)' "$out" && ! grep -qE 'MTU.*m27' "$out"
result "text: the finding lists 8 nodes and a count, as before" $?

tap_end
