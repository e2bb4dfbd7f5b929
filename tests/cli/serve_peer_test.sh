#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# check --peer's requests, end to end on 127.0.0.1 (no RDMA needed): the client (tests/peer/peer_probe) against
# a real 'roce-doctor serve' (snapshot, TCP reachability, the rail requests refused on a host without RDMA), and
# against a hostile fake serve (tests/peer/fake_serve.py): each lie, each malformed or cut answer is one clear
# line and a non-zero exit within --timeout, and a few of them run under valgrind with no error and no leak.
# usage: serve_peer_test.sh ROCE_DOCTOR FIXTURES_DIR PEER_PROBE   (TAP on stdout)
set -u
BIN=$1 PROBE=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/serve_port.sh"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$out" "$err" "$scratch"' EXIT

# probe ARGS...: runs the client, its line in $out, its exit status in $rc, the seconds it took in $took.
probe() {
	local t0=$EPOCHREALTIME
	"$PROBE" "$@" >"$out" 2>"$err"
	rc=$?
	took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
}
# check NAME RC PATTERN MAX_SECONDS
check() { [ "$rc" -eq "$2" ] && grep -qE -- "$3" "$out" && awk -v t="$took" -v m="$4" 'BEGIN { exit !(t < m) }'; result "$1 (${took}s)" $?; }
# started FILE PATTERN: waits for PATTERN in FILE, at most 60 s (a python fake serve starts slowly under load)
started() { for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

# ---- the real serve ----
"$BIN" serve --bind 127.0.0.1 --port 0 >"$scratch/serve.log" 2>"$scratch/serve.err" &
pids+=($!)
port=$(serve_port "$scratch/serve.log" $!); result "serve listens on 127.0.0.1:$port" $?

"$BIN" snapshot --json-lines >"$scratch/own.json" 2>/dev/null
host=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["identity"]["hostname"])' "$scratch/own.json")
probe snapshot 127.0.0.1 "$port" 5
check "snapshot: the serve's own document, read back by the snapshot reader" 0 "^snapshot host=$host devices=0 .*system=yes" 5
grep -qE "done: snapshot of [0-9]+ bytes" "$scratch/serve.log"; result "serve logs the snapshot it sent" $?

probe reach 127.0.0.1 "$port" 5 127.0.0.1 127.0.0.1 0
check "reach, port 0: serve picks one, the connection arrives" 0 "^ARRIVED ret=0 port=[1-9][0-9]* from=127.0.0.1 " 5
picked=$(sed -nE 's/.* port=([0-9]+) .*/\1/p' "$out")
read -r lo hi </proc/sys/net/ipv4/ip_local_port_range
[ -n "$picked" ] && [ "$picked" -ge "$lo" ] && [ "$picked" -le "$hi" ]
result "reach, port 0: the port is from the serve's ip_local_port_range ($picked in $lo..$hi)" $?
for _ in 1 2 3; do
	free=$(free_port)
	probe reach 127.0.0.1 "$port" 5 127.0.0.1 127.0.0.1 "$free"
	grep -q "is in use" "$out" || break   # another process took it in between: another one
done
check "reach, a named port: listened on exactly that port" 0 "^ARRIVED ret=0 port=$free " 5
grep -qE "done: reach 127.0.0.1:$free: arrived from 127.0.0.1:[0-9]+" "$scratch/serve.log"
result "serve logs where the connection came from" $?
probe reach 127.0.0.1 "$port" 5 127.0.0.1 192.0.2.77 0
check "reach, not an address of the serve: refused with the reason" 0 \
	"^REFUSED_BY_PEER .*192.0.2.77 is not an address of this serve's host" 5
probe reach 127.0.0.1 "$port" 5 127.0.0.1 127.0.0.1 "$port"
check "reach, a port in use on the serve: refused with the reason" 0 "^REFUSED_BY_PEER .*port $port on 127.0.0.1 is in use" 5
python3 - 127.0.0.1 "$port" >"$scratch/hello_on.out" 2>&1 <<'PY'
import socket, struct, sys
ep = struct.pack(">BBHB3s16sIQQH", 1, 3, 0, 1, bytes(3), bytes(10) + b"\xff\xff" + bytes([127, 0, 0, 1]), 7, 0x1000,
                 3 * 64, 1) + struct.pack(">II", 17, 0)
