#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every tracked source file carries the GPL-2.0-only SPDX line (tools/spdx-headers --check over the tree),
# and the tool itself adds each comment form where it belongs (a planted repository, so a tool that adds
# nothing, or adds it wrongly, fails here before the tree check can pass on files nobody annotated).
# The tool reads git's list of files: without git, or from a tree that is no git checkout (a release
# tarball, the Debian package build), those cases are skipped with the reason.
#   spdx_test.sh SOURCE_ROOT
set -u
src=$1
tool=$src/tools/spdx-headers
# shellcheck source=../lib/judge.sh
. "$(dirname "$0")/../lib/judge.sh"
if ! command -v git >/dev/null; then
	skip "tools/spdx-headers on a planted repository and on the tree" "git is not installed (the tool lists git's files)"
	judge_end; exit
fi

# the planted repository: one file of each form, a fixture and a log that must stay untouched
r=$tmp/repo
mkdir -p "$r/src" "$r/man" "$r/tools" "$r/tests/fixtures/h/sys" "$r/tests/logs"
printf 'int x;\n' >"$r/src/a.c"
printf '#!/usr/bin/env bash\necho hi\n' >"$r/tools/run"; chmod +x "$r/tools/run"
printf '#!/usr/bin/env python3\nprint(1)\n' >"$r/tools/p"
printf "project('x', 'c')\n" >"$r/meson.build"
printf '.TH X 8\n' >"$r/man/x.8"
printf 'fixture\n' >"$r/tests/fixtures/h/sys/f"
printf 'log\n' >"$r/tests/logs/a.log"
git -C "$r" init -q && git -C "$r" add -A
"$tool" --check "$r" >"$tmp/out" 2>&1; rc=$?
judge "--check lists the five planted sources, exit 1" "$([ $rc -eq 1 ] && [ "$(grep -c "no 'SPDX" "$tmp/out")" -eq 5 ]; echo $?)" "$(cat "$tmp/out")"
"$tool" --add "$r" >/dev/null 2>&1
tag='SPDX-License-Identifier: GPL-2.0-only'
judge "C: // on the first line" "$([ "$(head -1 "$r/src/a.c")" = "// $tag" ]; echo $?)"
judge "shell: # after the #! line, still executable" "$([ "$(sed -n 2p "$r/tools/run")" = "# $tag" ] && [ -x "$r/tools/run" ] && [ "$("$r/tools/run")" = hi ]; echo $?)"
judge "python: # after the #! line" "$([ "$(sed -n 2p "$r/tools/p")" = "# $tag" ]; echo $?)"
judge "meson: # on the first line" "$([ "$(head -1 "$r/meson.build")" = "# $tag" ]; echo $?)"
judge 'man page: .\" on the first line' "$([ "$(head -1 "$r/man/x.8")" = ".\\\" $tag" ]; echo $?)"
judge "fixtures and logs untouched" "$([ "$(cat "$r/tests/fixtures/h/sys/f" "$r/tests/logs/a.log")" = "fixture
log" ]; echo $?)"
cp "$r/src/a.c" "$tmp/a.c.once"; "$tool" --add "$r" >/dev/null 2>&1
judge "--add twice adds once" "$(cmp -s "$r/src/a.c" "$tmp/a.c.once"; echo $?)"
"$tool" --check "$r" >"$tmp/out" 2>&1
judge "--check after --add: exit 0" $? "$(cat "$tmp/out")"

# the tree itself, where it is a git checkout of its own (not a tarball unpacked inside another repository)
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$src" && pwd -P)" ]; then
	"$tool" --check "$src" >"$tmp/out" 2>&1
	judge "every tracked source file of the tree has the SPDX line (tools/spdx-headers --add adds them)" $? "$(head -30 "$tmp/out")"
else
	skip "every tracked source file of the tree has the SPDX line" "$src is not a git checkout (a release tarball): no list of tracked files"
fi
judge_end
