#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/capture-host: a host captured into a tree replays through --root exactly as the host itself does.
# Each fixture stands in for a host (captured with --from); the live /sys shows that pseudo-files (which
# claim a size of 4096 or 0) are captured by content.
# usage: capture_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
CAPTURE=$(cd "$(dirname "$0")/../.." && pwd)/tools/capture-host

# cap ARGS...: runs capture-host, its stdout in $out, stderr in $err, status in $rc
cap() { "$CAPTURE" "$@" >"$out" 2>"$err"; rc=$?; }

# ---- bad input: one line on stderr, exit 64, nothing on stdout ----
for args in "" "--bogus $scratch/x" "$scratch/x $scratch/y" "--from"; do
	# shellcheck disable=SC2086  # the words are the arguments
	cap $args
	[ "$rc" -eq 64 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ]; result "capture-host ${args:-(no argument)}: usage error, exit 64" $?
done
mkdir -p "$scratch/full" && touch "$scratch/full/x"
cap "$scratch/full"
[ "$rc" -eq 64 ] && grep -q 'not empty' "$err"; result "refuses a directory that is not empty" $?
cap --from "$scratch/none" "$scratch/y"
[ "$rc" -eq 3 ] && grep -q 'not a directory' "$err" && [ ! -e "$scratch/y" ]; result "a missing --from root: exit 3, nothing written" $?

# same_replay NAME TREE CAPTURED: every command's text, JSON and exit status agree (paths aside)
same_replay() {
	local name=$1 tree=$2 captured=$3 c a b st=0
	for c in "devices" "gid" "gid --suggest" "check" "nccl-env" "--json check" "--json devices"; do
		# shellcheck disable=SC2086
		a=$("$BIN" --root "$tree" $c 2>&1; echo "rc=$?")
		# shellcheck disable=SC2086
		b=$("$BIN" --root "$captured" $c 2>&1; echo "rc=$?")
		if [ "$a" != "${b//$captured/$tree}" ]; then
			echo "# $name: '$c' differs:"; diff <(echo "$a") <(echo "${b//$captured/$tree}") | head -8 | sed 's/^/#   /'
			st=1
		fi
	done
	return $st
}

for f in cx6lx-2port softroce malformed check-seed000 check-fresh; do
	cp -a "$FIX/$f" "$scratch/host-$f"   # the host: a plain copy, with the fixture's links
	cap --from "$scratch/host-$f" "$scratch/cap-$f"
	[ "$rc" -eq 0 ] && [ ! -s "$out" ]; result "$f: captured" $?
	same_replay "$f" "$scratch/host-$f" "$scratch/cap-$f"; result "$f: the capture replays as the host" $?
done
# the links stay links, with their target text: the class entries resolve into sys/devices as on the host
[ "$(readlink "$scratch/cap-cx6lx-2port/sys/class/infiniband/mlx5_0")" = "$(readlink "$FIX/cx6lx-2port/sys/class/infiniband/mlx5_0")" ] &&
	[ -L "$scratch/cap-cx6lx-2port/sys/class/infiniband/mlx5_0/device" ]; result "symlinks captured as symlinks" $?

cap --from "$scratch/host-check-seed000" "$scratch/seed.tar.gz"
mkdir "$scratch/untar" && tar -C "$scratch/untar" -xzf "$scratch/seed.tar.gz" &&
	same_replay tarball "$scratch/host-check-seed000" "$scratch/untar"; result "OUT.tar.gz: a tarball that replays as the host" $?

# environment: only HOME and NCCL_* reach the tree
cp -a "$FIX/check-env" "$scratch/host-env"
printf 'HOME=/root\0SECRET_TOKEN=x\0NCCL_IB_HCA=mlx5_0\0' > "$scratch/host-env/proc/self/environ"
cap --from "$scratch/host-env" "$scratch/cap-env"
[ "$(tr '\0' ' ' < "$scratch/cap-env/proc/self/environ")" = "HOME=/root NCCL_IB_HCA=mlx5_0 " ]; result "environ: only HOME and NCCL_* kept" $?

# ---- the live host: sysfs and procfs files captured by content, not by their claimed size ----
if [ -r /sys/class/net/lo/mtu ] && [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
	cap "$scratch/live"
	[ "$rc" -eq 0 ] && [ -s "$scratch/live/sys/class/net/lo/mtu" ] &&
		[ "$(cat "$scratch/live/sys/class/net/lo/mtu")" = "$(cat /sys/class/net/lo/mtu)" ] &&
		[ "$(cat "$scratch/live/proc/sys/net/ipv4/ip_local_port_range")" = "$(cat /proc/sys/net/ipv4/ip_local_port_range)" ] &&
		[ -L "$scratch/live/sys/class/net/lo" ]; result "live host: sysfs and procfs contents captured" $?
	run --root "$scratch/live" devices --brief
	live=$("$BIN" devices --brief 2>&1; echo "rc=$?")
	[ "$(cat "$out" "$err"; echo "rc=$rc")" = "$live" ]; result "live host: devices --brief replays as on the host" $?
else
	echo "ok $((n + 1)) - live host capture # SKIP no /sys/class/net/lo or /proc/sys here"; n=$((n + 1))
fi
tap_end
