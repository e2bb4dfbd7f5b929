#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# serve on 127.0.0.1 of this host (no RDMA needed: the protocol is tested, not the traffic) against the hostile
# client, under valgrind when it is installed: every probe gets its answer and one log line, serve keeps
# running, SIGTERM stops it with exit 0, and valgrind finds no invalid access and no leak.
# usage: serve_hostile_test.sh ROCE_DOCTOR   (TAP on stdout)
set -u
BIN=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/serve_port.sh"
dir=$(mktemp -d)
trap 'kill "$serve" 2>/dev/null; rm -rf "$dir"' EXIT
n=0 failed=0
result() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }

vg=()
# An ASan build checks itself (and valgrind cannot run it).
if command -v valgrind >/dev/null && ! ldd "$BIN" 2>/dev/null | grep -q libasan; then
	vg=(valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 --quiet
		--suppressions="$here/libibverbs.supp" --log-file="$dir/valgrind.log")
fi
"${vg[@]}" "$BIN" serve --bind 127.0.0.1 --port 0 --max-qps 4 --max-mem 16 >"$dir/serve.log" 2>"$dir/serve.err" &
serve=$!
port=$(serve_port "$dir/serve.log" "$serve"); result "serve listens on 127.0.0.1:$port" $?

python3 "$here/hostile_client.py" 127.0.0.1 "$port" --max-qps 4 --max-mem-mib 16 --no-rdma --quick >"$dir/client.out" 2>&1
rc=$?
sed 's/^/# /' "$dir/client.out" | grep -v '^# ok '
[ "$rc" -eq 0 ]; result "every hostile probe got the answer it should" $?
probes=$(sed -n 's/^probes=//p' "$dir/client.out")
lines=$(grep -cE ' (ended|refused): ' "$dir/serve.log")
[ -n "$probes" ] && [ "$lines" -eq "$probes" ]; result "one log line per refusal ($probes probes, $lines lines)" $?
grep -q 'ended: protocol version 1, this side speaks 2' "$dir/serve.log"; result "the log says what was wrong" $?
kill -0 "$serve" 2>/dev/null; result "serve is still running" $?
kill -TERM "$serve"
wait "$serve"
rc=$?
[ "$rc" -eq 0 ] && grep -q 'stopped: SIGTERM' "$dir/serve.log"; result "SIGTERM: serve exits 0${vg:+, valgrind finds no error and no leak}" $?
[ "$rc" -eq 0 ] || sed 's/^/# valgrind: /' "$dir/valgrind.log" 2>/dev/null | head -40
echo "1..$n"
[ "$failed" -eq 0 ]
