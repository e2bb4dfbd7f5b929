#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The catalogue of the programs around NCCL (tools/log-catalogue/extract-messages, docs/log-catalogue.md):
# the extraction, rerun on the calls pinned in tests/logs/catalogue/pinned-others (no sources, no network),
# gives exactly the committed TSV; every row of explain's table for those programs reads a wording one of
# them prints; and the numbers those rows decode say what the sources define.
#   log_catalogue_others_test.sh LOG_ROWS ROCE_DOCTOR
set -u
LOG_ROWS=$1
BIN=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/lib/tap.sh"
cat=$src/tests/logs/catalogue
tools=$src/tools/log-catalogue

"$tools/extract-messages" --from-pinned "$cat/pinned-others" --check "$cat/other-messages.tsv" >"$out" 2>"$err"
rc=$?
programs=$(tail -n +2 "$cat/other-messages.tsv" | cut -f1 | sort -u | wc -l)
[ "$rc" -eq 0 ] && [ "$(grep -c ' 0 differences$' "$out")" -eq "$programs" ]
result "extract-messages on the pinned calls reproduces other-messages.tsv for each program" $?

# PyTorch's release ranges come from its releases' pins: one left out, the ranges change
cp -r "$cat/pinned-others" "$scratch/pins"
rm "$scratch/pins/pytorch-2.14.1.calls"
"$tools/extract-messages" --from-pinned "$scratch/pins" --check "$cat/other-messages.tsv" >"$out" 2>"$err"
[ $? -eq 1 ] && grep -qF 'not extracted: pytorch | 1.13.1-2.14.1 | error | NCCL error in: ' "$out" &&
	grep -qF 'extracted, not in other-messages.tsv: pytorch | 1.13.1-2.6.0 | error | NCCL error in: ' "$out"
result "extract-messages --check: a release's pin left out changes PyTorch's ranges" $?
# a call edited in one release's pin is caught, as a wording of that release alone
sed -i 's/Watchdog caught collective operation timeout: /Watchdog caught collective timeout: /' \
	"$scratch/pins/pytorch-2.6.0.calls"
cp "$cat/pinned-others/pytorch-2.14.1.calls" "$scratch/pins/"
"$tools/extract-messages" --from-pinned "$scratch/pins" --check "$cat/other-messages.tsv" >"$out" 2>"$err"
[ $? -eq 1 ] && grep -qF 'not in other-messages.tsv: pytorch | 2.6.0 | str | {}Watchdog caught collective timeout' "$out"
result "extract-messages --check names a call edited in a release's pinned file" $?
# a release's pin must say which files it read: else its absences would say nothing
grep -v -e '^# read: ' -e '^# absent: ' "$cat/pinned-others/pytorch-2.14.1.calls" >"$scratch/pins/pytorch-2.14.1.calls"
"$tools/extract-messages" --from-pinned "$scratch/pins" >"$out" 2>"$err"
[ $? -eq 1 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] &&
	grep -qF "pytorch-2.14.1.calls: a release's pin names the files it read" "$err"
result "extract-messages --from-pinned: a release's pin that names no file read: one line, exit 1" $?

# a row edited by hand is caught
sed '2s/\t[^\t]*\t\([^\t]*\)$/\tedited\t\1/' "$cat/other-messages.tsv" >"$scratch/edited.tsv"
"$tools/extract-messages" --from-pinned "$cat/pinned-others" --check "$scratch/edited.tsv" >"$out" 2>"$err"
[ $? -eq 1 ] && grep -q "not extracted: .*edited" "$out"
result "extract-messages --check names a TSV row that no pinned call gives" $?

"$tools/extract-messages" --from-pinned "$scratch" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -qF "no PROGRAM.calls file in $scratch" "$err"
result "extract-messages --from-pinned on a directory without calls: one line, exit 1" $?

"$tools/coverage-others" "$cat/other-messages.tsv" "$cat/intel-mpi-messages.tsv" "$LOG_ROWS" >"$out" 2>"$err"
result "every row for rdma-core, UCX, Open MPI, libfabric, srun, PyTorch, the launchers, Intel MPI and DAPL reads a wording the program prints" $?

