# SPDX-License-Identifier: GPL-2.0-only
# Shared TAP plumbing for the shell tests: source it after setting BIN (the roce-doctor binary).
#   run CMD...                  runs "$BIN" CMD..., stdout in $out, stderr in $err, exit status in $rc
#   result NAME STATUS          one TAP line; on failure the captured stdout/stderr follow as comments
#   expect NAME RC PATTERN -- CMD...   exit RC and PATTERN (grep -E) on stdout
#   bad NAME RC PATTERN -- CMD...      exit RC, nothing on stdout, PATTERN (grep -E) on stderr
#   json_ok SCHEMA              stdout parses as JSON whose "schema" is SCHEMA
#   tap_end                     prints the plan and returns non-zero when a test failed
# $scratch is a private directory removed at exit.
n=0 failed=0 rc=0
out=$(mktemp) err=$(mktemp) scratch=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$scratch"' EXIT

run() { "$BIN" "$@" >"$out" 2>"$err"; rc=$?; }
result() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else
		failed=$((failed + 1)); echo "not ok $n - $1"
		sed 's/^/# stdout: /' "$out" | head -20; sed 's/^/# stderr: /' "$err" | head -20; echo "# rc=$rc"
	fi
}
expect() {
	local name=$1 want=$2 pattern=$3; shift 4
	run "$@"
	[ "$rc" -eq "$want" ] && grep -qE -- "$pattern" "$out"
	result "$name" $?
}
bad() {
	local name=$1 want=$2 pattern=$3; shift 4
	run "$@"
	[ "$rc" -eq "$want" ] && [ ! -s "$out" ] && grep -qE -- "$pattern" "$err"
	result "$name" $?
}
json_ok() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d.get("schema")==sys.argv[2] else 1)' "$out" "$1"; }
tap_end() { echo "1..$n"; [ "$failed" -eq 0 ]; }
