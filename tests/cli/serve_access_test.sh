#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Who may talk to serve (issue 15), on 127.0.0.1 with no RDMA needed: --allow (a client outside is refused with
# one REFUSE naming it, and logged on stdout and stderr; the default and --allow any said in the log) and
# --secret-file (refused with a wrong or missing secret before any snapshot or listener, accepted with the
# right one, through peer_probe and through check --peer; the serve's proof checked; the secret never printed;
# bad files and options: one line, exit 64, nothing on stdout).
# usage: serve_access_test.sh ROCE_DOCTOR FIXTURES_DIR PEER_PROBE   (TAP on stdout)
set -u
BIN=$1 PROBE=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/serve_port.sh"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$out" "$err" "$scratch"' EXIT

# serve_on NAME ARGS...: a serve on 127.0.0.1 and a port the kernel picks, in $port; its log in
# $scratch/NAME.log and NAME.err. Status 1 when it never listened (its stderr then follows as comments).
serve_on() {
	local name=$1 pid; shift
	"$BIN" serve --bind 127.0.0.1 --port 0 "$@" >"$scratch/$name.log" 2>"$scratch/$name.err" &
	pid=$!; pids+=("$pid")
	port=$(serve_port "$scratch/$name.log" "$pid") && return 0
	sed 's/^/# serve: /' "$scratch/$name.err"; return 1
}
# probe ARGS...: peer_probe's line in $out, its stderr in $err, its exit status in $rc
probe() { "$PROBE" "$@" >"$out" 2>"$err"; rc=$?; }

umask 077
head -c 32 /dev/urandom | base64 >"$scratch/secret"
head -c 32 /dev/urandom | base64 >"$scratch/other"
secret_text=$(head -c 40 "$scratch/secret")

# ---- --allow ----
serve_on outside --allow 10.0.0.0/8 --allow fd00:88::/64
result "serve --allow 10.0.0.0/8 --allow fd00:88::/64 listens" $?
grep -q "allowing: 10.0.0.0/8, fd00:88::/64$" "$scratch/outside.log"; result "the log says which networks it answers" $?
probe snapshot 127.0.0.1 "$port" 5
[ "$rc" -eq 1 ] && grep -qE "^error -13: the serve at 127.0.0.1:$port refused the test: 127.0.0.1:[0-9]+ is not in this serve's allow list \(10.0.0.0/8, fd00:88::/64\): on the serve, add --allow ADDRESS/PREFIX" "$out"
result "a client outside the allow list: refused before its snapshot, told why and what to add" $?
grep -qE "127.0.0.1:[0-9]+ refused: 127.0.0.1:[0-9]+ is not in this serve's allow list" "$scratch/outside.log" &&
	! grep -q "snapshot of" "$scratch/outside.log"
result "serve logs the refusal with the client's address, and sent no snapshot" $?
grep -qE "^roce-doctor: serve: refused 127.0.0.1:[0-9]+: not in the allow list \(10.0.0.0/8, fd00:88::/64\)" "$scratch/outside.err"
result "and says it on stderr" $?
probe reach 127.0.0.1 "$port" 5 127.0.0.1 127.0.0.1 0
[ "$rc" -eq 1 ] && grep -q "not in this serve's allow list" "$out"; result "a reach request from outside: refused too" $?

serve_on default
result "serve with the default allow list listens" $?
dport=$port
grep -qE "allowing: 127.0.0.0/8, ::1/128.* \(the default: loopback and the subnets of the RDMA netdevs" "$scratch/default.log"
result "the default is said in the log: loopback and the RDMA netdevs' subnets" $?
probe snapshot 127.0.0.1 "$dport" 5
[ "$rc" -eq 0 ] && grep -q "^snapshot host=" "$out"; result "loopback is in the default: snapshot answered" $?

serve_on any --allow any
result "serve --allow any listens" $?
grep -q "allowing: any address (--allow any): every client that reaches the port" "$scratch/any.log"
result "--allow any is said in the log" $?
serve_on zero --allow 0.0.0.0/0
grep -q "allowing: any address" "$scratch/zero.log"; result "--allow 0.0.0.0/0 opens it up as any does" $?
probe snapshot 127.0.0.1 "$port" 5
[ "$rc" -eq 0 ]; result "--allow 0.0.0.0/0: answered" $?

