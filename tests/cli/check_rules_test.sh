#!/usr/bin/env bash
# check's rules and its id selection (issue 10) on the fixture hosts: the address family of netdev.*,
# memlock.limit naming only calls that ran, NCCL_IB_HCA typos fixed to the nearest name, --only/--skip
# refusing ids that match nothing, check --list and its completion.
# usage: check_rules_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

# ---- --family ipv6: the netdev needs a global IPv6 address, not an IPv4 one ----
run --root "$FIX/ipv6-only" check --family ipv6
[ "$rc" -eq 0 ] && grep -q 'OK    netdev.ipv6 .*ens1np0 has a global IPv6 address' "$out" && ! grep -q 'netdev.ipv4' "$out"
result "check --family ipv6 on ipv6-only: netdev.ipv6 ok, no netdev.ipv4, exit 0 (as gid --suggest and nccl-env)" $?
expect "gid --suggest --family ipv6 agrees on ipv6-only" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/ipv6-only" gid --suggest --family ipv6
run --root "$FIX/cx6lx-2port" check --family ipv6 --only netdev.ipv6
[ "$rc" -eq 2 ] && grep -q 'FAIL  netdev.ipv6 .*ens19f0np0 has no global IPv6 address' "$out" \
	&& grep -q 'fix: ip -6 addr add ADDR/64 dev ens19f0np0' "$out"
result "check --family ipv6 with only fe80:: GIDs fails netdev.ipv6 with the ip -6 command" $?
run --root "$FIX/ipv6-only" check
[ "$rc" -eq 2 ] && grep -q 'FAIL  netdev.ipv4 .*ens1np0 has no IPv4 address' "$out" && ! grep -q 'netdev.ipv6' "$out"
result "check (ipv4 by default) on ipv6-only still fails netdev.ipv4" $?

# ---- memlock.limit names a failed call only when it ran and failed ----
run --root "$FIX/check-fresh" check --only memlock
[ "$rc" -eq 2 ] && grep -q 'FAIL  memlock.limit .*soft 64 KiB' "$out" && grep -q 'INFO  memlock.register .*unknown' "$out" \
	&& ! grep -q 'memlock.limit .*ibv_reg_mr' "$out" && ! grep -q 'Cannot allocate memory' "$out"
result "check-fresh under --root: memlock.limit fails without naming the ibv_reg_mr that never ran" $?

tap_end
