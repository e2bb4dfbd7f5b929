// SPDX-License-Identifier: GPL-2.0-only
/* The latency loop: RDMA-write ping-pong on one QP, each side spinning on the last byte of its receive slot. */
#include "verbs/perf_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define TICK_NS 50000000u        /* 50 ms: a syscall per round trip would show in the latency */

struct lat_loop {
	struct perf_ctx *c;
	const struct perf_lat_run *run;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	uint64_t posted, reaped;      /* work requests, every one signaled */
	uint64_t last_tick, last_progress;
	struct perf_progress progress;
	struct perf_wc_error *wc;
};

static int reap(struct lat_loop *l)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(l->c->send_cq, 1, &wc);

	if (n < 0)
		return -EIO;
	if (n == 0)
		return 0;
	if (wc.status != IBV_WC_SUCCESS) {
		l->wc->status = wc.status;
		l->wc->opcode = wc.opcode;
		l->wc->qp = 0;
		l->wc->vendor_err = wc.vendor_err;
		l->wc->receive = false;
		return -EIO;
	}
	l->reaped++;
	return 1;
}

/* The slow part of every wait: ticks and the stall timeout, checked every few hundred spins. */
static int housekeeping(struct lat_loop *l, char *err, size_t size)
{
	uint64_t now = perf_now_ns();
	int ret;

	if (l->run->tick && now - l->last_tick >= TICK_NS) {
		l->last_tick = now;
		ret = l->run->tick(l->run->arg, &l->progress);
		if (ret < 0)
			return ret;
		if (ret > 0)
			l->last_progress = now;
	}
	if (now - l->last_progress > l->run->stall_ns) {
		snprintf(err, size, "no answer from the peer for %.1f s (iteration %llu)",
			 (double)(now - l->last_progress) / 1e9, (unsigned long long)l->progress.iter);
		return -ETIMEDOUT;
	}
	return 0;
}

static int wait_mark(struct lat_loop *l, const volatile uint8_t *mark, uint8_t want, char *err, size_t size)
{
	unsigned spins = 0;
	int ret;

	while (__atomic_load_n(mark, __ATOMIC_ACQUIRE) != want) {
		if (++spins % 1024 == 0) {
			ret = housekeeping(l, err, size);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Every write is signaled and reaped before the next step, as ib_write_lat does: the send queue never holds
 * more than one request, and the wait for the mark is a bare load, with no CQ polling in between. */
static int wait_completion(struct lat_loop *l, char *err, size_t size)
{
	unsigned spins = 0;
	int ret;

	while (l->reaped < l->posted) {
		ret = reap(l);
		if (ret < 0)
			return ret;
		if (ret == 0 && ++spins % 1024 == 0) {
			ret = housekeeping(l, err, size);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int post(struct lat_loop *l, char *err, size_t size)
{
	struct ibv_send_wr *bad = NULL;
	int ret;

	l->posted++;
	l->wr.wr_id = l->posted;
	l->wr.send_flags = IBV_SEND_SIGNALED | (l->sge.length <= l->c->inline_granted ? IBV_SEND_INLINE : 0);
	ret = ibv_post_send(l->c->qp[0], &l->wr, &bad);
	if (ret) {
		snprintf(err, size, "ibv_post_send: %s", strerror(ret));
		return -ret;
	}
	return 0;
}

int perf_lat(struct perf_ctx *c, const struct perf_lat_run *run, struct perf_wc_error *wc, char *err, size_t size)
{
	struct lat_loop l = { .c = c, .run = run, .wc = wc };
	uint8_t *tx = perf_slot(c, PERF_SLOT_FINAL);
	const volatile uint8_t *mark = perf_slot(c, PERF_SLOTS(0)) + run->size - 1;
	int ret = 0;

	if (run->size == 0 || run->size > c->slot_size) {
		snprintf(err, size, "message size %zu does not fit the %zu-byte slots", run->size, c->slot_size);
		return -EINVAL;
	}
	l.sge.addr = (uintptr_t)tx;
	l.sge.length = (uint32_t)run->size;
	l.sge.lkey = c->mr->lkey;
	l.wr.opcode = IBV_WR_RDMA_WRITE;
	l.wr.sg_list = &l.sge;
	l.wr.num_sge = 1;
	l.wr.wr.rdma.remote_addr = c->remote.addr + PERF_SLOTS(0) * c->slot_size;
	l.wr.wr.rdma.rkey = c->remote.rkey;
	l.last_tick = l.last_progress = perf_now_ns();

	for (uint64_t i = 0; i < run->iters && !ret; i++) {
		uint8_t m = (uint8_t)(i % 255 + 1);
		uint64_t t0 = 0;

		l.progress.iter = i;
		if (!run->initiate) {
			ret = wait_mark(&l, mark, m, err, size);
			if (ret)
				break;
		}
		tx[run->size - 1] = m;
		if (run->initiate)
			t0 = perf_now_ns();
		ret = post(&l, err, size);
		if (!ret)
			ret = wait_completion(&l, err, size);
		if (!ret && run->initiate) {
			ret = wait_mark(&l, mark, m, err, size);
			run->rtt_ns[i] = perf_now_ns() - t0;
		}
		l.last_progress = perf_now_ns();
	}
	if (ret == -EIO)
		snprintf(err, size, "work completion failed: %s", perf_wc_status_name(wc->status));
	return ret;
}
