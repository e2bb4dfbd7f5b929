// SPDX-License-Identifier: GPL-2.0-only
/* The client side of a test: HELLO/ACCEPT, then START, READY, the run, DONE, RESULT for each size, BYE.
 * Every reply is checked before it touches a queue pair; every wait is bounded by the timeout. */
#include "proto/client.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "proto/auth.h"
#include "proto/channel.h"
#include "proto/pattern.h"

struct session {
	const struct client_config *cfg;
	struct client_report *rep;
	struct perf_ctx *perf;
	int fd;
	int timeout_ms;
	char where[80];              /* "10.88.0.2:18516" */
	uint32_t slot;
	/* the size in progress */
	struct proto_start start;
	bool done_sent, have_result;
	struct proto_result result;
};

static int failf(struct session *s, enum client_failure kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Records the first failure only: later ones are consequences. */
static int failf(struct session *s, enum client_failure kind, const char *fmt, ...)
{
	va_list ap;

	if (s->rep->failure != CLIENT_OK)
		return -1;
	s->rep->failure = kind;
	s->rep->failed_size = s->start.size;
	va_start(ap, fmt);
	vsnprintf(s->rep->message, sizeof(s->rep->message), fmt, ap);
	va_end(ap);
	return -1;
}

static uint32_t random_seed(void)
{
	uint32_t seed;

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint32_t)perf_now_ns();
	return seed;
}

/* A failed chan_recv, said the way a user can act on. */
static int recv_failed(struct session *s, int ret, const char *why, const char *when)
{
	if (ret == -ECONNRESET)
		return failf(s, CLIENT_PEER_GONE, "the serve at %s closed the control connection %s: it was stopped or "
			     "crashed", s->where, when);
	if (ret == -ETIMEDOUT)
		return failf(s, CLIENT_STALL, "no answer from the serve at %s within %d s %s", s->where,
			     s->timeout_ms / 1000, when);
	return failf(s, CLIENT_PROTOCOL, "the serve at %s sent a bad frame %s: %s", s->where, when, why);
}

/* Waits for one frame of the type wanted; ERROR and anything else end the test. */
static int expect(struct session *s, uint8_t type, struct proto_msg *m, const char *when)
{
	char why[256];
	int ret = chan_recv(s->fd, m, s->timeout_ms, why, sizeof(why));

	if (ret)
		return recv_failed(s, ret, why, when);
	if (m->type == type)
		return 0;
	if (m->type == PROTO_ERROR)
		return failf(s, CLIENT_PEER_GONE, "the serve at %s stopped the test %s: %s", s->where, when,
			     m->u.reason.text);
	if (m->type == PROTO_REFUSE)
		return failf(s, CLIENT_REFUSED, "the serve at %s refused the test: %s", s->where, m->u.reason.text);
	return failf(s, CLIENT_PROTOCOL, "the serve at %s sent %s %s, expected %s", s->where,
		     proto_type_name(m->type), when, proto_type_name(type));
}

static int send_msg(struct session *s, const struct proto_msg *m, const char *when)
{
	int ret = chan_send(s->fd, m, s->timeout_ms);

	if (ret)
		return failf(s, CLIENT_PEER_GONE, "cannot send %s to the serve at %s %s: %s", proto_type_name(m->type),
			     s->where, when, strerror(-ret));
	return 0;
}

static int min_mtu(int a, int b)
{
	return a < b ? a : b;
}

