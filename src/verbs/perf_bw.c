// SPDX-License-Identifier: GPL-2.0-only
/* The bandwidth loop: groups of pre-built work requests, one signaled per group, CQs polled in batches;
 * between completions it spins, sleeps on a completion event, or spins a while and then sleeps (enum perf_wait). */
#include "verbs/perf_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP_MAX 64          /* work requests per group (and per signaled completion) */
#define RX_BATCH 32           /* receives reposted per ibv_post_recv */
#define POLL_BATCH 16
#define SAMPLES_MAX 2048      /* completion timestamps kept for the peak */
#define TICK_NS 1000000u
#define SLEEP_MAX_NS 100000000u  /* the longest sleep on a completion event: the stall check's period */

struct tx_queue {
	struct ibv_send_wr wr[GROUP_MAX];
	struct ibv_sge sge[GROUP_MAX];
	uint64_t posted, completed, target;   /* target: UINT64_MAX until the duration is over */
};

struct sample {
	uint64_t ns, bytes;
};

/* Completion timestamps, thinned by half each time the array fills, so memory stays bounded. */
struct samples {
	struct sample s[SAMPLES_MAX];
	size_t count, stride, skipped;
};

struct bw_loop {
	struct perf_ctx *c;
	const struct perf_bw_run *run;
	struct tx_queue *tq;
	unsigned group;
	bool use_inline;
	uint64_t received[PERF_MAX_QPS];
	uint64_t bytes_done, start_ns, end_ns;
	struct samples *samples;
	struct perf_progress progress;
	struct perf_wc_error wc;
};

static void sample_add(struct samples *s, uint64_t ns, uint64_t bytes)
{
	if (++s->skipped < s->stride)
		return;
	s->skipped = 0;
	if (s->count == SAMPLES_MAX) {
		for (size_t i = 0; i < SAMPLES_MAX / 2; i++)
			s->s[i] = s->s[2 * i + 1];
		s->count = SAMPLES_MAX / 2;
		s->stride *= 2;
	}
	s->s[s->count].ns = ns;
	s->s[s->count++].bytes = bytes;
}

/* The best rate over any stretch of at least a twentieth of the run; samples[0] is the start. */
static double peak_rate(const struct samples *s, uint64_t total_ns)
{
	uint64_t window = total_ns / 20 > 10000 ? total_ns / 20 : 10000;
	double best = 0;
	size_t j = 0;

	for (size_t i = 1; i < s->count; i++) {
		while (j + 1 < i && s->s[i].ns - s->s[j + 1].ns >= window)
			j++;
		if (s->s[i].ns - s->s[j].ns >= window) {
			double r = (double)(s->s[i].bytes - s->s[j].bytes) * 1e9 / (double)(s->s[i].ns - s->s[j].ns);

			if (r > best)
				best = r;
		}
	}
	return best;
}

static void build_chain(struct bw_loop *l, unsigned qi)
{
	struct perf_ctx *c = l->c;
	struct tx_queue *q = &l->tq[qi];
	uint64_t remote_rx = c->remote.addr + (PERF_SLOTS(0) + qi) * c->slot_size;

	for (unsigned k = 0; k < l->group; k++) {
		struct ibv_send_wr *wr = &q->wr[k];

		q->sge[k].length = (uint32_t)l->run->size;
		q->sge[k].lkey = c->mr->lkey;
		wr->sg_list = &q->sge[k];
		wr->num_sge = 1;
		wr->next = NULL;
		wr->send_flags = l->use_inline ? IBV_SEND_INLINE : 0;
		switch (l->run->op) {
		case PERF_OP_WRITE:
			wr->opcode = IBV_WR_RDMA_WRITE;
			q->sge[k].addr = (uintptr_t)perf_slot(c, PERF_SLOT_BULK);
			wr->wr.rdma.remote_addr = remote_rx;
			wr->wr.rdma.rkey = c->remote.rkey;
			break;
		case PERF_OP_READ:
			wr->opcode = IBV_WR_RDMA_READ;
			q->sge[k].addr = (uintptr_t)perf_slot(c, PERF_SLOTS(qi));
			wr->wr.rdma.remote_addr = c->remote.addr + PERF_SLOT_BULK * c->slot_size;
			wr->wr.rdma.rkey = c->remote.rkey;
			break;
		case PERF_OP_SEND:
			wr->opcode = IBV_WR_SEND;
			q->sge[k].addr = (uintptr_t)perf_slot(c, PERF_SLOT_BULK);
			break;
		}
	}
}

