#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
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
run --root "$FIX/ipv6-only" check -v --family ipv6
[ "$rc" -eq 2 ] && grep -q 'OK    netdev.ipv6 .*ens1np0 has a global IPv6 address' "$out" && ! grep -q 'netdev.ipv4' "$out" \
	&& [ "$(grep -c '^  FAIL ' "$out")" -eq 1 ] && grep -q '^  FAIL  gid.env .*NCCL_IB_ADDR_FAMILY are unset' "$out"
result "check --family ipv6 on ipv6-only: netdev.ipv6 ok, no netdev.ipv4; only gid.env fails (unset, NCCL takes 0)" $?
expect "gid --suggest --family ipv6 agrees on ipv6-only" 0 '^NCCL_IB_GID_INDEX=3$' -- --root "$FIX/ipv6-only" gid --suggest --family ipv6
run --root "$FIX/cx6lx-2port" check --family ipv6 --only netdev.ipv6
[ "$rc" -eq 2 ] && grep -q 'FAIL  netdev.ipv6 .*ens19f0np0 has no global IPv6 address' "$out" \
	&& grep -q 'fix: ip -6 addr add ADDR/64 dev ens19f0np0' "$out"
result "check --family ipv6 with only fe80:: GIDs fails netdev.ipv6 with the ip -6 command" $?
run --root "$FIX/ipv6-only" check -v
[ "$rc" -eq 2 ] && grep -q 'FAIL  netdev.ipv4 .*ens1np0 has no IPv4 address' "$out" && ! grep -q 'netdev.ipv6' "$out"
result "check (ipv4 by default) on ipv6-only still fails netdev.ipv4" $?

# ---- memlock.limit names a failed call only when it ran and failed ----
run --root "$FIX/check-fresh" check --only memlock
[ "$rc" -eq 2 ] && grep -q 'FAIL  memlock.limit .*soft 64 KiB' "$out" && grep -q 'INFO  memlock.register .*unknown' "$out" \
	&& ! grep -q 'memlock.limit .*ibv_reg_mr' "$out" && ! grep -q 'Cannot allocate memory' "$out"
result "check-fresh under --root: memlock.limit fails without naming the ibv_reg_mr that never ran" $?

# ---- --only/--skip: a selection that matches nothing is a usage error naming the known ids ----
bad "check --only nope: exit 64 naming the known ids" 64 "--only 'nope' matches no check id \(known ids: rdma.devices, .*nccl.ib_disable, nccl.net_plugin, nccl.unknown_name\)" \
	-- --root "$FIX/cx6lx-2port" check --only nope
bad "check --skip no.such.id: exit 64 naming the known ids" 64 "--skip 'no.such.id' matches no check id \(known ids: .*memlock.limit" \
	-- --root "$FIX/cx6lx-2port" check --skip no.such.id
bad "check --only with an empty item" 64 "empty id in --only" -- --root "$FIX/cx6lx-2port" check --only port,
bad "check --only with one bad item of a list" 64 "--only 'nope' matches no check id" -- --root "$FIX/cx6lx-2port" check --only port,nope
run --root "$FIX/cx6lx-2port" check -v --only port,netdev
[ "$rc" -eq 0 ] && grep -q 'OK    port.state' "$out" && grep -q 'OK    netdev.mtu' "$out" && ! grep -qE 'gid\.|rdma\.|memlock\.' "$out"
result "check --only port,netdev runs the port and netdev checks only" $?
run --root "$FIX/cx6lx-2port" check -v --only port --only gid.env
[ "$rc" -eq 0 ] && grep -q 'OK    port.state' "$out" && grep -q 'INFO  gid.env' "$out" && ! grep -qE 'netdev\.|gid\.rocev2' "$out"
result "check --only repeats: port and gid.env" $?
run --root "$FIX/cx6lx-2port" check -v --only net
[ "$rc" -eq 0 ] && ! grep -q 'netdev\.' "$out"
result "check --only net: the area net only, not netdev" $?
run --root "$FIX/cx6lx-2port" check -v --only netdev --skip netdev.mtu,netdev.state
[ "$rc" -eq 0 ] && grep -q 'OK    netdev.ipv4' "$out" && ! grep -qE 'netdev\.(mtu|state)' "$out"
result "check --skip takes a comma list" $?

