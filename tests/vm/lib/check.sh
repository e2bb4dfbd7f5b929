# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Host-side assertions for a case's check() function. Each assert prints "# ..." and records a failure
# instead of stopping, so one run shows every problem of a case. The case fails if any assert failed or
# check() returned non-zero; `skip REASON` marks it skipped.
#
# Set by run-cases before check() runs (in a subshell, one per case):
#   CASE_DIR_A, CASE_DIR_B   the nodes' result directories (stdout, stderr, rc, setup.log, restore.log, and
#                            any file the node wrote to $VM_CASE_OUT); a case with NODES=N > 2 has more,
#                            CASE_BOOT_DIR/NODE/cases/CASE_NUM (case_dir NODE finds them)
#   CASE_NODES               the boot's nodes: "a b", or "a b c d" for NODES=4
#   DIED                     a or b if that node's VM died or hung during the case, else empty
#   DEATH                    the runner's message about it
#   DEATH_LATENCY            seconds from the harness killing a node (KILL=) to the runner noticing
#   CASE_SECONDS             host wall time of the case so far

CHECK_FAILS=0
CHECK_SKIP=""

note() { echo "# $*"; }
fail() { echo "# FAIL: $*"; CHECK_FAILS=$((CHECK_FAILS + 1)); return 1; }
skip() { CHECK_SKIP=${1:-skipped}; return 0; }
case_dir() {
	case $1 in
	a) echo "$CASE_DIR_A" ;;
	b) echo "$CASE_DIR_B" ;;
	[c-h]) if [[ " ${CASE_NODES:-a b} " == *" $1 "* ]]; then echo "$CASE_BOOT_DIR/$1/cases/$CASE_NUM"; else echo "/nonexistent-node-$1"; fi ;;
	*) echo "/nonexistent-node-$1" ;;
	esac
}
out() { echo "$(case_dir "$1")/stdout"; }
err() { echo "$(case_dir "$1")/stderr"; }
file() { echo "$(case_dir "$1")/$2"; }
rc() { cat "$(case_dir "$1")/rc" 2>/dev/null || echo none; }
# value NODE KEY: the first KEY=VALUE line of the node's stdout, VALUE only.
value() { sed -n "s/^$2=//p" "$(out "$1")" 2>/dev/null | head -1; }

assert_rc() { # NODE WANT
	local got; got=$(rc "$1")
	[ "$got" = "$2" ] || fail "node $1 exited $got, expected $2"
}
assert_out() { # NODE ERE [WHAT]
	grep -Eq -- "$2" "$(out "$1")" 2>/dev/null || fail "node $1 stdout has no line matching /$2/${3:+ ($3)}"
}
assert_err() { # NODE ERE [WHAT]
	grep -Eq -- "$2" "$(err "$1")" 2>/dev/null || fail "node $1 stderr has no line matching /$2/${3:+ ($3)}"
}
refute_out() { # NODE ERE [WHAT]
	! grep -Eq -- "$2" "$(out "$1")" 2>/dev/null || fail "node $1 stdout matches /$2/${3:+ ($3)}"
}
# assert_json FILE [SCHEMA]: FILE parses as JSON (python3 -m json.tool) and its "schema" is SCHEMA.
assert_json() {
	local f=$1 schema=${2:-}
	python3 -m json.tool "$f" >/dev/null 2>&1 || { fail "$(basename "$f") of ${f%/*} is not valid JSON"; return 1; }
	[ -z "$schema" ] && return 0
	local got
	got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("schema"))' "$f" 2>/dev/null)
	[ "$got" = "$schema" ] || fail "$(basename "$f"): schema is '$got', expected '$schema'"
}
# assert_died NODE MAXSECS: the runner saw NODE die, said so naming it, within MAXSECS of the kill.
assert_died() {
	[ "$DIED" = "$1" ] || { fail "expected node $1 to die, runner says died='$DIED'"; return 1; }
	[[ $DEATH == *"node $1"* ]] || fail "the runner's message does not name node $1: $DEATH"
	awk -v l="${DEATH_LATENCY:-999}" -v m="$2" 'BEGIN { exit !(l <= m) }' \
		|| fail "noticed ${DEATH_LATENCY:-never} s after the kill, limit $2 s"
}
assert_within() { # SECS: the case took at most SECS of host wall time
	awk -v l="$CASE_SECONDS" -v m="$1" 'BEGIN { exit !(l <= m) }' || fail "case took ${CASE_SECONDS}s, limit ${1}s"
}
assert_no_qemu() {
	local left; left=$(vm_leftovers | tr '\n' ' ')
	[ -z "$left" ] || fail "qemu processes of this run still alive: $left"
}

# The check of a case that defines none: every node exited 0.
default_check() { local n; for n in ${CASE_NODES:-a b}; do assert_rc "$n" 0; done; }
