#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The documentation follows the binary: every command the binary lists is in the README's table, the man
# page and the bash, zsh and fish completions; every long option a command's --help shows is completed for
# that command by each shell, and so is every value of an option --help spells --opt=a|b|c;
# every check id roce-doctor-checks(7) promises is one check can emit (and the other way round: see
# ids_test below); every JSON member is named in docs/formats.md.
#   docs_test.sh ROCE_DOCTOR SOURCE_ROOT
set -u   # no pipefail: grep -q closes its pipe early by design
rd=$1 src=$2
readme=$src/README.md man=$src/man/roce-doctor.1 comp=$src/completions/roce-doctor.bash
checks_man=$src/man/roce-doctor-checks.7 formats=$src/docs/formats.md
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
# one test of "every item of LIST is documented": FOUND (the list), MISSING (what the README lacks)
judge() { # FOUND MISSING IF-EMPTY IF-OK IF-MISSING
	if [ -z "$1" ]; then not_ok "$3"
	elif [ -z "$2" ]; then ok "$4"
	else not_ok "$5:$2"; fi
}
# the "## NAME..." section of a markdown FILE
md_section() { awk -v h="## $2" 'index($0, h) == 1 { f = 1; next } /^## / { f = 0 } f' "$1"; }
# the ids section NAME of roce-doctor-checks(7) documents: each entry is ".TP", then "\fBarea.name\fR"
. "$src/tests/lib/checks_man.sh"

commands=$("$rd" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] && ok "the binary lists its commands" || not_ok "no command list in roce-doctor --help"

man_text=$(sed 's/\\-/-/g' "$man")
for c in $commands; do
	grep -Eq "^\| \`$c( |\`)" "$readme" && ok "README table has $c" || not_ok "README's command table lacks $c"
	grep -Eq "^\.B $c( |$)" <<< "$man_text" && ok "man page has $c" || not_ok "man/roce-doctor.1 lacks a .B $c entry"
done

# completions_test: each shell completes, through its own completion machinery (tests/lib/complete.sh), the
# commands, each command's long options (all but --usage and --version) and the values of --opt=a|b|c.
. "$src/tests/lib/complete.sh"
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
ln -s "$(realpath "$rd")" "$bindir/roce-doctor"
queries=("roce-doctor ") wanted=("$commands")
for c in $commands; do
	help=$("$rd" "$c" --help)
	queries+=("roce-doctor $c --")
	wanted+=("$(sed -nE 's/^ {2,6}(-[^ ], )?(--[a-z][a-z-]*).*/\2/p' <<< "$help" | grep -vx -e --usage -e --version | sort -u)")
	while read -r opt values; do
		queries+=("roce-doctor $c $opt ") wanted+=("$(tr '|' '\n' <<< "$values")")
	done < <(sed -nE 's/^ {2,6}(-[^ ], )?(--[a-z][a-z-]*)=([a-z0-9]+(\|[a-z0-9]+)+)( .*)?$/\2 \3/p' <<< "$help")
done
for sh in bash zsh fish; do
	if ! command -v "$sh" > /dev/null; then ok "# SKIP $sh is not installed (tools/install-deps installs it)"; continue; fi
	offered=$(PATH=$bindir:$PATH complete_in "$sh" "$src/completions" "${queries[@]}")
	declare -A have=()
	while IFS=$'\t' read -r i w; do have["$i $w"]=1; done <<< "$offered"
	missing=""
	for i in "${!queries[@]}"; do
		for w in ${wanted[i]}; do
			[ -n "${have["$((i + 1)) $w"]-}" ] || missing="$missing '${queries[i]}' lacks $w;"
		done
	done
	[ -z "$missing" ] && ok "$sh completes every command, every option of each and the values --help lists" ||
		not_ok "$sh completion:$missing"
done

# ids_test: roce-doctor-checks(7)'s CHECKS section (its entries ".TP" then "\fBarea.name\fR") against the
# code. Every id check emits over a fixture tree is documented; every documented id is a string literal of
# src/core; every id a rule adds (finding_add(out, "...") in src/core) is documented, so a new id fails
# here until it is.
documented=$(checks_man_ids "$checks_man" CHECKS)
[ -n "$documented" ] && ok "roce-doctor-checks(7)'s CHECKS section lists check ids" ||
	not_ok "man/roce-doctor-checks.7 has no CHECKS section of ids"
