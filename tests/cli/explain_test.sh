#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain: the corpus of tests/logs (each LOG against LOG.expected), prefixes, exit codes, usage
# errors, bad input (binary, 1 MiB lines, invalid UTF-8, NUL) and a 64 MiB stream read in bounded memory.
#   explain_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIXTURES=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
logs=$src/tests/logs
. "$src/tests/lib/tap.sh"

# --- the corpus: problems exactly, facts at least those listed (one python process for all the logs)
while read -r status line; do
	result "$line" "$status"
done < <(python3 "$logs/corpus.py" "$BIN" "$logs" 2>&1 || echo "1 corpus.py failed")

# --- text: facts, problems with line, meaning, checks and fix, the recognised count
expect "text names the problem, its line, checks and fix, and counts the lines" 2 \
	'^  fail  log.nccl.modify_qp_timeout  line 6$' -- explain "$logs/from-source/nccl-2.23-modify-qp-timeout.log"
grep -q '^        checks: gid.env,' "$out" && grep -q '^        fix: roce-doctor check --peer PEER' "$out" &&
	grep -qx '5 of 7 lines recognised' "$out"
result "text: checks line, fix line and '5 of 7 lines recognised'" $?

# --- exit codes as check: warn 1, fail 2, nothing 0
expect "a warn-only log exits 1" 1 'log.nccl.ib_no_device' -- explain "$logs/h100-nccl-2.28.9/nccl-info-1rank.log"
printf 'hello\nNCCL INFO NCCL version 2.28.9+cuda13.0\n' > "$scratch/clean.log"
expect "a log with facts only exits 0 and says so" 0 '^1 of 2 lines recognised$' -- explain "$scratch/clean.log"
expect "stdin with -" 2 'log.perftest.device_not_found' -- explain - < "$logs/from-source/perftest-wrong-device.log"
run explain < "$logs/from-source/perftest-wrong-device.log"
[ "$rc" -eq 2 ] && grep -q 'explain (stdin): fail' "$out"; result "stdin without an argument" $?

# --- prefixes: the same message behind each launcher's prefix is the same finding, quoted without the prefix
msg='node-a:1:2 [0] misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out errno 110'
for prefix in '' '[rank3]:' '[default0]:' '[1,3]<stderr>:' 'node-a: ' '  3: ' '[2026-11-24 21:25:56] ' \
	'2026-11-24T21:25:56.123456Z ' 'Nov 24 21:25:56 ' '[1,0]<stdout>:[rank0]:[2026-11-24 21:25:56] '; do
	printf '%s%s\n' "$prefix" "$msg" > "$scratch/p.log"
	run explain "$scratch/p.log"
	[ "$rc" -eq 2 ] && grep -qx '  fail  log.nccl.modify_qp_timeout  line 1' "$out" &&
		grep -qx '        > Call to ibv_modify_qp failed with error Connection timed out errno 110' "$out"
	result "prefix '$prefix' is stripped" $?
done

# --- causes the log shows across lines: named, and listed first, above the generic problems they explain
# first_problem LOG ID RC: exit RC and ID is the first problem
first_problem() {
	run explain "$1"
	[ "$rc" -eq "$3" ] && [ "$(sed -n '/^problems:$/{n;p;q}' "$out" | awk '{ print $2 }')" = "$2" ]
}
first_problem "$logs/from-source/nccl-2.18-retry-exceeded.log" log.nccl.link_local_gid 2 &&
	grep -q 'NCCL uses the link-local GID fe80::5054:ff:fe12:3401 (GID index 0) on RoCE' "$out" &&
	grep -q 'NCCL_IB_GID_INDEX=0 was set in the environment (line 4)' "$out" &&
	grep -qx '        fix: export NCCL_IB_GID_INDEX=3 .*' "$out" && grep -q 'roce-doctor gid --suggest' "$out" &&
	grep -q 'unset NCCL_IB_GID_INDEX .*NCCL >= 2.21' "$out"
