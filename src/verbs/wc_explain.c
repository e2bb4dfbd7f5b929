// SPDX-License-Identifier: GPL-2.0-only
/* What a failed work completion usually means between two RoCE nodes, in words a person can act on. */
#include <infiniband/verbs.h>

#include "verbs/perf.h"

const char *perf_wc_status_name(int status)
{
	return ibv_wc_status_str((enum ibv_wc_status)status);
}

const char *perf_wait_name(enum perf_wait wait)
{
	return wait == PERF_WAIT_EVENT ? "event" : wait == PERF_WAIT_ADAPTIVE ? "adaptive" : "poll";
}

const char *perf_op_name(enum perf_op op)
{
	switch (op) {
	case PERF_OP_WRITE:
		return "write";
	case PERF_OP_READ:
		return "read";
	case PERF_OP_SEND:
		return "send";
	}
	return "?";
}

const char *perf_wc_explain(int status)
{
	switch (status) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer never acknowledged our packets. Right at the start this is nearly always the path: a "
		       "wrong GID index on one side (fe80:: link-local or a RoCE v1 entry; compare 'roce-doctor gid "
		       "--suggest' on both nodes), a path MTU larger than a link on the way, no route between the two "
		       "GIDs, or UDP port 4791 filtered. In the middle of a run it means the peer went away (process "
		       "killed, link down) or a lossy fabric dropped too much (PFC/ECN)";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the receiver had no receive buffer posted for too long (receiver not ready): the peer process "
		       "stalled or stopped posting receives";
	case IBV_WC_REM_ACCESS_ERR:
		return "the peer refused the access to its memory: the rkey or address we were given is no longer "
		       "valid (the peer restarted or released its buffer) or lacks the rights asked for";
	case IBV_WC_REM_INV_REQ_ERR:
		return "the peer found the request invalid: a message longer than its receive buffer, an operation "
		       "its QP does not allow, or too many RDMA READs in flight for its responder resources";
	case IBV_WC_REM_OP_ERR:
		return "the peer could not carry out the operation (a local error on its side, e.g. its receive "
		       "buffer is not registered)";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed: the QP had already gone to the error state because of an earlier failure; the first "
		       "error is the one that matters";
	case IBV_WC_LOC_LEN_ERR:
		return "a message did not fit the local receive buffer, or exceeded the inline limit";
	case IBV_WC_LOC_QP_OP_ERR:
		return "the local QP rejected the request (inline data larger than it supports, or a malformed "
		       "work request)";
	case IBV_WC_LOC_PROT_ERR:
		return "the local buffer is not covered by a valid memory registration (lkey)";
	case IBV_WC_BAD_RESP_ERR:
		return "an unexpected response came back: the two QPs disagree on the connection state (a stale peer "
		       "QP number, or two tests crossing)";
	case IBV_WC_RESP_TIMEOUT_ERR:
		return "the response never came back in time";
	case IBV_WC_FATAL_ERR:
		return "the device reported a fatal error: check dmesg and the firmware";
	case IBV_WC_GENERAL_ERR:
		return "the provider reported a general error: check dmesg";
	default:
		return "see the provider's documentation for this status";
	}
}

/* Soft-RoCE's responder also answers a retransmission it does not expect with "invalid request": on the VM
 * pair, runs of 4 and 8 QPs at 64 KiB ended so after retransmits, perftest's 'ib_write_bw -q 4' in 4 of 8
 * runs and ours in 4 of 10, while runs of 1 and 2 QPs never did (docs/benchmarks.md: the --qps 4 runs of
 * 2026-11-27, 21:51-21:58 UTC). */
const char *perf_wc_explain_software(int status)
{
	if (status != IBV_WC_REM_INV_REQ_ERR)
		return NULL;
	return "on a software RDMA device (Soft-RoCE) it also ends runs of several QPs after packets were "
	       "retransmitted, whatever the program (perftest's 'ib_write_bw -q 4' too): rerun with --qps 1 or --qps 2";
}