static int handshake(struct session *s)
{
	const struct client_config *cfg = s->cfg;
	struct proto_msg m = { .type = cfg->serve_device ? PROTO_HELLO_ON : PROTO_HELLO };
	struct proto_hello *h = cfg->serve_device ? &m.u.hello_on.hello : &m.u.hello;
	const struct perf_endpoint *r;
	char why[256];
	int path_mtu;

	h->test = (uint8_t)cfg->test;
	h->op = (uint8_t)cfg->op;
	h->flags = (cfg->bidir ? PROTO_FLAG_BIDIR : 0) | (cfg->verify ? PROTO_FLAG_VERIFY : 0);
	h->mtu_request = (uint8_t)cfg->mtu_request;
	h->tx_depth = (uint16_t)cfg->tx_depth;
	h->inline_size = cfg->inline_size;
	h->slot_size = s->slot;
	h->ep = s->rep->local;
	if (cfg->serve_device) {
		snprintf(m.u.hello_on.device, sizeof(m.u.hello_on.device), "%s", cfg->serve_device);
		m.u.hello_on.port = (uint8_t)cfg->serve_port;
		m.u.hello_on.gid_index = (uint16_t)cfg->serve_gid_index;
	}
	if (send_msg(s, &m, "to start"))
		return -1;
	if (expect(s, PROTO_ACCEPT, &m, "in answer to our HELLO"))
		return -1;
	r = &m.u.accept.ep;
	if (proto_check_endpoint(r, s->slot, why, sizeof(why)))
		return failf(s, CLIENT_PROTOCOL, "the serve at %s answered with a bad endpoint: %s", s->where, why);
	if (r->qps != cfg->qps)
		return failf(s, CLIENT_PROTOCOL, "the serve at %s set up %u QPs, we asked for %u", s->where, r->qps,
			     cfg->qps);
	if (r->link_layer != s->rep->local.link_layer)
		return failf(s, CLIENT_PROTOCOL, "the serve at %s is on %s, we are on %s", s->where,
			     r->link_layer == PERF_LINK_ETHERNET ? "Ethernet" : "InfiniBand",
			     s->rep->local.link_layer == PERF_LINK_ETHERNET ? "Ethernet" : "InfiniBand");
	path_mtu = min_mtu(s->rep->local.mtu, r->mtu);
	if (cfg->mtu_request)
		path_mtu = min_mtu(path_mtu, cfg->mtu_request);
	if (m.u.accept.path_mtu != path_mtu)
		return failf(s, CLIENT_PROTOCOL, "the serve at %s chose path MTU %d, the ports and --mtu give %d",
			     s->where, perf_mtu_bytes(m.u.accept.path_mtu), perf_mtu_bytes(path_mtu));
	s->rep->remote = *r;
	s->rep->path_mtu = path_mtu;
	s->rep->connected = true;
	return 0;
}

static bool we_send_data(const struct client_config *cfg)
{
	return cfg->test == PROTO_TEST_LAT || cfg->op != PERF_OP_READ || cfg->bidir;
}

static bool we_receive_data(const struct client_config *cfg)
{
	return cfg->test == PROTO_TEST_LAT || cfg->op == PERF_OP_READ || cfg->bidir;
}

static void prepare_buffers(struct session *s, uint32_t size, uint32_t seed)
{
	const struct client_config *cfg = s->cfg;

	if (we_send_data(cfg)) {
		size_t checked = pattern_checked_len(cfg->test == PROTO_TEST_LAT, size);

		pattern_fill(perf_slot(s->perf, PERF_SLOT_BULK), size, pattern_seed(seed, false, false));
		pattern_fill(perf_slot(s->perf, PERF_SLOT_FINAL), size, pattern_seed(seed, false, true));
		if (cfg->corrupt && checked)
			perf_slot(s->perf, PERF_SLOT_FINAL)[checked / 2] ^= 0x01;
	}
	if (we_receive_data(cfg))
		for (unsigned i = 0; i < (cfg->test == PROTO_TEST_LAT ? 1 : cfg->qps); i++)
			memset(perf_slot(s->perf, PERF_SLOTS(i)), 0, size);
}

/* Our check of what the serve sent: its final pattern in every receive slot (lat: all but the mark). */
static void check_received(struct session *s, struct client_size *r)
{
	const struct client_config *cfg = s->cfg;
	size_t len = pattern_checked_len(cfg->test == PROTO_TEST_LAT, r->size), offset;
	unsigned qps = cfg->test == PROTO_TEST_LAT ? 1 : cfg->qps;

	if (cfg->corrupt && !we_send_data(cfg))
		perf_slot(s->perf, PERF_SLOTS(0))[len / 2] ^= 0x01;
	for (unsigned i = 0; i < qps; i++) {
		uint8_t want, got;

		if (!pattern_check(perf_slot(s->perf, PERF_SLOTS(i)), len, pattern_seed(s->start.seed, true, true),
				   &offset, &want, &got)) {
			r->check = CLIENT_CHECK_BAD;
			r->bad_at_serve = false;
			r->bad_qp = i;
			r->bad_offset = (uint32_t)offset;
			r->bad_expected = want;
			r->bad_got = got;
			return;
		}
	}
}

