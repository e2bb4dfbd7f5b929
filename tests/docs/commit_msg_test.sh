#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Commit messages keep the project's rules (tools/commit-msg): the rules on good and bad messages, the hook
# installed as README says in a planted repository (git refuses a bad commit, takes a good one), and every
# commit of the tree after BASE, the commit the rules started at (older history is left as it is).
# Without git, or from a tree that is no git checkout of its own (a release tarball, the Debian package
# build), or a clone too shallow to hold BASE, the parts that need it are skipped with the reason.
#   commit_msg_test.sh SOURCE_ROOT
set -u
src=$1
hook=$src/tools/commit-msg
BASE=930e70fe21c9f5574817fee7b2863bad1ed015d4
n=0 failed=0
judge() { # NAME STATUS [DETAIL]
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else
		failed=$((failed + 1)); echo "not ok $n - $1"; [ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
long=$(printf 'word %.0s' $(seq 16))   # 79 characters: $() drops the last space

# A message the rules take: NAME TEXT
good() {
	printf '%b' "$2" >"$tmp/msg"
	"$hook" "$tmp/msg" >"$tmp/out" 2>&1
	judge "taken: $1" $? "$(cat "$tmp/out")"
}
# A message the rules refuse, with the line that says why: NAME TEXT WORDS-OF-THE-REASON
bad() {
	printf '%b' "$2" >"$tmp/msg"
	"$hook" "$tmp/msg" >"$tmp/out" 2>&1; rc=$?
	judge "refused: $1" "$([ $rc -eq 1 ] && grep -q -- "$3" "$tmp/out"; echo $?)" "exit $rc: $(cat "$tmp/out")"
}
good "a subject alone" 'Fix the GID choice on IPv6-only ports\n'
good "an area prefix, subject and wrapped body" 'README: name the runs by date\n\nA run is found by when it ran.\n'
good "72 characters, counted as characters (x is two bytes)" "Fix $(printf '×%.0s' $(seq 68))\n"
good "an -eed and an -ed imperative" 'Speed up the reader\n\nEmbed the table.\n'
good "a long URL, a quoted and an indented line in the body" \
	"Add a hook\n\nSee https://example.org/$long\n> $long\n    $long\n"
good "comment lines and what follows git commit -v's scissors are not the message" \
	"Add a hook\n\n# $long\n# ------------------------ >8 ------------------------\n+$long\n"
good "an ellipsis is no period" 'Explain status 9 on rxe...\n'
bad "73 characters" "Fix $(printf 'x%.0s' $(seq 69))\n" "73 characters, at most 72"
bad "a period at the end" 'Fix the bug.\n' "ends with a period"
bad "a past tense" 'Added a hook\n' 'opens with "Added"'
bad "a lowercase past tense" 'fixed the bug\n' 'opens with "fixed"'
bad "a past tense after an area prefix" 'README: updated the table\n' 'opens with "updated"'
bad "a third person" 'Adds a hook\n' 'opens with "Adds"'
bad "an -ing form" 'Fixing the bug\n' 'opens with "Fixing"'
bad "no blank second line" 'Fix the bug\nbecause it broke\n' "second line is not blank"
bad "a body line of 79 characters" "Fix the bug\n\n$long\n" "line 3 is 79 characters"
bad "only comments" '\n# nothing\n' "empty"
"$hook" "$tmp/absent" >"$tmp/out" 2>&1
judge "an unreadable file: exit 2 and one line" "$([ $? -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ]; echo $?)" "$(cat "$tmp/out")"

if ! command -v git >/dev/null; then
	skip "the hook in a planted repository; the tree's commits after $BASE" "git is not installed"
	echo "1..$n"; exit 0
fi

# the hook installed as README says, in a planted repository
r=$tmp/repo
g() { git -C "$r" -c user.name=t -c user.email=t@example.org "$@"; }
git init -q "$r" && (cd "$r" && ln -s "$hook" "$(git rev-parse --git-path hooks)/commit-msg")
echo a >"$r/f" && g add f
g commit -q -m 'Added f' >"$tmp/out" 2>&1; rc=$?
judge "git commit refuses 'Added f' through the hook" \
	"$([ $rc -ne 0 ] && grep -q 'opens with "Added"' "$tmp/out" && ! g rev-parse -q --verify HEAD >/dev/null; echo $?)" \
	"exit $rc: $(cat "$tmp/out")"
g commit -q -m 'Add f' -m 'It is needed.' >"$tmp/out" 2>&1
judge "git commit takes 'Add f' with a body" $? "$(cat "$tmp/out")"

# the tree's own commits since BASE, where it is a git checkout of its own
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
	skip "the tree's commits after $BASE keep the rules" "$src is not a git checkout (a release tarball)"
elif ! git -C "$src" cat-file -e "$BASE^{commit}" 2>/dev/null; then
	skip "the tree's commits after $BASE keep the rules" "the clone does not hold $BASE (shallow?)"
else
	: >"$tmp/breaches"
	count=0
	for c in $(git -C "$src" rev-list --no-merges "$BASE..HEAD"); do
		count=$((count + 1))
		git -C "$src" log -1 --format=%B "$c" >"$tmp/msg"
		if ! "$hook" "$tmp/msg" >"$tmp/out" 2>&1; then
			{ echo "$(git -C "$src" log -1 --format='%h %s' "$c" | cut -c1-90)"; grep -v 'the rules are in' "$tmp/out" |
				sed 's/^/  /'; } >>"$tmp/breaches"
		fi
	done
	judge "the tree's $count commits after ${BASE:0:7} keep the rules (tools/commit-msg)" \
		"$([ ! -s "$tmp/breaches" ]; echo $?)" "$(head -40 "$tmp/breaches")"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
