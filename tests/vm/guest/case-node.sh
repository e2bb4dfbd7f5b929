#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One node's part of one case, started by runner.sh under `timeout` (its own process group, killed whole
# afterwards). Order: memlock and setup_<node> from the case, the "ready" barrier (so neither node starts
# before both are set up), then node_<node>. Its exit status is the node's rc for the case:
#   125 setup failed · 123 the peer never reached "ready" · 124 (from timeout) the case ran out of time.
# No set -u: case code is free to test unset variables.
k=$1 name=$2 t=$3 decl_rc=$4
# shellcheck source=lib.sh
. "$VM_HOME/lib.sh"
export VM_CASE=$k VM_BARRIER_SEQ=0 VM_CASE_OUT ROCE_DOCTOR VM_REPO
# shellcheck source=/dev/null
. "$VM_HOME/cases/$name.case"
cd "$VM_REPO" 2>/dev/null || cd /
# Per rail (index i: eth$i, rxe$i), space-separated: this node's addresses and the peer's, in the case's plan.
if [ "$VM_RAILS" = 2 ]; then
	plan_vars "${PLAN:-one-subnet}"
	export VM_DEVS="rxe0 rxe1" VM_NETDEVS="eth0 eth1"
else
	# shellcheck disable=SC2153  # VM_SELF_IP comes from the node's env file
	export VM_SELF_IPS=$VM_SELF_IP VM_PEER_IPS=$VM_PEER_IP VM_DEVS=rxe0 VM_NETDEVS=eth0
fi

setup_rc=$decl_rc
[ "$decl_rc" -eq 0 ] || say "declared setup (MTU/ADDRS/NFT) failed; see setup.log"
v=MEMLOCK_${VM_NODE^^}
memlock=${!v:-${MEMLOCK:-}}
if [ -n "$memlock" ]; then
	ulimit -l "$memlock" || { say "ulimit -l $memlock failed"; setup_rc=125; }
fi
if declare -F "setup_$VM_NODE" >/dev/null; then
	"setup_$VM_NODE" || { rc=$?; say "setup_$VM_NODE failed with $rc"; setup_rc=125; }
fi
# Meet the peer even when setup failed, so it is not left waiting out its timeout.
barrier ready "$t" || exit 123
[ "$setup_rc" -eq 0 ] || exit 125
declare -F "node_$VM_NODE" >/dev/null || exit 0
"node_$VM_NODE"
