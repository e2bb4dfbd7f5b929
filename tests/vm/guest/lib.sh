# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Helpers inside a guest, for cases and ad-hoc `roce-vm pair` commands. Every wait here is bounded.
#   barrier NAME [SECS]          both nodes meet here (TCP over 10.88.0.0/24); fails after SECS (default 60).
#                                Both nodes must call the same barriers in the same order.
#   wait_listen PORT [SECS]      until a local TCP port listens (ss); use it on the server's own node
#   wait_port HOST PORT [SECS]   until a remote TCP port accepts; it opens a connection, so never point it at
#                                a one-shot server such as perftest's (use wait_listen + barrier instead)
#   retry SECS CMD...            rerun CMD until it succeeds, at most SECS
#   exchange NAME WORD [SECS]    a barrier that also swaps one word: prints the peer's WORD
#   perftest_pair TRIES SECS CMD...
#                                CMD (an ib_*_bw/lat command line without the peer) as server on B and as
#                                client of B on A; again, at most TRIES times, when either side could not
#                                calibrate perftest's cycle clock (TCG makes that noisy: "Can't produce a
#                                report" after the traffic ran). Each run is bounded by SECS.
# Two rails (VM_RAILS=2): rail i is eth$i and rxe$i; VM_SELF_IPS / VM_PEER_IPS hold the addresses per rail.
#   rail_addrs PLAN NODE         a node's "ADDR/LEN ADDR/LEN" (eth0, eth1) in an address plan
#   use_plan PLAN                readdress eth1 for another plan mid-case (then meet at a barrier)
# What the scenarios do to a node (NETDEV is eth0, eth1, ...; each waits until the RDMA side followed):
#   gid_index DEV ADDR           the index of DEV port 1's GID holding ADDR (IPv4 or IPv6); fails if none
#   rdma_dev_of NETDEV           the RDMA device on NETDEV (rxe0 on eth0)
#   set_mtu NETDEV MTU           the netdev MTU (the RoCE active MTU follows it)
#   addr_before NETDEV ADDR/LEN  ADDR takes a lower GID index than the addresses NETDEV has now (they are
#                                taken off, ADDR added, then they are put back in their order), so the RoCE
#                                address's GID moves up one index. An IPv6 ADDR moves the IPv4 GID that
#                                gid --suggest picks; an IPv4 one becomes itself the first IPv4 GID
#   nft_drop_tcp_ephemeral NETDEV  drop new TCP connections to the ephemeral range (ip_local_port_range) that
#                                arrive on NETDEV (what blocks NCCL's bootstrap; established ones pass)
#   nft_drop_roce NETDEV         drop UDP 4791 (RoCE v2) arriving on NETDEV
#   nic_down NETDEV, nic_up NETDEV  the link down (the RDMA port goes DOWN) or up again (ACTIVE)
#   memlock_configured PROGRAM [ARGS...]
#                                PROGRAM as on a node set up for RDMA: ulimit -l unlimited, and (in a private
#                                mount namespace, the host's /etc stays untouched) a limits.d file and a
#                                systemd drop-in saying memlock unlimited, so check's memlock rules pass
#   serve_start [ARGS...]        roce-doctor serve in the background (log: $VM_CASE_OUT/serve.log) until it
#                                listens (on -p N, default 18516); SERVE_PID is its pid
#   serve_kill [SIGNAL]          signal it (TERM by default), wait for it, print serve_rc=N
#   throttle NETDEV RATE         the link at RATE (8mbit) both ways: tc tbf on egress, and on ingress via ifb0;
#   unthrottle NETDEV            off again (the restore after a case also takes it off)
#   slurm_start [SECS]           more nodes: munged and slurmd on every node, slurmctld on node a; returns once
#                                every node is idle (then srun works from node a); logs in $VM_CASE_OUT
# Environment: VM_NODE (a|b, or a..h with more nodes: VM_NODES, VM_RANK, VM_IPS), VM_SELF_IP, VM_PEER_IP,
# VM_DEV=rxe0, VM_NETDEV=eth0, VM_MTU, VM_SHARE.

