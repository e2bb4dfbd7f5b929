// SPDX-License-Identifier: GPL-2.0-only
/* The rail probe's traffic: one RDMA WRITE into the peer's buffer and one RDMA READ of it back, each waited
 * for with a short deadline, so a rail that drops RoCE is reported in about a second, not after a test. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "verbs/perf_internal.h"

/* Posts one signaled work request on QP 0 and waits for its completion until the deadline. */
static int post_and_wait(struct perf_ctx *c, enum ibv_wr_opcode op, uint8_t *local, uint64_t remote_addr,
			 size_t size, uint64_t deadline, uint64_t timeout_ns, struct perf_wc_error *wc, char *err,
			 size_t err_size)
{
	struct ibv_sge sge = { .addr = (uintptr_t)local, .length = (uint32_t)size, .lkey = c->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = op, .sg_list = &sge, .num_sge = 1, .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED }, *bad = NULL;
	struct ibv_wc got;
	int ret;

	wr.wr.rdma.remote_addr = remote_addr;
	wr.wr.rdma.rkey = c->remote.rkey;
	ret = ibv_post_send(c->qp[0], &wr, &bad);
	if (ret) {
		snprintf(err, err_size, "ibv_post_send (%s): %s", op == IBV_WR_RDMA_WRITE ? "RDMA WRITE" : "RDMA READ",
			 strerror(ret));
		return -ret;
	}
	for (;;) {
		int n = ibv_poll_cq(c->send_cq, 1, &got);

		if (n < 0) {
			snprintf(err, err_size, "ibv_poll_cq failed");
			return -EIO;
		}
		if (n == 1)
			break;
		if (perf_now_ns() >= deadline) {
			snprintf(err, err_size, "no completion of the %s within the probe's %.1f s",
				 op == IBV_WR_RDMA_WRITE ? "RDMA WRITE" : "RDMA READ", (double)timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
	}
	if (got.status != IBV_WC_SUCCESS) {
		*wc = (struct perf_wc_error){ .status = got.status, .opcode = got.opcode, .qp = 0,
					      .vendor_err = got.vendor_err };
		snprintf(err, err_size, "the %s completed with %s (status %d)",
			 op == IBV_WR_RDMA_WRITE ? "RDMA WRITE" : "RDMA READ", ibv_wc_status_str(got.status), got.status);
		return -EIO;
	}
	return 0;
}

int perf_write_read(struct perf_ctx *c, size_t size, uint64_t timeout_ns, struct perf_wc_error *wc, char *err,
		    size_t err_size)
{
	uint64_t deadline = perf_now_ns() + timeout_ns;
	uint64_t target = c->remote.addr + PERF_SLOTS(0) * c->slot_size;
	int ret;

	if (size == 0 || size > c->slot_size) {
		snprintf(err, err_size, "a %zu-byte probe does not fit the %zu-byte slots", size, c->slot_size);
		return -EINVAL;
	}
	ret = post_and_wait(c, IBV_WR_RDMA_WRITE, perf_slot(c, PERF_SLOT_FINAL), target, size, deadline, timeout_ns, wc,
			    err, err_size);
	if (ret == 0)
		ret = post_and_wait(c, IBV_WR_RDMA_READ, perf_slot(c, PERF_SLOTS(0)), target, size, deadline, timeout_ns,
				    wc, err, err_size);
	return ret;
}
