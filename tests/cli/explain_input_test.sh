#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain on input nobody should paste but someone will: a binary, compressed data damaged in the
# middle (gzip, xz, zstd), a 2 GiB log (a sparse file: never stored), 100 MB lines, runs of NUL bytes, Latin-1
# and UTF-8 in one file; each a bounded answer in flat memory (peak RSS under 32 MiB). And the progress line:
# on a terminal for inputs over 100 MB, never elsewhere. About 3 s of CPU.
#   explain_input_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
logs=$src/tests/logs
. "$src/tests/lib/tap.sh"

# The bound: explain keeps one 64 KiB read buffer, one line, the tables and the match memo. Under ASan its
# shadow memory and quarantine add tens of MiB that are not the reader's.
limit=32768
ldd "$BIN" 2> /dev/null | grep -q libasan && limit=262144
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1

# timed FILE [ARGS...]: roce-doctor [ARGS] explain FILE; its peak RSS in $rss, true when under the bound
timed() {
	local file=$1; shift
	/usr/bin/time -f '%M' -o "$scratch/rss" "$BIN" "$@" explain "$file" > "$out" 2> "$err"
	rc=$?
	rss=$(tail -1 "$scratch/rss")
	[ "${rss:-999999}" -lt "$limit" ]
}

# lines_of ID: the lines (comma-separated) of finding ID in the JSON on stdout
lines_of() {
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(",".join(str(n) for f in d["findings"] if f["id"] == sys.argv[2] for n in f["lines"]))' "$out" "$1" 2> /dev/null
}
# summary KEY: a member of the JSON summary
summary() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"][sys.argv[2]])' "$out" "$1" 2> /dev/null; }

