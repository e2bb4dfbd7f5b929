#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# PID 1 inside a guest, chrooted into the host's read-only root: load the RDMA modules from the cache, bring
# up eth0 and rxe0 (and eth1, rxe1 with two rails), then either run one ad-hoc command (mode cmd) or the batch
# of cases (mode cases), and power off. Progress lines go to $VM_SHARE/progress, which the host polls to tell a
# slow node from a dead one.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
VM_SHARE=$(dirname "$(dirname "$(realpath "$0")")")
VM_HOME=$VM_SHARE/.roce-vm
# shellcheck source=/dev/null
. "$VM_HOME/env"
export VM_SHARE VM_HOME
# shellcheck source=lib.sh
. "$VM_HOME/lib.sh"

off() { sync; busybox poweroff -f; sleep 10; }

# Never outlive the budget the host gave us, even if the host runner is gone (it kills qemu too; this is the
# second line of defence).
( sleep "$VM_BUDGET"; echo "roce-vm: node $VM_NODE: guest watchdog: ${VM_BUDGET}s budget spent" >/dev/console; off ) &

# A heartbeat the host watches: a guest that stops beating (frozen, or its kernel stuck) is declared hung
# within ROCE_VM_HEARTBEAT_LIMIT seconds, whatever the case's own timeout.
( n=0; while :; do n=$((n + 1)); echo "$n" > "$VM_SHARE/heartbeat"; sleep 2; done ) &

mount -t devpts devpts /dev/pts 2>/dev/null
# The host directories our tmpfs /tmp, /run, /var/tmp hide (a checkout, build or cache under /tmp), exported
# by the host as 9p tags x0, x1, ...: mounted at their own paths before anything (modprobe from the cache,
# the cases from the checkout) needs them.
# Cached as the host root is (the init says why), unless roce_vm_9p_cache= says otherwise.
VM_9P_CACHE=loose
for w in $(cat /proc/cmdline); do case $w in roce_vm_9p_cache=*) VM_9P_CACHE=${w#*=} ;; esac; done
for i in "${!VM_EXPORTS[@]}"; do
	mkdir -p "${VM_EXPORTS[$i]}" &&
		mount -t 9p -o "trans=virtio,version=9p2000.L,ro,msize=262144,cache=$VM_9P_CACHE" "x$i" "${VM_EXPORTS[$i]}" ||
		echo "roce-vm: node $VM_NODE: could not mount the host's ${VM_EXPORTS[$i]} (9p tag x$i)" >&2   # the console: the host shows its tail when the node fails
done
mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm

bring_up() {
	# The host's /sbin/modprobe looks in /lib/modules/$(uname -r), which the host does not have; point the
	# kernel's module autoloader (nft expressions, veth, ...) at the cache instead.
	printf '#!/bin/sh\nexec /sbin/modprobe -d %q -S %q "$@"\n' "$VM_CACHE/kern" "$VM_KVER" > "$VM_HOME/modprobe"
	chmod 755 "$VM_HOME/modprobe"
	echo "$VM_HOME/modprobe" > /proc/sys/kernel/modprobe
	local m ok=0 mods="crc32_generic virtio_net rdma_rxe ib_uverbs rdma_ucm veth nf_tables nft_ct nft_reject_inet"
	# crc32_generic: rdma_rxe needs the crc32 crypto algorithm and nothing here autoloads it. One modprobe
	# for all of them: every process start costs under TCG.
	# shellcheck disable=SC2086
	"$VM_HOME/modprobe" -a $mods
	for m in $mods; do
		[ -d "/sys/module/$m" ] || { echo "roce-vm: module $m did not load"; ok=1; }
	done
	# A hostname of its own: snapshot records it and compare names the nodes by it (the kernel's default,
	# "(none)" on both, would be one hostname held by two nodes).
	echo "node-$VM_NODE" > /proc/sys/kernel/hostname
	if [ "${VM_NODES:-2}" -gt 2 ]; then
		# More nodes: each knows the others by name, as a cluster's nodes do (a launcher such as Slurm names
		# rank 0's host, node-a). The host's /etc/hosts stays as it is: a tmpfs copy is bound over it here.
		local names=(a b c d e f g h) i=0 ip
		{ cat /etc/hosts; for ip in $VM_IPS; do echo "$ip node-${names[i]}"; i=$((i + 1)); done; } > /run/roce-vm-hosts
		mount --bind /run/roce-vm-hosts /etc/hosts || ok=1
	fi
	ip link set lo up
	ip link set eth0 mtu "$VM_MTU" up || ok=1
	ip addr add "$VM_SELF_IP/24" dev eth0 || ok=1
	rdma link add rxe0 type rxe netdev eth0 || { echo "roce-vm: rdma link add rxe0 failed"; ok=1; }
	if [ "$VM_RAILS" = 2 ]; then
		# The second rail: up, no address yet (each case's address plan gives it one: runner.sh).
		ip link set eth1 mtu "$VM_MTU" up || ok=1
		rdma link add rxe1 type rxe netdev eth1 || { echo "roce-vm: rdma link add rxe1 failed"; ok=1; }
	fi
	for _ in $(seq 1 50); do   # an rxe port follows its netdev's carrier; a few ticks at most
		grep -qs ACTIVE /sys/class/infiniband/rxe0/ports/1/state &&
			{ [ "$VM_RAILS" = 1 ] || grep -qs ACTIVE /sys/class/infiniband/rxe1/ports/1/state; } && break
		sleep 0.2
	done
	rdma link show
	ip -br addr
	return $ok
}

bring_up > "$VM_SHARE/boot.log" 2>&1 || echo "roce-vm: node $VM_NODE: bring-up had errors, see boot.log" >> "$VM_SHARE/boot.log"
progress up

case $VM_MODE in
cmd)
	cd "$VM_CWD" 2>/dev/null || { echo "roce-vm: $VM_CWD is not visible inside the VM, running in /" >&2; cd /; }
	export VM_OUT=$VM_SHARE
	# shellcheck disable=SC2016  # expanded by the inner bash
	timeout -k 5 "$VM_CMD_TIMEOUT" bash -c '. "$VM_HOME/lib.sh"; . "$VM_HOME/cmd"' \
		> "$VM_SHARE/stdout" 2> "$VM_SHARE/stderr" < /dev/null
	echo $? > "$VM_SHARE/rc"
	;;
cases)
	# shellcheck source=runner.sh
	. "$VM_HOME/runner.sh"
	run_cases
	;;
esac
progress "done"
off