# shellcheck disable=SC2153  # VM_PEER_IP (not VM_PEER_IPS) comes from the node's env file
VM_BARRIER_PORT=${VM_BARRIER_PORT:-17700}
VM_CASE=${VM_CASE:-0}          # the case number; barrier tokens carry it so a straggler cannot pass a later one
VM_BARRIER_SEQ=${VM_BARRIER_SEQ:-0}

uptime_s() { local up _; read -r up _ < /proc/uptime; echo "${up%.*}"; }
progress() { local up _; read -r up _ < /proc/uptime; echo "$* $up" >> "$VM_SHARE/progress"; }
say() { echo "roce-vm: node $VM_NODE: $*" >&2; }

# Node A listens, node B connects. A connection to A's listener can only succeed while A is in the barrier,
# so B passes as soon as its token is delivered and A passes when it reads a token at least as new as its
# own (older ones come from a peer that fell behind; A drops them and listens again).
barrier() {
	local name=$1 secs=${2:-60} seq deadline tok left got pk ps
	VM_BARRIER_SEQ=$((VM_BARRIER_SEQ + 1))
	seq=${3:-$VM_BARRIER_SEQ}
	tok="$VM_CASE $seq $name"
	deadline=$(( $(uptime_s) + secs ))
	if [ "${VM_NODES:-2}" -gt 2 ]; then
		barrier_many "$name" "$seq" "$deadline" && return 0
	elif [ "$VM_NODE" = a ]; then
		while left=$((deadline - $(uptime_s))); [ "$left" -gt 0 ]; do
			got=$(timeout "$left" busybox nc -l -p "$VM_BARRIER_PORT" < /dev/null 2>/dev/null | head -1)
			[ -n "$got" ] || continue
			read -r pk ps _ <<< "$got"
			[[ $pk =~ ^[0-9]+$ && $ps =~ ^[0-9]+$ ]] || continue
			if [ "$pk" -gt "$VM_CASE" ] || { [ "$pk" -eq "$VM_CASE" ] && [ "$ps" -ge "$seq" ]; }; then
				[ "$got" = "$tok" ] || say "barrier '$name': peer arrived at '$got', expected '$tok'"
				return 0
			fi
		done
	else
		while [ "$(uptime_s)" -lt "$deadline" ]; do
			# shellcheck disable=SC2016  # the inner bash expands them
			timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2" && echo "$3" >&3' _ "$VM_PEER_IP" "$VM_BARRIER_PORT" "$tok" \
				2>/dev/null && return 0
			sleep 0.2
		done
	fi
	if [ "${VM_NODES:-2}" -gt 2 ]; then
		say "barrier '$name' timed out after ${secs}s waiting for the other $((VM_NODES - 1)) nodes"
	else
		say "barrier '$name' timed out after ${secs}s waiting for node $( [ "$VM_NODE" = a ] && echo b || echo a)"
	fi
	return 1
}