# A real NCCL log more than 64 KiB long: the first 64 KiB decide text or binary.
text=$scratch/text.log
for f in "$logs"/h100-nccl-2.28.9/*.log "$logs"/gpu-2rank/*.log "$logs"/job-2node/*.log; do cat "$f"; done > "$text"
fail_line='node-a:1:2 [0] misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out errno 110'

# --- a binary: an ELF executable (a core file, a tarball: the same) is refused on its first 64 KiB
timed "$BIN"
[ "$rc" -eq 3 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] && grep -q 'is not a text log: [0-9]* of its first 65536 bytes' "$err"
result "an executable: exit 3, one line, RSS ${rss:-?} KiB" $?

# --- compressed, damaged in the middle: the library's reason, exit 3, nothing on stdout
for z in "gzip -c:gz:gzip:incorrect data check|invalid" "xz -c:xz:xz:damaged" "zstd -q -c:zst:zstd:checksum|Corrupted"; do
	IFS=: read -r tool ext name why <<< "$z"
	command -v "${tool%% *}" > /dev/null || continue
	head -c 65536 "$text" | $tool > "$scratch/damaged.$ext"
	printf '\377\377\377\377\377\377\377\377' | dd of="$scratch/damaged.$ext" bs=1 seek=300 conv=notrunc 2> /dev/null
	timed "$scratch/damaged.$ext"
	[ "$rc" -eq 3 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] &&
		grep -Eq "cannot read .*damaged.$ext: corrupt $name data \(.*($why)" "$err"
	result "$name damaged in the middle: exit 3, one line with the library's reason, RSS ${rss:-?} KiB" $?
done

# --- a 2 GiB log: a real log, then 2 GiB of NUL bytes with no newline (a file preallocated, then the node
# crashed), then a failure. A sparse file: nothing stored, read in about a second. The NUL run is one line,
# kept up to 4096 bytes; the failure after it is found on the right line.
big=$scratch/2g.log
cp "$text" "$big"
lines=$(wc -l < "$text")
truncate -s $((2 << 30)) "$big"
printf '\n%s\n' "$fail_line" >> "$big"
timed "$big" --json
[ "$rc" -eq 2 ] && [ "$(lines_of log.nccl.modify_qp_timeout)" = "$((lines + 2))" ] && [ "$(summary truncated)" = 1 ] &&
	[ "$(summary binary)" = 1 ]
result "a 2 GiB log of NUL bytes after the text: the failure after it on line $((lines + 2)), RSS ${rss:-?} KiB" $?

# --- lines of 100 MB, through a pipe (never stored): each read up to 4096 bytes, the line numbers after them right
hundred_mb() { head -c 100000000 /dev/zero | tr '\0' "$1"; }
/usr/bin/time -f '%M' -o "$scratch/rss" "$BIN" --json explain - > "$out" 2> "$err" \
	< <(cat "$text"; hundred_mb x; echo; hundred_mb y; printf ' %s\n%s\n' "$fail_line" "$fail_line")
rc=$?
rss=$(tail -1 "$scratch/rss")
[ "$rc" -eq 2 ] && [ "${rss:-999999}" -lt "$limit" ] && [ "$(lines_of log.nccl.modify_qp_timeout)" = "$((lines + 3))" ] &&
	[ "$(summary truncated)" = 2 ]
result "two 100 MB lines: truncated, the failure on the line after them, RSS ${rss:-?} KiB" $?

# --- NUL bytes inside lines: shown as ?, the line still matched, the JSON valid
{ cat "$text"; head -c 1000 /dev/zero; printf '%s\n' "$fail_line"; printf 'x\0y\0%s\n' "$fail_line"; } > "$scratch/nul.log"
timed "$scratch/nul.log" --json
[ "$rc" -eq 2 ] && json_ok roce-doctor/explain/v1 &&
	[ "$(lines_of log.nccl.modify_qp_timeout)" = "$((lines + 1)),$((lines + 2))" ] && [ "$(summary binary)" = 2 ]
result "NUL bytes before and inside failure lines: both matched, counted, valid JSON, RSS ${rss:-?} KiB" $?

# --- Latin-1 and UTF-8 in one file (a host name typed on two systems): UTF-8 kept, Latin-1 bytes as ?
{ cat "$text"; printf 'IB device mlx5_\xc3\xa9 not found\n'; printf 'IB device mlx5_\xe9 not found\n'
	printf 'Couldn'"'"'t connect to n\xe9ud-b:18515\n'; } > "$scratch/mixed.log"
timed "$scratch/mixed.log"
[ "$rc" -eq 2 ] && grep -q "^  fail  log.perftest.device_not_found  lines $((lines + 1)),$((lines + 2))\$" "$out" &&
	grep -qx '        > IB device mlx5_é not found' "$out" && grep -q 'could not open TCP n?ud-b:18515' "$out"
result "Latin-1 and UTF-8 in one file: both lines matched, UTF-8 shown, Latin-1 as ?, RSS ${rss:-?} KiB" $?
run --json explain "$scratch/mixed.log"
[ "$rc" -eq 2 ] && json_ok roce-doctor/explain/v1; result "Latin-1 and UTF-8 in one file: valid JSON" $?

# --- the progress line: on a terminal (script's pty) for a file over 100 MB, erased at the end; not when
# stderr is a file, not for a small log on a terminal
if command -v script > /dev/null; then
	cp "$text" "$scratch/150m.log"
	printf '\n%s\n' "$fail_line" >> "$scratch/150m.log"
	truncate -s 150000000 "$scratch/150m.log"
	script -qec "'$BIN' explain '$scratch/150m.log' > /dev/null" /dev/null > "$scratch/tty" 2>&1
	grep -aq $'\r\e\\[Kroce-doctor: explain: .*150m.log: [0-9]* of 150 MB read ([0-9]*%)' "$scratch/tty" &&
		[ "$(tail -c 4 "$scratch/tty" | od -An -c | tr -d ' ')" = '\r033[K' ]
	result "over 100 MB on a terminal: a progress line on stderr, erased at the end" $?
	run explain "$scratch/150m.log"
	[ "$rc" -eq 2 ] && ! grep -q 'MB read' "$err"; result "over 100 MB, stderr not a terminal: no progress line" $?
	script -qec "'$BIN' explain '$text' > /dev/null" /dev/null > "$scratch/tty" 2>&1
	! grep -aq 'MB read' "$scratch/tty"; result "a small log on a terminal: no progress line" $?
fi

tap_end