/* Called from the run's loop: sends DONE once our side is through, takes RESULT, notices the serve going away. */
static int tick(void *arg, struct perf_progress *p)
{
	struct session *s = arg;
	struct proto_msg m;
	char why[256];
	int ret;

	if (p->tx_done && !s->done_sent && s->cfg->test == PROTO_TEST_BW) {
		m.type = PROTO_DONE;
		m.u.done.size = s->start.size;
		m.u.done.iters = p->tx_iters;
		if (send_msg(s, &m, "at the end of the run"))
			return -ECANCELED;
		s->done_sent = true;
	}
	if (!chan_readable(s->fd))
		return 0;
	ret = chan_recv(s->fd, &m, 2000, why, sizeof(why));
	if (ret) {
		recv_failed(s, ret, why, "in the middle of the run");
		return -ECANCELED;
	}
	if (m.type == PROTO_RESULT && s->done_sent && !s->have_result) {
		s->result = m.u.result;
		s->have_result = true;
		if (s->cfg->bidir && s->cfg->op == PERF_OP_SEND)
			p->rx_expected = m.u.result.tx_iters;
		return 1;
	}
	if (m.type == PROTO_ERROR)
		failf(s, CLIENT_PEER_GONE, "the serve at %s stopped the test in the middle of the run: %s", s->where,
		      m.u.reason.text);
	else
		failf(s, CLIENT_PROTOCOL, "the serve at %s sent %s in the middle of the run", s->where,
		      proto_type_name(m.type));
	return -ECANCELED;
}

/* How long a failed run waits for the serve's control connection to close, to tell a serve that died (its
 * kernel flushes its QPs, so the first sign here can be a completion error, before its TCP close arrives: seen
 * under load on the VM pair as status 9) from a completion that failed on its own. */
#define GONE_WAIT_MS 500

