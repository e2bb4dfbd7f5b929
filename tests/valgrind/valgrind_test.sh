#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# devices, gid and check under valgrind on every fixture host, then snapshot and --from: no leak, no invalid access. TAP on stdout.
# usage: valgrind_test.sh ROCE_DOCTOR FIXTURES_DIR
set -u
BIN=$1 FIX=$2
if ! command -v valgrind >/dev/null; then echo "1..0 # SKIP valgrind not installed"; exit 0; fi
n=0 failed=0 log=$(mktemp)
# glibc's NSS modules stay loaded after a live user lookup (see the file); deep stacks so the frame is seen.
supp=(--num-callers=40 --suppressions="$(dirname "$0")/glibc-nss.supp")
trap 'rm -f "$log"' EXIT
shopt -s nullglob
fixtures=("$FIX"/*/)
if [ ${#fixtures[@]} -eq 0 ]; then echo "not ok 1 - no fixture hosts under $FIX"; echo "1..1"; exit 1; fi
# Every tree through the three commands that read all of it; the other renderings of the same model on the
# trees whose shapes differ most (a leak there is one of rendering, not of reading: half the suite's valgrind time)
for f in "${fixtures[@]}"; do
	f=${f%/}
	cmds=("devices" "gid --suggest" "check")
	case $(basename "$f") in
	cx6lx-2port | eight-hca | ipv6-only | malformed | softroce | ib-roce-mixed)
		cmds+=("devices --brief" "gid" "--json gid --suggest --family ipv6" "--json devices") ;;
	esac
	for cmd in "${cmds[@]}"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 "${supp[@]}" \
			--log-file="$log" "$BIN" --root "$f" $cmd >/dev/null 2>&1
		rc=$?
		# valgrind 3.19 does not know openat2 (437) and says so once; rootfs then falls back to openat.
		sed -i -E '/unhandled amd64-linux syscall: 437|write your own handler|README_MISSING_SYSCALL|consider this a bug|valgrind.org\/support/d' "$log"
		if [ "$rc" -ne 99 ] && [ ! -s "$log" ]; then
			echo "ok $n - $(basename "$f"): $cmd (exit $rc)"
		else
			failed=$((failed + 1))
			echo "not ok $n - $(basename "$f"): $cmd"
			sed 's/^/# /' "$log" | head -40
		fi
	done
done
# snapshot, and --from it (a good one, a cut one, a newer one; check too): the snapshot reader under valgrind.
snap=$(mktemp) cut=$(mktemp)
trap 'rm -f "$log" "$snap" "$cut"' EXIT
"$BIN" --root "$FIX/cx6lx-2port" snapshot >"$snap" 2>/dev/null
head -c 3000 "$snap" >"$cut"
# check --peer and nccl-env --peer on a peer from files: the same host as both nodes, every probe answered
peer=$(mktemp -d) && cp "$snap" "$peer/snapshot.json" && trap 'rm -rf "$log" "$snap" "$cut" "$peer"' EXIT
printf '%s\n' '{"rails": [{"a": "mlx5_0/1", "b": "mlx5_0/1", "rdma": {"outcome": "timeout", "detail": "x"}},' \
	'{"a": "mlx5_1/1", "b": "mlx5_1/1", "rdma": {"outcome": "ok", "path_mtu": 4096}, "bw": {"gbps": 20.0}}],' \
	'"tcp": [{"purpose": "ephemeral", "port": 40000, "outcome": "not_arrived"}]}' >"$peer/probes.json"
for cmd in "snapshot" "--root $FIX/softroce snapshot --json-lines" "--from $snap devices" "--from $snap gid --suggest" \
	"--from $snap --json nccl-env" "--from $snap check" "--from $cut gid" "--from $FIX devices" \
	"compare $snap $snap" "--json compare -v $snap $snap $snap" "compare $snap $cut" "compare $FIX" \
	"--from $snap check --peer x --peer-fixture $peer -v" "--root $FIX/cx6lx-2port --json check --peer x --peer-fixture $peer" \
	"--from $snap nccl-env --peer x --peer-fixture $peer" "--from $snap check --peer x --peer-fixture $FIX" \
	"nccl" "--root $FIX/nccl-libs nccl" "--root $FIX/nccl-bad --json nccl" "--from $snap nccl --nccl-version 2.18" \
	"explain $FIX/../logs/from-source/nccl-2.18-retry-exceeded.log" "explain --list" "explain $BIN" \
	"--json explain $FIX/../logs/h100-nccl-2.28.9/torch-master-unresolvable.log" \
	"--root $FIX/check-fresh explain --with-check $FIX/../logs/from-source/nccl-2.21-reg-mr-enomem.log"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 "${supp[@]}" \
		--log-file="$log" "$BIN" $cmd >/dev/null 2>&1
	rc=$?
	sed -i -E '/unhandled amd64-linux syscall: 437|write your own handler|README_MISSING_SYSCALL|consider this a bug|valgrind.org\/support/d' "$log"
	if [ "$rc" -ne 99 ] && [ ! -s "$log" ]; then
		echo "ok $n - $cmd (exit $rc)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $cmd"
		sed 's/^/# /' "$log" | head -40
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
