#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain on a job's logs (tests/logs/job-2node: four ranks on two nodes, node-b's interface
# missing): per-rank files, a directory, one srun/mpirun interleaved output; the first failure names node-b's
# rank first, an effect on another rank is not the cause, facts that differ between ranks are a finding, and
# the ranks kept are bounded. The real two-rank logs of tests/logs/gpu-2rank read together.
#   explain_job_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
job=$src/tests/logs/job-2node
two=$src/tests/logs/gpu-2rank
. "$src/tests/lib/tap.sh"

# first LINE-PATTERN: the text's second line (after the verdict) is the first failure, as grep -x
first() { sed -n 2p "$out" | grep -qx -- "$1"; }
# jq-like checks in python on the JSON in $out: py EXPR (d is the document)
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }

# --- per-rank files (as a shell glob gives them), a directory, one srun --label output
run explain "$job"/rank0.log "$job"/rank1.log "$job"/rank2.log "$job"/rank3.log
[ "$rc" -eq 2 ] && grep -qx 'explain 4 files: fail (6 problems, 4 ranks)' "$out" &&
	first "first failure: node-b rank 2 ($job/rank2.log line 4, 2026-11-24 21:26:00): log.nccl.bootstrap_no_interface"
result "per-rank files: node-b rank 2 failed first, with its file, line and time" $?
grep -q '^  > Bootstrap : no socket interface found$' "$out" &&
	grep -qx '        ranks: node-a rank 0, node-a rank 1, node-b rank 3' "$out" &&
	grep -qx '        ranks: node-b rank 2' "$out"
result "text: the first failure's line, and each problem's ranks" $?
grep -qx '  warn  log.job.ranks_differ  lines 4,3' "$out" &&
	grep -qx '        > NCCL version 2.28.9 on node-a rank 0, 2.28.3 on node-b rank 3' "$out"
result "a NCCL version that differs between ranks is a finding naming both" $?

mkdir "$scratch/job"
cp "$job"/rank[013].log "$scratch/job/" && gzip -c "$job/rank2.log" > "$scratch/job/rank2.log.gz"
run explain "$scratch/job"
[ "$rc" -eq 2 ] && first "first failure: node-b rank 2 ($scratch/job/rank2.log.gz line 4, 2026-11-24 21:26:00): log.nccl.bootstrap_no_interface"
result "a directory, one of its files gzip-compressed: the same first failure" $?

run explain "$job/srun-label.log"
[ "$rc" -eq 2 ] && grep -q '(6 problems, 4 ranks)$' "$out" &&
	first "first failure: node-b rank 2 ($job/srun-label.log line 13, 2026-11-24 21:26:00): log.nccl.bootstrap_no_interface"
result "one interleaved srun --label output: four ranks, node-b rank 2 first" $?

run --json explain "$job/srun-label.log"
py 'd["first_failure"]["host"] == "node-b" and d["first_failure"]["rank"] == 2 and d["first_failure"]["line"] == 13
    and [(r["host"], r["rank"]) for r in d["ranks"]] == [("node-a", 0), ("node-a", 1), ("node-b", 2), ("node-b", 3)]
    and d["ranks"][0]["first_failure"]["id"] == "log.torch.collective_timeout" and d["ranks"][0]["first_failure"]["effect"]
    and [r["name"] for f in d["findings"] if f["id"] == "log.nccl.bootstrap_no_interface" for r in f["ranks"]] == ["node-b rank 2"]
    and d["ranks_cut_lines"] == 0 and d["schema"] == "roce-doctor/explain/v1"'
result "JSON: first_failure, ranks with host, rank and their own first failure, per-finding ranks" $?