hello = struct.pack(">BBBBHHII", 1, 1, 2, 0, 4, 0, 0, 64) + ep
payload = b"mlx5_9".ljust(64, b"\0") + struct.pack(">BBH", 1, 0, 3) + hello
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
greeting = s.recv(12 + 36)   # protocol 2: the serve's GREETING first
s.sendall(struct.pack(">IHHI", 0x52444F43, 2, 15, len(payload)) + payload)
hdr = s.recv(12)
magic, version, ftype, length = struct.unpack(">IHHI", hdr)
body = s.recv(length)
print(ftype, struct.unpack(">H", body[:2])[0], body[4:].decode())
PY
grep -qE "^3 3 on the serve: no RDMA device mlx5_9" "$scratch/hello_on.out"
result "HELLO_ON naming a device the serve lacks: REFUSE no device, with the reason" $?
probe rail 127.0.0.1 "$port" 5 rxe0 1 1 rxe0 1 1
check "rail probe without RDMA here: SETUP_FAILED on this side, one line" 1 "^SETUP_FAILED ret=-1 .*by_peer=0.*cannot set up rxe0/1" 5
probe rail 127.0.0.1 "$port" 5 rxe0 1 -1 rxe0 1 1
check "rail probe with no GID on a side: NOT_RUN" 1 "^NOT_RUN .*this side has no usable GID" 5
python3 "$here/../peer/hostile_requests.py" 127.0.0.1 "$port" bad-reach bad-snapshot-req too-many \
	hello-after-request bye-first reach-then-vanish >"$scratch/hostile.out" 2>&1
rc=$?
sed 's/^/# /' "$scratch/hostile.out"
[ "$rc" -eq 0 ] && [ "$(grep -c '^ok ' "$scratch/hostile.out")" -eq 6 ]
result "requests sent wrongly: each answered with the right ERROR" $?
sleep 0.3
grep -qE "ended: .*more than 16 requests on one connection" "$scratch/serve.log" &&
	grep -qE "ended: the client left while we listened for its connection" "$scratch/serve.log"
result "serve logs the request limit and a client that left while it listened" $?
kill -0 "${pids[0]}"; result "serve is still running" $?

# ---- serve under valgrind: snapshot, reach, a client leaving, SIGTERM while a listener waits ----
if command -v valgrind >/dev/null && ! ldd "$BIN" 2>/dev/null | grep -q libasan; then
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
		--suppressions="$here/../serve/libibverbs.supp" --suppressions="$here/../valgrind/glibc-nss.supp" \
		--log-file="$scratch/serve-vg.log" "$BIN" serve --bind 127.0.0.1 --port 0 >"$scratch/vserve.log" 2>&1 &
	vserve=$!
	pids+=("$vserve")
	vport=$(serve_port "$scratch/vserve.log" "$vserve"); result "serve under valgrind listens" $?
	probe snapshot 127.0.0.1 "$vport" 30
	check "serve under valgrind: snapshot" 0 "^snapshot host=$host " 30
	probe reach 127.0.0.1 "$vport" 10 127.0.0.1 127.0.0.1 0
	check "serve under valgrind: reach" 0 "^ARRIVED " 10
	python3 "$here/../peer/hostile_requests.py" 127.0.0.1 "$vport" reach-then-vanish bad-reach >/dev/null 2>&1
	python3 "$here/../peer/hostile_requests.py" 127.0.0.1 "$vport" listen-long >"$scratch/long.out" 2>&1 &
	long=$!
	for _ in $(seq 100); do grep -q listening "$scratch/long.out" && break; sleep 0.1; done
	kill -TERM "$vserve"
	wait "$vserve"
	rc=$?
	wait "$long"
	# valgrind 3.19 does not know openat2 (437) and says so; rootfs then falls back to openat.
	sed -i -E '/unhandled amd64-linux syscall: 437|write your own handler|README_MISSING_SYSCALL|consider this a bug|valgrind.org\/support/d' \
		"$scratch/serve-vg.log"
	grep -q '^ok listen-long' "$scratch/long.out"
	result "SIGTERM while a reach listener waits: the client gets ERROR 'serve is shutting down'" $?
	[ "$rc" -eq 0 ] && [ ! -s "$scratch/serve-vg.log" ]
	result "serve under valgrind exits 0 on SIGTERM, no error, no leak (exit $rc)" $?
	sed 's/^/# /' "$scratch/serve-vg.log" | head -30
fi

# ---- a hostile serve ----
modes=(good malformed oversized other-schema truncated out-of-order old-serve bad-version no-greeting stall lie-port
	lie-from deny-arrival stall-result)
