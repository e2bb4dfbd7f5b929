#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor snapshot and --from: a command answers from a snapshot exactly as it did on the host (every
# fixture, every read-only command, check included), and a bad snapshot gets one line naming file, line and
# member.
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"

# One command's stdout, stderr and exit status, as one file to compare.
capture() {
	local dest=$1; shift
	"$BIN" "$@" >"$dest.out" 2>"$dest.err"
	echo "rc=$?" >>"$dest.out"
}

# Whether the two captures are the same; if not, the first lines that differ, as TAP comments.
same_answer() {
	cmp -s "$scratch/a.out" "$scratch/b.out" && cmp -s "$scratch/a.err" "$scratch/b.err" && return 0
	echo "# $1:"
	diff "$scratch/a.out" "$scratch/b.out" | head -6 | sed 's/^/#   /'
	diff "$scratch/a.err" "$scratch/b.err" | head -6 | sed 's/^/#   /'
	return 1
}

commands=("devices" "devices --brief" "gid" "gid --suggest" "gid --suggest --family ipv6" "nccl-env"
	"nccl-env --format json" "--json devices" "--json gid" "--json gid --suggest"
	"--json gid --suggest --family ipv6" "--json nccl-env"
	"check" "--json check" "check --only memlock" "check --family ipv6" "-v check" "--json -v check --only memlock")

