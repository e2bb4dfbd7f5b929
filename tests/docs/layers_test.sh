#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The layers of STYLE.md, by their #include lines: src/model is the floor (its own headers, util/ and the
# system's); src/core decides and src/output renders from the model alone (model/, core/, output/, util/), so
# no rule and no renderer includes a reader's header (probe/, netcfg/, verbs/), the protocol or a command.
#   layers_test.sh SOURCE_ROOT
set -u
src=$1
n=0 failed=0

# The project headers FILES include outside ALLOWED (a regex of first path components), as "file: header".
outside() { # ALLOWED FILE...
	local allowed=$1; shift
	[ $# -gt 0 ] || return 0
	# "../probe/x.h" and "src/probe/x.h" count as probe/x.h; <...> are the system's; a .inc is a part of a
	# table, included like a header
	for f in "$@"; do
		sed -nE 's@^[[:space:]]*#[[:space:]]*include[[:space:]]*"(\.\./)*(src/)?([^"]*)".*@\3@p' "$f" |
			grep -vE "^($allowed)/([^/]+/)*[^/]+\.(h|inc)$" | sed "s@^@${f#"$src"/}: @"
	done
}

judge() { # NAME FOUND
	n=$((n + 1))
	if [ -z "$2" ]; then echo "ok $n - $1"; else
		failed=$((failed + 1)); echo "not ok $n - $1"; printf '%s\n' "$2" | sed 's/^/# /'
	fi
}

# the checker itself: a planted include of each forbidden kind is found (else every verdict below is empty)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '#include "probe/host.h"\n#include "../netcfg/nftables.h"\n#include "model/host.h"\n#include <stdio.h>\n' >"$tmp/a.c"
planted=$(outside 'model|core|output|util' "$tmp/a.c" | wc -l)
[ "$planted" -eq 2 ] && judge "the checker finds planted includes (probe/, ../netcfg/) and nothing else" "" ||
	judge "the checker finds planted includes (probe/, ../netcfg/) and nothing else" "found $planted of 2"

shopt -s nullglob globstar
judge "src/model includes only model/ and util/ headers (no reader, core, output, proto or cmd)" \
	"$(outside 'model|util' "$src"/src/model/**/*.[ch])"
judge "src/core includes only model/, core/, output/ and util/ headers (no probe/, netcfg/, verbs/, proto/, cmd/)" \
	"$(outside 'model|core|output|util' "$src"/src/core/**/*.[ch])"
judge "src/output includes only model/, core/, output/ and util/ headers (no probe/, netcfg/, verbs/, proto/, cmd/)" \
	"$(outside 'model|core|output|util' "$src"/src/output/**/*.[ch])"

echo "1..$n"
[ "$failed" -eq 0 ]