# at MODE: the fake serve's port for MODE (the kernel picked it)
at() { awk -v m="$1" '$1 == "port" && $2 == m { print $3 }' "$scratch/fake.log"; }
SNAPSHOT="$scratch/own.json" python3 "$here/../peer/fake_serve.py" "${modes[@]}" >"$scratch/fake.log" 2>&1 &
pids+=($!)
started "$scratch/fake.log" listening; result "the fake serve listens" $? || sed 's/^/# /' "$scratch/fake.log"
probe snapshot 127.0.0.1 "$(at good)" 5
check "fake serve, a good snapshot: accepted (the fake speaks the protocol)" 0 "^snapshot host=$host " 5
for c in "malformed|sent a snapshot that is not valid: line 1 column [0-9]+" \
	"oversized|sent a bad frame before its snapshot: SNAPSHOT_CHUNK: a snapshot of 5242880 bytes \\(1\\.\\.4194304\\)" \
	"other-schema|sent a snapshot that is not valid: schema: \"roce-doctor/snapshot/v2\" is newer" \
	"truncated|closed the connection after [0-9]+ of [0-9]+ snapshot bytes" \
	"out-of-order|sent chunk 3 of [0-9]+ .* where chunk 2 of [0-9]+ .* was due" \
	"old-serve|does not answer snapshot requests \\(an older roce-doctor" \
	"bad-version|speaks another protocol: protocol version 1, this side speaks 2"; do
	mode=${c%%|*}
	probe snapshot 127.0.0.1 "$(at "$mode")" 3
	check "fake serve, $mode snapshot: one clear line, exit 1" 1 "^error -[0-9]+: the serve at 127.0.0.1:$(at "$mode") ${c#*|}" 3
done
probe snapshot 127.0.0.1 "$(at no-greeting)" 1
check "fake serve of protocol 1 (no GREETING): the client says so at --timeout" 1 \
	"^error -110: the serve at 127.0.0.1:$(at no-greeting) sent no GREETING within 1 s \\(stopped, hung or swamped; or a roce-doctor serve older than protocol 2" 3
probe snapshot 127.0.0.1 "$(at stall)" 2
check "fake serve stops halfway: the client gives up at --timeout, says how far it got" 1 \
	"stopped answering after [0-9]+ of [0-9]+ snapshot bytes \\(--timeout 2 s\\)" 3
probe reach 127.0.0.1 "$(at lie-port)" 3 127.0.0.1 127.0.0.1 "$free"
check "fake serve listens on another port than asked: protocol error" 1 "^ERROR ret=-71 .*listens on port [0-9]+ .*we asked for port $free" 3
probe reach 127.0.0.1 "$(at lie-from)" 3 127.0.0.1 127.0.0.1 0
check "fake serve claims an arrival from an address we did not use: protocol error" 1 \
	"^ERROR ret=-71 .*claims a connection from 10.9.9.9:40000 arrived; we connected from 127.0.0.1:" 3
probe reach 127.0.0.1 "$(at deny-arrival)" 3 127.0.0.1 127.0.0.1 0
check "fake serve denies the connection it accepted: protocol error" 1 "^ERROR ret=-71 .*says nothing arrived" 3
probe reach 127.0.0.1 "$(at stall-result)" 1 127.0.0.1 127.0.0.1 0 500
check "fake serve never says what arrived: error within listen time + --timeout" 1 \
	"^ERROR ret=-110 .*stopped answering while it listened" 3

# ---- under valgrind: the client's error paths free what they took ----
if command -v valgrind >/dev/null && ! ldd "$PROBE" 2>/dev/null | grep -q libasan; then
	for c in "good|snapshot 127.0.0.1 $(at good) 5" "truncated|snapshot 127.0.0.1 $(at truncated) 5" \
		"stall|snapshot 127.0.0.1 $(at stall) 1" "lie-from|reach 127.0.0.1 $(at lie-from) 3 127.0.0.1 127.0.0.1 0"; do
		# shellcheck disable=SC2086
		valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 \
			--log-file="$scratch/vg.log" "$PROBE" ${c#*|} >"$out" 2>"$err"
		rc=$?
		[ "$rc" -ne 99 ] && [ ! -s "$scratch/vg.log" ]
		result "valgrind: peer_probe against the ${c%%|*} fake serve: no error, no leak (exit $rc)" $?
		[ "$rc" -ne 99 ] || sed 's/^/# /' "$scratch/vg.log" | head -20
	done
fi
tap_end
