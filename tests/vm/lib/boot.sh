# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Booting guests on the host: one share directory per node, qemu under timeout(1), and teardown that leaves
# no qemu behind. Callers must `trap vm_teardown EXIT` (run-cases and roce-vm do).
#
# A node's share (DIR) is mounted at /tmp/roce-vm inside it; DIR/.roce-vm holds the guest scripts and env,
# the guest writes DIR/progress, DIR/boot.log and its results. DIR.console is the serial console,
# DIR.qemu.log qemu's own messages.

declare -gA VM_PID=()     # node -> pid of the wrapper: bash -> timeout(1) -> qemu
declare -gA VM_SHARE_OF=()   # node -> its share directory (DIR.pid is qemu's pidfile)
VM_ALL_PIDS=()            # every wrapper started, for the EXIT trap
VM_ALL_SHARES=()
VM_MARK=""                # a pattern only this run's qemu command lines match (set by vm_mark)
VM_EXPORTS=()             # host directories shared into the guest at the same path (vm_prepare sets it)
VM_RAILS=${VM_RAILS:-1}   # NICs and cables per node: 1 (eth0, rxe0) or 2 (also eth1, rxe1); per boot

# vm_mark RUNDIR: every share of this run is under RUNDIR, so "qemu-system.*path=RUNDIR/" finds ours only.
vm_mark() { VM_MARK="qemu-system.*path=$1/"; }
vm_leftovers() { [ -n "$VM_MARK" ] && pgrep -f -- "$VM_MARK"; }

