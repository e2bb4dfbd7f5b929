#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The soak of issue 15 without RDMA: one serve on 127.0.0.1 (--secret-file, its HELLO timeout shortened to 1 s
# by the test hook) against tests/serve/soak.py: COUNT clients one after another (snapshots, reach requests,
# HELLOs, wrong and missing secrets, random, truncated, oversized, wrong-version and unknown frames, clients
# that vanish mid-snapshot, mid-listen and mid-frame, silent ones), a burst of 100 simultaneous connections,
# then a clean snapshot. Every client gets its answer, a silent one is dropped within the timeout, the burst
# is answered at once, and serve's descriptors and RSS (/proc/PID) are back where they were after the first
# client; with "valgrind", serve runs under it and exits 0 on SIGTERM with no error and no leak.
# usage: soak_test.sh ROCE_DOCTOR COUNT [valgrind]   (TAP on stdout)
set -u
BIN=$1 COUNT=$2 MODE=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/serve_port.sh"
dir=$(mktemp -d)
trap 'kill "$serve" 2>/dev/null; rm -rf "$dir"' EXIT
n=0 failed=0
result() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }
value() { sed -n "s/^$1//p" "$dir/soak.out"; }

vg=()
if [ "$MODE" = valgrind ]; then
	if ! command -v valgrind >/dev/null || ldd "$BIN" 2>/dev/null | grep -q libasan; then
		echo "1..0 # SKIP valgrind not installed, or an ASan build"; exit 0
	fi
	vg=(valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99
		--suppressions="$here/libibverbs.supp" --suppressions="$here/../valgrind/glibc-nss.supp"
		--log-file="$dir/valgrind.log")
fi
(umask 077; head -c 32 /dev/urandom | base64 >"$dir/secret")
ROCE_DOCTOR_TEST_HELLO_TIMEOUT_MS=1000 "${vg[@]}" "$BIN" serve --bind 127.0.0.1 --port 0 \
	--secret-file "$dir/secret" >"$dir/serve.log" 2>"$dir/serve.err" &
serve=$!
port=$(serve_port "$dir/serve.log" "$serve"); result "serve listens on 127.0.0.1:$port" $?

python3 "$here/soak.py" 127.0.0.1 "$port" "$serve" "$dir/secret" --count "$COUNT" --burst 100 --hello-timeout 1 \
	>"$dir/soak.out" 2>&1
rc=$?
grep -vE '^kind ' "$dir/soak.out" | sed 's/^/# /'
[ "$rc" -eq 0 ] && [ "$(value failed=)" = 0 ]; r=$?; result "every one of $(value clients=) clients got what it should ($(value seconds=) s)" $r
grep -E '^kind ' "$dir/soak.out" | awk '$3 != $5 { bad = 1 } END { exit bad || NR == 0 }'; result "every kind: all answered right" $?
read -r greeted busy other _ <<<"$(value 'burst ' | sed -E 's/[a-z]+=//g')"
[ "${other:-1}" -eq 0 ] && [ $((greeted + busy)) -eq 100 ]
result "a burst of 100 connections: each greeted or refused as busy at once (greeted $greeted, busy $busy)" $?
awk -v s="$(value silent_max_s=)" 'BEGIN { exit !(s > 0 && s < 2.5) }'
r=$?; result "a silent client is dropped within the HELLO timeout (longest $(value silent_max_s=) s)" $r
read -r f0 f1 <<<"$(value 'fds ' | sed -E 's/[a-z]+=//g')"
[ -n "$f0" ] && [ "$f0" -eq "$f1" ]; result "serve's open descriptors after the last client = after the first ($f0, $f1)" $?
read -r r0 r1 <<<"$(value 'rss_kib ' | sed -E 's/[a-z]+=//g')"
if [ "$MODE" = valgrind ]; then
	n=$((n + 1)); echo "ok $n - serve's RSS # SKIP under valgrind it is valgrind's heap ($r0 KiB, $r1 KiB)"
else
	[ -n "$r0" ] && [ "$r1" -le $((r0 + 256)) ]
	result "serve's RSS after the last client is back where it was after the first, within 256 KiB ($r0 KiB, $r1 KiB)" $?
fi
lines=$(grep -cE ' (done|ended|refused): ' "$dir/serve.log")
conns=$(grep -c ' connected$' "$dir/serve.log")
refused_at_once=$(grep -cE ' refused: busy with' "$dir/serve.log")
[ "$conns" -gt 0 ] && [ "$lines" -eq $((conns + refused_at_once)) ]
result "every connection ends in one done/ended/refused line ($conns connections, $refused_at_once busy, $lines lines)" $?
! grep -qF "$(head -c 40 "$dir/secret")" "$dir/serve.log" "$dir/serve.err" "$dir/soak.out"
result "the secret appears in no log" $?
kill -TERM "$serve"
wait "$serve"
rc=$?
[ "$rc" -eq 0 ] && grep -q 'stopped: SIGTERM' "$dir/serve.log"
result "SIGTERM: serve exits 0${vg:+, valgrind finds no error and no leak} (exit $rc)" $?
[ "$rc" -eq 0 ] || sed 's/^/# valgrind: /' "$dir/valgrind.log" 2>/dev/null | head -40
echo "1..$n"
[ "$failed" -eq 0 ]
