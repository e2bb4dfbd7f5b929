# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The case loop inside a guest (sourced by stage2.sh). Per case: apply what the case declares (MTU,
# addresses, nftables), run this node's part under `timeout` in its own process group, hand its
# stdout/stderr/rc to the host, meet the peer at a "done" barrier, then put the node back to its defaults so
# the next case starts clean.

# The declarations are read in a subshell: a case's variables must not leak into the next case.
apply_decl() { # NAME
	(
		# shellcheck source=/dev/null
		. "$VM_HOME/cases/$1.case"
		n=${VM_NODE^^}
		v=MTU_$n; mtu=${!v:-${MTU:-}}   # every rail's netdev
		v=ADDRS_$n; addrs=${!v:-}
		v=NFT_$n; nft=${!v:-${NFT:-}}
		rc=0
		if [ -n "$mtu" ]; then
			for ((i = 0; i < VM_RAILS; i++)); do
				echo "+ ip link set eth$i mtu $mtu"
				ip link set "eth$i" mtu "$mtu" || rc=1
			done
		fi
		if [ "$VM_RAILS" = 2 ]; then
			# The address plan (eth0's address is the boot one, the same in both plans) and ARP: strict
			# (arp_ignore=1, arp_announce=2: a port answers ARP only for its own address) unless the case
			# asks for the kernel's default (ARP=flux: either port answers for both addresses).
			read -r _ a1 <<< "$(rail_addrs "${PLAN:-one-subnet}" "$VM_NODE")"
			echo "+ ip addr add $a1 dev eth1 (PLAN=${PLAN:-one-subnet})"
			ip addr add "$a1" dev eth1 || rc=1
			case ${ARP:-strict} in
			strict) ig=1 an=2 ;;
			flux) ig=0 an=0 ;;
			esac
			echo "+ arp_ignore=$ig arp_announce=$an on all, eth0, eth1 (ARP=${ARP:-strict})"
			for c in all eth0 eth1; do
				echo "$ig" > "/proc/sys/net/ipv4/conf/$c/arp_ignore" || rc=1
				echo "$an" > "/proc/sys/net/ipv4/conf/$c/arp_announce" || rc=1
			done
		fi
		for a in $addrs; do
			echo "+ ip addr add $a dev eth0"
			ip addr add "$a" dev eth0 || rc=1
		done
		if [ -n "$nft" ]; then
			echo "+ nft -f - <<< '$nft'"
			nft -f - <<< "$nft" || rc=1
		fi
		exit "$rc"
	)
}