# while busy with one client: a second outside the allow list is refused as outside (not told it is busy, nor
# by whom); one inside is refused as busy, without the other client's address
serve_on busy --allow 127.0.0.1/32
result "serve --allow 127.0.0.1/32 listens" $?
python3 - "$port" >"$out" 2>&1 <<'PY'
import socket, struct, sys
port = int(sys.argv[1])
def frame(s):
    hdr = b""
    while len(hdr) < 12:
        c = s.recv(12 - len(hdr)); hdr += c
        if not c: return None
    t, n = struct.unpack(">IHHI", hdr)[2:]
    body = b""
    while len(body) < n:
        c = s.recv(n - len(body)); body += c
        if not c: return None
    if t == 3:   # REFUSE: code, text
        code, tl = struct.unpack(">HH", body[:4]); return t, code, body[4:4 + tl].decode()
    return t, None, ""
def conn(src):
    s = socket.socket(); s.settimeout(5); s.bind((src, 0)); s.connect(("127.0.0.1", port)); return s
first = conn("127.0.0.1")
assert frame(first)[0] == 16, "no GREETING for the first client"
outside, inside = conn("127.0.0.2"), conn("127.0.0.1")
o, i = frame(outside), frame(inside)
print("outside", o); print("inside", i)
ok = o[:2] == (3, 9) and "not in this serve's allow list" in o[2] and "busy" not in o[2]
ok = ok and i[:2] == (3, 1) and i[2].startswith("busy: another client's test is running") and "127.0.0" not in i[2]
sys.exit(0 if ok else 1)
PY
result "busy: a client outside the allow list is refused as outside; one inside as busy, not told who" $?
grep -qE "127.0.0.2:[0-9]+ refused: 127.0.0.2:[0-9]+ is not in this serve's allow list" "$scratch/busy.log" &&
	grep -qE "127.0.0.1:[0-9]+ refused: busy with 127.0.0.1:[0-9]+" "$scratch/busy.log"
result "the serve's log names both" $?

for a in 10.0.0.0/33 fd00::/129 10.0.0 host.example ''; do
	bad "serve --allow '$a': one line, exit 64" 64 "bad --allow '$a'" -- serve --allow "$a" --port 1
done

# ---- --secret-file ----
serve_on secret --secret-file "$scratch/secret"
result "serve --secret-file listens" $?
sport=$port
PEER_PROBE_SECRET_FILE="$scratch/secret" probe snapshot 127.0.0.1 "$sport" 5
[ "$rc" -eq 0 ] && grep -q "^snapshot host=" "$out"; result "the right secret: snapshot answered (both proofs checked)" $?
PEER_PROBE_SECRET_FILE="$scratch/secret" probe reach 127.0.0.1 "$sport" 5 127.0.0.1 127.0.0.1 0
[ "$rc" -eq 0 ] && grep -q "^ARRIVED " "$out"; result "the right secret: reach answered" $?
PEER_PROBE_SECRET_FILE="$scratch/other" probe snapshot 127.0.0.1 "$sport" 5
[ "$rc" -eq 1 ] && grep -q "refused the test: wrong shared secret: the client's --secret-file is not the same file as the serve's" "$out"
result "a wrong secret: refused, told why" $?
probe snapshot 127.0.0.1 "$sport" 5
[ "$rc" -eq 1 ] && grep -q "requires a shared secret: give this command --secret-file FILE" "$out"
result "no secret: the client is told the serve requires one" $?
# A client that ignores the GREETING and asks for the snapshot at once (a host on the subnet without the secret)
python3 - 127.0.0.1 "$sport" >"$scratch/raw.out" 2>&1 <<'PY'
import socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
hdr = s.recv(12)
magic, version, ftype, length = struct.unpack(">IHHI", hdr)
greeting = s.recv(length)
print("greeting", version, ftype, greeting[0])
s.sendall(struct.pack(">IHHI", 0x52444F43, 2, 10, 0))   # SNAPSHOT_REQ instead of AUTH
hdr = s.recv(12)
magic, version, ftype, length = struct.unpack(">IHHI", hdr)
body = s.recv(length)
print(ftype, struct.unpack(">H", body[:2])[0], body[4:].decode())
print("then", len(s.recv(4096)))
PY
grep -q "^greeting 2 16 1$" "$scratch/raw.out" && grep -q "^3 9 this serve requires a shared secret (serve --secret-file): the client sent SNAPSHOT_REQ, not AUTH" "$scratch/raw.out" &&
	grep -q "^then 0$" "$scratch/raw.out"
