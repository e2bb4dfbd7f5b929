#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line on the fixture hosts: answers, exit codes, error lines, and JSON that parses.
# usage: cli_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
# shellcheck source=../lib/serve_port.sh
. "$(dirname "$0")/../lib/serve_port.sh"

# ---- gid --suggest on every fixture ----
expect "a: suggests 5" 0 '^NCCL_IB_GID_INDEX=5$' -- --root "$FIX/cx6lx-2port" gid --suggest
grep -q 'mlx5_0/1 (ens19f0np0): 5 - RoCE v2 GID of 192.168.88.1.*0-3 are fe80:: link-local; 4 is RoCE v1' "$out"
result "a: explains why 5" $?
expect "b: suggests 3 on ten HCAs" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/eight-hca" gid --suggest
[ "$(grep -c ': 3 - RoCE v2' "$out")" -ge 8 ]; result "b: every HCA chose 3" $?
expect "c: soft-roce suggests 1" 0 '^NCCL_IB_GID_INDEX=1$' -- --root "$FIX/softroce" gid --suggest
expect "d: infiniband refuses" 2 'InfiniBand link layer' -- --root "$FIX/infiniband" gid --suggest
! grep -q NCCL_IB_GID_INDEX= "$out"; result "d: prints no index" $?
run --root "$FIX/no-rdma" gid --suggest
[ "$rc" -eq 2 ] && grep -q 'no RDMA devices' "$err" && [ ! -s "$out" ]; result "e: no rdma exits 2, says so, no stdout" $?
expect "f: ipv6-only has no ipv4" 2 'no IPv4 address' -- --root "$FIX/ipv6-only" gid --suggest
expect "f: ipv6 family suggests 3" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/ipv6-only" gid --suggest --family ipv6
expect "g: malformed still suggests 3" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/malformed" gid --suggest
grep -q 'gids/4' "$err" && grep -q 'types/5' "$err" && grep -q 'ndevs/6' "$err"; result "g: warns naming each bad file" $?
expect "peer option implies its family" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/ipv6-only" gid --suggest --peer 2001:db8:42::20

# ---- ports that disagree: a copy of fixture a with mlx5_1's IPv4 moved to 2/3 ----
cp -a "$FIX/cx6lx-2port" "$scratch/a"
g=$(readlink -f "$scratch/a/sys/class/infiniband/mlx5_1")/ports/1
cp "$g/gids/4" "$g/gids/2"; cp "$g/gids/5" "$g/gids/3"
echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$g/gids/4"; echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$g/gids/5"
expect "disagreeing ports exit 1 with each choice" 1 'mlx5_1/1 \(ens19f1np1\): 3 -' -- --root "$scratch/a" gid --suggest
! grep -q '^NCCL_IB_GID_INDEX=' "$out" && grep -q 'NCCL_IB_ADDR_FAMILY=AF_INET' "$out"; result "disagreeing ports: no global index, NCCL>=2.21 advice" $?
expect "one device of them agrees with itself" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$scratch/a" gid --suggest mlx5_1

# ---- devices ----
run --root "$FIX/cx6lx-2port" devices --brief
printf 'mlx5_0 port 1 ==> ens19f0np0 (Up)\nmlx5_1 port 1 ==> ens19f1np1 (Up)\n' | cmp -s - "$out"; result "devices --brief is ibdev2netdev's format" $?
expect "devices table" 0 '^mlx5_1 +1 +ens19f1np1 +Ethernet +ACTIVE +LinkUp +25 Gb/s \(1X EDR\)' -- --root "$FIX/cx6lx-2port" devices
expect "devices one port" 0 'mlx5_1' -- --root "$FIX/cx6lx-2port" devices mlx5_1:1
! grep -q 'mlx5_0' "$out"; result "devices DEV:PORT selects" $?
expect "soft-roce devices" 0 '^rxe0 +1 +eth0 ' -- --root "$FIX/softroce" devices
expect "no-rdma devices" 0 'no RDMA devices' -- --root "$FIX/no-rdma" devices