# More than two nodes: every node sends node A its token ("CASE SEQ NODE NAME"), A collects one from each,
# then tells each node "go" on that node's own listener (the same port). Nobody passes before all arrived.
# Every delivery is acknowledged: busybox nc -l accepts one connection and closes its listening socket, and a
# second node whose connect landed in the backlog meanwhile has written its token into a socket that is then
# reset, unread. Unacknowledged, it would believe itself counted and wait for a "go" that never comes.
barrier_many() { # NAME SEQ DEADLINE
	local name=$1 seq=$2 deadline=$3 left got pk ps pn ip
	local -A seen=()
	if [ "$VM_NODE" = a ]; then
		while [ "${#seen[@]}" -lt $((VM_NODES - 1)) ] && left=$((deadline - $(uptime_s))) && [ "$left" -gt 0 ]; do
			got=$(printf 'ok\n' | timeout "$left" busybox nc -l -p "$VM_BARRIER_PORT" 2>/dev/null | head -1)
			read -r pk ps pn _ <<< "$got"
			[[ $pk =~ ^[0-9]+$ && $ps =~ ^[0-9]+$ && $pn =~ ^[b-h]$ ]] || continue
			# An older token comes from a node still leaving an earlier barrier: not this one.
			if [ "$pk" -gt "$VM_CASE" ] || { [ "$pk" -eq "$VM_CASE" ] && [ "$ps" -ge "$seq" ]; }; then seen[$pn]=1; fi
		done
		[ "${#seen[@]}" -eq $((VM_NODES - 1)) ] || return 1
		for ip in ${VM_IPS#* }; do
			until deliver "$ip" "$VM_CASE $seq go $name"; do
				[ "$(uptime_s)" -lt "$deadline" ] || return 1
				sleep 0.2
			done
		done
		return 0
	fi
	# Each try starts two processes: a node that waits long (while node a measures) backs off to one a second,
	# so its waiting does not eat the CPU the measurement needs.
	local pause=0.2 tries=0
	until deliver "${VM_IPS%% *}" "$VM_CASE $seq $VM_NODE $name"; do
		[ "$(uptime_s)" -lt "$deadline" ] || return 1
		tries=$((tries + 1))
		[ "$tries" -lt 25 ] || pause=1
		sleep "$pause"
	done
	while left=$((deadline - $(uptime_s))); [ "$left" -gt 0 ]; do
		got=$(printf 'ok\n' | timeout "$left" busybox nc -l -p "$VM_BARRIER_PORT" 2>/dev/null | head -1)
		read -r pk ps pn _ <<< "$got"
		[[ $pk =~ ^[0-9]+$ && $ps =~ ^[0-9]+$ && $pn == go ]] || continue
		if [ "$pk" -gt "$VM_CASE" ] || { [ "$pk" -eq "$VM_CASE" ] && [ "$ps" -ge "$seq" ]; }; then return 0; fi
	done
	return 1
}

# deliver IP LINE: LINE to the barrier listener on IP, true once it answered "ok".
deliver() {
	local reply
	# shellcheck disable=SC2016  # the inner bash expands them
	reply=$(timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2" && echo "$3" >&3 && head -1 <&3' _ "$1" "$VM_BARRIER_PORT" "$2" \
		2>/dev/null)
	[ "$reply" = ok ]
}

wait_listen() {
	local port=$1 secs=${2:-30} deadline
	deadline=$(( $(uptime_s) + secs ))
	while [ "$(uptime_s)" -lt "$deadline" ]; do
		ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && return 0
		sleep 0.2
	done
	say "nothing listens on local TCP port $port after ${secs}s"
	return 1
}

wait_port() {
	local host=$1 port=$2 secs=${3:-30} deadline
	deadline=$(( $(uptime_s) + secs ))
	while [ "$(uptime_s)" -lt "$deadline" ]; do
		# shellcheck disable=SC2016
		timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$host" "$port" 2>/dev/null && return 0
		sleep 0.2
	done
	say "$host:$port does not accept TCP connections after ${secs}s"
	return 1
}

retry() {
	local secs=$1 deadline; shift
	deadline=$(( $(uptime_s) + secs ))
	until "$@"; do
		[ "$(uptime_s)" -lt "$deadline" ] || { say "gave up after ${secs}s: $*"; return 1; }
		sleep 0.5
	done
}

# Same rendezvous as barrier, but A's listener answers with its word and B reads it back.
exchange() {
	local name=$1 word=$2 secs=${3:-60} seq deadline tok left got pk ps pw reply
	VM_BARRIER_SEQ=$((VM_BARRIER_SEQ + 1))
	seq=$VM_BARRIER_SEQ
	tok="$VM_CASE $seq $name"
	deadline=$(( $(uptime_s) + secs ))
	if [ "$VM_NODE" = a ]; then
		while left=$((deadline - $(uptime_s))); [ "$left" -gt 0 ]; do
			got=$(printf '%s\n' "$word" | timeout "$left" busybox nc -l -p "$VM_BARRIER_PORT" 2>/dev/null | head -1)
			read -r pk ps _ pw <<< "$got"
			[[ $pk =~ ^[0-9]+$ && $ps =~ ^[0-9]+$ ]] || continue
			[ "$pk" -eq "$VM_CASE" ] && [ "$ps" -eq "$seq" ] && { echo "$pw"; return 0; }
			if [ "$pk" -gt "$VM_CASE" ] || [ "$ps" -gt "$seq" ]; then
				say "exchange '$name': peer is at '$got', ahead of '$tok'"
				return 1
			fi
		done
	else
		while [ "$(uptime_s)" -lt "$deadline" ]; do
			# shellcheck disable=SC2016  # the inner bash expands them
			reply=$(timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2" && echo "$3" >&3 && head -1 <&3' _ \
				"$VM_PEER_IP" "$VM_BARRIER_PORT" "$tok $word" 2>/dev/null) && [ -n "$reply" ] &&
				{ echo "$reply"; return 0; }
			sleep 0.2
		done
	fi
	say "exchange '$name' timed out after ${secs}s waiting for node $( [ "$VM_NODE" = a ] && echo b || echo a)"
	return 1
}

# One word for how a perftest run ended: ok, clock (the traffic ran but the cycle clock failed perftest's
# calibration) or fail.
perftest_outcome() { # RC STDERR-FILE
	if [ "$1" -eq 0 ]; then echo ok
	elif grep -q "Can't produce a report" "$2"; then echo clock
	else echo fail
	fi
}

perftest_pair() {
	local tries=$1 secs=$2 try=1 pid rc mine theirs out err; shift 2
	out=$(mktemp) err=$(mktemp)
	while :; do
		# The server's SECS run from its start: meet first, so a node that comes late (a busy host) does not
		# find B's server already timed out ("Couldn't connect", seen in check_misconfigured under load).
		barrier "perftest-go-$try" 120 || true
		if [ "$VM_NODE" = b ]; then
			timeout "$secs" "$@" > "$out" 2> "$err" &
			pid=$!
			if wait_listen 18515 20; then mine=listening; else mine=fail; kill "$pid" 2>/dev/null; fi
			theirs=$(exchange "perftest-up-$try" "$mine" 60) || theirs=fail
			[ "$theirs" = ready ] || kill "$pid" 2>/dev/null
			wait "$pid"; rc=$?
		else
			theirs=$(exchange "perftest-up-$try" ready 60) || theirs=fail
			if [ "$theirs" = listening ]; then
				timeout "$secs" "$@" "$VM_PEER_IP" > "$out" 2> "$err"; rc=$?
			else
				echo "perftest_pair: node b's perftest server did not listen" > "$err"; rc=1
			fi
		fi
		mine=$(perftest_outcome "$rc" "$err")
		theirs=$(exchange "perftest-done-$try" "$mine" $((secs + 30))) || theirs=fail
		cat "$out"; cat "$err" >&2
		# Both nodes must decide alike, so the rule is symmetric in mine and theirs.
		if [ "$try" -lt "$tries" ] && { [ "$mine" = clock ] || [ "$theirs" = clock ]; }; then
			say "perftest run $try: perftest could not calibrate its cycle clock (mine: $mine, peer: $theirs); again"
			try=$((try + 1))
			continue
		fi
		rm -f "$out" "$err"
		[ "$mine" = ok ] && [ "$theirs" = ok ]
		return
	done
}

# ---- two rails ------------------------------------------------------------------------------------------

# rail_addrs PLAN NODE: the node's eth0 and eth1 addresses (ADDR/LEN, on one line) in an address plan.
#   one-subnet (the field notes' pair): A 192.168.88.1 and .11, B .2 and .22, all in 192.168.88.0/24
#   per-rail: A 192.168.88.1 and 192.168.89.1, B .2 and 192.168.89.2
rail_addrs() {
	local h
	case $2 in [a-h]) h=$(($(printf '%d' "'$2") - 96)) ;; *) return 1 ;; esac   # a=1, b=2, ...
	case $1 in
	one-subnet) echo "192.168.88.$h/24 192.168.88.$h$h/24" ;;
	per-rail) echo "192.168.88.$h/24 192.168.89.$h/24" ;;
	*) say "unknown address plan '$1' (one-subnet or per-rail)"; return 1 ;;
	esac
}