result "NCCL_IB_GID_INDEX=0 and a fe80:: localGid on RoCE: the link-local GID named first, with its fix" $?
# NCCL's own print of the GID in use: the subnet prefix as a little-endian number, fe80:: as 80FE
printf '%s\n' 'node-b:2210:2251 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 0.' \
	'node-b:2210:2266 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 2412 mtu 3 GID 0 (80FE/5F4E3DFEFFC2B1A8)' > "$scratch/gid0.log"
first_problem "$scratch/gid0.log" log.nccl.link_local_gid 2 && grep -q 'lines 1,2$' "$out"
result "NCCL_IB_GID_INDEX=0 next to GID 0 (80FE/...): the link-local GID finding" $?
printf '%s\n' 'node-b:2210:2251 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.2<0>' \
	'node-b:2210:2266 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 2412 mtu 5 GID 0 (80FE/5F4E3DFEFFC2B1A8)' > "$scratch/gid-ib.log"
run explain "$scratch/gid-ib.log"
[ "$rc" -eq 0 ] && ! grep -q link_local_gid "$out"; result "on InfiniBand the fe80:: GID is no finding" $?
printf '%s\n' 'node-b:2210:2266 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 2412 mtu 3 GID 3 (0/C80A5A0AFFFF0000)' > "$scratch/gid3.log"
run explain "$scratch/gid3.log"
[ "$rc" -eq 0 ] && ! grep -q link_local_gid "$out"; result "a routable GID (::ffff:10.90.10.200 at index 3) is no finding" $?
# NCCL_IB_HCA naming no HCA: the real H100 log (mlx5_O, the letter), then a job whose other rank found mlx5_0
first_problem "$logs/h100-nccl-2.28.9/nccl-ib-hca-typo.log" log.nccl.ib_hca_matches_none 1 &&
	grep -q "NCCL_IB_HCA=mlx5_O matched no RDMA device .*('mlx5_O' has a letter where the device number goes)" "$out" &&
	grep -qx '        fix: ibv_devices    # on that node: the HCA names NCCL_IB_HCA must match' "$out"
result "NCCL_IB_HCA=mlx5_O and 'No device found': the name matched nothing, the letter O named" $?
printf '%s\n' 'node-a:2210:2251 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.0.1<0>' \
	'node-b:3310:3351 [0] NCCL INFO NCCL_IB_HCA set to mlx5_7' 'node-b:3310:3351 [0] NCCL INFO NET/IB : No device found.' \
	> "$scratch/hca-none.log"
first_problem "$scratch/hca-none.log" log.nccl.ib_hca_matches_none 1 &&
	grep -q 'at all; a rank of this job that found its HCAs uses \[0\]mlx5_0:1/RoCE (line 1)\. NCCL then' "$out" &&
	! grep -q 'has a letter' "$out"
result "NCCL_IB_HCA=mlx5_7 where another rank uses mlx5_0: that rank's HCAs named" $?
printf '%s\n' 'node-b:3310:3351 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0' \
	'node-b:3310:3351 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.0.2<0>' > "$scratch/hca-ok.log"
run explain "$scratch/hca-ok.log"
[ "$rc" -eq 0 ] && ! grep -q ib_hca_matches_none "$out"
result "NCCL_IB_HCA that matched a device: no finding" $?
two=$logs/gpu-2rank
first_problem "$two/torch-watchdog-skipped-collective.log" log.torch.skipped_collective 2 &&
	grep -q 'rank 1 never issued collective 2, which rank 0 issued' "$out" && grep -q 'An application bug, not the network' "$out"
result "both ranks interleaved: rank 1 skipped collective 2, first, an application bug" $?
first_problem "$two/torch-skip-r1.log" log.torch.skipped_collective 2 &&
	grep -q 'rank 1 had completed every collective it issued (1) when rank 0 timed out' "$out"
