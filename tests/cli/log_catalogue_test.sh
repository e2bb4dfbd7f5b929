#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The NCCL catalogue (tools/log-catalogue, docs/log-catalogue.md): the extraction, rerun on the calls pinned
# in tests/logs/catalogue/pinned (no NCCL sources, no network), gives exactly the committed TSV's rows for
# those releases; and every row of explain's pattern table for NCCL reads at least one wording NCCL prints,
# so a wording NCCL changed, or a pattern written from memory, is caught.
#   log_catalogue_test.sh LOG_ROWS
set -u
LOG_ROWS=$1
BIN=false
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/lib/tap.sh"
cat=$src/tests/logs/catalogue
tools=$src/tools/log-catalogue

"$tools/extract-nccl" --from-pinned "$cat/pinned" --check "$cat/nccl-messages.tsv" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c ' 0 differences$' "$out")" -eq "$(ls "$cat/pinned" | wc -l)" ]
result "extract-nccl on the pinned calls reproduces nccl-messages.tsv for each pinned release" $?

# the TSV is what the script writes: its header, sorted, no duplicate row
"$tools/extract-nccl" --from-pinned "$cat/pinned" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 0 ] && head -1 "$out" | cmp -s - <(head -1 "$cat/nccl-messages.tsv") &&
	[ "$(tail -n +2 "$cat/nccl-messages.tsv" | sort -u | wc -l)" -eq "$(tail -n +2 "$cat/nccl-messages.tsv" | wc -l)" ]
result "nccl-messages.tsv has the script's header and no duplicate row" $?

# a directory with no pinned calls: one line naming it, exit 1, no TSV
"$tools/extract-nccl" --from-pinned "$scratch" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -qF "no TAG.calls file in $scratch" "$err"
result "extract-nccl --from-pinned on a directory without calls: one line, exit 1" $?

# explain's tables of NCCL's WARN and UCX's ERROR wordings (src/core/log/*.inc) are what the catalogues give
"$tools/wording-table" nccl "$cat/nccl-messages.tsv" --check "$src/src/core/log/nccl_warnings.inc" >"$out" 2>"$err"
result "src/core/log/nccl_warnings.inc is wording-table's output for nccl-messages.tsv" $?
"$tools/wording-table" ucx "$cat/other-messages.tsv" --check "$src/src/core/log/ucx_errors.inc" >"$out" 2>"$err"
result "src/core/log/ucx_errors.inc is wording-table's output for other-messages.tsv" $?
sed '6d' "$src/src/core/log/nccl_warnings.inc" > "$scratch/warnings.inc"
! "$tools/wording-table" nccl "$cat/nccl-messages.tsv" --check "$scratch/warnings.inc" >"$out" 2>"$err"
result "wording-table --check: a table with a row missing differs" $?

"$tools/coverage" "$cat/nccl-messages.tsv" "$LOG_ROWS" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "^explain's NCCL rows: " "$out"
result "every NCCL row of explain's pattern table reads a wording of some NCCL release" $?

# The wordings the issue names, rendered as NCCL prints them, each read by the row for its cause
rows() { printf '%s\n' "$1" | "$LOG_ROWS" | cut -d' ' -f3 | tr '\n' ' '; }
reads() {
	local line=$1 id=$2 got
	got=$(rows "$line")
	case " $got" in *" $id "*) result "$id reads: $line" 0 ;; *) echo "# rows: $got" >"$out"; result "$id reads: $line" 1 ;; esac
}
reads 'node-a:1:2 [0] transport/net_ib.cc:790 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129' \
	log.nccl.wc_retry_exceeded
reads 'node-a:1:2 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 1234 mtu 5 GID 0 (80FE/3412FFFE00545052)' log.nccl.gid

tap_end