# PyTorch's calls were copied, not cloned: the pinned files say from where, in lines the extraction skips
for f in "$cat"/pinned-others/pytorch*.calls; do
	grep -q '^# ' "$f" && ! grep -v '^#' "$f" | grep -qv '^torch/'
	result "pinned-others/${f##*/} names its sources in # lines, then only calls" $?
done
# the watchdog's wordings with the releases that print them: 1.x ("[Rank N] " in the literal), 2.x
# (logPrefix()), and the undated copies' "Timeout at NCCL work"
grep -qP '^pytorch\t1\.13\.1\tstr\t\[Rank \{\}\] Watchdog caught collective operation timeout: ' "$cat/other-messages.tsv" &&
	grep -qP '^pytorch\t2\.6\.0\tstr\t\{\}Watchdog caught collective operation timeout: ' "$cat/other-messages.tsv" &&
	grep -qP '^pytorch\t2\.x\tstr\t\{\}Timeout at NCCL work: \{\}, last enqueued NCCL work: ' "$cat/other-messages.tsv"
result "the catalogue holds PyTorch's 1.x and 2.x watchdog wordings, with their releases" $?
# every release's wording of the watchdog's timeout and of its counters, as the catalogue has them, is read
# with its rank and numbers: "[Rank N] " in the literal (1.x) or logPrefix() first (2.x: "[PG ID 0 PG GUID
# 0(default_pg) Rank N] ")
prefix='[PG ID 0 PG GUID 0(default_pg) Rank 1] '
work='WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000)'
awk -F'\t' '$1 == "pytorch" && $4 ~ /Watchdog caught collective operation timeout: \{\} ran for/ { print $2 "\t" $4 }' \
	"$cat/other-messages.tsv" >"$scratch/watchdog"
[ "$(wc -l <"$scratch/watchdog")" -ge 2 ]
result "the catalogue has the watchdog's timeout in more than one wording" $?
while IFS=$'\t' read -r release fmt; do
	line=$(printf '%s' "$fmt" | sed -e "s/^{}/$prefix/" -e 's/\[Rank {}\]/[Rank 1]/' -e "s/{}/$work/" -e 's/{}/600081/')
	printf '%s\n' "$line" | "$BIN" explain - >"$out" 2>"$err"
	grep -qF 'rank 1 waited in collective 2 (ALLREDUCE)' "$out"
	result "PyTorch $release's watchdog timeout is read with its rank and SeqNum: $line" $?
done <"$scratch/watchdog"
awk -F'\t' '$1 == "pytorch" && $4 ~ /ast enqueued (NCCL )?work: \{\}, last completed (NCCL )?work: \{\}/ { print $2 "\t" $4 }' \
	"$cat/other-messages.tsv" >"$scratch/progress"
[ "$(wc -l <"$scratch/progress")" -ge 4 ]
result "the catalogue has the watchdog's counters in several wordings" $?
while IFS=$'\t' read -r release fmt; do
	line=$(printf '%s' "$fmt" | sed -E -e "s/^\{\}/$prefix/" -e 's/(enqueued (NCCL )?work: )\{\}/\12/' \
		-e 's/(completed (NCCL )?work: )\{\}/\11/' -e 's/from \{\}/from rank 0/' -e 's/\{\}/2/g')
	printf '%s\n' "$line" | "$BIN" explain - >"$out" 2>"$err"
	grep -qF 'collective_progress  rank 1: last enqueued 2, last completed 1' "$out"
	result "PyTorch $release's counters are read: ${line:0:120}" $?
done <"$scratch/progress"
# every row of the hand-kept Intel MPI table names the public page it was read in
! awk -F'\t' 'NR > 1 && $5 !~ /^https:\/\//' "$cat/intel-mpi-messages.tsv" | grep -q . &&
	[ "$(wc -l <"$cat/intel-mpi-messages.tsv")" -gt 1 ]
