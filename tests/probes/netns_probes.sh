#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# nftables and ip-rule readers against the real kernel, in a network namespace of our own so this machine's
# firewall and routing are never touched. Needs root, iproute2 and nft (nftables), else skipped.
# With ROCE_DOCTOR, also `check --only firewall` on the empty and on the loaded ruleset (the rules, not just
# the reader).
# usage: netns_probes.sh NETCFG_PROBES_TEST FIXTURES_DIR [ROCE_DOCTOR]   (TAP on stdout)
set -u
TEST_BIN=$1 FIXTURES=$2 RD=${3:-}
ns="roce-doctor-probes-$$"
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v nft >/dev/null; then
	echo "1..0 # SKIP needs root, iproute2 and nft for a network namespace with a ruleset"
	exit 0
fi
cleanup() { ip netns del "$ns" 2>/dev/null; }
trap cleanup EXIT
ip netns add "$ns" || { echo "1..0 # SKIP cannot create a network namespace"; exit 0; }
ip -n "$ns" link set lo up

n=0 failed=0
# Runs the C test in the namespace and renumbers its TAP lines into this stream.
run() {
	local line
	while IFS= read -r line; do
		case $line in
			"ok "*) n=$((n + 1)); echo "ok $n - $1: ${line#ok [0-9]* - }" ;;
			"not ok "*) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1: ${line#not ok [0-9]* - }" ;;
			"1.."*) ;;
			*) echo "$line" ;;
		esac
	done < <(shift; ip netns exec "$ns" "$@")
}
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=$((failed + 1)); fi; }

run empty "$TEST_BIN" empty "$FIXTURES"
if [ -n "$RD" ]; then
	out=$(ip netns exec "$ns" "$RD" check -v --only firewall 2>&1); rc=$?
	check "check firewall on an empty ruleset: ok, exit 0" \
		'[ $rc -eq 0 ] && grep -q "OK    firewall.rules .*0 input chain" <<<"$out" && grep -q "OK    firewall.firewalld" <<<"$out"'
fi

# A firewalld-like inet table (input policy drop, RoCE v2 port dropped), an ip table, a nat table, a dormant one.
ip netns exec "$ns" nft -f - <<'NFT'
table inet firewalld {
	chain filter_INPUT {
		type filter hook input priority filter + 10; policy drop;
		ct state established,related accept
		udp dport 4791 drop
		tcp dport 22 accept
		udp dport { 4791, 5000 } reject
		jump filter_IN_public
	}
	chain filter_IN_public {
		meta l4proto udp reject with icmpx admin-prohibited
	}
}
table ip t4 {
	chain in {
		type filter hook input priority 0; policy accept;
		ip protocol udp drop
		iifname "eth0" udp dport 4791 drop
		meta l4proto udp ct direction original drop
	}
}
table ip nat {
	chain postrouting {
		type nat hook postrouting priority 100;
		masquerade
	}
}
table ip6 sleeping {
	flags dormant
	chain in {
		type filter hook input priority 0; policy drop;
	}
}
NFT
rc=$?
check "nft loaded the test ruleset" '[ $rc -eq 0 ]'
ip -n "$ns" rule add from 10.99.0.1 table 100 priority 10000
ip -n "$ns" rule add from 10.98.0.0/16 table 102 priority 10001
ip -n "$ns" -6 rule add from 2001:db8:99::1 table 101 priority 10000
check "ip rules added" '[ "$(ip -n "$ns" rule show | grep -c "lookup 10[02]")" -eq 2 ]'

run loaded "$TEST_BIN" loaded "$FIXTURES"
if [ -n "$RD" ]; then
	out=$(ip netns exec "$ns" "$RD" check --only firewall 2>&1); rc=$?
	check "check: the firewalld nftables table is seen (no process needed)" \
		'grep -q "WARN  firewall.firewalld .*nftables table inet firewalld" <<<"$out"'
	check "check: udp dport 4791 drop found with its handle and the nft fix" \
		'grep -q "firewall.rules     inet firewalld filter_INPUT: rule handle [0-9]* drops RoCE v2 (udp dport 4791)" <<<"$out" &&
		 grep -q "nft insert rule inet firewalld filter_INPUT udp dport 4791 accept" <<<"$out"'
	check "check: 'ip protocol udp drop' also drops 4791" \
		'grep -q "firewall.rules     ip t4 in: rule handle [0-9]* drops RoCE v2" <<<"$out"'
	check "check: input policy drop without a TCP accept warns" \
		'grep -q "WARN  firewall.rules     inet firewalld filter_INPUT: input policy drop; no plain rule accepts TCP" <<<"$out"'
	check "check: the dormant table is not judged" '! grep -q "ip6 sleeping" <<<"$out"'
	check "check firewall on the loaded ruleset: exit 1 (warn)" '[ $rc -eq 1 ]'
fi

# The same dump without CAP_NET_ADMIN: the kernel refuses, the reader says so.
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$TEST_BIN"; then
	run unprivileged setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$TEST_BIN" unprivileged \
		"$FIXTURES"
else
	n=$((n + 1)); echo "ok $n - unprivileged: # SKIP setpriv missing or the test binary is not reachable as nobody"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
