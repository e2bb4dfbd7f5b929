#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line's input (issue 10): -h, malformed peers, --root where it cannot work, sizes and MTUs, the
# real path of an empty tree, help's usage line, one spelling of a port, -v, and the shared options.
# usage: cli_input_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
A=$FIX/cx6lx-2port
# A binary that takes --root for serve (before the fix) would listen for ever: bound every run.
run() { timeout 10 "$BIN" "$@" >"$out" 2>"$err"; rc=$?; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# ---- 1. -h is --help, at the top and for every command ----
expect "-h at the top level is --help" 0 '^Usage: roce-doctor \[OPTION\.\.\.\] COMMAND' -- -h
for c in devices gid check nccl-env serve bw lat; do
	expect "$c -h is its --help" 0 "^Usage: roce-doctor $c " -- "$c" -h
	[ ! -s "$err" ]; result "$c -h: nothing on stderr" $?
done

# ---- 2. an empty or malformed peer is a usage error ----
bad "bw '': usage error" 64 "^roce-doctor bw: bad PEER '': expected a host name or an IPv4 or IPv6 address$" -- bw ''
bad "lat '': usage error" 64 "^roce-doctor lat: bad PEER ''" -- lat ''
bad "bw with a blank in the peer" 64 "bad PEER 'node b'" -- bw 'node b'
bad "bw 10.0.0: not an address, not a name" 64 "bad PEER '10.0.0'" -- bw 10.0.0
bad "bw 1.2.3.999" 64 "bad PEER '1.2.3.999'" -- bw 1.2.3.999

# ---- 3. --root with bw, lat or serve: refused as a usage error, before or after the command ----
for c in "bw 127.0.0.1" "lat 127.0.0.1" serve; do
	# shellcheck disable=SC2086
	bad "--root DIR $c: usage error" 64 "--root cannot be used with ${c%% *}: it needs this host's live RDMA devices" -- --root "$FIX/softroce" $c
	# shellcheck disable=SC2086
	bad "$c --root DIR: usage error" 64 "--root cannot be used with ${c%% *}" -- $c --root "$FIX/softroce"
done
run bw --help
! grep -q -- '--root' "$out"; result "bw --help does not offer --root" $?

# ---- 4. sizes in the common spellings, one message per rule ----
# a port of 127.0.0.1 bound and held, not listening, while the test runs: nothing answers there, so a
# connection to it is refused (python exits when the script ends and its stdin closes)
coproc HOLD { python3 -c 'import socket, sys; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1], flush=True); sys.stdin.read()'; }
read -r port <&"${HOLD[0]}"
for s in 4KB 64kib 64KiB 64k 1MB 1mib 2m 4096B; do
	run bw 127.0.0.1 -p "$port" --timeout 1 -s "$s"
	[ "$rc" -ne 64 ] && ! grep -q 'bad --size' "$err"; result "bw -s $s is taken" $?
done
run lat 127.0.0.1 -p "$port" --timeout 1 -s 4KB
[ "$rc" -ne 64 ] && ! grep -q 'bad --size' "$err"; result "lat -s 4KB is taken" $?
bad "bw -s 4Q names the accepted forms" 64 "bad --size '4Q': expected 1 B to 8 MiB: a whole number of bytes, alone or with K, KB, KiB, M, MB or MiB" -- bw 127.0.0.1 -s 4Q
bad "bw -s 9M: the same message" 64 "bad --size '9M': expected 1 B to 8 MiB: a whole number of bytes, alone or with K, KB, KiB, M, MB or MiB" -- bw 127.0.0.1 -s 9M
bad "bw --mtu 9000" 64 "^roce-doctor bw: bad --mtu '9000': expected 256, 512, 1024, 2048 or 4096$" -- bw 127.0.0.1 --mtu 9000
bad "bw --mtu 1000: the same message" 64 "^roce-doctor bw: bad --mtu '1000': expected 256, 512, 1024, 2048 or 4096$" -- bw 127.0.0.1 --mtu 1000

# ---- 5. an empty --root tree: the real path ----
for c in gid "gid --suggest"; do
	# shellcheck disable=SC2086
	bad "$c on an empty tree names the real path" 2 "no RDMA devices on this host \\($FIX/no-rdma/sys/class/infiniband is empty or missing\\)" -- --root "$FIX/no-rdma/" $c
	! grep -q 'DIR/' "$err"; result "$c: no literal DIR/" $?
done
bad "--root '' is refused" 64 "bad --root '': expected a directory" -- --root '' devices

# ---- 6. help: roce-doctor in the usage line, --help/--usage/--version listed, summaries indented ----
ln -s "$(readlink -f "$BIN")" "$scratch/some-path-name"
"$scratch/some-path-name" help >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 0 ] && grep -q '^Usage: roce-doctor \[OPTION\.\.\.\] COMMAND' "$out" && ! grep -q some-path-name "$out"
result "help: the usage line says roce-doctor, not the path run" $?
grep -q -- '--help' "$out" && grep -q -- '--usage' "$out" && grep -q -- '--version' "$out"
result "help lists --help, --usage and --version" $?
"$scratch/some-path-name" --bogus >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 64 ] && grep -q "^roce-doctor: unrecognized option '--bogus'" "$err" && ! grep -q some-path-name "$err"
result "an unknown top-level option names roce-doctor, not the path run" $?
run --help
sed -n '/^Commands:$/,/^$/p' "$out" | sed '1d;$d' >"$scratch/commands"
[ "$(wc -l <"$scratch/commands")" -ge 7 ] && ! grep -qv '^  ' "$scratch/commands"
result "--help: every command summary line is indented, none wraps to column 0" $?
if ldd "$BIN" 2>/dev/null | grep -q libasan; then
	skip "--help runs clean under valgrind" "an ASan build checks itself; valgrind cannot run it"