# mpirun's [jobid,rank] and pdsh's host labels, one output
{ sed 's/^/[1,0]<stdout>:/' "$job/rank0.log"; sed 's/^/[1,2]<stderr>:/' "$job/rank2.log"; } > "$scratch/mpirun.log"
run explain "$scratch/mpirun.log"
[ "$rc" -eq 2 ] && first "first failure: node-b rank 2 ($scratch/mpirun.log line 126, 2026-11-24 21:26:00): log.nccl.bootstrap_no_interface"
result "mpirun [1,N]<stderr>: prefixes: rank 2 on node-b" $?
{ sed 's/^/gpu-b7: /' "$job/rank2.log" | grep -v '^gpu-b7: $'; } > "$scratch/pdsh.log"
run --json explain "$scratch/pdsh.log"
py 'd["first_failure"]["host"] == "gpu-b7" and d["first_failure"]["rank"] == 2 and len(d["ranks"]) == 1 and
    d["first_failure"]["id"] == "log.nccl.bootstrap_no_interface"'
result "pdsh's host: label names the host (the outermost prefix), [rank2]: the rank: one rank" $?

# --- the cascade: an effect is not the cause
# (not rank 1's log beside it: rank 0's lines, taken from a two-rank job, say "rank 0 of 2", so rank 1, which
# printed no error, would be all the job's other ranks and the suspect: explain_cascade_test.sh)
run explain "$job/rank0.log" "$job/rank3.log"
[ "$rc" -eq 2 ] && first "first failure: node-a rank 0 ($job/rank0.log line 82, 1128 03:20:52.672341615): log.torch.collective_timeout" &&
	grep -q '^  cause: not in these logs: log.torch.collective_timeout follows another rank.s failure' "$out"
result "ranks 0 and 3 of four: rank 0's watchdog timeout is an effect, the failing rank's log said to be missing" $?

# --- by time: the same cause on two ranks, the earlier first whatever the order given
sed 's/21:26:00/21:25:00/; s/node-b:/node-c:/' "$job/rank2.log" > "$scratch/node-c-rank5.log"
run explain "$job/rank2.log" "$scratch/node-c-rank5.log"
[ "$rc" -eq 2 ] && first "first failure: node-c rank 5 ($scratch/node-c-rank5.log line 4, 2026-11-24 21:25:00): log.nccl.bootstrap_no_interface"
result "two ranks with the same cause: the earlier by time, given second" $?

# --- the real two-rank logs: rank 1 skipped the collective rank 0 timed out in
run explain "$two/torch-skip-r0.log" "$two/torch-skip-r1.log"
[ "$rc" -eq 2 ] && first "first failure: vm rank 1 ($two/torch-skip-r1.log line 58): log.torch.skipped_collective" &&
	grep -qx '  fail  log.torch.skipped_collective  lines 58,83' "$out" &&
	grep -qx '  fail  log.torch.collective_timeout  lines 82,94,105' "$out"
result "torch-skip-r0.log and -r1.log together: rank 1 skipped the collective, rank 0's timeout follows" $?
run explain "$two/torch-watchdog-skipped-collective.log"
[ "$rc" -eq 2 ] && first "first failure: vm rank 1 ($two/torch-watchdog-skipped-collective.log line 139): log.torch.skipped_collective"
result "the interleaved torchrun output: NCCL's host:pid lines and [rankN]: lines are the same two ranks" $?

# --- the failing connection: the peer its line names, the HCA it names or the rank's one HCA
run --json explain "$src/tests/logs/from-source/nccl-2.21-wc-status12.log"
py 'd["first_failure"]["name"] == "node-a rank 0" and d["first_failure"]["peer"] == "10.0.0.2<50673>" and
    d["first_failure"]["hca"] == "mlx5_2" and d["first_failure"]["id"] == "log.nccl.wc_retry_exceeded"'
