#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Real interfaces for the rtnetlink code: a veth pair in a network namespace of our own (no dcbnl on it), then the probe
# (and the CLI) run inside it. Needs root and iproute2; otherwise the whole file is skipped.
# usage: netns_test.sh NETLINK_TEST_BINARY ROCE_DOCTOR   (TAP on stdout)
set -u
TEST_BIN=$1 BIN=$2
ns="roce-doctor-test-$$"
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null; then
	echo "1..0 # SKIP needs root and iproute2 for network namespaces"
	exit 0
fi
cleanup() { ip netns del "$ns" 2>/dev/null; }
trap cleanup EXIT
ip netns add "$ns" || { echo "1..0 # SKIP cannot create a network namespace"; exit 0; }
ip -n "$ns" link set lo up
ip -n "$ns" link add rdv0 type veth peer name rdv1
ip -n "$ns" link set rdv0 mtu 9000 up
ip -n "$ns" link set rdv1 mtu 9000 up
ip -n "$ns" addr add 10.99.0.1/24 dev rdv0
ip -n "$ns" addr add 10.98.0.1/16 dev rdv0
ip -n "$ns" addr add 2001:db8:99::1/64 dev rdv0 nodad
ip -n "$ns" addr add 10.99.0.2/24 dev rdv1

# One TAP stream for meson: the CLI checks first, then the C test's results renumbered after them.
n=0 failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=$((failed + 1)); fi; }
out=$(ip netns exec "$ns" "$BIN" --json devices 2>/dev/null)
check "live devices without RDMA prints an empty list" \
	'python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d[\"ports\"]==[] else 1)" "$out"'
ip netns exec "$ns" "$BIN" gid --suggest >/dev/null 2>&1; rc=$?
check "live gid --suggest without RDMA exits 2" '[ $rc -eq 2 ]'
while IFS= read -r line; do
	case $line in
		"ok "*) n=$((n + 1)); echo "ok $n - ${line#ok [0-9]* - }" ;;
		"not ok "*) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - ${line#not ok [0-9]* - }" ;;
		"1.."*) ;;
		*) echo "$line" ;;
	esac
done < <(ip netns exec "$ns" "$TEST_BIN" rdv0)
echo "1..$n"
[ "$failed" -eq 0 ]
