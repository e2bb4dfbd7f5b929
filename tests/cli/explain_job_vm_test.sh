#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain on the real two-rank MPI job of tests/logs/job-vm-pair (Open MPI + UCX across the VM
# pair, node-b's rxe0 gone): the per-rank directory mpirun --output-filename wrote, its files, and mpirun's
# interleaved output each name node-b rank 1 first, with UCX's missing rxe0:1 as the cause; the ranks'
# "no transport to the peer" lines are effects, not the cause.
#   explain_job_vm_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
job=$src/tests/logs/job-vm-pair
. "$src/tests/lib/tap.sh"

first() { sed -n 2p "$out" | grep -qx -- "$1"; }
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
cause='log.ucx.device_unavailable'

# --- mpirun --output-filename's directory: DIR/1/rank.N/{stdout,stderr}, rank 0's both empty
run explain "$job/ranks"
[ "$rc" -eq 2 ] && sed -n 1p "$out" | grep -qx "explain $job/ranks: fail (3 problems, 2 ranks)" &&
	first "first failure: node-b rank 1 ($job/ranks/1/rank.1/stdout line 1, 2026-11-28 10:27:13.367814): $cause, HCA rxe0:1" &&
	[ "$(grep -c 'is empty: skipped' "$err")" -eq 2 ]
result "explain DIR: its subdirectories read, rank.N names the rank, node-b rank 1 first with its own file" $?
grep -q "^  > ucp_context.c:1014 UCX  WARN  network device 'rxe0:1' is not available" "$out" &&
	grep -q '^  UCX_NET_DEVICES names rxe0:1, which UCX does not find on this host' "$out" &&
	grep -q '^        fix: rdma link show    # on this host: is rxe0 listed' "$out"
result "the cause: UCX_NET_DEVICES' rxe0:1 missing on that host, and the command to run there" $?

run explain "$job"/ranks/1/rank.0/stdout "$job"/ranks/1/rank.0/stderr "$job"/ranks/1/rank.1/stdout \
	"$job"/ranks/1/rank.1/stderr
[ "$rc" -eq 2 ] && first "first failure: node-b rank 1 ($job/ranks/1/rank.1/stdout line 1, 2026-11-28 10:27:13.367814): $cause, HCA rxe0:1"
result "the per-rank files given one by one: the same first failure" $?

run --json explain "$job/ranks"
py 'd["first_failure"]["host"] == "node-b" and d["first_failure"]["rank"] == 1 and d["first_failure"]["id"] == "'$cause'"
    and not d["first_failure"]["effect"]
    and [(r["host"], r["rank"], r["lines"], r["first_failure"] and r["first_failure"]["id"]) for r in d["ranks"]]
        == [(None, 0, 0, None), ("node-b", 1, 6, "'$cause'")]
    and [r["name"] for f in d["findings"] if f["id"] == "log.ucx.unreachable" for r in f["ranks"]] == ["node-b rank 1"]'
result "JSON: rank 0 is in the job with no lines, rank 1's first failure is the cause; the unreachable lines are its own" $?

# --- mpirun --tag-output --timestamp-output, as pasted
run explain "$job/mpirun-tagged.log"
[ "$rc" -eq 2 ] && sed -n 1p "$out" | grep -qx "explain $job/mpirun-tagged.log: fail (4 problems, 2 ranks)" &&
	first "first failure: node-b rank 1 ($job/mpirun-tagged.log line 1, Nov 28 10:26:43): $cause, HCA rxe0:1"
result "mpirun's interleaved output: two ranks, node-b rank 1 first, at mpirun's timestamp, the HCA it lacks" $?
run --json explain "$job/mpirun-tagged.log"
py '[(r["host"], r["rank"]) for r in d["ranks"]] == [("node-b", 1), (None, 0)] and d["ranks"][1]["first_failure"] is None
    and d["first_failure"]["pid"] == 303 and [f["lines"] for f in d["findings"] if f["id"] == "log.ucx.unreachable"] == [[5, 6]]'
result "JSON: rank 0 (its lines name no host) said nothing wrong; UCX's and Open MPI's [node-b:303] lines are rank 1's" $?

# --- mpirun's own output beside --output-filename: untagged, the host from UCX's and Open MPI's prefixes
run --json explain "$job/mpirun-output-filename.log"
py 'd["first_failure"]["host"] == "node-b" and d["first_failure"]["pid"] == 396 and d["first_failure"]["id"] == "'$cause'"
    and len(d["ranks"]) == 1'
result "untagged mpirun output: node-b (pid 396) first, by UCX's [node-b:396  :0] prefix" $?

# --- an effect is not the cause: rank 0 on node-a reports the unreachable peer first, by time
{ sed -n '6s/^Sat Nov 28 10:26:44 2026\[1,1\]<stderr>:\[node-b:00303\]/Sat Nov 28 10:26:40 2026[1,0]<stderr>:[node-a:00291]/p' \
	"$job/mpirun-tagged.log"; cat "$job/mpirun-tagged.log"; } > "$scratch/effect-first.log"
run explain "$scratch/effect-first.log"
[ "$rc" -eq 2 ] && first "first failure: node-b rank 1 ($scratch/effect-first.log line 2, Nov 28 10:26:43): $cause, HCA rxe0:1" &&
	grep -qx '        ranks: node-a rank 0, node-b rank 1' "$out"
result "node-a's earlier 'ucp_ep_create failed' is an effect: node-b's missing device is still first" $?

# --- every file of a job empty: nothing to explain
: > "$scratch/r0.log"
: > "$scratch/r1.log"
run explain "$scratch/r0.log" "$scratch/r1.log"
[ "$rc" -eq 3 ] && [ ! -s "$out" ] && grep -q 'every file given is empty: no log to explain' "$err"
result "several files, every one empty: exit 3, one line" $?

tap_end