result "a completion error: the peer from its line, the HCA from the rank's NET/IB : Using [0]mlx5_2:1/RoCE" $?
{ sed 's/^/0: /' "$src/tests/logs/from-source/nccl-2.21-wc-status12.log"
  echo '1: node-b:7101:7152 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.1<50673> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.1.0.2 remoteGids::ffff:10.0.0.1 hca mlx5_3'
} > "$scratch/two-hca.log"
run explain "$scratch/two-hca.log"
[ "$rc" -eq 2 ] && first "first failure: node-a rank 0 ($scratch/two-hca.log line 7): log.nccl.wc_retry_exceeded, peer 10.0.0.2<50673>, HCA mlx5_2"
result "text: the first failure's peer and HCA" $?
run --json explain "$scratch/two-hca.log"
py 'd["ranks"][1]["first_failure"]["hca"] == "mlx5_3" and d["ranks"][1]["name"] == "node-b rank 1"'
result "NCCL >= 2.19's 'hca mlx5_3' at the end of the line is the HCA" $?
# DAPL's "host:CMA:pid:tid: N us(N us): " names the host, its "DST ADDR" the peer; Intel MPI's report after it
# ("[1:node-b] unexpected DAPL event 0x4008") is its effect
run --json explain "$src/tests/logs/from-source/dapl-cma-addr-error.log"
py 'd["first_failure"]["name"] == "node-b rank 1" and d["first_failure"]["pid"] == 1234 and
    d["first_failure"]["peer"] == "10.12.0.21" and d["first_failure"]["id"] == "log.dapl.addr_error"'
result "DAPL: the host from dapl_log's prefix, the peer from DST, not Intel MPI's unexpected DAPL event" $?

# --- a warning whose cause a later failure of its rank is ranks as that failure's cause; one beside the
# point does not (the real H100 logs: no RDMA device, NCCL_NET=IB forced; no RDMA device, the same GPU twice)
gpu=$src/tests/logs/h100-nccl-2.28.9
run --json explain "$gpu/nccl-net-ib-forced.log"
py 'd["first_failure"]["id"] == "log.nccl.ib_no_device" and d["first_failure"]["explains"] == "log.nccl.no_net_plugin"
    and d["first_failure"]["severity"] == "warn" and not d["first_failure"]["effect"]'
result "NCCL_NET=IB forced: 'No device found' is the first failure, explaining the NET plugin failure" $?
run --json explain "$gpu/nccl-dup-gpu-r0.log"
py 'd["first_failure"]["id"] == "log.nccl.duplicate_gpu" and d["first_failure"]["explains"] is None'
result "no RDMA device beside a duplicate GPU: the duplicate GPU stays the first failure" $?
run explain "$gpu/nccl-net-ib-forced.log" "$gpu/nccl-dup-gpu-r1.log"
first "first failure: vm rank 0 ($gpu/nccl-net-ib-forced.log line 7): log.nccl.ib_no_device" &&
	grep -qx '  the cause of log.nccl.no_net_plugin after it on that rank' "$out"
result "text: the warning first, and the failure it explains" $?

# --- bounded: 4100 ranks, the lines of those past 4096 counted
python3 -c 'import sys
for r in range(4100): print(f"{r}: node-{r}:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0")' > "$scratch/many.log"
run --json explain "$scratch/many.log"
py 'len(d["ranks"]) == 4096 and d["ranks_cut_lines"] == 4'
result "4100 ranks: 4096 kept, the other 4 ranks' lines counted" $?
run explain "$scratch/many.log"
grep -q '; 4 lines of ranks past the first 4096 not put to a rank$' "$out"
result "text: the ranks not kept are said" $?

# --- file names give the rank when no line does
printf 'NCCL INFO NCCL version 2.28.9+cuda13.0\n' > "$scratch/job-r7.log"
printf 'NCCL INFO NCCL version 2.28.3+cuda13.0\n' > "$scratch/job-r12.log"
run --json explain "$scratch/job-r7.log" "$scratch/job-r12.log"
py '[r["rank"] for r in d["ranks"]] == [7, 12] and any(f["id"] == "log.job.ranks_differ" for f in d["findings"])'
result "a file's rank from its name (-r7, -r12)" $?

tap_end
