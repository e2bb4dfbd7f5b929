// SPDX-License-Identifier: GPL-2.0-only
/* The test context shared by the setup and the loops of the perf engine; not for use outside src/verbs. */
#ifndef ROCE_DOCTOR_PERF_INTERNAL_H
#define ROCE_DOCTOR_PERF_INTERNAL_H

#include <infiniband/verbs.h>
#include <stdarg.h>

#include "verbs/perf.h"

struct perf_ctx {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint8_t *buf;
	size_t buf_len, slot_size;
	struct ibv_mr *mr;
	struct ibv_cq *send_cq, *recv_cq;
	struct ibv_comp_channel *channel;   /* both CQs report to it; NULL when the loops poll */
	uint64_t spin_ns;                   /* with a channel: spin this long after a completion before sleeping */
	struct ibv_qp *qp[PERF_MAX_QPS];
	uint32_t psn[PERF_MAX_QPS];
	unsigned qps, port, tx_depth, rx_depth, inline_granted;
	int gid_index, max_cqe;
	uint8_t rd_atomic_init, rd_atomic_resp;
	union ibv_gid gid;
	struct ibv_port_attr port_attr;
	struct perf_endpoint remote;
	unsigned rx_outstanding[PERF_MAX_QPS];   /* receives posted and not yet completed, per QP */
};

#endif