for dir in "$FIXTURES"/*/; do
	f=${dir%/}; name=$(basename "$f")
	[ -d "$f/sys" ] || continue
	"$BIN" --root "$f" snapshot >"$scratch/$name.json" 2>"$err"; rc=$?
	: >"$out"
	[ "$rc" -eq 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["schema"]!="roce-doctor/snapshot/v1" or d["system"]["schema"]!="roce-doctor/system/v1")' "$scratch/$name.json"
	result "snapshot --root $name: one snapshot/v1 document" $?
	diffs=""
	for c in "${commands[@]}"; do
		read -ra words <<<"$c"
		capture "$scratch/a" --root "$f" "${words[@]}"
		capture "$scratch/b" --from "$scratch/$name.json" "${words[@]}"
		same_answer "$c" || diffs="$diffs [$c]"
	done
	[ -z "$diffs" ]
	result "$name: --from snapshot answers as --root for every command${diffs:+ (differs:$diffs)}" $?
done

# The machine the tests run on (no RDMA device here, or some): still the same answers, except that check's
# live-only probes say they were recorded (docs/snapshots.md: "check --from"): that wording is taken out to compare.
unrecord() {
	sed -i -e 's/recorded in the snapshot: //' \
		-e 's/sudo roce-doctor snapshot > FILE   # as root the snapshot records the ruleset/sudo roce-doctor check --only firewall/' "$@"
}
"$BIN" snapshot >"$scratch/live.json" 2>/dev/null
diffs=""
for c in "${commands[@]}"; do
	read -ra words <<<"$c"
	capture "$scratch/a" "${words[@]}"
	capture "$scratch/b" --from "$scratch/live.json" "${words[@]}"
	[[ $c == *check* ]] && unrecord "$scratch/b.out" "$scratch/b.err"
	same_answer "$c" || diffs="$diffs [$c]"
done
[ -z "$diffs" ]
result "live: --from snapshot answers as the live command${diffs:+ (differs:$diffs)}" $?

# --json-lines: the same document on one line, so a launcher's merged output is one snapshot per line.
snap=$scratch/cx6lx-2port.json
run --root "$FIXTURES/cx6lx-2port" snapshot --json-lines
[ "$rc" -eq 0 ] && [ "$(wc -l <"$out")" -eq 1 ] && json_ok roce-doctor/snapshot/v1 &&
	python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]));
a["identity"]["time"]=b["identity"]["time"]; sys.exit(a!=b)' "$out" "$snap"
result "snapshot --json-lines: the same document on one line" $?
run --root "$FIXTURES/softroce" snapshot
[ "$rc" -eq 0 ] && python3 -c 'import json,sys; i=json.load(open(sys.argv[1]))["identity"]
sys.exit(not (i["kernel_release"] is None and i["libibverbs_file"] is None and i["providers"] is None
 and i["devices"][0]["device"]=="rxe0" and i["devices"][0]["pci_address"] is None and i["time"].endswith("Z")))' "$out"
result "snapshot --root: live-only identity members are null, the tree's devices are listed" $?

# stdin, and -v saying the sources were asked when the snapshot was taken.
"$BIN" --root "$FIXTURES/cx6lx-2port" gid --suggest >"$scratch/a.out" 2>&1
"$BIN" gid --suggest --from - <"$snap" >"$scratch/b.out" 2>&1
cmp -s "$scratch/a.out" "$scratch/b.out"
result "--from - reads the snapshot from stdin" $?
expect "-v --from says the sources answered when the snapshot was taken" 0 "mlx5_0" -- -v --from "$snap" devices
grep -q "recorded in snapshot $snap (host unknown, 20[0-9-]*T[0-9:]*Z)" "$err"
result "-v --from: the recorded line names the file and the time" $?

# Bad input: one line naming the file (and line) and the member, exit 3, nothing on stdout.
bad "--from a missing file: exit 3" 3 "^roce-doctor: cannot read snapshot $scratch/none.json: No such file" -- \
	--from "$scratch/none.json" devices
echo 'not json' >"$scratch/text.json"
bad "--from text that is not JSON: the line and what it found" 3 "snapshot $scratch/text.json line 1: not a JSON document: expected '\\{', found 'not json'" -- \
	--from "$scratch/text.json" gid
head -c 2000 "$snap" >"$scratch/cut.json"
bad "--from a truncated snapshot" 3 "snapshot $scratch/cut.json line 1: truncated at the end of the input: line [0-9]+ column [0-9]+: .*end of (file|input)" -- \
	--from "$scratch/cut.json" nccl-env
sed 's|"roce-doctor/snapshot/v1"|"roce-doctor/snapshot/v2"|' "$snap" >"$scratch/v2.json"
bad "--from a newer version" 3 'schema: "roce-doctor/snapshot/v2" is newer than this roce-doctor reads' -- \
	--from "$scratch/v2.json" devices
sed 's|"roce-doctor/snapshot/v1"|"roce-doctor/devices/v1"|' "$snap" >"$scratch/other.json"
bad "--from another schema" 3 'schema: expected "roce-doctor/snapshot/v1", got "roce-doctor/devices/v1"' -- \
	--from "$scratch/other.json" devices
sed 's|"fw_ver": "26.36.1010"|"fw_ver": 26|' "$snap" >"$scratch/type.json"
bad "--from a member of the wrong type: its path" 3 "identity.devices\[0\].fw_ver: expected a string or null, got an integer" -- \
	--from "$scratch/type.json" gid --suggest
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["host"]["devices"][0]["ports"][0]["gids"]*=5000
json.dump(d, open(sys.argv[2], "w"))' "$snap" "$scratch/many.json"
bad "--from an oversized array" 3 "host.devices\[0\].ports\[0\].gids: expected an array of at most 4096 entries" -- \
	--from "$scratch/many.json" gid
"$BIN" --root "$FIXTURES/cx6lx-2port" snapshot --json-lines >"$scratch/stream.json"
"$BIN" --root "$FIXTURES/softroce" snapshot --json-lines >>"$scratch/stream.json"
bad "--from a --json-lines stream: compare it, or take one line" 3 "stream.json: 2 snapshots in it \\(lines 1, 2\\), and --from reads one: compare them with .roce-doctor compare .*stream.json., or take one out, the first with .sed -n 1p .*stream.json > node.json" -- \
	--from "$scratch/stream.json" devices
truncate -s 65M "$scratch/big.json"
bad "--from a file over 64 MiB" 3 "cannot read snapshot $scratch/big.json: larger than 64 MiB" -- --from "$scratch/big.json" devices
bad "--from with --root: exit 64" 64 "--from and --root exclude each other" -- --root "$FIXTURES/softroce" --from "$snap" gid
bad "--from with bw: exit 64" 64 "--from cannot be used with bw: it needs this host's live RDMA devices" -- --from "$snap" bw 10.0.0.2
bad "--from with serve: exit 64" 64 "--from cannot be used with serve" -- serve --from "$snap"
run --from "$scratch/live.json" -v check --only memlock.register
[ "$rc" -le 2 ] && grep -Eq "memlock.register .*recorded in the snapshot: " "$out" && [ ! -s "$err" ]
result "check --from a live snapshot: memlock.register says it was recorded" $?
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]=None; json.dump(d, open(sys.argv[2], "w"))' \
	"$snap" "$scratch/nosystem.json"
expect "devices --from a snapshot without the system sources (an older one): still read" 0 "mlx5_0" -- \
	--from "$scratch/nosystem.json" devices
bad "check --from a snapshot without the system sources: exit 3" 3 \
	"snapshot $scratch/nosystem.json was taken without the system sources check reads" -- --from "$scratch/nosystem.json" check
bad "check --from --user another user: exit 64" 64 \
	"--user nobody cannot be used with --from: the snapshot recorded the user root's view" -- --from "$snap" check --user nobody
capture "$scratch/a" --root "$FIXTURES/check-seed000" check --user root
capture "$scratch/b" --from "$scratch/check-seed000.json" check --user root
same_answer "check --user root"
result "check --from --user the recorded user: as --root --user" $?
sed 's|"roce-doctor/system/v1"|"roce-doctor/system/v9"|' "$snap" >"$scratch/sysv9.json"
bad "check --from a bad system member: its path" 3 'system.schema: "roce-doctor/system/v9" is newer' -- \
	--from "$scratch/sysv9.json" check
bad "--from with snapshot still refused: exit 64" 64 "a snapshot is taken of a host" -- snapshot --from "$snap"
bad "snapshot --from: exit 64" 64 "--from cannot be used with snapshot" -- --from "$snap" snapshot
bad "snapshot takes no argument: exit 64" 64 "unexpected argument 'mlx5_0'" -- snapshot mlx5_0
bad "--from '': exit 64" 64 "bad --from '': expected a snapshot file" -- --from '' devices

tap_end