# ---- JSON: one document, a schema, on every fixture ----
shopt -s nullglob
fixtures=("$FIX"/*/)
[ ${#fixtures[@]} -ge 7 ]; result "all seven fixture hosts present" $?
for f in "${fixtures[@]}"; do
	f=${f%/}; name=$(basename "$f")
	for cmd in devices gid "gid --suggest"; do
		# shellcheck disable=SC2086
		run --json --root "$f" $cmd
		schema="roce-doctor/${cmd%% *}/v1"; [ "$cmd" = "gid --suggest" ] && schema="roce-doctor/gid-suggest/v1"
		if [ ! -d "$f/sys/class/infiniband" ] && [ "$cmd" != devices ]; then   # no-rdma, h100-vm
			[ "$rc" -eq 2 ] && [ ! -s "$out" ]; result "json $name $cmd: exit 2, no partial output" $?
		else
			json_ok "$schema"; result "json $name $cmd parses with schema $schema" $?
		fi
	done
done
run --root "$FIX/cx6lx-2port" devices --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["ports"][0]; sys.exit(0 if p["netdev"]=="ens19f0np0" and p["active_mtu"] is None and p["netdev_mtu"]==9000 and p["pci_address"]=="0000:39:00.0" else 1)' "$out"
result "json devices: fields, unknown verbs MTU is null under --root" $?
run --root "$FIX/cx6lx-2port" --json gid --suggest
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["gid_index"]==5 and d["consistent"] and d["ports"][0]["address"]=="192.168.88.1" else 1)' "$out"
result "json gid --suggest: gid_index 5" $?

# ---- bad input: one line naming it, right exit code, nothing on stdout ----
bad "unknown command" 64 "unknown command 'frobnicate'" -- frobnicate
bad "no command" 64 "no command given" --
bad "unknown option" 64 "unrecognized option '--bogus'" -- --root "$FIX/cx6lx-2port" gid --bogus
bad "bad family" 64 "bad --family 'ipv5'" -- --root "$FIX/cx6lx-2port" gid --suggest --family ipv5
bad "bad peer" 64 "bad --peer '10.0.0'" -- --root "$FIX/cx6lx-2port" gid --suggest --peer 10.0.0
bad "peer of the other family" 64 "not an address of the --family" -- --root "$FIX/cx6lx-2port" gid --suggest --family ipv6 --peer 10.0.0.1
bad "family without suggest" 64 "only with --suggest" -- --root "$FIX/cx6lx-2port" gid --family ipv4
bad "bad port syntax" 64 "bad device 'mlx5_0:x'" -- --root "$FIX/cx6lx-2port" gid mlx5_0:x
bad "missing device lists the real ones" 2 '^roce-doctor: no RDMA device or netdev mlx_1 \(devices: mlx5_0, mlx5_1; netdevs: ens19f0np0, ens19f1np1\)$' -- --root "$FIX/cx6lx-2port" gid mlx_1
bad "missing port lists the real ones" 2 'mlx5_0 has no port 2 \(ports: mlx5_0/1\)' -- --root "$FIX/cx6lx-2port" devices mlx5_0:2
bad "missing root" 3 'cannot open root directory /nonexistent' -- --root /nonexistent devices
bad "two devices" 64 "unexpected argument 'mlx5_1'" -- --root "$FIX/cx6lx-2port" devices mlx5_0 mlx5_1

# ---- check ----
expect "check on a clean host: info only, exit 0" 0 '^verdict: info' -- --root "$FIX/cx6lx-2port" check
grep -q 'fix: export NCCL_IB_GID_INDEX=5' "$out"; result "check prints the fix under a finding" $?
expect "check without RDMA fails, exit 2" 2 'FAIL  rdma.devices' -- --root "$FIX/no-rdma" check
expect "check --only keeps one area" 0 'gid.rocev2' -- --root "$FIX/cx6lx-2port" check -v --only gid.rocev2
! grep -qE 'netdev\.|port\.' "$out"; result "check --only drops the other areas" $?
expect "check --skip drops an id" 0 'netdev.mtu' -- --root "$FIX/cx6lx-2port" check -v --skip netdev.ipv4
! grep -q 'netdev.ipv4' "$out"; result "check --skip drops exactly that id" $?
# Under --root the NCCL environment is the tree's proc/self/environ, never this shell's.
NCCL_IB_GID_INDEX=0 run --root "$FIX/cx6lx-2port" check
[ "$rc" -eq 0 ] && ! grep -q 'FAIL  gid.env' "$out"; result "check --root ignores this shell's NCCL_IB_GID_INDEX" $?
run --root "$FIX/check-env" check -v
[ "$rc" -eq 2 ] && grep -q 'NCCL_IB_GID_INDEX=0 (/proc/self/environ) points to the fe80:: link-local' "$out"
result "check: NCCL_IB_GID_INDEX=0 in the replayed environ fails gid.env" $?
grep -q 'FAIL  nccl.socket_ifname .*matches only lo' "$out"; result "check: NCCL_SOCKET_IFNAME=lo fails nccl.socket_ifname" $?
grep -q 'WARN  nccl.ib_disable .*mlx5_0:1,mlx5_1:1' "$out"; result "check: NCCL_IB_DISABLE=1 with usable ports warns" $?
grep -q 'unset NCCL_IB_DISABLE' "$out"; result "check: nccl.ib_disable fix unsets it" $?
! grep -q '^  [A-Z]* .*mlx5_1/1' "$out"; result "check: NCCL_IB_HCA=^mlx5_1 leaves mlx5_1 out of the port checks" $?
run --root "$FIX/check-seed000" check -v
[ "$rc" -eq 2 ] && grep -q "FAIL  nccl.ib_hca .*'mlx_1' matches no HCA" "$out"; result "check seed000: mlx_1 typo fails nccl.ib_hca" $?
grep -q "fix: sed -i '2s|.\*|NCCL_IB_HCA=mlx5_0,mlx5_1|' /etc/nccl.conf" "$out"; result "check seed000: nccl.ib_hca fix rewrites the line" $?
fixline=$(grep -A1 'nccl\.ib_hca ' "$out" | sed -n 's/^ *fix: \(sed -i .*NCCL_IB_HCA.*\)/\1/p')   # not gpu.rails' fix
grep -q 'OK    gid.env .*NCCL_IB_GID_INDEX=5' "$out"; result "check seed000: gid.env from /etc/nccl.conf (first line wins)" $?
grep -q 'WARN  firewall.firewalld .*process 1234' "$out" && grep -q 'firewall-cmd --permanent --zone=trusted --add-interface=ens19f0np0' "$out" \
	&& grep -q 'systemctl disable --now firewalld' "$out"; result "check seed000: firewalld running warns with firewall-cmd lines" $?
grep -q 'firewall-cmd --permanent --add-port=4791/udp --add-port=29500/tcp --add-port=49152-65535/tcp' "$out"
result "check seed000: firewalld fix opens the tree's ip_local_port_range" $?
grep -q 'OK    memlock.pam .*99-nccl.conf:1' "$out" && grep -q 'OK    memlock.systemd .*90-memlock.conf' "$out" \
	&& grep -q 'OK    memlock.limit' "$out"; result "check seed000: memlock fixed by its limits.d and system.conf.d files" $?
grep -q 'INFO  memlock.register .*not under --root' "$out" && grep -q 'INFO  firewall.rules .*nftables' "$out"
result "check seed000: netlink/verbs-only checks are unknown info under --root" $?
grep -q 'OK    gpu.peermem' "$out" && grep -q 'OK    kernel.modules     mlx5_ib' "$out" && grep -q 'OK    rdma.uverbs' "$out"
result "check seed000: peermem, modules and uverbs clean" $?
# Apply that fix, as printed, to a copy of the tree: the finding clears.
tree=$(mktemp -d); cp -a "$FIX/check-seed000" "$tree/t"
eval "${fixline/ \/etc\/nccl.conf/ $tree/t/etc/nccl.conf}"
run --root "$tree/t" check -v --only nccl.ib_hca
[ "$rc" -eq 0 ] && grep -q 'OK    nccl.ib_hca .*NCCL_IB_HCA=mlx5_0,mlx5_1 selects 2 port' "$out"; result "check seed000: the printed nccl.ib_hca fix clears it" $?
rm -rf "$tree"
run --root "$FIX/check-seed000" check --user alice --only memlock.pam
[ "$rc" -eq 1 ] && grep -q 'WARN  memlock.pam .*limits.conf:11: logins of alice' "$out" \
	&& grep -q 'alice soft memlock unlimited' "$out"; result "check: memlock.pam names the user whose line wins over '*'" $?
fixline=$(sed -n 's/^ *fix: \(mkdir -p .*limits.d.*\)/\1/p' "$out")
tree=$(mktemp -d); cp -a "$FIX/check-seed000" "$tree/t"
eval "${fixline// \/etc\/security\// $tree/t/etc/security/}"
run --root "$tree/t" check -v --user alice --only memlock.pam
[ "$rc" -eq 0 ] && grep -q 'OK    memlock.pam .*99-nccl.conf:1: logins of alice get memlock unlimited' "$out"
result "check: the printed memlock.pam fix, applied to a copy, clears it for alice" $?
rm -rf "$tree"
run --root "$FIX/check-seed000" check --user tutu --only gid.env
[ "$rc" -eq 2 ] && grep -q 'NCCL_IB_GID_INDEX=3 (/home/tutu/.nccl.conf:1) points to the fe80:: link-local' "$out" \
	&& grep -q "fix: sed -i '1s|.\*|NCCL_IB_GID_INDEX=5|' /home/tutu/.nccl.conf" "$out"
result "check --user tutu: ~/.nccl.conf beats /etc/nccl.conf, gid.env names the file line and fixes it" $?
bad "check unknown user" 3 "no user nobody-here" -- --root "$FIX/check-seed000" check --user nobody-here
run --root "$FIX/check-fresh" check -v
grep -q 'FAIL  memlock.limit .*64 KiB' "$out" && grep -q 'docker run --ulimit memlock=-1:-1' "$out"
result "check fresh container: 64 KiB memlock fails with the runtime fix" $?
grep -q 'INFO  kernel.modules     rdma_ucm' "$out" && grep -q 'FAIL  kernel.modules     ib_uverbs' "$out" && grep -q 'OK    kernel.modules     rdma_rxe' "$out"
result "check fresh: missing ib_uverbs/rdma_ucm named, provider rdma_rxe ok" $?
grep -q 'OK    firewall.firewalld' "$out" && grep -q 'DefaultLimitMEMLOCK is not set' "$out"; result "check fresh: no firewalld; systemd default reported" $?
run --root "$FIX/ipv6-only" --json check
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=[x for x in d["findings"] if x["id"]=="netdev.ipv4"][0]; sys.exit(0 if d["verdict"]=="fail" and f["severity"]=="fail" and "ip addr add" in f["fix"] and f["area"]=="netdev" else 1)' "$out"
result "check --json: verdict, finding with id, area, severity, fix" $?
[ "$rc" -eq 2 ]; result "check --json keeps the verdict exit code" $?
NO_COLOR= run --root "$FIX/cx6lx-2port" check -v
! grep -q $'\033' "$out"; result "check: no colour when stdout is not a terminal" $?
! grep -q 'firewall.firewalld' "$out"; result "check: a tree without /proc says nothing about firewalld" $?
run --root "$FIX/check-seed000" check -v
grep -q '^  OK    kernel.modules     ib_uverbs is loaded' "$out" && ! grep -qE '^  [A-Z]+ +[a-z_.]+ +([^ ]+): \1[ ,:]' "$out"
result "check text: a message that starts with its subject is not prefixed by it again" $?
bad "check bad family" 64 "bad --family 'x'" -- check --family x

# ---- nccl-env ----
expect "nccl-env --family ipv6: bootstrap on the netdev with IPv6" 0 "^export NCCL_SOCKET_IFNAME='ens1np0'" -- \
	--root "$FIX/ipv6-only" nccl-env --family ipv6
run --root "$FIX/ipv6-only" nccl-env
[ "$rc" -eq 2 ] && [ ! -s "$out" ] && grep -q 'no usable RoCE port.*RoCE v2 IPv4 GID' "$err"
result "nccl-env on an IPv6-only host without --family ipv6: exit 2, the reason, no output" $?
expect "nccl-env sh" 0 "^export NCCL_IB_HCA='mlx5_0:1,mlx5_1:1'" -- --root "$FIX/cx6lx-2port" nccl-env
(eval "$(cat "$out")" && [ "$NCCL_IB_HCA" = "mlx5_0:1,mlx5_1:1" ] && [ "$NCCL_SOCKET_IFNAME" = ens19f0np0 ] &&
	[ "$NCCL_IB_GID_INDEX" = 5 ] && [ "$NCCL_IB_DISABLE" = 0 ]); result "nccl-env output evals to the right variables" $?
expect "nccl-env env format" 0 '^NCCL_IB_GID_INDEX=5$' -- --root "$FIX/cx6lx-2port" nccl-env --format env
expect "nccl-env docker format" 0 "^-e 'NCCL_IB_HCA=mlx5_0:1,mlx5_1:1' -e 'NCCL_SOCKET_IFNAME=ens19f0np0'" -- --root "$FIX/cx6lx-2port" nccl-env --format docker
expect "nccl-env k8s format" 0 '^  - name: NCCL_IB_GID_INDEX$' -- --root "$FIX/cx6lx-2port" nccl-env --format k8s
run --root "$FIX/cx6lx-2port" nccl-env --format json
json_ok "roce-doctor/nccl-env/v1"; result "nccl-env json parses" $?
bad "nccl-env refuses without a usable port" 2 'no usable RoCE port' -- --root "$FIX/infiniband" nccl-env
bad "nccl-env refuses without RDMA" 2 'no RDMA device' -- --root "$FIX/no-rdma" nccl-env
bad "nccl-env unknown socket interface" 2 '--socket-if eth9: no such interface' -- --root "$FIX/cx6lx-2port" nccl-env --socket-if eth9
bad "nccl-env bad format" 64 "bad --format 'yaml'" -- nccl-env --format yaml
expect "nccl-env --socket-if" 0 "NCCL_SOCKET_IFNAME='eno1'" -- --root "$FIX/cx6lx-2port" nccl-env --socket-if eno1
cp -a "$FIX/cx6lx-2port" "$scratch/d"
g=$(readlink -f "$scratch/d/sys/class/infiniband/mlx5_1")/ports/1
cp "$g/gids/4" "$g/gids/2"; cp "$g/gids/5" "$g/gids/3"
echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$g/gids/4"; echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$g/gids/5"
expect "nccl-env on disagreeing ports: family variables, no index" 0 "NCCL_IB_ADDR_FAMILY='AF_INET'" -- --root "$scratch/d" nccl-env
! grep -q NCCL_IB_GID_INDEX "$out"; result "nccl-env on disagreeing ports pins no index" $?

# ---- help and version ----
expect "help COMMAND" 0 'Usage: roce-doctor gid' -- help gid
expect "COMMAND --help" 0 '--brief' -- devices --help
expect "top-level help lists commands" 0 '^  gid ' -- --help
expect "version" 0 '^roce-doctor [0-9]' -- --version

# ---- bw, lat, serve: bad input, and what they say before any RDMA traffic ----
bad "bw without a peer" 64 "no PEER" -- bw
bad "bw size 0" 64 "bad --size '0'" -- bw 127.0.0.1 -s 0
bad "bw size over 8M" 64 "bad --size '9M'" -- bw 127.0.0.1 -s 9M
bad "bw size with a bad unit" 64 "bad --size '4Q'" -- bw 127.0.0.1 -s 4Q
bad "bw unknown op" 64 "bad --op 'atomic': expected write, read or send" -- bw 127.0.0.1 --op atomic
bad "bw unknown wait" 64 "bad --wait 'spin': expected auto, poll or event" -- bw 127.0.0.1 --wait spin
bad "bw --qps 0" 64 "bad --qps '0': expected a whole number from 1 to 64" -- bw 127.0.0.1 --qps 0
bad "bw --iters with --duration" 64 "--iters and --duration exclude each other" -- bw 127.0.0.1 -n 5 -D 1
bad "bw bad --mtu" 64 "bad --mtu '1500'" -- bw 127.0.0.1 --mtu 1500
bad "bw --expect-gbps 0" 64 "bad --expect-gbps '0': expected a number more than 0 and at most 100000" -- bw 127.0.0.1 --expect-gbps 0
bad "bw --expect-gbps not a number" 64 "bad --expect-gbps '10G'" -- bw 127.0.0.1 --expect-gbps 10G
bad "bw --expect-link-pct over 100" 64 "bad --expect-link-pct '120': expected a number more than 0 and at most 100" -- bw 127.0.0.1 --expect-link-pct 120
bad "lat size 0" 64 "bad --size '0'" -- lat 127.0.0.1 -s 0
bad "serve --port 65536" 64 "bad --port '65536'" -- serve --port 65536
bad "serve --max-qps 0" 64 "bad --max-qps '0'" -- serve --max-qps 0
bad "bw peer that does not resolve" 3 '^roce-doctor: cannot resolve no-such-host.invalid: ' -- bw no-such-host.invalid
# bw, lat and serve refuse --root (tests/cli/cli_input_test.sh); their port choice on the fixture hosts is
# tests/unit/perf_target_test.c. What follows runs on this host, with or without RDMA devices.
"$BIN" serve --bind 127.0.0.1 --port 0 >"$scratch/serve.log" 2>&1 &
serve_pid=$!
rd_port=$(serve_port "$scratch/serve.log" "$serve_pid")
result "serve --port 0: listens on a port the kernel picks, and the log names it ($rd_port)" $?
bad "a second serve on the same port" 3 "cannot listen on 127.0.0.1 port $rd_port: Address already in use" -- serve --bind 127.0.0.1 --port "$rd_port"
kill -TERM "$serve_pid"; wait "$serve_pid"; rc=$?
[ "$rc" -eq 0 ] && grep -q 'stopped: SIGTERM' "$scratch/serve.log"; result "serve exits 0 on SIGTERM" $?

tap_end
