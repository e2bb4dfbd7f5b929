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
# shellcheck source=../lib/judge.sh
. "$(dirname "$0")/../lib/judge.sh"
long=$(printf 'word %.0s' $(seq 16))   # 79 characters: $() drops the last space

# The cases are written first and judged by one run over all of them (a python start costs a second on a
# loaded machine); with several files each breach line names its file.
cases=() names=() reasons=()
case_() { # NAME TEXT [WORDS-OF-THE-REASON: refused; none: taken]
	cases+=("$tmp/case${#cases[@]}"); names+=("$1"); reasons+=("${3:-}")
	printf '%b' "$2" >"${cases[-1]}"
}
case_ "a subject alone" 'Fix the GID choice on IPv6-only ports\n'
case_ "an area prefix, subject and wrapped body" 'README: name the runs by date\n\nA run is found by when it ran.\n'
case_ "72 characters, counted as characters (x is two bytes)" "Fix $(printf '×%.0s' $(seq 68))\n"
case_ "an -eed and an -ed imperative" 'Speed up the reader\n\nEmbed the table.\n'
case_ "a long URL, a quoted and an indented line in the body" \
	"Add a hook\n\nSee https://example.org/$long\n> $long\n    $long\n"
case_ "comment lines and what follows git commit -v's scissors are not the message" \
	"Add a hook\n\n# $long\n# ------------------------ >8 ------------------------\n+$long\n"
case_ "an ellipsis is no period" 'Explain status 9 on rxe...\n'
case_ "73 characters" "Fix $(printf 'x%.0s' $(seq 69))\n" "73 characters, at most 72"
case_ "a period at the end" 'Fix the bug.\n' "ends with a period"
case_ "a past tense" 'Added a hook\n' 'opens with "Added"'
case_ "a lowercase past tense" 'fixed the bug\n' 'opens with "fixed"'
case_ "a past tense after an area prefix" 'README: updated the table\n' 'opens with "updated"'
case_ "a third person" 'Adds a hook\n' 'opens with "Adds"'
case_ "an -ing form" 'Fixing the bug\n' 'opens with "Fixing"'
case_ "no blank second line" 'Fix the bug\nbecause it broke\n' "second line is not blank"
case_ "a body line of 79 characters" "Fix the bug\n\n$long\n" "line 3 is 79 characters"
case_ "only comments" '\n# nothing\n' "empty"
"$hook" "${cases[@]}" >"$tmp/all" 2>&1; rc=$?
judge "several messages with a breach: exit 1" "$([ $rc -eq 1 ]; echo $?)" "exit $rc: $(cat "$tmp/all")"
for i in "${!cases[@]}"; do
	grep -F "${cases[i]}: " "$tmp/all" >"$tmp/out"
	if [ -z "${reasons[i]}" ]; then
		judge "taken: ${names[i]}" "$([ ! -s "$tmp/out" ]; echo $?)" "$(cat "$tmp/out")"
	else
		judge "refused: ${names[i]}" "$(grep -q -F -- "${reasons[i]}" "$tmp/out"; echo $?)" "$(cat "$tmp/out")"
	fi
done
"$hook" "${cases[0]}" "${cases[1]}" >"$tmp/out" 2>&1
judge "messages that keep the rules: exit 0, nothing said" "$([ $? -eq 0 ] && [ ! -s "$tmp/out" ]; echo $?)" "$(cat "$tmp/out")"
"$hook" "$tmp/absent" >"$tmp/out" 2>&1
judge "an unreadable file: exit 2 and one line" "$([ $? -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ]; echo $?)" "$(cat "$tmp/out")"

if ! command -v git >/dev/null; then
	skip "the hook in a planted repository; the tree's commits after $BASE" "git is not installed"
	judge_end; exit
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
	count=$(git -C "$src" rev-list --no-merges --count "$BASE..HEAD")
	(cd "$src" && "$hook" --range "$BASE..HEAD") >"$tmp/breaches" 2>&1
	judge "the tree's $count commits after ${BASE:0:7} keep the rules (tools/commit-msg)" $? "$(head -40 "$tmp/breaches")"
fi
judge_end