result "rank 1's own log: it skipped the collective rank 0 timed out in" $?
run explain "$two/torch-skip-r0.log"
[ "$rc" -eq 2 ] && grep -q 'most often another rank never issued collective 2' "$out" && ! grep -q 'skipped_collective' "$out"
result "rank 0's own log: the timeout says a rank that never issued collective 2 comes first, not 'a rank hung'" $?
first_problem "$two/torch-hang-first-collective.log" log.nccl.init_waiting 2 &&
	grep -q 'the job was stopped (torchrun received signal 2) while rank 0 waited in NCCL.s communicator init' "$out" &&
	grep -q 'ranks that reached it: 0 (1 of 2); not seen starting it: 1' "$out" &&
	grep -qx '        fix: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV TORCH_NCCL_DESYNC_DEBUG=1 .*' "$out"
result "a job stopped in its first collective: which ranks reached init, and what to rerun with" $?
first_problem "$two/nccl-net-absent.log" log.too_little 1 &&
	grep -qx '        fix: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV    # rerun the job with these in every rank.s environment' "$out"
result "a log with nothing explain reads: warn, and the variables to rerun with, not ok" $?

# --- usage errors: exit 64, one line on stderr, nothing on stdout
bad "standard input given twice is a usage error" 64 'standard input .-. can be given once' -- explain - -
bad "an unknown option is a usage error" 64 'unrecognized option' -- explain --bogus
bad "--root without --with-check is a usage error" 64 'give --with-check too' -- --root "$FIXTURES/cx6lx-2port" explain "$scratch/clean.log"
bad "a missing file exits 3 naming it" 3 "cannot read $scratch/none.log: No such file or directory" -- explain "$scratch/none.log"
mkdir -p "$scratch/empty-dir"
bad "a directory with no file exits 3 naming it" 3 "$scratch/empty-dir has no file to explain" -- explain "$scratch/empty-dir"

# --- bad input: answered, never a crash
head -c 200000 /dev/urandom > "$scratch/garbage.bin"
bad "random bytes are not a log: exit 3, one line" 3 'garbage.bin is not a text log: [0-9]+ of its first 65536 bytes are NUL' \
	-- --json explain "$scratch/garbage.bin"
: > "$scratch/empty.log"
bad "an empty file is said to be empty, exit 3" 3 'empty.log is empty: no log to explain' -- explain "$scratch/empty.log"
printf '\n  \n\t\n' > "$scratch/blank.log"
bad "blank lines only: empty, exit 3" 3 'blank.log is empty but for blank lines' -- explain "$scratch/blank.log"
bad "empty stdin: empty, exit 3" 3 '\(stdin\) is empty' -- explain - < /dev/null

# --- compressed logs are read as they stream, through zlib, liblzma and libzstd: the same findings as plain
retry=$logs/from-source/nccl-2.18-retry-exceeded.log
run --json explain "$retry"
plain=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted((f["id"], f["lines"][0]) for f in d["findings"]), d["summary"])' "$out")
for z in "gzip -c:gz:gzip" "xz -c:xz:xz" "zstd -q -c:zst:zstd"; do
	IFS=: read -r tool ext name <<< "$z"
	command -v "${tool%% *}" > /dev/null || continue
	$tool "$retry" > "$scratch/retry.log.$ext"
	run --json explain "$scratch/retry.log.$ext"
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted((f["id"], f["lines"][0]) for f in d["findings"]), d["summary"])' "$out" 2>/dev/null)
	[ "$rc" -eq 2 ] && [ "$got" = "$plain" ] && grep -q "\"compression\": \"$name\"" "$out"
	result "$name: the same findings, lines and counts as the plain log, compression named" $?
	run explain "$scratch/retry.log.$ext"
	head -1 "$out" | grep -q "retry.log.$ext ($name): fail"; result "$name: the text names the compression" $?
	# cut short, and damaged in the middle: one line naming it, exit 3, nothing on stdout
	head -c 100 "$scratch/retry.log.$ext" > "$scratch/cut.$ext"
	bad "$name cut short: exit 3, one line" 3 "cannot read .*cut.$ext: $name data that ends early" -- explain "$scratch/cut.$ext"
