#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# compare reads its documents in batches on several threads: the nodes stay in input order, and the answer
# for bad input is the first bad document in input order, whichever thread read it and whatever stopped
# the scan after it. 600 snapshots: five batches of 128, more than the ring of four holds.
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

"$BIN" --root "$FIXTURES/eight-hca" snapshot --json-lines >"$scratch/base.jsonl" 2>/dev/null
python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for i in range(1, 601):
    d["identity"]["hostname"]="n%03d" % i
    print(json.dumps(d, separators=(",", ":")))' "$scratch/base.jsonl" >"$scratch/all.jsonl"

run --json compare "$scratch/all.jsonl"
python3 -c 'import json,sys
names=[n["name"] for n in json.load(open(sys.argv[1]))["nodes"]]
sys.exit(0 if names==["n%03d" % i for i in range(1, 601)] else 1)' "$out" && [ "$rc" -eq 0 ]
result "600 nodes: every one, in input order" $?

# two bad documents in different batches (lines 300 and 520): the first is named
sed -e '300s/"hostname":"n300"/"hostname":7/' -e '520s/"schema":"[^"]*"/"schema":"x"/' \
	"$scratch/all.jsonl" >"$scratch/two-bad.jsonl"
bad "two bad documents: the first in input order is the answer" 3 \
	"^roce-doctor: snapshot $scratch/two-bad.jsonl line 300: identity.hostname: " -- compare "$scratch/two-bad.jsonl"
[ "$(wc -l <"$err")" -eq 1 ]
result "two bad documents: one line" $?

# a bad document queued (line 5), then a scan error (a broken line at 10): the document is the answer
{ head -4 "$scratch/all.jsonl"; sed -n 5p "$scratch/all.jsonl" | sed 's/"schema":"[^"]*"/"schema":1/'
  sed -n 6,9p "$scratch/all.jsonl"; sed -n 10p "$scratch/all.jsonl" | cut -c1-200; sed -n 11,20p "$scratch/all.jsonl"
} >"$scratch/bad-then-cut.jsonl"
bad "a bad document before a truncated one: the bad document is named" 3 \
	"^roce-doctor: snapshot $scratch/bad-then-cut.jsonl line 5: schema: " -- compare "$scratch/bad-then-cut.jsonl"

# the same cut without the bad document before it: the truncation is named, as before
{ head -9 "$scratch/all.jsonl"; sed -n 10p "$scratch/all.jsonl" | cut -c1-200; sed -n 11,20p "$scratch/all.jsonl"
} >"$scratch/cut.jsonl"
bad "a truncated document after good ones: the truncation is named" 3 \
	"^roce-doctor: snapshot $scratch/cut.jsonl line 10: truncated " \
	-- compare "$scratch/cut.jsonl"

# on stdin too
run compare - <"$scratch/two-bad.jsonl"
[ "$rc" -eq 3 ] && grep -q "^roce-doctor: snapshot (stdin) line 300: identity.hostname: " "$err"
result "stdin: the first bad document is named" $?

tap_end