result "intel-mpi-messages.tsv: every wording has its source URL" $?

# The numbers decoded, as the sources define them: a line of each program, the decoded words in its finding
decodes() {
	local line=$1 want=$2
	printf '%s\n' "$line" | "$BIN" explain - >"$out" 2>"$err"
	grep -qF -- "$want" "$out"
	result "decoded '$want' in: $line" $?
}
decodes 'node-a:1:2 [0] NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129' \
	'Status 12, IBV_WC_RETRY_EXC_ERR ("transport retry counter exceeded")'
decodes 'node-a:1:2 [0] NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129' \
	'Vendor err 0x81, an mlx5 firmware syndrome no public source names'
decodes 'node-a:1:2 [0] NCCL WARN NET/IB: Got completion from peer 10.0.0.2<54321> with status=IBV_WC_REM_ACCESS_ERR(10) opcode=IBV_WC_RDMA_WRITE(1) reqSize=0 vendor_err=136 req_type=Send localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2 hca mlx5_0' \
	'status 10, IBV_WC_REM_ACCESS_ERR ("remote access error")'
decodes '[1700000000.1] [gpu1:1:0] ib_mlx5_log.c:177 UCX ERROR Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)' \
	'CQE syndrome 0x15, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR (UCX: "Transport retry count exceeded"; libibverbs status 12, IBV_WC_RETRY_EXC_ERR)'
decodes '[gpu1][[1,0],0][btl_openib_component.c:3645:handle_wc] from gpu1 to: gpu2 error polling LP CQ with status RETRY EXCEEDED ERROR status number 12 for wr_id 1e07000 opcode 0  vendor error 129 qp_idx 3' \
	'Status 12, IBV_WC_RETRY_EXC_ERR'
decodes 'libfabric:1:1700000000::verbs:ep_ctrl:vrb_create_ep():100<warn> ibv_create_qp: Cannot allocate memory (12)' \
	'Errno 12, ENOMEM ("Cannot allocate memory")'
decodes 'RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version 2.10.3' \
	'ncclResult_t 2, ncclSystemError'
decodes 'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, remote process exited or there was a network error, NCCL version 2.19.3' \
	'ncclResult_t 6, ncclRemoteError'
# the launchers' lines, as they print them (deepspeed v0.19.5, accelerate v1.14.0)
decodes "[2023-04-07 13:09:33,220] [ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', 'run_clm.py', '--local_rank=0'] exits with return code = -9" \
	'killed by SIGKILL'
decodes "[2023-04-07 13:09:33,220] [ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', 'run_clm.py', '--local_rank=0'] exits with return code = 1" \
	'a rank exited with code 1'
decodes "RuntimeError: Using hostfile at /job/hostfile but host=worker-1 was not reachable via ssh. If you are running with a single node please remove /job/hostfile or setup passwordless ssh." \
	'ssh -o PasswordAuthentication=no worker-1 hostname'
decodes "WARNING:accelerate.commands.launch:Using RTX 4000 series which doesn't support faster communication speedups. Ensuring P2P and IB communications are disabled." \
	'NCCL_IB_DISABLE=1'
decodes 'NotImplementedError: Using RTX 4000 series doesn'"'"'t support faster communication broadband via P2P or IB. Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` which will do this automatically.' \
	'driver older than 550.40.07'
decodes 'torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.' \
	"the c10d backend's TCPStore at --rdzv-endpoint"

# a launcher's report of a rank's exit is an effect: the rank's own failure, printed after it, is the cause
printf '%s\n' "[2023-04-07 13:09:33,220] [ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', 'run_clm.py', '--local_rank=1'] exits with return code = 1" \
	'node-a:1:2 [0] NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129' |
	"$BIN" --json explain - >"$out" 2>"$err"
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["first_failure"]["id"] != "log.nccl.wc_retry_exceeded")' "$out"
result "DeepSpeed's 'exits with return code = 1' ranks below the NCCL failure printed after it" $?

tap_end
