#!/bin/bash
# roce-doctor snapshot and --from: a command answers from a snapshot exactly as it did on the host (every
# fixture, every read-only command but check), and a bad snapshot gets one line naming file, line and member.
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

# One command's stdout, stderr and exit status, as one file to compare.
capture() {
	local dest=$1; shift
	"$BIN" "$@" >"$dest.out" 2>"$dest.err"
	echo "rc=$?" >>"$dest.out"
}

commands=("devices" "devices --brief" "gid" "gid --suggest" "gid --suggest --family ipv6" "nccl-env"
	"nccl-env --format json" "--json devices" "--json gid" "--json gid --suggest"
	"--json gid --suggest --family ipv6" "--json nccl-env")

for dir in "$FIXTURES"/*/; do
	f=${dir%/}; name=$(basename "$f")
	[ -d "$f/sys" ] || continue
	"$BIN" --root "$f" snapshot >"$scratch/$name.json" 2>"$err"; rc=$?
	: >"$out"
	[ "$rc" -eq 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["schema"]!="roce-doctor/snapshot/v1" or d["system"] is not None)' "$scratch/$name.json"
	result "snapshot --root $name: one snapshot/v1 document" $?
	diffs=""
	for c in "${commands[@]}"; do
		read -ra words <<<"$c"
		capture "$scratch/a" --root "$f" "${words[@]}"
		capture "$scratch/b" --from "$scratch/$name.json" "${words[@]}"
		cmp -s "$scratch/a.out" "$scratch/b.out" && cmp -s "$scratch/a.err" "$scratch/b.err" || diffs="$diffs [$c]"
	done
	[ -z "$diffs" ]
	result "$name: --from snapshot answers as --root for every command${diffs:+ (differs:$diffs)}" $?
done

# The machine the tests run on (no RDMA device here, or some): still the same answers.
"$BIN" snapshot >"$scratch/live.json" 2>/dev/null
diffs=""
for c in "${commands[@]}"; do
	read -ra words <<<"$c"
	capture "$scratch/a" "${words[@]}"
	capture "$scratch/b" --from "$scratch/live.json" "${words[@]}"
	cmp -s "$scratch/a.out" "$scratch/b.out" && cmp -s "$scratch/a.err" "$scratch/b.err" || diffs="$diffs [$c]"
done
[ -z "$diffs" ]
result "live: --from snapshot answers as the live command${diffs:+ (differs:$diffs)}" $?

tap_end