done
cat "$retry" "$retry" "$retry" "$retry" | gzip -c > "$scratch/big.gz"
cp "$scratch/big.gz" "$scratch/damaged.gz"
printf '\377\377\377\377\377\377\377\377' | dd of="$scratch/damaged.gz" bs=1 seek=200 conv=notrunc 2> /dev/null
bad "corrupt gzip: exit 3, zlib's reason" 3 'cannot read .*damaged.gz: corrupt gzip data \(' -- explain "$scratch/damaged.gz"
{ gzip -c "$retry"; gzip -c "$retry"; } > "$scratch/two.gz"
run explain "$scratch/two.gz"
[ "$rc" -eq 2 ] && grep -qx '  fail  log.nccl.wc_retry_exceeded  lines 11,25' "$out"
result "two gzip members (logrotate, cat a.gz b.gz) are read as one log" $?
gzip -c "$scratch/garbage.bin" > "$scratch/garbage.gz"
bad "compressed random bytes: not a text log" 3 'garbage.gz \(gzip-compressed\) is not a text log' -- explain "$scratch/garbage.gz"
gzip -c "$retry" > "$scratch/stdin.gz"
run explain - < "$scratch/stdin.gz"
[ "$rc" -eq 2 ] && head -1 "$out" | grep -q '(stdin) (gzip): fail'; result "gzip on stdin" $?
printf 'BZh, a line of text\nNET/IB : No device found.\n' > "$scratch/bzh.log"
expect "text that starts with bzip2's first letters is text" 1 'log.nccl.ib_no_device' -- explain "$scratch/bzh.log"
if command -v bzip2 > /dev/null; then
	bzip2 -c "$retry" > "$scratch/retry.bz2"
	bad "bzip2: said, with the command that reads it" 3 'bzip2-compressed.*bzcat FILE \| roce-doctor explain -' -- explain "$scratch/retry.bz2"
fi
# a 1 MiB line holding a pattern past 4096 bytes, then the pattern on the next line: line 2 is the finding
{ head -c 1048576 /dev/zero | tr '\0' 'x'; printf ' NET/IB : No device found.\nNET/IB : No device found.\n'; } > "$scratch/long.log"
run explain "$scratch/long.log"
[ "$rc" -eq 1 ] && grep -qx '  warn  log.nccl.ib_no_device  line 2' "$out" &&
	grep -qx '1 of 2 lines recognised; 1 longer than 4096 bytes, read up to there' "$out"
result "a 1 MiB line is read up to 4096 bytes and counted as truncated; the next line is line 2" $?
# invalid UTF-8 and a NUL inside a recognised line: the bytes shown as ?, both lines matched, JSON valid
printf 'IB device ml\xffx5_\xc0\x809 not found\nIB device \x00mlx5_7 not found\n' > "$scratch/utf8.log"
run explain "$scratch/utf8.log"
grep -qx '  fail  log.perftest.device_not_found  lines 1,2' "$out" &&
	grep -qx '        > IB device ml?x5_??9 not found' "$out" && grep -q '; 1 with control bytes or NUL$' "$out"
result "invalid UTF-8 and NUL: the bytes as ?, both lines matched" $?
run --json explain "$scratch/utf8.log"
[ "$rc" -eq 2 ] && json_ok roce-doctor/explain/v1; result "invalid UTF-8 and NUL: valid JSON" $?

# a file name that is not UTF-8 is named with ? in the JSON document (it had no "input" member)
badname=$scratch/$(printf 'bad\xffname.log')
cp "$scratch/clean.log" "$badname"
run --json explain "$badname"
[ "$rc" -eq 0 ] && json_ok roce-doctor/explain/v1 && grep -q '"input": ".*/bad?name.log"' "$out"
result "a file name of invalid UTF-8 is the document's input, with ?" $?

