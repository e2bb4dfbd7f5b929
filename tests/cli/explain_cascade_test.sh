#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain on the real two-rank PyTorch jobs of tests/logs/gpu-2rank-cascade, in which rank 1
# dies during the job and rank 0 fails after it: the first failure is rank 1's, never rank 0's cascade
# (ncclRemoteError, "Connection closed by remote peer", a watchdog timeout), whether rank 1 raised an
# exception or was SIGKILLed without a word, read from torchrun's interleaved output, its --log-dir
# directory or one file per rank; and on those of tests/logs/gpu-2rank-warn, whose NCCL WARN and CUDA error
# no pattern was written for.
#   explain_cascade_test.sh ROCE_DOCTOR
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
logs=$src/tests/logs/gpu-2rank-cascade
. "$src/tests/lib/tap.sh"

py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
# first_is NAME ID INPUT...: the job's first failure is NAME's ID, and not an effect
first_is() {
	local name=$1 id=$2
	shift 2
	run --json explain "$@"
	py 'd["first_failure"] is not None and d["first_failure"]["name"] == "'"$name"'" and d["first_failure"]["id"] == "'"$id"'"
    and not d["first_failure"]["effect"]'
}

# --- rank 1 raised an exception: the exception, not rank 0's ncclRemoteError
first_is "vm rank 1" log.python.exception "$logs/raise-socket.log"
result "torchrun's interleaved output: rank 1's RuntimeError first, rank 0's ncclRemoteError after it" $?
first_is "vm rank 1" log.python.exception "$logs/raise-socket-r0.log" "$logs/raise-socket-r1.log"
result "one file per rank: rank 1's RuntimeError first (it has no time, rank 0's error has)" $?
first_is "vm rank 1" log.python.exception "$logs/raise-socket-ranks"
result "torchrun --log-dir's directory: rank 1's RuntimeError first" $?
run explain "$logs/raise-socket.log"
grep -q '^  the program raised RuntimeError (a failure of the training script on rank 1): a failure of the script itself' "$out"
result "text: the exception named as the script's own failure" $?

# --- rank 1 SIGKILLed (what the OOM killer does): it prints nothing
first_is "vm rank 1" log.job.rank_silent "$logs/kill-socket-r0.log" "$logs/kill-socket-r1.log"
result "one file per rank, over sockets: silent rank 1 first, rank 0's ncclRemoteError an effect" $?
first_is "vm rank 1" log.job.rank_silent "$logs/kill-nvlink-r0.log" "$logs/kill-nvlink-r1.log"
result "one file per rank, over NVLink: silent rank 1 first, rank 0's watchdog timeout an effect" $?
first_is "vm rank 1" log.job.rank_silent "$logs/kill-socket-ranks"
result "torchrun --log-dir's directory: silent rank 1 first" $?
run explain "$logs/kill-socket-r0.log" "$logs/kill-socket-r1.log"
sed -n 2p "$out" | grep -qx "first failure: vm rank 1 ($logs/kill-socket-r1.log line 46): log.job.rank_silent" &&
	grep -q "^        fix: dmesg -T | grep -i -E 'killed process|out of memory'    # on vm rank 1's node" "$out"
result "text: rank 1's last line, and the OOM killer's line to look for on its node" $?
first_is "vm rank 1" log.elastic.worker_killed "$logs/kill-socket.log"
result "torchrun's interleaved output: its 'exitcode: -9 ... (pid: 611)' line is the cause, of rank 1 (pid 611)" $?
first_is "vm rank 1" log.elastic.worker_killed "$logs/kill-nvlink.log"
result "the same over NVLink, where rank 0 printed nothing: rank 1 by its pid" $?

# --- not a silent rank: a job whose other rank has its cause in the log (rank 1 skipped a collective)
run --json explain "$src/tests/logs/gpu-2rank/torch-watchdog-skipped-collective.log"
py 'not [f for f in d["findings"] if f["id"] == "log.job.rank_silent"]'
result "a rank that skipped a collective is the cause, not a silent rank" $?
# rank 0 and a rank that is not the job's other one: not every rank given, so none is called silent
run --json explain "$src/tests/logs/job-2node/rank0.log" "$src/tests/logs/job-2node/rank3.log"
py 'not [f for f in d["findings"] if f["id"] == "log.job.rank_silent"] and d["first_failure"]["effect"]'
result "not every rank of the communicator given: no rank is called silent" $?
# rank 0 alone: nothing to compare it with
run --json explain "$logs/kill-socket-r0.log"
py 'not [f for f in d["findings"] if f["id"] == "log.job.rank_silent"] and d["first_failure"]["effect"]'
result "rank 0's log alone: its error is an effect, and no rank is called silent" $?

# --- NCCL's and CUDA's errors no pattern was written for (tests/logs/gpu-2rank-warn)
warn=$src/tests/logs/gpu-2rank-warn
first_is "vm rank 0" log.nccl.warn_unlisted "$warn/algo-unknown.log" &&
	py 'd["first_failure"]["explains"] == "log.torch.nccl_error" and [f for f in d["findings"]
    if f["id"] == "log.nccl.warn_unlisted" and "src/graph/tuning.cc" in f["message"] and "v2.24.3-1" in f["message"]
    and "nccl/blob/v2.30.7-1/src/graph/tuning.cc" in f["fix"]]'
result "NCCL_ALGO=NoSuchAlgo: NCCL's WARN named from the catalogue, the cause of ncclInvalidUsage" $?
first_is "rank 1" log.python.exception "$warn/oom-rank1.log" &&
	py '[f for f in d["findings"] if f["id"] == "log.python.exception" and "CUDA error: out of memory" in f["message"]]'
result "rank 1 out of GPU memory: its torch.AcceleratorError first, not torchrun's ChildFailedError" $?

tap_end