/* The one work request that carries the final pattern points at slot FINAL instead of BULK. */
static void point_at(struct bw_loop *l, struct ibv_send_wr *wr, size_t slot)
{
	if (l->run->op == PERF_OP_READ)
		wr->wr.rdma.remote_addr = l->c->remote.addr + slot * l->c->slot_size;
	else
		wr->sg_list->addr = (uintptr_t)perf_slot(l->c, slot);
}

/* One ibv_post_send per work request, as perftest does by default: on Soft-RoCE each post runs the sending in
 * our own system call, where one post of a whole group would leave most of it to a softirq thread that has
 * to win the CPU from our polling loop (VM pair, medians of 6 alternating rounds at 64 KiB: 0.86 of perftest
 * posting groups, 1.07 one by one; at 4 KiB 0.94 and 1.00). */
static int post_chain(struct bw_loop *l, unsigned qi, char *err, size_t size)
{
	struct tx_queue *q = &l->tq[qi];
	uint64_t left = q->target - q->posted;
	unsigned n = left < l->group ? (unsigned)left : l->group;
	struct ibv_send_wr *last = &q->wr[n - 1], *final = NULL, *bad = NULL;
	int flags = last->send_flags, ret = 0;
	unsigned k;

	if (left <= n) {
		final = last;
		point_at(l, final, PERF_SLOT_FINAL);
	}
	last->send_flags = flags | IBV_SEND_SIGNALED;
	last->wr_id = (uint64_t)n << 8 | qi;
	for (k = 0; k < n && !ret; k++)
		ret = ibv_post_send(l->c->qp[qi], &q->wr[k], &bad);
	last->send_flags = flags;
	if (final)
		point_at(l, final, PERF_SLOT_BULK);
	if (ret) {
		snprintf(err, size, "ibv_post_send on QP %u: %s", qi, strerror(ret));
		return -ret;
	}
	q->posted += n;
	return 0;
}

static int post_receives(struct perf_ctx *c, unsigned qi, char *err, size_t size)
{
	struct ibv_recv_wr wr[RX_BATCH], *bad = NULL;
	struct ibv_sge sge[RX_BATCH];

	while (c->rx_outstanding[qi] < c->rx_depth) {
		unsigned room = c->rx_depth - c->rx_outstanding[qi], n = room < RX_BATCH ? room : RX_BATCH;
		int ret;

		for (unsigned k = 0; k < n; k++) {
			sge[k].addr = (uintptr_t)perf_slot(c, PERF_SLOTS(qi));
			sge[k].length = (uint32_t)c->slot_size;
			sge[k].lkey = c->mr->lkey;
			wr[k].wr_id = qi;
			wr[k].sg_list = &sge[k];
			wr[k].num_sge = 1;
			wr[k].next = k + 1 < n ? &wr[k + 1] : NULL;
		}
		ret = ibv_post_recv(c->qp[qi], wr, &bad);
		if (ret) {
			snprintf(err, size, "ibv_post_recv on QP %u: %s", qi, strerror(ret));
			return -ret;
		}
		c->rx_outstanding[qi] += n;
	}
	return 0;
}

int perf_post_receives(struct perf_ctx *c, char *err, size_t size)
{
	int ret = 0;

	for (unsigned i = 0; i < c->qps && c->rx_depth && !ret; i++)
		ret = post_receives(c, i, err, size);
	return ret;
}

static void record_error(struct perf_wc_error *e, const struct ibv_wc *wc, unsigned qi, bool receive)
{
	e->status = wc->status;
	e->opcode = wc->opcode;
	e->qp = qi;
	e->vendor_err = wc->vendor_err;
	e->receive = receive;
}

static bool tx_finished(const struct bw_loop *l)
{
	for (unsigned i = 0; i < l->c->qps; i++)
		if (l->tq[i].completed != l->tq[i].target)
			return false;
	return true;
}

/* Reaps send completions; returns how many chains finished, or -EIO on a failed one. */
static int poll_send(struct bw_loop *l, uint64_t now)
{
	struct ibv_wc wc[POLL_BATCH];
	int n = ibv_poll_cq(l->c->send_cq, POLL_BATCH, wc);

	if (n < 0)
		return -EIO;
	for (int i = 0; i < n; i++) {
		unsigned qi = (unsigned)(wc[i].wr_id & 0xff);
		uint64_t count = wc[i].wr_id >> 8;

		if (wc[i].status != IBV_WC_SUCCESS || qi >= l->c->qps) {
			record_error(&l->wc, &wc[i], qi, false);
			return -EIO;
		}
		l->tq[qi].completed += count;
		l->bytes_done += count * l->run->size;
	}
	if (n > 0)
		sample_add(l->samples, now, l->bytes_done);
	return n;
}