result "SNAPSHOT_REQ instead of AUTH: REFUSE 9 and the connection closes, no snapshot" $?
sed 's/^/# /' "$scratch/raw.out"
sleep 0.2
[ "$(grep -c 'refused: wrong shared secret' "$scratch/secret.log")" -eq 1 ] &&
	[ "$(grep -c 'refused: this serve requires a shared secret' "$scratch/secret.log")" -eq 1 ] &&
	[ "$(grep -c 'snapshot of' "$scratch/secret.log")" -eq 1 ]
result "serve logs each refusal once; only the right secret got a snapshot" $?

# check --peer (node a from a fixture's snapshot: this host itself is refused as a peer; the serve's over the
# wire as b)
"$BIN" --root "$2/cx6lx-2port" snapshot >"$scratch/a.json" 2>/dev/null
run --from "$scratch/a.json" check --peer "127.0.0.1:$sport" --no-bw --json --secret-file "$scratch/secret"
[ "$rc" -le 2 ] && json_ok roce-doctor/pair/v1; result "check --peer --secret-file, the right secret: pair/v1" $?
bad "check --peer without the secret: exit 3, one line" 3 "requires a shared secret" -- --from "$scratch/a.json" check --peer "127.0.0.1:$sport" --no-bw
bad "check --peer with another secret: exit 3, one line" 3 "wrong shared secret" -- --from "$scratch/a.json" check --peer "127.0.0.1:$sport" --no-bw --secret-file "$scratch/other"
bad "nccl-env --peer without the secret: exit 3" 3 "requires a shared secret" -- --from "$scratch/a.json" nccl-env --peer "127.0.0.1:$sport"
bad "check --peer --secret-file against a serve without one: the serve cannot prove it, exit 3" 3 \
	"runs without --secret-file, so it cannot prove it knows our secret" -- --from "$scratch/a.json" check --peer "127.0.0.1:$dport" --no-bw --secret-file "$scratch/secret"

# A serve with another secret cannot pass itself off: the client checks the serve's proof.
python3 - >"$scratch/fake.out" 2>&1 <<'PY' &
import os, socket, struct, sys
lis = socket.socket()
lis.bind(("127.0.0.1", 0)); lis.listen(1); print("listening: on 127.0.0.1 port", lis.getsockname()[1], flush=True)
s, _ = lis.accept()
s.sendall(struct.pack(">IHHI", 0x52444F43, 2, 16, 36) + bytes([1, 0, 0, 0]) + os.urandom(32))
s.recv(12 + 64)
s.sendall(struct.pack(">IHHI", 0x52444F43, 2, 18, 32) + os.urandom(32))   # AUTH_OK with a made-up proof
s.recv(100)
PY
fake=$!; pids+=("$fake")
fport=$(serve_port "$scratch/fake.out" "$fake")
PEER_PROBE_SECRET_FILE="$scratch/secret" probe snapshot 127.0.0.1 "$fport" 5
[ "$rc" -eq 1 ] && grep -q "does not prove it knows our secret" "$out"; result "a serve with a made-up proof: refused by the client" $?

cat "$scratch"/*.log "$scratch"/*.err >"$scratch/all"
! grep -qF "$secret_text" "$scratch/all"; result "the secret appears in no log" $?

# ---- bad secret files: one line, exit 64, nothing on stdout ----
cp "$scratch/secret" "$scratch/open"; chmod 644 "$scratch/open"
bad "serve --secret-file readable by others: refused, says which and the chmod" 64 \
	"can be read by group and others \(mode 0644\): refused; run chmod 600 .*open" -- serve --port 1 --secret-file "$scratch/open"
chmod 640 "$scratch/open"
bad "bw --secret-file readable by its group: refused" 64 "can be read by its group \(mode 0640\)" -- bw 127.0.0.1 --secret-file "$scratch/open"
printf 'short' >"$scratch/short"
bad "lat --secret-file of 5 bytes: refused, says how to make one" 64 "holds 5 bytes, at least 16 are needed \(head -c 32 /dev/urandom" -- lat 127.0.0.1 --secret-file "$scratch/short"
bad "serve --secret-file that does not exist" 64 "cannot open --secret-file $scratch/nope: No such file or directory" -- serve --port 1 --secret-file "$scratch/nope"
bad "check --secret-file without --peer" 64 "--secret-file needs --peer ADDR" -- check --secret-file "$scratch/secret"
bad "nccl-env --secret-file without --peer" 64 "--secret-file needs --peer ADDR" -- nccl-env --secret-file "$scratch/secret"
! grep -rqF "$secret_text" "$out" "$err"; result "no error message prints the secret" $?
tap_end