for f in "$src"/tests/fixtures/*/; do
	[ -d "$f/sys" ] || [ -d "$f/etc" ] || continue
	name=$(basename "$f")
	# --pretty: indented one member a line (one line is the default into a pipe): each "id" line names it.
	emitted=$("$rd" --root "$f" --json --pretty check 2> /dev/null | sed -nE 's/^ +"id": "([a-z0-9_.]+)",$/\1/p' | sort -u)
	missing=""
	for id in $emitted; do grep -qx -- "$id" <<< "$documented" || missing="$missing $id"; done
	judge "$emitted" "$missing" "check --root $name emitted no ids" "roce-doctor-checks(7) documents every id check emits on $name" \
		"roce-doctor-checks(7) lacks ids check emits on $name"
done
unknown=""
for id in $documented; do grep -qF -- "\"$id\"" "$src"/src/core/*.c || unknown="$unknown $id"; done
[ -z "$unknown" ] && ok "every id in roce-doctor-checks(7)'s CHECKS is a string in src/core" ||
	not_ok "roce-doctor-checks(7) documents ids src/core does not have:$unknown"
undocumented=""
for id in $(grep -rohE --include='*.c' 'finding_add\(out, "[a-z0-9_]+\.[a-z0-9_]+"' "$src"/src/core | sed -E 's/.*"(.*)"/\1/' | sort -u); do
	grep -qx -- "$id" <<< "$documented" || undocumented="$undocumented $id"
done
[ -z "$undocumented" ] && ok "every id src/core adds is in roce-doctor-checks(7)'s CHECKS" ||
	not_ok "roce-doctor-checks(7) lacks ids src/core adds:$undocumented"

# catalog_test: check --list (the catalog --only/--skip are checked against) holds exactly the ids src/core
# adds, which are exactly roce-doctor-checks(7)'s: an id missing from the catalog could not be selected, an extra one would
# be accepted by --only and never emitted.
catalog=$("$rd" check --list 2> /dev/null | awk 'NR > 1 { print $1 }' | sort -u)
code_ids=$(grep -rohE --include='*.c' 'finding_add\(out, "[a-z0-9_]+\.[a-z0-9_]+"' "$src"/src/core | sed -E 's/.*"(.*)"/\1/' | sort -u)
if [ -z "$catalog" ]; then not_ok "check --list lists no ids"
elif [ "$catalog" = "$code_ids" ] && [ "$catalog" = "$documented" ]; then ok "check --list, src/core and roce-doctor-checks(7) hold the same ids"
else not_ok "check --list differs: not in src/core:$(comm -23 <(echo "$catalog") <(echo "$code_ids") | tr '\n' ' ') not in the catalog:$(comm -13 <(echo "$catalog") <(echo "$code_ids") | tr '\n' ' ') not in roce-doctor-checks(7):$(comm -23 <(echo "$catalog") <(echo "$documented") | tr '\n' ' ')"
fi

# json_keys_test: every member name of the documents the fixtures give (at any depth) is in the JSON
# section of docs/formats.md, so a new or renamed field fails here until it is documented. bw and lat need a live peer: their
# documents are checked in the VM cases.
json_section=$(md_section "$formats" JSON)
for run in "cx6lx-2port devices" "cx6lx-2port gid" "cx6lx-2port gid --suggest" "check-seed000 check" \
	"cx6lx-2port nccl-env" "eight-hca check" "cx6lx-2port check --list" "nccl-libs nccl" "dgx-h100 topo"; do
	set -- $run
	fixture=$1; shift
	keys=$("$rd" --root "$src/tests/fixtures/$fixture" --json --pretty "$@" 2> /dev/null | sed -nE 's/^ *"([a-z_0-9]+)": .*/\1/p' | sort -u)
	missing=""
	for k in $keys; do grep -qE -- "(^|[^a-z_])$k([^a-z_]|$)" <<< "$json_section" || missing="$missing $k"; done
	judge "$keys" "$missing" "--json $* on $fixture gave no members" \
		"docs/formats.md's JSON section names every member of --json $* ($fixture)" \
		"docs/formats.md's JSON section lacks members of --json $* ($fixture)"
done

# fixtures_readme_paths_test: every path tests/fixtures/README.md cites is in this repository (it once cited the
# seeds' files, which live outside it). A placeholder (NAME) stands for any entry of its directory.
cited=$(grep -oE '\b(seeds|rxe-testbed|shared|tests|tools|src|docs|bench|man)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' \
	"$src/tests/fixtures/README.md" | sort -u)
absent=""
for p in $cited; do
	case $p in */NAME) p=${p%/NAME} ;; esac
	[ -e "$src/$p" ] || absent="$absent $p"
done
judge "${cited:-none}" "$absent" "unused" "tests/fixtures/README.md cites only files of this repository" \
	"tests/fixtures/README.md cites files not in the repository:"

echo "1..$n"
exit $((failed > 0))