# ---- check --list ----
run check --list
[ "$rc" -eq 0 ] && head -1 "$out" | grep -qE '^ID +AREA +LOOKS_AT$' && grep -qE '^port\.state +port +each selected port' "$out" \
	&& [ "$(awk 'NR > 1' "$out" | wc -l)" -ge 20 ] && [ ! -s "$err" ]
result "check --list: id, area, what it looks at, one line per id, no host needed" $?
run --json check --list --only memlock
json_ok roce-doctor/check-list/v1 && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ids = [c["id"] for c in d["checks"]]
assert ids == ["memlock.limit", "memlock.pam", "memlock.systemd", "memlock.register"], ids
assert all(set(c) == {"id", "area", "looks_at"} and c["area"] == "memlock" and c["looks_at"] for c in d["checks"])
assert d["warnings"] == []' "$out"
result "check --list --json --only memlock: roce-doctor/check-list/v1 with {id, area, looks_at}" $?
bad "check --list --only nope is a usage error too" 64 "matches no check id" -- check --list --only nope

# ---- bash completion: check --list, and ids for --only/--skip ----
complete_words() { # WORDS...: what the completion offers for the last one
	# shellcheck source=/dev/null
	. "$(dirname "$0")/../../completions/roce-doctor.bash"
	COMP_WORDS=("$BIN" "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
	_roce_doctor
	printf '%s\n' "${COMPREPLY[@]}"
}
complete_words check --l | grep -qx -- --list; result "completion: check --list" $?
got=$(complete_words check --only mem)
grep -qx memlock <<< "$got" && grep -qx memlock.register <<< "$got" && ! grep -q port <<< "$got"
result "completion: --only completes areas and ids" $?
got=$(complete_words check --skip port.state,netdev.m)
[ "$got" = "port.state,netdev.mtu" ]; result "completion: --skip completes the last item of a comma list" $?

# ---- nccl.ib_hca: a typo is fixed to the nearest name, the rest of the list kept ----
run --root "$FIX/check-seed000" check --only nccl.ib_hca
[ "$rc" -eq 2 ] && grep -q "FAIL  nccl.ib_hca .*'mlx_1' matches no HCA.*the fix: 'mlx_1' -> mlx5_1 (1 edit)" "$out" \
	&& grep -qF "fix: sed -i '2s|.*|NCCL_IB_HCA=mlx5_0,mlx5_1|' /etc/nccl.conf" "$out"
result "check seed000: NCCL_IB_HCA=mlx5_0,mlx_1 is fixed to mlx5_0,mlx5_1, not to every HCA" $?
tree="$scratch/hca"; mkdir -p "$tree"
for value in '^mlx_1' '=mlx5_0:1,mlx_1:1' 'mlx5_0,bnxt_re0'; do
	rm -rf "$tree/t"; cp -a "$FIX/check-env" "$tree/t"
	printf 'NCCL_IB_HCA=%s\0' "$value" > "$tree/t/proc/self/environ"
	run --root "$tree/t" check --only nccl.ib_hca
	case $value in
	'^mlx_1') grep -q "WARN  nccl.ib_hca .*'mlx_1' -> mlx5_1" "$out" && grep -qx '        fix: export NCCL_IB_HCA=^mlx5_1' "$out" ;;
	'=mlx5_0:1,mlx_1:1') grep -qx '        fix: export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1' "$out" ;;
	*) grep -q "'bnxt_re0' dropped: no HCA name within 2 edits of it" "$out" && grep -qx '        fix: export NCCL_IB_HCA=mlx5_0' "$out" ;;
	esac
	result "check: NCCL_IB_HCA=$value keeps ^, = and :port, drops what is near nothing" $?
done

tap_end