# plan_vars PLAN: VM_PLAN, VM_SELF_IPS and VM_PEER_IPS (per rail, space-separated, without /LEN) for PLAN.
plan_vars() {
	local s0 s1 p0 p1
	read -r s0 s1 <<< "$(rail_addrs "$1" "$VM_NODE")" || return 1
	read -r p0 p1 <<< "$(rail_addrs "$1" "$([ "$VM_NODE" = a ] && echo b || echo a)")" || return 1
	[ -n "$s1" ] || return 1
	export VM_PLAN=$1 VM_SELF_IPS="${s0%/*} ${s1%/*}" VM_PEER_IPS="${p0%/*} ${p1%/*}"
}

# use_plan PLAN: switch this node to another address plan in the middle of a case (eth1 readdressed, its GID
# back at index 1); both nodes call it, then meet at a barrier before using the new addresses.
use_plan() {
	local a1
	read -r _ a1 <<< "$(rail_addrs "$1" "$VM_NODE")" || return 1
	[ -n "$a1" ] || return 1
	ip addr flush dev eth1 scope global && addr_put eth1 rxe1 "$a1" && plan_vars "$1"
}

# ---- what the scenarios do to a node --------------------------------------------------------------------

# The GID sysfs text of an address: ::ffff:a.b.c.d for IPv4, the full eight groups for IPv6.
gid_text() { # ADDR
	local a=$1 head tail n i out=() g
	if [[ $a != *:* ]]; then
		local IFS=.
		# shellcheck disable=SC2086  # split on the dots
		set -- $a
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$1" "$2" "$3" "$4"
		return
	fi
	head=${a%%::*} tail=""
	[[ $a == *::* ]] && tail=${a#*::}
	local -a before=() after=()
	[ -z "$head" ] || IFS=: read -ra before <<< "$head"
	[ -z "$tail" ] || IFS=: read -ra after <<< "$tail"
	n=$((8 - ${#before[@]} - ${#after[@]}))
	for g in "${before[@]}"; do out+=("$(printf '%04x' "0x$g")"); done
	for ((i = 0; i < n; i++)); do out+=(0000); done
	for g in "${after[@]}"; do out+=("$(printf '%04x' "0x$g")"); done
	local IFS=:
	echo "${out[*]}"
}

gid_index() { # DEV ADDR
	local want f g
	want=$(gid_text "$2")
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		read -r g < "$f" 2>/dev/null || continue   # an empty slot may read as EINVAL
		[ "$g" = "$want" ] && { echo "${f##*/}"; return 0; }
	done
	return 1
}

rdma_dev_of() { # NETDEV
	local d p
	for d in /sys/class/infiniband/*; do
		read -r p < "$d/parent" 2>/dev/null || continue
		[ "$p" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	say "no RDMA device on $1"
	return 1
}

set_mtu() { ip link set dev "$1" mtu "$2"; }

# One address on, and its GID in the table (rxe adds it from a notifier, a moment later).
addr_put() { # NETDEV DEV ADDR/LEN
	case $3 in
	*:*) ip -6 addr add "$3" dev "$1" nodad || return ;;   # nodad: no 1-2 s of duplicate detection first
	*) ip addr add "$3" dev "$1" || return ;;
	esac
	retry 10 gid_index "$2" "${3%/*}" > /dev/null
}

addr_before() { # NETDEV ADDR/LEN
	local nd=$1 new=$2 dev old a
	dev=$(rdma_dev_of "$nd") || return 1
	old=$(ip -o addr show dev "$nd" scope global | awk '{ print $4 }')
	# Flushed at once: deleting a primary IPv4 address one by one takes its secondaries with it.
	ip addr flush dev "$nd" scope global || return 1
	addr_put "$nd" "$dev" "$new" || return 1
	for a in $old; do addr_put "$nd" "$dev" "$a" || return 1; done
}

nft_drop_tcp_ephemeral() { # NETDEV
	local lo hi
	read -r lo hi < /proc/sys/net/ipv4/ip_local_port_range
	nft -f - <<- EOF
		table inet roce_vm_drop_tcp_$1 {
			chain input {
				type filter hook input priority 0;
				iifname "$1" tcp dport $lo-$hi ct state new drop;
			}
		}
	EOF
}

nft_drop_roce() { # NETDEV
	nft -f - <<- EOF
		table inet roce_vm_drop_roce_$1 {
			chain input {
				type filter hook input priority 0;
				iifname "$1" udp dport 4791 drop;
			}
		}
	EOF
}

port_state_is() { grep -qs "$2" "/sys/class/infiniband/$1/ports/1/state"; }   # DEV STATE

nic_down() { # NETDEV
	local dev
	dev=$(rdma_dev_of "$1") || return 1
	ip link set dev "$1" down && retry 10 port_state_is "$dev" DOWN
}

nic_up() { # NETDEV
	local dev
	dev=$(rdma_dev_of "$1") || return 1
	ip link set dev "$1" up && retry 10 port_state_is "$dev" ACTIVE
}

memlock_configured() { # PROGRAM [ARGS...]
	(
		ulimit -l unlimited || exit 125
		# shellcheck disable=SC2016  # the inner bash expands them
		exec unshare -m --propagation private bash -c '
			mount -t tmpfs none /etc/security/limits.d &&
				printf "* - memlock unlimited\nroot - memlock unlimited\n" > /etc/security/limits.d/90-rdma.conf &&
				mkdir -p /run/systemd && mount -t tmpfs none /run/systemd &&
				mkdir /run/systemd/system.conf.d &&
				printf "[Manager]\nDefaultLimitMEMLOCK=infinity\n" > /run/systemd/system.conf.d/90-rdma.conf ||
				{ echo "memlock_configured: could not set up the limits files" >&2; exit 125; }
			exec "$@"' _ "$@"
	)
}

SERVE_PID=""
serve_start() { # [ARGS...]
	local port=18516 a prev=""
	for a in "$@"; do   # the port it will listen on: -p N, --port N or --port=N
		case $prev in -p | --port) port=$a ;; esac
		case $a in --port=*) port=${a#--port=} ;; esac
		prev=$a
	done
	"$ROCE_DOCTOR" serve "$@" >> "$VM_CASE_OUT/serve.log" 2>&1 &
	SERVE_PID=$!
	wait_listen "$port" 20 || { kill "$SERVE_PID" 2>/dev/null; return 1; }
}

serve_kill() { # [SIGNAL]
	local rc=0
	[ -n "$SERVE_PID" ] || { say "serve_kill: no serve started"; return 1; }
	kill "-${1:-TERM}" "$SERVE_PID" 2>/dev/null
	wait "$SERVE_PID" || rc=$?
	SERVE_PID=""
	echo "serve_rc=$rc"
}

# ---- a slow link, and a launcher (clusters: NODES > 2) ---------------------------------------------------

# throttle NETDEV RATE: the node's link at RATE (tc's units: 20mbit) both ways, as a port negotiated down or a
# cable with errors would be: a token bucket on NETDEV's egress, and one on its ingress through ifb0 (tc
# shapes egress only; the ingress is redirected to ifb0's egress). The queues hold 256 KiB: rxe keeps at most
# 128 packets unacknowledged, so a burst beyond that is dropped and retransmitted, as on a real slow link.
# `unthrottle NETDEV` (and runner.sh's restore) takes it off.
throttle() { # NETDEV RATE
	local nd=$1 rate=$2
	ip link add ifb0 type ifb && ip link set ifb0 up &&
		tc qdisc add dev "$nd" root tbf rate "$rate" burst 32kb limit 256kb &&
		tc qdisc add dev "$nd" handle ffff: ingress &&
		tc filter add dev "$nd" parent ffff: matchall action mirred egress redirect dev ifb0 &&
		tc qdisc add dev ifb0 root tbf rate "$rate" burst 32kb limit 256kb
}
unthrottle() { # NETDEV
	tc qdisc del dev "$1" root 2>/dev/null
	tc qdisc del dev "$1" ingress 2>/dev/null
	ip link delete ifb0 2>/dev/null
	return 0
}

# Slurm across the nodes, from Debian's packages (slurmctld, slurmd, munge) as a cluster's admin would run it,
# but with every file in this node's tmpfs (the root is the host's, read-only): $SLURM_CONF points at a
# slurm.conf written here, munged runs with --key-file, --socket, --pid-file etc. under $SLURM_HOME, and the
# daemons run in the foreground (-F, -D) in the case's process group, so the runner ends them with the case.
# node-a is the controller; every node runs munged and slurmd -N node-X. The munge key is the same fixed
# text on every node: a test key for VMs that nothing else reaches, not a secret.
SLURM_HOME=/run/roce-vm-slurm
SLURM_LOGS=${VM_CASE_OUT:-/run/roce-vm-slurm}   # the daemons' logs: the host reads them as they grow
slurm_conf() {
	local names=(a b c d e f g h) i=0 ip
	cat <<- EOF
		ClusterName=rocevm
		SlurmctldHost=node-a(${VM_IPS%% *})
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		CredType=cred/munge
		AuthInfo=socket=$SLURM_HOME/munge/socket
		StateSaveLocation=$SLURM_HOME/state
		SlurmdSpoolDir=$SLURM_HOME/spool
		SlurmctldPidFile=$SLURM_HOME/slurmctld.pid
		SlurmdPidFile=$SLURM_HOME/slurmd.pid
		SlurmctldLogFile=$SLURM_LOGS/slurmctld.log
		SlurmdLogFile=$SLURM_LOGS/slurmd.log
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		SwitchType=switch/none
		MpiDefault=none
		ReturnToService=2
		SchedulerType=sched/builtin
		SelectType=select/linear
		SlurmdTimeout=300
		InactiveLimit=0
		KillWait=5
		MailProg=/bin/true
	EOF
	for ip in $VM_IPS; do echo "NodeName=node-${names[i]} NodeAddr=$ip CPUs=1 State=UNKNOWN"; i=$((i + 1)); done
	echo "PartitionName=vm Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
}

# slurm_start [SECS]: every node calls it; it returns once node-a's controller sees every node idle (then srun
# works from node-a), or fails after SECS (default 180). The daemons' logs are in $VM_CASE_OUT.
slurm_start() {
	local secs=${1:-180} deadline k
	deadline=$(( $(uptime_s) + secs ))
	rm -rf "$SLURM_HOME"
	mkdir -m 700 "$SLURM_HOME" && mkdir -m 700 "$SLURM_HOME/munge" && mkdir "$SLURM_HOME/state" "$SLURM_HOME/spool" || return 1
	printf 'roce-vm test cluster munge key, not a secret %s\n' {1..20} > "$SLURM_HOME/munge/munge.key" &&
		chmod 400 "$SLURM_HOME/munge/munge.key" || return 1
	slurm_conf > "$SLURM_HOME/slurm.conf" || return 1
	# slurmd 22.05 will not start without a cgroup plugin, whatever ProctrackType says ("Unable to initialize
	# cgroup plugin"): cgroup v2 in the guest, and no systemd to ask for a scope (IgnoreSystemd).
	# It puts its slurmstepd scope under system.slice, which systemd would have made, with the controllers on.
	grep -qs ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup || return 1
	mkdir -p /sys/fs/cgroup/system.slice && echo '+cpuset +cpu +memory' > /sys/fs/cgroup/cgroup.subtree_control || return 1
	printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\nCgroupAutomount=yes\n' > "$SLURM_HOME/cgroup.conf" || return 1
	export SLURM_CONF=$SLURM_HOME/slurm.conf
	# --force: munged refuses root otherwise; here everything is root.
	munged -F --force --key-file="$SLURM_HOME/munge/munge.key" --socket="$SLURM_HOME/munge/socket" \
		--pid-file="$SLURM_HOME/munge/munged.pid" --seed-file="$SLURM_HOME/munge/seed" \
		--log-file="$SLURM_LOGS/munged.log" &
	retry 30 test -S "$SLURM_HOME/munge/socket" || return 1
	say "slurm: munged up"
	if [ "$VM_NODE" = a ]; then
		slurmctld -D -i > "$SLURM_LOGS/slurmctld.out" 2>&1 &
		wait_listen 6817 60 || return 1
		say "slurm: slurmctld listens"
	fi
	barrier slurmctld-up $((deadline - $(uptime_s))) || return 1
	slurmd -D -N "node-$VM_NODE" > "$SLURM_LOGS/slurmd.out" 2>&1 &
	if [ "$VM_NODE" = a ]; then
		until k=$(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle'); [ "$k" -eq "$VM_NODES" ]; do
			[ "$(uptime_s)" -lt "$deadline" ] || { say "slurm: $k of $VM_NODES nodes idle after ${secs}s"; sinfo -N >&2; return 1; }
			sleep 1
		done
		sinfo -N
	fi
	barrier slurm-up $((deadline - $(uptime_s) + 5))
}

slurm_logs() { # what else this node's Slurm knows, into $VM_CASE_OUT
	[ "$VM_NODE" != a ] || sinfo -N > "$VM_CASE_OUT/sinfo" 2>&1
	return 0
}
