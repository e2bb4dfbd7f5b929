#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# explain on failure logs people posted in public threads (tests/logs/public, index.tsv: the log, its
# source, the cause the thread established, the finding that must name it and a word of its message): each
# log gets a warn or fail finding with that id whose message names the cause, and a cause, not an effect
# of another rank's failure: the job's first failure (first_failure), unless a sixth column says why not.
#   explain_public_test.sh ROCE_DOCTOR
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/lib/tap.sh"
pub=$src/tests/logs/public

logs_listed=0
while IFS=$'\t' read -r file url cause id word not_first; do
	case $file in '#'* | '') continue ;; esac
	logs_listed=$((logs_listed + 1))
	"$BIN" --json explain "$pub/$file" >"$out" 2>"$err"
	# one python for both checks (its start-up is the dear part): 1 no such finding, 2 not the first failure
	python3 - "$out" "$id" "$word" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ok = [f for f in doc["findings"] if f["id"] == sys.argv[2] and f["severity"] in ("warn", "fail")
      and sys.argv[3] in f["message"] + " " + f.get("fix", "")]
sys.exit(1 if not ok else 2 if (doc["first_failure"] or {}).get("id") != sys.argv[2] else 0)
PY
	rc=$?
	[ "$rc" -ne 1 ]
	result "$file: $id names '$word' ($url: $cause)" $?
	[ -n "$not_first" ] && continue
	[ "$rc" -eq 0 ]
	result "$file: $id is the job's first failure" $?
done <"$pub/index.tsv"
[ "$logs_listed" -ge 15 ] && [ "$logs_listed" -eq "$(ls "$pub"/*.log | wc -l)" ]
result "index.tsv lists every public log, at least 15 ($logs_listed)" $?

tap_end
