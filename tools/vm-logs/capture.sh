# SPDX-License-Identifier: GPL-2.0-only
# Sourced inside the VM by the cases of tools/vm-logs (after tests/vm/guest/lib.sh): run one failing command
# per node and keep what it printed, as a person would paste it from a terminal.
#
#   cap NAME SECS 'CMD'      CMD under `timeout SECS`, line-buffered (stdbuf -oL -eL: stdout and stderr interleave
#                            as on a terminal), into $VM_CASE_OUT/NAME.txt: first line "$ CMD", then its stdout
#                            and stderr together; its exit status into NAME.rc (124: ended by the timeout)
#   step NAME 'B-CMD' 'A-CMD' [SECS]
#                            both nodes call it: B starts B-CMD (a server; '' for none) in the background and
#                            waits until TCP 18515 or 18516 listens or B-CMD ended (10 s at most); then A runs A-CMD
#                            ('' for none); both meet, and B's command gets 3 s more to end by itself before
#                            SIGTERM (through timeout, which passes it on). SECS bounds each command (default 30).

cap() { # NAME SECS CMD
	local name=$1 secs=$2 cmd=$3 rc=0
	# bash's own "Terminated" (a command ended by the timeout) goes to the node's stderr, not into the log
	printf '$ %s\n' "$cmd" > "$VM_CASE_OUT/$name.txt"
	timeout "$secs" stdbuf -oL -eL bash -c "$cmd" < /dev/null >> "$VM_CASE_OUT/$name.txt" 2>&1 || rc=$?
	echo "$rc" > "$VM_CASE_OUT/$name.rc"
	echo "$name rc=$rc"
}

listening() { ss -Hltn '( sport = :18515 or sport = :18516 )' 2>/dev/null | grep -q .; }

step() { # NAME B-CMD A-CMD [SECS]
	local name=$1 bcmd=$2 acmd=$3 secs=${4:-30} pid="" i
	barrier "$name-go" 90
	if [ "$VM_NODE" = b ]; then
		if [ -n "$bcmd" ]; then
			cap "$name.b" "$secs" "$bcmd" &
			pid=$!
			for i in $(seq 50); do listening && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		fi
		barrier "$name-up" 60
		barrier "$name-done" $((secs + 30))
		if [ -n "$pid" ]; then
			for i in $(seq 15); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
			pkill -TERM -P "$pid" timeout 2>/dev/null   # cap's own timeout, which passes SIGTERM on
			wait "$pid"
		fi
	else
		barrier "$name-up" 60
		[ -z "$acmd" ] || cap "$name.a" "$secs" "$acmd"
		barrier "$name-done" $((secs + 30))
	fi
}

versions() { # the versions that wrote the logs, into $VM_CASE_OUT/versions.txt
	{
		echo "perftest $(dpkg-query -W -f '${Version}' perftest)"
		echo "rdma-core $(dpkg-query -W -f '${Version}' ibverbs-providers)"
		echo "kernel $(uname -r)"
		echo "roce-doctor $("$ROCE_DOCTOR" --version 2>&1 | head -1)"
	} > "$VM_CASE_OUT/versions.txt"
}
