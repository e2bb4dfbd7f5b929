# SPDX-License-Identifier: GPL-2.0-only
# TAP plumbing for the tests that judge the tree rather than run roce-doctor (tests/docs): the verdict is a
# status the caller computes, with a detail shown only on failure.
#   judge NAME STATUS [DETAIL]   one TAP line; on failure DETAIL follows as comments
#   skip NAME REASON             one TAP line marked SKIP, with why
#   judge_end                    prints the plan and returns non-zero when a case failed
# $tmp is a private directory removed at exit.
n=0 failed=0
judge() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else
		failed=$((failed + 1)); echo "not ok $n - $1"; [ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
judge_end() { echo "1..$n"; [ "$failed" -eq 0 ]; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
