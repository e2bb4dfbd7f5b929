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
# Environment: VM_NODE (a|b), VM_SELF_IP, VM_PEER_IP, VM_DEV=rxe0, VM_NETDEV=eth0, VM_MTU, VM_SHARE.

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
	if [ "$VM_NODE" = a ]; then
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
	say "barrier '$name' timed out after ${secs}s waiting for node $( [ "$VM_NODE" = a ] && echo b || echo a)"
	return 1
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