# --- a 64 MiB log through a pipe in bounded memory (1 GiB by hand: docs/explain.md)
cp "$logs/h100-nccl-2.28.9/nccl-info-subsys-all.log" "$scratch/1m.log"
for i in 1 2 3 4 5; do cat "$scratch/1m.log" "$scratch/1m.log" > "$scratch/2m.log"; mv "$scratch/2m.log" "$scratch/1m.log"; done
run explain "$logs/h100-nccl-2.28.9/nccl-info-subsys-all.log"
read -r one_recognised one_lines < <(sed -nE 's/^([0-9]+) of ([0-9]+) lines recognised$/\1 \2/p' "$out")
if [ -x /usr/bin/time ] && [ -n "$one_lines" ]; then
	# ASan keeps freed blocks in a quarantine (256 MiB by default) that grows with glibc regexec's per-call
	# allocations: a small one leaves what the bound is for, memory the reader itself keeps
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1
	/usr/bin/time -f '%M' -o "$scratch/rss" "$BIN" explain - \
		< <(for i in $(seq 59); do cat "$scratch/1m.log"; done) > "$out" 2> "$err"
	rc=$?
	rss=$(tail -1 "$scratch/rss")
	# ASan's shadow memory adds tens of MiB: the bound is what a leak per line or per finding would exceed
	[ "$rc" -eq 1 ] && [ "${rss:-999999}" -lt 65536 ] && grep -qx "$((one_recognised * 1888)) of $((one_lines * 1888)) lines recognised" "$out"
	result "64 MiB on stdin (1888 copies of one log): every line counted, RSS ${rss:-?} KiB < 64 MiB" $?
	# the same 64 MiB gzip-compressed: decoded as it streams, never held whole
	for i in $(seq 59); do cat "$scratch/1m.log"; done | gzip -1 > "$scratch/64m.gz"
	/usr/bin/time -f '%M' -o "$scratch/rss" "$BIN" explain "$scratch/64m.gz" > "$out" 2> "$err"
	rc=$?
	rss=$(tail -1 "$scratch/rss")
	[ "$rc" -eq 1 ] && [ "${rss:-999999}" -lt 65536 ] && grep -qx "$((one_recognised * 1888)) of $((one_lines * 1888)) lines recognised" "$out"
	result "64 MiB gzip-compressed: every line counted, RSS ${rss:-?} KiB < 64 MiB" $?
	rm -f "$scratch/64m.gz"
fi

# --- --list: every pattern id is in roce-doctor-checks(7)'s LOG PATTERNS section
run explain --list
ids=$(awk 'NR > 1 && /^log\./ { print $1 }' "$out" | sort -u)
. "$src/tests/lib/checks_man.sh"
section=$(checks_man_ids "$src/man/roce-doctor-checks.7" "LOG PATTERNS")
missing=""
for id in $ids; do grep -qxF "$id" <<< "$section" || missing="$missing $id"; done
[ -n "$ids" ] && [ -z "$missing" ]
result "roce-doctor-checks(7)'s LOG PATTERNS lists every pattern id${missing:+ (lacks:$missing)}" $?

# --- --with-check: the log's memlock problem joined to the fixture's memlock findings
run --root "$FIXTURES/check-fresh" explain --with-check "$logs/from-source/nccl-2.21-reg-mr-enomem.log"
[ "$rc" -eq 2 ] && grep -q '^        this host: memlock.limit fail: RLIMIT_MEMLOCK: locked memory limit is soft 64 KiB' "$out" &&
	grep -q '^        fix here: docker run --ulimit memlock=-1:-1' "$out" && ! grep -q 'this host: [^m]' "$out"
result "--with-check names the host's memlock findings and their fixes under the ENOMEM problem" $?
run --json explain "$logs/from-source/nccl-2.21-reg-mr-enomem.log"
grep -q '"host": null' "$out" && grep -q '"with_check": false' "$out"
result "without --with-check the host member is null" $?

tap_end
