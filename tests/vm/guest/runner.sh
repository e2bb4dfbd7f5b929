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
		v=MTU_$n; mtu=${!v:-${MTU:-}}
		v=ADDRS_$n; addrs=${!v:-}
		v=NFT_$n; nft=${!v:-${NFT:-}}
		rc=0
		if [ -n "$mtu" ]; then
			echo "+ ip link set eth0 mtu $mtu"
			ip link set eth0 mtu "$mtu" || rc=1
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

# Back to what stage2.sh set up, whatever the case did: no extra netdevs, namespaces, RDMA links or
# nftables rules; eth0 at the run's MTU with exactly the node's IPv4 address; rxe0 present and ACTIVE.
# Looks in /sys first and runs a tool only when something changed: every process start is slow under TCG.
restore() {
	local l a
	for l in /sys/class/infiniband/*; do
		l=${l##*/}
		case $l in rxe0 | "*") ;; *) echo "- rdma link delete $l"; rdma link delete "$l" ;; esac
	done
	if [ -n "$(ls -A /run/netns 2>/dev/null)" ]; then echo "- ip -all netns delete"; ip -all netns delete; fi
	for l in /sys/class/net/*; do
		l=${l##*/}
		case $l in lo | eth0) ;; *) echo "- ip link delete $l"; ip link delete "$l" 2>/dev/null ;; esac
	done
	if [ -n "$(nft list ruleset 2>/dev/null)" ]; then echo "- nft flush ruleset"; nft flush ruleset; fi
	if [ "$(cat /sys/class/net/eth0/mtu)" != "$VM_MTU" ]; then echo "- mtu back to $VM_MTU"; ip link set eth0 mtu "$VM_MTU"; fi
	[ "$(cat /sys/class/net/eth0/operstate)" = up ] || { echo "- ip link set eth0 up"; ip link set eth0 up; }
	a=$(ip -o addr show dev eth0 scope global | awk '{ print $4 }')
	if [ "$a" != "$VM_SELF_IP/24" ]; then
		# All off, then the node's own back on: its GID then takes the lowest free index again (1, after the
		# fe80:: one), where an address added before it (addr_before) had pushed it up.
		echo "- ip addr flush dev eth0 scope global (had: ${a//$'\n'/ })"
		ip addr flush dev eth0 scope global
		echo "- re-adding $VM_SELF_IP/24"
		ip addr add "$VM_SELF_IP/24" dev eth0
	fi
	[ -e /sys/class/infiniband/rxe0 ] || { echo "- re-adding rxe0"; rdma link add rxe0 type rxe netdev eth0; }
	for _ in $(seq 1 25); do
		grep -qs ACTIVE /sys/class/infiniband/rxe0/ports/1/state && return 0
		sleep 0.2
	done
	echo "roce-vm: node $VM_NODE: rxe0 is not ACTIVE after restoring defaults"
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