static int poll_recv(struct bw_loop *l, char *err, size_t size)
{
	struct ibv_wc wc[POLL_BATCH];
	int n = ibv_poll_cq(l->c->recv_cq, POLL_BATCH, wc);
	uint64_t low = UINT64_MAX;

	if (n <= 0)
		return n < 0 ? -EIO : 0;
	for (int i = 0; i < n; i++) {
		unsigned qi = (unsigned)wc[i].wr_id;

		if (wc[i].status != IBV_WC_SUCCESS || qi >= l->c->qps) {
			record_error(&l->wc, &wc[i], qi, true);
			return -EIO;
		}
		l->received[qi]++;
		l->c->rx_outstanding[qi]--;
	}
	for (unsigned qi = 0; qi < l->c->qps; qi++) {
		if (l->c->rx_depth - l->c->rx_outstanding[qi] >= RX_BATCH || l->c->rx_outstanding[qi] < l->c->rx_depth / 2) {
			int ret = post_receives(l->c, qi, err, size);

			if (ret)
				return ret;
		}
		if (l->received[qi] < low)
			low = l->received[qi];
	}
	l->progress.rx_min = low;
	return n;
}

static bool rx_finished(const struct bw_loop *l)
{
	return !l->run->receive || l->progress.rx_min >= l->progress.rx_expected;
}