/* The engine failed: say what the completion or the stall means, and whether the serve is still there. */
static int run_failed(struct session *s, int ret, const char *err, const struct perf_wc_error *wc)
{
	char gone[256] = "";
	struct proto_msg m;
	char why[256];

	if (ret == -ECANCELED)
		return -1;
	if (chan_readable_within(s->fd, ret == -EIO ? GONE_WAIT_MS : 0) &&
	    chan_recv(s->fd, &m, 200, why, sizeof(why)) == -ECONNRESET)
		snprintf(gone, sizeof(gone), "; the serve at %s has closed its control connection too: it stopped in "
			 "the middle of the test", s->where);
	if (ret == -EIO && gone[0])
		return failf(s, CLIENT_PEER_GONE, "the serve at %s closed the control connection in the middle of the "
			     "run: it was stopped or crashed (as it went, %s completion failed on QP %u at %u-byte "
			     "messages: %s, status %d)", s->where, wc->receive ? "a receive" : "a send", wc->qp,
			     s->start.size, perf_wc_status_name(wc->status), wc->status);
	if (ret == -EIO) {
		s->rep->wc_valid = true;
		s->rep->wc = *wc;
		return failf(s, CLIENT_COMPLETION, "%s completion failed on QP %u at %u-byte messages: %s (status %d, "
			     "vendor error 0x%x)%s", wc->receive ? "a receive" : "a send", wc->qp, s->start.size,
			     perf_wc_status_name(wc->status), wc->status, wc->vendor_err, gone);
	}
	if (ret == -ETIMEDOUT) {
		s->rep->stalled_in_run = !gone[0];
		return failf(s, CLIENT_STALL, "%s at %u-byte messages: the transfer to %s stalled%s", err,
			     s->start.size, s->where, gone);
	}
	return failf(s, CLIENT_SETUP, "%s", err);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void lat_stats(uint64_t *rtt, uint64_t n, struct client_size *r)
{
	double sum = 0;

	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	for (uint64_t i = 0; i < n; i++)
		sum += (double)rtt[i];
	r->min_ns = rtt[0] / 2;
	r->median_ns = (n % 2 ? rtt[n / 2] : (rtt[n / 2 - 1] + rtt[n / 2]) / 2) / 2;
	r->p99_ns = rtt[(n * 99 + 99) / 100 - 1] / 2;
	r->max_ns = rtt[n - 1] / 2;
	r->avg_ns = sum / (double)n / 2;
}

static int run_bw(struct session *s, struct client_size *r)
{
	const struct client_config *cfg = s->cfg;
	struct perf_bw_run run = {
		.op = cfg->op,
		.size = r->size,
		.iters = cfg->iters,
		.duration_ns = (uint64_t)cfg->duration_ms * 1000000u,
		.initiate = true,
		.receive = cfg->bidir && cfg->op == PERF_OP_SEND,
		.stall_ns = (uint64_t)s->timeout_ms * 1000000u,
		.tick = tick,
		.arg = s,
	};
	struct perf_bw_result res;
	char err[256];
	int ret = perf_bw(s->perf, &run, &res, err, sizeof(err));

	if (ret)
		return run_failed(s, ret, err, &res.wc);
	r->iters = res.iters;
	r->bytes = res.bytes;
	r->ns = res.ns;
	r->peak_bytes_per_s = res.peak_bytes_per_s;
	if (!s->done_sent) {
		struct proto_msg m = { .type = PROTO_DONE, .u.done = { .size = r->size, .iters = res.iters } };

		if (send_msg(s, &m, "at the end of the run"))
			return -1;
		s->done_sent = true;
	}
	return 0;
}

static int run_lat(struct session *s, struct client_size *r)
{
	const struct client_config *cfg = s->cfg;
	uint64_t *rtt = calloc(cfg->iters, sizeof(*rtt));
	struct perf_lat_run run = {
		.size = r->size,
		.iters = cfg->iters,
		.initiate = true,
		.stall_ns = (uint64_t)s->timeout_ms * 1000000u,
		.rtt_ns = rtt,
		.tick = tick,
		.arg = s,
	};
	struct perf_wc_error wc = { 0 };
	struct proto_msg m = { .type = PROTO_DONE, .u.done = { .size = r->size, .iters = cfg->iters } };
	char err[256];
	int ret;

	if (!rtt)
		return failf(s, CLIENT_SETUP, "out of memory for %llu latency samples", (unsigned long long)cfg->iters);
	ret = perf_lat(s->perf, &run, &wc, err, sizeof(err));
	if (ret) {
		free(rtt);
		return run_failed(s, ret, err, &wc);
	}
	r->iters = cfg->iters;
	r->bytes = cfg->iters * r->size;
	lat_stats(rtt, cfg->iters, r);
	free(rtt);
	if (send_msg(s, &m, "at the end of the run"))
		return -1;
	s->done_sent = true;
	return 0;
}

static int append(struct client_size_list *list, const struct client_size *r)
{
	struct client_size *items = realloc(list->items, (list->count + 1) * sizeof(*items));

	if (!items)
		return -1;
	items[list->count++] = *r;
	list->items = items;
	return 0;
}

static int run_size(struct session *s, uint32_t size, size_t index)
{
	const struct client_config *cfg = s->cfg;
	struct client_size r = { .size = size, .check = cfg->verify ? CLIENT_CHECK_OK : CLIENT_CHECK_OFF };
	struct proto_msg m = { .type = PROTO_START };

	s->start = (struct proto_start){ .size = size, .seed = random_seed(), .iters = cfg->iters,
					 .duration_ms = cfg->iters ? 0 : cfg->duration_ms };
	s->done_sent = s->have_result = false;
	prepare_buffers(s, size, s->start.seed);
	m.u.start = s->start;
	if (cfg->before_size)
		cfg->before_size(cfg->arg, index);
	if (send_msg(s, &m, "to start a size") || expect(s, PROTO_READY, &m, "in answer to START"))
		return -1;
	if (m.u.ready.size != size)
		return failf(s, CLIENT_PROTOCOL, "the serve at %s is ready for %u-byte messages, we start %u", s->where,
			     m.u.ready.size, size);
	if ((cfg->test == PROTO_TEST_LAT ? run_lat(s, &r) : run_bw(s, &r)) < 0)
		return -1;
	if (!s->have_result) {
		if (expect(s, PROTO_RESULT, &m, "at the end of the run"))
			return -1;
		s->result = m.u.result;
	}
	if (cfg->bidir) {
		r.peer_bytes = s->result.tx_bytes;
		r.peer_ns = s->result.tx_ns;
	}
	if (cfg->verify && s->result.check == PROTO_CHECK_BAD) {
		r.check = CLIENT_CHECK_BAD;
		r.bad_at_serve = true;
		r.bad_qp = s->result.qp;
		r.bad_offset = s->result.offset;
		r.bad_expected = s->result.expected;
		r.bad_got = s->result.got;
	} else if (cfg->verify && we_receive_data(cfg)) {
		check_received(s, &r);
	}
	if (append(&s->rep->sizes, &r))
		return failf(s, CLIENT_SETUP, "out of memory");
	if (cfg->on_size)
		cfg->on_size(cfg->arg, &r, index);
	if (r.check == CLIENT_CHECK_BAD)
		return failf(s, CLIENT_CHECK, "data check failed at %u-byte messages: %s found byte %u of QP %u's last "
			     "message was 0x%02x, expected 0x%02x", size, r.bad_at_serve ? "the serve" : "this side",
			     r.bad_offset, r.bad_qp, r.bad_got, r.bad_expected);
	return 0;
}

int client_run(const struct client_config *cfg, struct client_report *rep)
{
	struct session s = { .cfg = cfg, .rep = rep, .fd = -1, .timeout_ms = (int)cfg->timeout_s * 1000 };
	struct perf_endpoint remote;
	uint32_t max_size = 0;
	struct perf_config pc;
	char err[512];
	int ret = -1;

	memset(rep, 0, sizeof(*rep));
	chan_addr_text((const struct sockaddr *)&cfg->peer, s.where, sizeof(s.where), true);
	for (size_t i = 0; i < cfg->size_count; i++)
		max_size = cfg->sizes[i] > max_size ? cfg->sizes[i] : max_size;
	s.slot = proto_slot_size(max_size);
	pc = (struct perf_config){
		.device = cfg->device, .port = cfg->port, .gid_index = cfg->gid_index, .qps = cfg->qps,
		.tx_depth = cfg->tx_depth, .rx_depth = proto_rx_depth((uint8_t)cfg->op, cfg->tx_depth),
		.inline_size = cfg->inline_size, .slot_size = s.slot, .wait = cfg->wait,
	};
	/* The serve first: a missing serve is the commonest mistake, and says nothing about this host. */
	ret = chan_open(&cfg->peer, s.timeout_ms, cfg->secret, &s.fd, err, sizeof(err));
	if (ret) {
		failf(&s, ret == -EACCES ? CLIENT_REFUSED : ret == -EPROTO ? CLIENT_PROTOCOL : CLIENT_CONNECT, "%s", err);
		ret = -1;
		goto out;
	}
	if (perf_open(&pc, &s.perf, err, sizeof(err))) {
		failf(&s, CLIENT_SETUP, "cannot set up the test on %s/%u: %s", cfg->device, cfg->port, err);
		goto out;
	}
	perf_local_endpoint(s.perf, &rep->local);
	rep->inline_granted = perf_inline_granted(s.perf);
	if (handshake(&s))
		goto out;
	remote = rep->remote;
	if (cfg->bad_rkey)
		remote.rkey ^= 0x5a5a5a00u;   /* the key index, not the tag: a key the serve never made */
	if (perf_connect(s.perf, &remote, rep->path_mtu, err, sizeof(err)) ||
	    perf_post_receives(s.perf, err, sizeof(err))) {
		failf(&s, CLIENT_SETUP, "cannot connect the QPs to the serve at %s: %s", s.where, err);
		goto out;
	}
	for (size_t i = 0; i < cfg->size_count && rep->failure == CLIENT_OK; i++)
		run_size(&s, cfg->sizes[i], i);
	/* Wrong data ends the test, but the protocol is intact: the serve logs a test that ended, not a client
	 * that vanished. */
	if (rep->failure == CLIENT_OK || rep->failure == CLIENT_CHECK) {
		struct proto_msg bye = { .type = PROTO_BYE };

		chan_send(s.fd, &bye, 1000);
	}
	ret = rep->failure == CLIENT_OK ? 0 : -1;
out:
	/* A test that broke on our side: the serve logs our reason instead of a client that vanished. */
	if (s.fd >= 0 && rep->connected && rep->failure != CLIENT_OK && rep->failure != CLIENT_CHECK &&
	    rep->failure != CLIENT_PEER_GONE) {
		struct proto_msg m;

		proto_reason(&m, PROTO_ERROR, rep->failure == CLIENT_PROTOCOL ? PROTO_ERR_PAYLOAD : PROTO_ERR_TEST,
			     "%s", rep->message);
		chan_send(s.fd, &m, 1000);
	}
	if (s.fd >= 0)
		close(s.fd);
	perf_close(s.perf);
	return ret;
}

void client_report_free(struct client_report *rep)
{
	free(rep->sizes.items);
	rep->sizes.items = NULL;
	rep->sizes.count = 0;
}