# vm_prepare DIR NODE MODE BUDGET; reads MTU, VM_RAILS, CMD_TIMEOUT, ROCE_DOCTOR (optional), VM_CWD (optional)
# One rail: eth0 is 10.88.0.1 (A) / .2 (B). Two rails: eth0 is 192.168.88.1 / .2 in both address plans (the
# barriers use it), eth1 gets its plan's address per case (guest/runner.sh).
# More than two nodes (VM_NODES): node k (a is 0) is .k+1; its peer is node a (the barriers' hub), a's is b.
vm_prepare() {
	local dir=$1 node=$2 mode=$3 budget=$4 self peer net=10.88.0 k ips="" i
	[ "$VM_RAILS" = 1 ] || net=192.168.88
	k=$(node_index "$node")
	self=$net.$((k + 1))
	if [ "$node" = a ]; then peer=$net.2; else peer=$net.1; fi
	for ((i = 1; i <= VM_NODES; i++)); do ips+="${ips:+ }$net.$i"; done
	mkdir -p "$dir/.roce-vm"
	cp "$VM_DIR"/guest/{stage2.sh,lib.sh,runner.sh,case-node.sh} "$dir/.roce-vm/"
	# The checkout, the build, the cache and the caller's directory, where the guest's tmpfs would hide them.
	local exports
	exports=$(guest_exports "$VM_REPO" "${ROCE_DOCTOR:+$(dirname "$ROCE_DOCTOR")}" "$ROCE_VM_CACHE" "${VM_CWD:-$PWD}") ||
		exit 125   # guest_exports said why
	VM_EXPORTS=()
	[ -z "$exports" ] || mapfile -t VM_EXPORTS <<< "$exports"
	{
		printf 'export VM_NODE=%q VM_SELF_IP=%q VM_PEER_IP=%q VM_DEV=rxe0 VM_NETDEV=eth0\n' "$node" "$self" "$peer"
		printf 'export VM_MTU=%q VM_MODE=%q VM_BUDGET=%q VM_BOOT_WAIT=%q\n' "$MTU" "$mode" "$budget" "$(boot_timeout)"
		printf 'export VM_RAILS=%q VM_NODES=%q VM_RANK=%q VM_IPS=%q\n' "$VM_RAILS" "$VM_NODES" "$k" "$ips"
		printf 'export VM_CACHE=%q VM_KVER=%q VM_REPO=%q\n' "$ROCE_VM_CACHE" "$(kver)" "$VM_REPO"
		printf 'export VM_CWD=%q VM_CMD_TIMEOUT=%q\n' "${VM_CWD:-$PWD}" "${CMD_TIMEOUT:-60}"
		[ -z "${ROCE_DOCTOR:-}" ] || printf 'export ROCE_DOCTOR=%q\n' "$ROCE_DOCTOR"
		printf 'VM_EXPORTS=('   # 9p tags x0, x1, ... in this order
		[ ${#VM_EXPORTS[@]} -eq 0 ] || printf ' %q' "${VM_EXPORTS[@]}"
		printf ' )\n'
	} > "$dir/.roce-vm/env"
}

# vm_start DIR NODE NETDEV BUDGET [NETDEV1]: boot in the background with NETDEV as its first NIC's backend (a
# -netdev value without its id), NETDEV1 as the second's (two rails); VM_PID[NODE] is set.
vm_start() {
	local dir=$1 node=$2 netdev=$3 budget=$4 netdev1=${5:-} accel mac pin exports=() nics=() i
	mac=52:54:00:88:00:0$(($(node_index "$node") + 1))
	nics=(-netdev "$netdev,id=n0" -device "virtio-net-pci,netdev=n0,mac=$mac")
	[ -z "$netdev1" ] || nics+=(-netdev "$netdev1,id=n1" -device "virtio-net-pci,netdev=n1,mac=${mac/:00:0/:01:0}")
	# Nested KVM hangs at kernel entry on the machines tried, so TCG; ROCE_VM_ACCEL=kvm to try anyway.
	if [ "${ROCE_VM_ACCEL:-tcg}" = kvm ]; then accel=(-enable-kvm -cpu host); else accel=(-accel "${ROCE_VM_TCG:-tcg,thread=multi}" -cpu max); fi
	# ROCE_VM_TCG (the -accel value) and ROCE_VM_QEMU_OPTS (more qemu words, split on blanks) are for measuring
	# the emulator's own settings (bench/vm-noise; tests/vm/README.md says what -icount did: more noise).
	# shellcheck disable=SC2206  # words on purpose
	accel+=(${ROCE_VM_QEMU_OPTS:-})
	# -nodefaults: no default user-mode NIC (the only traffic is the cable: a Unix socket for a pair, a UDP
	# socket on 127.0.0.1 for node A alone), no VGA.
	# The wrapper (lib/qemu-wrap) reports a qemu killed by a signal itself instead of bash's "Killed" line,
	# and takes qemu down if this runner vanishes without its EXIT trap (SIGKILL).
	# ROCE_VM_PIN=1 (benchmarks): node a's qemu on CPU 0, b's on CPU 1, so the two never take turns on one core.
	pin=()
	if [ "${ROCE_VM_PIN:-0}" = 1 ] && [ "$(nproc)" -ge 2 ]; then pin=(taskset -c "$(($(node_index "$node") % $(nproc)))"); fi
	# Paths the guest's tmpfs would hide (a checkout under /tmp): one read-only export each, tag xN (a
	# comma in a qemu option value is written twice).
	for i in "${!VM_EXPORTS[@]}"; do
		exports+=(-virtfs "local,path=${VM_EXPORTS[$i]//,/,,},mount_tag=x$i,security_model=none,readonly=on,multidevs=remap")
	done
	rm -f "$dir.pid"
	# no_timer_check: under TCG on a loaded host the kernel's check that the IO-APIC timer ticks can miss
	# its window and panic ("IO-APIC + timer doesn't work!", seen at load 20-27 on the 2 cores); the
	# check proves nothing about an emulated PIT, and cloud images boot with the same option.
	"$VM_DIR/lib/qemu-wrap" "$$" "$budget" "${pin[@]}" qemu-system-x86_64 "${accel[@]}" -m "$ROCE_VM_MEM" -smp 1 \
		-nodefaults -no-user-config -display none -no-reboot -pidfile "$dir.pid" \
		-kernel "$(kernel_image)" -initrd "$ROCE_VM_CACHE/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 no_timer_check roce_vm_node=$node ${ROCE_VM_APPEND:-}" \
		-serial "file:$dir.console" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$dir,mount_tag=share,security_model=none" "${exports[@]}" \
		"${nics[@]}" \
		> "$dir.qemu.log" 2>&1 < /dev/null &
	VM_PID[$node]=$!
	VM_SHARE_OF[$node]=$dir
	VM_ALL_PIDS+=("$!")
	VM_ALL_SHARES+=("$dir")
}

# vm_start_pair RUNDIR BUDGET: node shares are RUNDIR/a and RUNDIR/b (already prepared).
# The cable is a Unix stream socket, B listening and A connecting: lossless, the sender waits when the
# receiver is behind, as on the lossless (PFC) Ethernet RoCE is deployed on, and without Nagle's delays (qemu
# does not set TCP_NODELAY on a TCP stream netdev). A UDP socket cable, as before, dropped frames whenever a
# guest fell behind (the host's UDP receive buffer holds about 20 jumbo frames: 677584 RcvbufErrors on this
# machine by one afternoon; rxe's hw_counters showed one packet in ten retransmitted during bw), and each
# lost tail cost a retransmit timeout: that was most of the run-to-run spread of every bandwidth number.
# Two rails (VM_RAILS=2): a second cable, RUNDIR/cable1.sock, joins the nodes' second NICs (eth1 to eth1).
vm_start_pair() {
	local run=$1 budget=$2 sock sock1="" i
	sock=$run/cable.sock
	[ "$VM_RAILS" = 1 ] || sock1=$run/cable1.sock
	[ ${#sock} -lt 99 ] || die "$sock: too long for a Unix socket path"
	rm -f "$sock" ${sock1:+"$sock1"}
	vm_start "$run/b" b "stream,server=on,addr.type=unix,addr.path=$sock" "$budget" \
		${sock1:+"stream,server=on,addr.type=unix,addr.path=$sock1"}
	for i in $(seq 200); do
		[ -S "$sock" ] && { [ -z "$sock1" ] || [ -S "$sock1" ]; } && break
		vm_alive b || break
		sleep 0.05
	done
	vm_start "$run/a" a "stream,server=off,addr.type=unix,addr.path=$sock" "$budget" \
		${sock1:+"stream,server=off,addr.type=unix,addr.path=$sock1"}
}

# vm_start_cluster RUNDIR BUDGET: VM_NODES nodes (shares RUNDIR/a, RUNDIR/b, ..., already prepared), each NIC
# on a port of one switch per rail (lib/switch.py, in RUNDIR/sw0, RUNDIR/sw1): a user-space process joining
# the nodes' stream netdevs, lossless as the direct cable is (every write blocks until the receiver took
# the frame). The switch stops with the runner, or once every node it had is gone.
vm_start_cluster() {
	local run=$1 budget=$2 r i node nds=() want=()
	for ((r = 0; r < VM_RAILS; r++)); do
		mkdir -p "$run/sw$r"
		[ ${#run} -lt 90 ] || die "$run/sw$r: too long for a Unix socket path"
		python3 "$VM_DIR/lib/switch.py" "$run/sw$r" "$VM_NODES" "$$" > "$run/sw$r/stderr" 2>&1 < /dev/null &
		VM_ALL_PIDS+=("$!")
		VM_SWITCH_PIDS+=("$!")
		for ((i = 0; i < VM_NODES; i++)); do want+=("$run/sw$r/p$i.sock"); done
	done
	for i in $(seq 200); do   # python starts in about 0.1 s; at most 10 s on a loaded host
		node=""
		for r in "${want[@]}"; do [ -S "$r" ] || node=missing; done
		[ -n "$node" ] || break
		sleep 0.05
	done
	for r in "${want[@]}"; do [ -S "$r" ] || die "the switch did not listen on $r (see ${r%/*}/stderr)"; done
	for node in $(node_names); do
		i=$(node_index "$node")
		nds=()
		for ((r = 0; r < VM_RAILS; r++)); do nds+=("stream,server=off,addr.type=unix,addr.path=$run/sw$r/p$i.sock"); done
		vm_start "$run/$node" "$node" "${nds[0]}" "$budget" ${nds[1]:+"${nds[1]}"}
	done
}
VM_SWITCH_PIDS=()

vm_alive() { [ -n "${VM_PID[$1]:-}" ] && kill -0 "${VM_PID[$1]}" 2>/dev/null; }

# qemu's pid from its pidfile, if that process is still a qemu.
vm_qemu_pid() { # SHAREDIR
	local q
	q=$(cat "$1.pid" 2>/dev/null) || return 1
	[[ $(cat "/proc/$q/comm" 2>/dev/null) == qemu-system* ]] && echo "$q"
}

# vm_kill NODE [SIGNAL]: signal qemu itself (KILL by default, as a crash would). A qemu too young to have
# written its pidfile gets TERM through timeout(1), which forwards it.
vm_kill() {
	local - pid=${VM_PID[$1]:-} sig=${2:-KILL} q t
	set +e
	[ -n "$pid" ] || return 0
	q=$(vm_qemu_pid "${VM_SHARE_OF[$1]}") && kill "-$sig" "$q" 2>/dev/null
	for t in $(pgrep -P "$pid"); do kill -TERM "$t" 2>/dev/null; done
	return 0
}

# vm_reap NODE: wait for the wrapper; sets VM_HOW to how qemu ended (no output: callers must not run it in $()).
VM_HOW=""
vm_reap() {
	local pid=${VM_PID[$1]:-} st=0
	VM_HOW="not started"
	[ -n "$pid" ] || return 0
	{ wait "$pid"; } 2>/dev/null || st=$?
	case $st in
	0) VM_HOW="powered off" ;;
	124) VM_HOW="killed by the host after its time budget" ;;
	127) VM_HOW="already reaped" ;;
	*) if [ "$st" -gt 128 ]; then VM_HOW="killed by signal $((st - 128))"; else VM_HOW="exited with status $st"; fi ;;
	esac
}

# Kills every qemu this process started, waits for them, and checks by command line that none is left.
vm_teardown() {
	local - p d q left
	set +e   # runs from EXIT traps: a process that is already gone is not an error
	for d in "${VM_ALL_SHARES[@]}"; do q=$(vm_qemu_pid "$d") && kill -KILL "$q" 2>/dev/null; done
	for p in "${VM_ALL_PIDS[@]}"; do
		for q in $(pgrep -P "$p" 2>/dev/null); do kill -TERM "$q" 2>/dev/null; done
		kill -TERM "$p" 2>/dev/null
	done
	for p in "${VM_ALL_PIDS[@]}"; do { wait "$p"; } 2>/dev/null; done
	left=$(vm_leftovers | tr '\n' ' ')
	if [ -n "$left" ]; then
		log "qemu processes of this run still alive, killing: $left"
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null
	fi
	return 0
}

# Last lines of a node's console, for messages about a node that broke.
console_tail() { [ -s "$1.console" ] && tail -n "${2:-5}" "$1.console" | tr -d '\r' | sed 's/^/#   console: /'; return 0; }
