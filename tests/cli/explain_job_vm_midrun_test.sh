#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain on the real two-rank MPI job of tests/logs/job-vm-pair-midrun (Open MPI's ofi MTL over
# libfabric's verbs provider on the VM pair's rail 1, node-b's eth1 taken down after five steps): mpirun's
# interleaved output, its output beside --output-filename, the per-rank directory and the whole directory
# each name rank 1 first (node-b where a line names the host) with libfabric's failed completion as the
# cause; rank 0's earlier "Connection refused" is rxm's handled connection collision, not a failure, and
# Open MPI's "An error occurred in MPI_Allreduce" is an effect.
#   explain_job_vm_midrun_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
job=$src/tests/logs/job-vm-pair-midrun
. "$src/tests/lib/tap.sh"

first() { sed -n 2p "$out" | grep -qx -- "$1"; }
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
cause='log.ofi.completion_error'

# --- mpirun --tag-output --timestamp-output, as pasted
run explain "$job/mpirun-tagged.log"
[ "$rc" -eq 2 ] && sed -n 1p "$out" | grep -qx "explain $job/mpirun-tagged.log: fail (2 problems, 2 ranks)" &&
	first "first failure: node-b rank 1 ($job/mpirun-tagged.log line 16, Nov 28 13:14:38): $cause"
result "mpirun's interleaved output: node-b rank 1 first, at mpirun's timestamp, libfabric's failed completion" $?
grep -q '^  > fi_cq_readerr: err: Input/output error (5), prov_err: local QP operation error (2)$' "$out" &&
	grep -qF 'status 2, IBV_WC_LOC_QP_OP_ERR ("local QP operation error")' "$out" &&
	grep -qF 'fix: rdma link show    # on this rank'"'"'s host: is the port of the job'"'"'s device' "$out"
result "the cause: the verbs status decoded, and the command to run on that host" $?
run --json explain "$job/mpirun-tagged.log"
py 'd["first_failure"]["host"] == "node-b" and d["first_failure"]["rank"] == 1 and d["first_failure"]["pid"] == 314
    and not d["first_failure"]["effect"]
    and [(r["host"], r["rank"], r["first_failure"] and r["first_failure"]["id"]) for r in d["ranks"]]
        == [(None, 0, None), ("node-b", 1, "'$cause'")]
    and [f["lines"] for f in d["findings"] if f["id"] == "log.ompi.mpi_error"] == [[17]]'
result "JSON: rank 0's libfabric line (a handled connection collision) is no failure; libfabric's pid 314 joins [node-b:00314]" $?

# --- mpirun's own output beside --output-filename: untagged, the host from Open MPI's [node-b:00464]
run --json explain "$job/mpirun-output-filename.log"
py 'd["first_failure"]["host"] == "node-b" and d["first_failure"]["pid"] == 464 and d["first_failure"]["id"] == "'$cause'"
    and d["first_failure"]["line"] == 18 and d["first_failure"]["time"] == "2026-11-28 13:15:08"'
result "untagged mpirun output: node-b pid 464 first, libfabric's line and Open MPI's joined by the pid, libfabric's time" $?

# --- mpirun --output-filename's directory: no line there names a host
run explain "$job/ranks"
[ "$rc" -eq 2 ] && sed -n 1p "$out" | grep -qx "explain $job/ranks: fail (1 problem, 2 ranks)" &&
	first "first failure: rank 1 ($job/ranks/1/rank.1/stderr line 1, 2026-11-28 13:15:08): $cause"
result "explain DIR: rank.1's stderr first, rank 0's connection collision not a problem" $?

# --- the whole directory: both runs, the host from mpirun's outputs
run explain "$job"
[ "$rc" -eq 2 ] && first "first failure: node-b rank 1 ($job/mpirun-tagged.log line 16, Nov 28 13:14:38): $cause"
result "explain on the whole directory: node-b rank 1 first" $?

# --- an effect is not the cause: rank 0 on node-a reports an MPI error first, by time
{ sed -n '17s/^\[node-b:00314\]/Sat Nov 28 13:14:30 2026[1,0]<stderr>:[node-a:00279]/p' "$job/mpirun-tagged.log"
  cat "$job/mpirun-tagged.log"; } > "$scratch/effect-first.log"
run explain "$scratch/effect-first.log"
[ "$rc" -eq 2 ] && first "first failure: node-b rank 1 ($scratch/effect-first.log line 17, Nov 28 13:14:38): $cause" &&
	grep -qx '        ranks: node-a rank 0, node-b rank 1' "$out"
result "node-a's earlier 'An error occurred in MPI_Allreduce' is an effect: node-b's failed completion is still first" $?

tap_end