static int post_what_fits(struct bw_loop *l, char *err, size_t size)
{
	for (unsigned qi = 0; qi < l->c->qps; qi++) {
		struct tx_queue *q = &l->tq[qi];

		while (q->posted < q->target && q->posted - q->completed + l->group <= l->c->tx_depth) {
			int ret = post_chain(l, qi, err, size);

			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Event mode: asks the CQs in use for an event on their next completion. The loop polls once more before
 * it sleeps, so a completion that came before the arming is not slept through. */
static int arm_cqs(struct bw_loop *l, char *err, size_t size)
{
	int ret = 0;

	if (!l->progress.tx_done)
		ret = ibv_req_notify_cq(l->c->send_cq, 0);
	if (!ret && l->run->receive)
		ret = ibv_req_notify_cq(l->c->recv_cq, 0);
	if (ret) {
		snprintf(err, size, "ibv_req_notify_cq: %s", strerror(ret));
		return -ret;
	}
	return 0;
}

/* Sleeps until a completion event or until the clock reaches until_ns, and acknowledges the event. */
static int sleep_for_event(struct bw_loop *l, uint64_t now, uint64_t until, char *err, size_t size)
{
	struct pollfd pfd = { .fd = l->c->channel->fd, .events = POLLIN };
	uint64_t ns = until > now ? until - now : 0;
	struct ibv_cq *cq;
	void *cq_context;
	int ret;

	if (ns > SLEEP_MAX_NS)
		ns = SLEEP_MAX_NS;
	ret = poll(&pfd, 1, (int)((ns + 999999) / 1000000));
	if (ret < 0 && errno != EINTR) {
		int e = errno;

		snprintf(err, size, "waiting for a completion event: %s", strerror(e));
		return -e;
	}
	if (ret == 1) {
		if (ibv_get_cq_event(l->c->channel, &cq, &cq_context)) {
			snprintf(err, size, "ibv_get_cq_event: %s", strerror(errno));
			return -EIO;
		}
		ibv_ack_cq_events(cq, 1);
	}
	return 0;
}

static int run_loop(struct bw_loop *l, char *err, size_t size)
{
	const struct perf_bw_run *run = l->run;
	uint64_t now = perf_now_ns(), last_progress = now, last_tick = now, last_completion = now;
	uint64_t deadline = run->iters || !run->initiate ? UINT64_MAX : now + run->duration_ns;
	unsigned idle = 0;
	bool armed = false;
	int ret;

	l->start_ns = now;
	sample_add(l->samples, now, 0);
	while (!l->progress.tx_done || !rx_finished(l)) {
		bool tick_now = false;
		int got = 0;

		if (!l->progress.tx_done) {
			ret = post_what_fits(l, err, size);
			if (ret)
				return ret;
			got = poll_send(l, now);
			if (got < 0)
				return got;
			if (got && tx_finished(l)) {
				l->progress.tx_done = true;
				l->progress.tx_iters = l->tq[0].completed;
				l->end_ns = perf_now_ns();
				tick_now = true;
			}
		}
		if (run->receive) {
			ret = poll_recv(l, err, size);
			if (ret < 0)
				return ret;
			got += ret;
		}
		if (got) {
			armed = false;
		} else if (l->c->channel && now - last_completion >= l->c->spin_ns) {
			/* Adaptive: the spin is over (now is at most 64 empty polls old); event: spin_ns is 0. */
			if (!armed) {
				ret = arm_cqs(l, err, size);
				if (ret)
					return ret;
				armed = true;
				continue;
			}
			/* Not woken for the tick: it runs after each wake-up instead, so a sleep lasts until the
			 * next completion (a wake-up every millisecond cost the sending kernel the CPU time the
			 * sleeping was for), the end of the duration, or the moment the run counts as stalled. */
			uint64_t wake = last_progress + run->stall_ns < deadline ? last_progress + run->stall_ns : deadline;

			now = perf_now_ns();
			ret = sleep_for_event(l, now, wake, err, size);
			if (ret)
				return ret;
			armed = false;
		} else if (++idle < 64) {
			continue;
		}
		idle = 0;
		now = perf_now_ns();
		if (got)
			last_progress = last_completion = now;
		if (now >= deadline) {
			/* Time is up: every QP ends at the same count, with one more work request carrying the
			 * final pattern, so the receiver expects one number. */
			uint64_t most = 0;

			for (unsigned qi = 0; qi < l->c->qps; qi++)
				most = l->tq[qi].posted > most ? l->tq[qi].posted : most;
			for (unsigned qi = 0; qi < l->c->qps; qi++)
				l->tq[qi].target = most + 1;
			deadline = UINT64_MAX;
		}
		if (run->tick && (tick_now || now - last_tick >= TICK_NS)) {
			last_tick = now;
			ret = run->tick(run->arg, &l->progress);
			if (ret < 0)
				return ret;
			if (ret > 0)
				last_progress = now;
		}
		if (now - last_progress > run->stall_ns) {
			snprintf(err, size, "no completion for %.1f s", (double)(now - last_progress) / 1e9);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

int perf_bw(struct perf_ctx *c, const struct perf_bw_run *run, struct perf_bw_result *res, char *err, size_t size)
{
	struct bw_loop l = { .c = c, .run = run };
	int ret;

	memset(res, 0, sizeof(*res));
	if (run->size == 0 || run->size > c->slot_size || (run->receive && !c->rx_depth)) {
		snprintf(err, size, "message size %zu does not fit the %zu-byte slots", run->size, c->slot_size);
		return -EINVAL;
	}
	l.group = c->tx_depth / 4;
	l.group = l.group < 1 ? 1 : l.group > GROUP_MAX ? GROUP_MAX : l.group;
	l.use_inline = run->op != PERF_OP_READ && run->size <= c->inline_granted;
	l.progress.tx_done = !run->initiate;
	l.progress.rx_expected = run->iters ? run->iters : UINT64_MAX;
	l.samples = calloc(1, sizeof(*l.samples));
	l.tq = calloc(c->qps, sizeof(*l.tq));
	if (!l.samples || !l.tq) {
		snprintf(err, size, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	l.samples->stride = 1;
	for (unsigned qi = 0; qi < c->qps && run->initiate; qi++) {
		l.tq[qi].target = run->iters ? run->iters : UINT64_MAX;
		build_chain(&l, qi);
	}
	ret = run_loop(&l, err, size);
	if (ret == -EIO) {
		res->wc = l.wc;
		snprintf(err, size, "work completion failed on QP %u: %s", l.wc.qp, perf_wc_status_name(l.wc.status));
	}
	res->iters = run->initiate ? l.tq[0].completed : 0;
	res->bytes = l.bytes_done;
	res->ns = l.end_ns > l.start_ns ? l.end_ns - l.start_ns : 0;
	if (res->ns)
		res->peak_bytes_per_s = peak_rate(l.samples, res->ns);
	if (res->ns && res->peak_bytes_per_s < (double)res->bytes * 1e9 / (double)res->ns)
		res->peak_bytes_per_s = (double)res->bytes * 1e9 / (double)res->ns;
	res->received = l.progress.rx_min;
	if (!ret && run->receive)
		ret = perf_post_receives(c, err, size);
out:
	free(l.tq);
	free(l.samples);
	return ret;
}