# Back to what stage2.sh set up, whatever the case did: no extra netdevs, namespaces, RDMA links,
# nftables rules or qdiscs; each rail's netdev (eth0, and eth1 with two rails) up at the run's MTU, eth0 with exactly the
# node's IPv4 address, eth1 with none (the next case's plan gives it one); each rxe present and ACTIVE.
# Looks in /sys first and runs a tool only when something changed: every process start is slow under TCG.
restore() {
	local l a i nd own keep_rdma=" rxe0 " keep_net=" lo eth0 "
	[ "$VM_RAILS" = 1 ] || keep_rdma=" rxe0 rxe1 " keep_net=" lo eth0 eth1 "
	for l in /sys/class/infiniband/*; do
		l=${l##*/}
		[[ $l == "*" || $keep_rdma == *" $l "* ]] || { echo "- rdma link delete $l"; rdma link delete "$l"; }
	done
	if [ -n "$(ls -A /run/netns 2>/dev/null)" ]; then echo "- ip -all netns delete"; ip -all netns delete; fi
	for l in /sys/class/net/*; do
		l=${l##*/}
		[[ $keep_net == *" $l "* ]] || { echo "- ip link delete $l"; ip link delete "$l" 2>/dev/null; }
	done
	if [ -n "$(nft list ruleset 2>/dev/null)" ]; then echo "- nft flush ruleset"; nft flush ruleset; fi
	# Qdiscs a case added (throttle): tc only once such a module was ever loaded, so other cases pay nothing.
	if [ -e /sys/module/sch_tbf ] || [ -e /sys/module/sch_ingress ] || [ -e /sys/module/sch_netem ]; then
		for ((i = 0; i < VM_RAILS; i++)); do
			if tc qdisc show dev "eth$i" | grep -qE '^qdisc (tbf|ingress|netem)'; then
				echo "- tc qdisc del dev eth$i root, ingress"
				tc qdisc del dev "eth$i" root 2>/dev/null
				tc qdisc del dev "eth$i" ingress 2>/dev/null
			fi
		done
	fi
	for ((i = 0; i < VM_RAILS; i++)); do
		nd=eth$i own=""
		[ "$i" -gt 0 ] || own=$VM_SELF_IP/24
		if [ "$(cat "/sys/class/net/$nd/mtu")" != "$VM_MTU" ]; then echo "- $nd mtu back to $VM_MTU"; ip link set "$nd" mtu "$VM_MTU"; fi
		[ "$(cat "/sys/class/net/$nd/operstate")" = up ] || { echo "- ip link set $nd up"; ip link set "$nd" up; }
		a=$(ip -o addr show dev "$nd" scope global | awk '{ print $4 }')
		if [ "$a" != "$own" ]; then
			# All off, then the node's own back on: its GID then takes the lowest free index again (1, after the
			# fe80:: one), where an address added before it (addr_before) had pushed it up.
			echo "- ip addr flush dev $nd scope global (had: ${a//$'\n'/ })"
			ip addr flush dev "$nd" scope global
			[ -z "$own" ] || { echo "- re-adding $own"; ip addr add "$own" dev "$nd"; }
		fi
		[ -e "/sys/class/infiniband/rxe$i" ] || { echo "- re-adding rxe$i"; rdma link add "rxe$i" type rxe netdev "$nd"; }
	done
	for _ in $(seq 1 25); do
		grep -qs ACTIVE /sys/class/infiniband/rxe0/ports/1/state &&
			{ [ "$VM_RAILS" = 1 ] || grep -qs ACTIVE /sys/class/infiniband/rxe1/ports/1/state; } && return 0
		sleep 0.2
	done
	echo "roce-vm: node $VM_NODE: an rxe port is not ACTIVE after restoring defaults"
	return 1
}

run_case() { # K NAME TIMEOUT
	local k=$1 name=$2 t=$3 dir start decl_rc=0 pid rc left
	dir=$VM_SHARE/cases/$k
	mkdir -p "$dir"
	progress begin "$k"
	start=$(uptime_s)
	apply_decl "$name" > "$dir/setup.log" 2>&1 || decl_rc=$?
	VM_CASE_OUT=$dir timeout -k 3 "$t" bash "$VM_HOME/case-node.sh" "$k" "$name" "$t" "$decl_rc" \
		> "$dir/stdout" 2> "$dir/stderr" < /dev/null &
	pid=$!
	wait "$pid"
	rc=$?
	# timeout(1) made itself the leader of a process group; whatever the case left behind is still in it.
	kill -KILL -- "-$pid" 2>/dev/null
	[ "$rc" -eq 124 ] && echo "roce-vm: node $VM_NODE: case timed out after ${t}s" >> "$dir/stderr"
	echo "$rc" > "$dir/rc"
	progress ran "$k" "$rc"
	# The peer may still be running its part; it has at most the same timeout.
	left=$((start + t + 15 - $(uptime_s)))
	[ "$left" -ge 5 ] || left=5
	VM_CASE=$k VM_BARRIER_SEQ=998 barrier "done" "$left" >> "$dir/runner.log" 2>&1
	restore >> "$dir/restore.log" 2>&1
	progress end "$k"
}

run_cases() {
	# Meet once before the first case so the boot-time difference of the two nodes is not charged to it.
	VM_CASE=0 barrier boot "$VM_BOOT_WAIT" 2>> "$VM_SHARE/boot.log"
	local k name t
	while read -r -u 7 k name t; do
		run_case "$k" "$name" "$t"
	done 7< "$VM_HOME/plan"
}