elif command -v valgrind >/dev/null; then
	# argp's wrap of a long last line in the top-level help read uninitialised bytes (glibc argp-fmtstream).
	valgrind -q --error-exitcode=99 "$BIN" --help >"$out" 2>"$err"; rc=$?
	[ "$rc" -eq 0 ] && [ ! -s "$err" ]; result "--help runs clean under valgrind" $?
else
	skip "--help runs clean under valgrind" "valgrind not installed"
fi

# ---- 7. DEV, DEV/PORT, DEV:PORT and a netdev name select alike; one message names what exists ----
run --root "$A" devices --brief mlx5_1:1; cp "$out" "$scratch/colon"
for s in mlx5_1 mlx5_1/1 ens19f1np1 ens19f1np1/1; do
	run --root "$A" devices --brief "$s"
	[ "$rc" -eq 0 ] && cmp -s "$out" "$scratch/colon" && [ "$(cat "$out")" = "mlx5_1 port 1 ==> ens19f1np1 (Up)" ]
	result "devices $s selects mlx5_1/1" $?
done
expect "gid with a netdev name" 0 '^NCCL_IB_GID_INDEX=5$' -- --root "$A" gid --suggest ens19f0np0
[ "$rc" -eq 0 ] && grep -q "^mlx5_0/1 " "$out" && ! grep -q mlx5_1 "$out"; result "gid --suggest ens19f0np0 looks at mlx5_0 only" $?
bad "an unknown name lists the devices and the netdevs" 2 '^roce-doctor: no RDMA device or netdev eth3 \(devices: mlx5_0, mlx5_1; netdevs: ens19f0np0, ens19f1np1\)$' -- --root "$A" devices eth3
bad "a missing port is spelled DEV/PORT" 2 '^roce-doctor: mlx5_1 has no port 2 \(ports: mlx5_1/1\)$' -- --root "$A" gid mlx5_1/2
bad "a malformed selection names the forms" 64 "bad device 'mlx5_0/x': expected DEV, DEV/PORT, DEV:PORT or a netdev name" -- --root "$A" devices mlx5_0/x
bad "bw -d malformed: the same message" 64 "bad device 'mlx5_0:0': expected DEV, DEV/PORT, DEV:PORT or a netdev name" -- bw 127.0.0.1 -d mlx5_0:0
bad "serve -d malformed: the same message" 64 "bad device '': expected DEV, DEV/PORT, DEV:PORT or a netdev name" -- serve -d ''

# ---- 8. -v says which source answered for each port, on stderr only ----
run --root "$A" devices; cp "$out" "$scratch/plain"; [ ! -s "$err" ]; result "devices without -v: stderr empty" $?
run --root "$A" -v devices
cmp -s "$out" "$scratch/plain"; result "devices -v: stdout unchanged" $?
[ "$(grep -c '^roce-doctor: mlx5_[01]/1: netdev ens19f[01]np[01] from gid_attrs/ndevs; RDMA netlink not asked under --root; addresses unknown (rtnetlink not asked under --root); port MTUs unknown (verbs not asked under --root)$' "$err")" -eq 2 ]
result "devices -v: one sources line per port, unknowns under --root said" $?
run --root "$FIX/softroce" gid -v
grep -q '^roce-doctor: rxe0/1: netdev eth0 from ' "$err"; result "gid -v: the sources of rxe0/1" $?
run --root "$A" nccl-env --verbose
[ "$rc" -eq 0 ] && [ "$(grep -c 'from gid_attrs/ndevs' "$err")" -eq 2 ]; result "nccl-env -v: the sources of both ports" $?
run --root "$A" devices -v mlx5_0
[ "$(grep -c '^roce-doctor: mlx5_0/1: ' "$err")" -eq 1 ] && ! grep -q mlx5_1 "$err"; result "devices -v DEV: only the selected port" $?

# ---- 9. the shared options: parsed once, taken only where they mean something ----
expect "--family after gid --suggest" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/ipv6-only" gid --suggest --family ipv6
expect "--family with check" 2 'verdict' -- --root "$FIX/ipv6-only" check --family ipv4
bad "--family is one parser: same message for nccl-env" 64 "bad --family 'ipv5': expected ipv4 or ipv6" -- nccl-env --family ipv5
bad "devices takes no --family" 64 "unrecognized option '--family" -- --root "$A" devices --family ipv4
bad "bw takes no --family" 64 "unrecognized option '--family" -- bw 127.0.0.1 --family ipv4
bad "bw --timeout 0" 64 "bad --timeout '0': expected a whole number from 1 to 3600" -- bw 127.0.0.1 --timeout 0
bad "devices takes no -d" 64 "invalid option -- 'd'" -- --root "$A" devices -d mlx5_0

# ---- live: bw against nothing listening, where this host has a usable RDMA port ----
if "$BIN" gid --suggest >/dev/null 2>&1; then
	bad "bw with nothing listening" 3 "^roce-doctor: cannot connect to 127.0.0.1:$port: Connection refused" -- bw 127.0.0.1 -p "$port"
	run --json bw 127.0.0.1 -p "$port"
	[ "$rc" -eq 3 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["error"]["kind"]=="connect" and d["results"]==[] else 1)' "$out"
	result "bw --json with nothing listening: the document carries the error" $?
else
	skip "bw with nothing listening" "no usable RDMA port on this host"
	skip "bw --json with nothing listening" "no usable RDMA port on this host"
fi

tap_end
