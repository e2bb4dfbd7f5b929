// SPDX-License-Identifier: GPL-2.0-only
/* The numbers logs print, decoded as the code that printed them defines them: libibverbs' work completion
 * status (verbs.h, ibv_wc_status_str), the mlx5 CQE syndromes and vendor syndromes (rdma-core
 * providers/mlx5, UCX uct/ib/mlx5), Linux errno values, and NCCL's ncclResult_t with the strings NCCL and
 * PyTorch print for it. Pure tables, no libibverbs: a log is often read on another host than the one that
 * wrote it. */
#ifndef ROCE_DOCTOR_LOG_DECODE_H
#define ROCE_DOCTOR_LOG_DECODE_H

#include <stddef.h>

struct log_wc_status {
	int value;
	const char *name;       /* "IBV_WC_RETRY_EXC_ERR" */
	const char *text;       /* ibv_wc_status_str() */
	const char *meaning;    /* what it usually means between two RoCE nodes; NULL for success */
};

struct log_mlx5_syndrome {
	int value;              /* the CQE's syndrome byte, as UCX prints it (synd 0x15) */
	const char *name;       /* "MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR" */
	int wc_status;          /* what the mlx5 provider turns it into (cq.c mlx5_handle_error_cqe) */
	const char *ucx_text;   /* UCX's words for it (ib_mlx5_log.c) */
};

struct log_mlx5_vendor {
	int value;              /* vendor_err_synd: libibverbs' wc.vendor_err, NCCL's "vendor err %d" */
	const char *name;
	const char *text;
};

struct log_errno {
	int value;
	const char *name;       /* "ETIMEDOUT" */
	const char *text;       /* glibc's strerror() */
};

struct log_nccl_result {
	int value;
	const char *name;       /* "ncclRemoteError" */
	const char *first;      /* the first NCCL release that has the code */
	const char *text_old;   /* ncclGetErrorString() to 2.17 ("unhandled system error") */
	const char *text;       /* ncclGetErrorString() from 2.18 */
	const char *torch;      /* PyTorch's getNcclErrorDetailStr() for it, NULL when it has none */
	const char *meaning;    /* what to look for next */
};

extern const struct log_wc_status log_wc_statuses[];
extern const size_t log_wc_status_count;
extern const struct log_mlx5_syndrome log_mlx5_syndromes[];
extern const size_t log_mlx5_syndrome_count;
extern const struct log_mlx5_vendor log_mlx5_vendors[];
extern const size_t log_mlx5_vendor_count;
extern const struct log_errno log_errnos[];
extern const size_t log_errno_count;
extern const struct log_nccl_result log_nccl_results[];
extern const size_t log_nccl_result_count;

/* Writes into out what value means as a number of kind: "wc" (a work completion status, its number or its
 * IBV_WC_ name), "synd" (an mlx5 CQE syndrome), "vend" (an mlx5 vendor syndrome), "errno" (a number or an
 * E name), "nccl" (an ncclResult_t: its number, its name, or
 * the string ncclGetErrorString() gives for it in some release). Numbers are decimal or 0x hex. A value the
 * table does not hold is written as it came, with "unknown". Returns the length written. */
size_t log_decode(char *out, size_t size, const char *kind, const char *value);

#endif
