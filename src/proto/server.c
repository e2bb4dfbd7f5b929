// SPDX-License-Identifier: GPL-2.0-only
/* serve: accept one client, run its test, tear everything down, accept the next. While a test runs, the
 * listening socket is still watched so other clients get a clear refusal at once. Signals arrive through a
 * signalfd, so Ctrl-C and SIGTERM are just one more descriptor in every wait. */
#include "proto/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto/auth.h"
#include "proto/channel.h"
#include "proto/pattern.h"
#include "proto/reach.h"
#include "util/gidaddr.h"
#include "util/hmac.h"

#define LINGER_MAX 16
#define LINGER_NS 2000000000ull   /* how long a closing connection may take to read our last frame */
#define FRAME_TIMEOUT_MS 5000     /* the rest of a frame once its first byte is in */

/* A connection we have said our last word to: kept open, and drained, until the peer closes or time is up,
 * so that closing does not reset the connection before the peer reads the reason. */
struct lingering {
	int fd;
	uint64_t until;
};

struct server {
	const struct serve_config *cfg;
	int listen_fd, signal_fd;
	bool stopping;
	const char *stop_signal;
	struct lingering linger[LINGER_MAX];
	size_t linger_count;
	const char *busy_with;         /* the client being served, for refusals */
	uint64_t busy_since;
};

struct session {
	struct server *srv;
	int fd;
	char who[80];
	struct sockaddr_storage addr;
	struct perf_ctx *perf;
	struct proto_hello hello;
	char on[160];                  /* "rxe0:1 GID 1" */
	/* the size in progress */
	struct proto_start start;
	bool have_done;
	struct proto_done done;
	uint64_t deadline;
	char ended[320];               /* why the session ended, when not by BYE */
	unsigned sizes;
	bool data_bad;
	bool tested;                   /* a HELLO was accepted: the done line counts sizes */
	char answered[320];            /* the requests answered, for the done line */
	unsigned requests;
	bool refused;                  /* the opening refused the client (secret): logged as refused */
};

static void logf_(struct server *srv, const char *who, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void logf_(struct server *srv, const char *who, const char *event, const char *fmt, ...)
{
	char detail[512] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	if (srv->cfg->log)
		srv->cfg->log(srv->cfg->arg, who, event, detail);
}

/* ---- connections on their way out ---- */

static void linger_close(struct server *srv, size_t i)
{
	close(srv->linger[i].fd);
	srv->linger[i] = srv->linger[--srv->linger_count];
}

static void linger_add(struct server *srv, int fd)
{
	shutdown(fd, SHUT_WR);
	if (srv->linger_count == LINGER_MAX)
		linger_close(srv, 0);
	srv->linger[srv->linger_count].fd = fd;
	srv->linger[srv->linger_count++].until = perf_now_ns() + LINGER_NS;
}

static void linger_service(struct server *srv, const struct pollfd *p, size_t count)
{
	uint64_t now = perf_now_ns();
	char sink[4096];

	/* p[k] belongs to linger[k]; walk backwards because closing moves the last entry into the hole. */
	for (size_t k = count; k-- > 0;) {
		bool done = now >= srv->linger[k].until;

		if (!done && (p[k].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t n = recv(srv->linger[k].fd, sink, sizeof(sink), MSG_DONTWAIT);

			done = n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
		}
		if (done)
			linger_close(srv, k);
	}
}

/* Says the last word to a connection (best effort, never waits) and lets it linger. */
static void send_last(struct server *srv, int fd, const struct proto_msg *m)
{
	if (m)
		chan_send(fd, m, 0);
	linger_add(srv, fd);
}

/* ---- waiting ---- */

/* Outside the allow list: one REFUSE saying why, before anything else, and the connection closes. */
static bool admitted(struct server *srv, int fd, const char *who, const struct sockaddr_storage *addr)
{
	const struct serve_config *cfg = srv->cfg;
	struct proto_msg m;
	char why[512];

	if (!cfg->admit || cfg->admit(cfg->arg, addr, why, sizeof(why)) == 0)
		return true;
	proto_reason(&m, PROTO_REFUSE, PROTO_REFUSE_NOT_ALLOWED, "%s", why);
	logf_(srv, who, "refused", "%s", why);
	send_last(srv, fd, &m);
	return false;
}

static void refuse_others(struct server *srv)
{
	for (;;) {
		struct sockaddr_storage addr;
		socklen_t len = sizeof(addr);
		int fd = accept4(srv->listen_fd, (struct sockaddr *)&addr, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct proto_msg m;
		char who[80];

		if (fd < 0)
			return;
		chan_addr_text((const struct sockaddr *)&addr, who, sizeof(who), true);
		/* The allow list first, as for a client served; and no client's address to one that has not
		 * proved the secret: the log names both. */
		if (!admitted(srv, fd, who, &addr))
			continue;
		proto_reason(&m, PROTO_REFUSE, PROTO_REFUSE_BUSY,
			     "busy: another client's test is running (for %.0f s); serve runs one test at a time, try "
			     "again when it ends", (double)(perf_now_ns() - srv->busy_since) / 1e9);
		logf_(srv, who, "refused", "busy with %s", srv->busy_with);
		send_last(srv, fd, &m);
	}
}

static void take_signal(struct server *srv)
{
	struct signalfd_siginfo si;

	if (read(srv->signal_fd, &si, sizeof(si)) == sizeof(si)) {
		srv->stopping = true;
		srv->stop_signal = si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
	}
}

/* Waits up to timeout_ms (-1: forever) for the session's socket (or, without one, a new connection), while
 * refusing other clients, draining lingering ones and watching for signals. 1 when fd (or the listening
 * socket) is readable, 0 on timeout or a signal (srv->stopping). */
static int wait_for(struct server *srv, int fd, int timeout_ms)
{
	struct pollfd p[LINGER_MAX + 3];
	size_t n = srv->linger_count;
	int ret;

	for (size_t k = 0; k < n; k++)
		p[k] = (struct pollfd){ .fd = srv->linger[k].fd, .events = POLLIN };
	p[n] = (struct pollfd){ .fd = srv->signal_fd, .events = POLLIN };
	p[n + 1] = (struct pollfd){ .fd = srv->listen_fd, .events = POLLIN };
	p[n + 2] = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (n && (timeout_ms < 0 || timeout_ms > 500))
		timeout_ms = 500;   /* lingering connections expire on their own */
	ret = poll(p, fd >= 0 ? n + 3 : n + 2, timeout_ms);
	if (ret < 0)
		return 0;
	linger_service(srv, p, n);
	if (p[n].revents & POLLIN)
		take_signal(srv);
	if (srv->stopping)
		return 0;
	if (fd < 0)
		return (p[n + 1].revents & POLLIN) ? 1 : 0;
	if (p[n + 2].revents & (POLLIN | POLLHUP | POLLERR))
		return 1;
	/* Only when the session has nothing to say: its BYE or its close may be what is waking us, and the
	 * client knocking at the same moment is the next one, not a second one. */
	if (p[n + 1].revents & POLLIN)
		refuse_others(srv);
	return 0;
}

/* How long a new connection may stay silent: a client that says nothing must not hold the serve longer. */
static int hello_timeout_ms(const struct server *srv)
{
	return srv->cfg->hello_timeout_ms ? (int)srv->cfg->hello_timeout_ms : SERVE_HELLO_TIMEOUT_S * 1000;
}

static int remaining_ms(uint64_t deadline)
{
	uint64_t now = perf_now_ns();

	return now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
}

/* Our side of a protocol error: tell the client, end the session. Always returns -1. */
static int end_with(struct session *s, uint8_t type, uint16_t code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int end_with(struct session *s, uint8_t type, uint16_t code, const char *fmt, ...)
{
	struct proto_msg m;
	va_list ap;

	if (s->ended[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(s->ended, sizeof(s->ended), fmt, ap);
	va_end(ap);
	proto_reason(&m, type, code, "%s", s->ended);
	chan_send(s->fd, &m, 0);
	return -1;
}

/* The session ended for a reason the client cannot be told (it is gone). Always returns -1. */
static int ended(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int ended(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->ended[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(s->ended, sizeof(s->ended), fmt, ap);
	va_end(ap);
	return -1;
}

/* A frame that did not come, did not parse, or the peer left: the one place that turns that into an end. */
static int frame_failed(struct session *s, int ret, const char *why, const char *when)
{
	switch (ret) {
	case -ECONNRESET:
		return ended(s, "the client left %s (%s)", when, why);
	case -ETIMEDOUT:
		return end_with(s, PROTO_ERROR, PROTO_ERR_TIMEOUT, "no frame %s within the time allowed", when);
	case -EBADMSG:
		return end_with(s, PROTO_ERROR, PROTO_ERR_MAGIC, "%s", why);
	case -EPROTONOSUPPORT:
		return end_with(s, PROTO_ERROR, PROTO_ERR_VERSION, "%s", why);
	case -EMSGSIZE:
		return end_with(s, PROTO_ERROR, PROTO_ERR_LENGTH, "%s", why);
	case -ENOMSG:
		return end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "%s", why);
	case -EPROTO:
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "%s", why);
	default:
		return ended(s, "connection error %s: %s", when, why);
	}
}

/* The next frame of the session within timeout_ms. 0, or -1 with the session ended. */
static int next_frame(struct session *s, struct proto_msg *m, int timeout_ms, const char *when)
{
	uint64_t deadline = perf_now_ns() + (uint64_t)timeout_ms * 1000000u;
	char why[256];
	int ret;

	while (!wait_for(s->srv, s->fd, remaining_ms(deadline))) {
		if (s->srv->stopping)
			return end_with(s, PROTO_ERROR, PROTO_ERR_TEST, "serve is shutting down (%s)", s->srv->stop_signal);
		if (remaining_ms(deadline) == 0)
			return frame_failed(s, -ETIMEDOUT, "", when);
	}
	ret = chan_recv(s->fd, m, FRAME_TIMEOUT_MS, why, sizeof(why));
	if (ret)
		return frame_failed(s, ret, why, when);
	if (m->type == PROTO_ERROR)
		return ended(s, "the client stopped the test: %s", m->u.reason.text);
	return 0;
}

/* ---- one test ---- */

static bool gid_is_ipv4(const uint8_t *raw)
{
	struct in6_addr gid;

	memcpy(&gid, raw, sizeof(gid));
	return gid_is_ipv4_mapped(&gid);
}

static int accept_hello(struct session *s, const struct proto_hello *h, const struct serve_device *named)
{
	const struct serve_limits *lim = &s->srv->cfg->limits;
	uint64_t memory = PERF_SLOTS(h->ep.qps) * (uint64_t)h->slot_size;
	struct proto_msg m = { .type = PROTO_ACCEPT };
	struct perf_endpoint *ep = &m.u.accept.ep;
	struct serve_device dev;
	struct perf_config pc;
	char why[512];
	int path_mtu;

	if (h->ep.qps > lim->max_qps)
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_LIMIT, "%u QPs asked, this serve allows at most %u "
				"(serve --max-qps)", h->ep.qps, lim->max_qps);
	if (memory > lim->max_memory)
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_LIMIT, "the test needs %llu MiB of registered memory "
				"(%u QPs, %u-byte messages), this serve allows %llu MiB (serve --max-mem)",
				(unsigned long long)(memory >> 20), h->ep.qps, h->slot_size,
				(unsigned long long)(lim->max_memory >> 20));
	if (named)
		dev = *named;
	else if (s->srv->cfg->choose(s->srv->cfg->arg, &s->addr, &dev, why, sizeof(why)))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_NO_DEVICE, "%s", why);
	pc = (struct perf_config){
		.device = dev.device, .port = dev.port, .gid_index = dev.gid_index, .qps = h->ep.qps,
		.tx_depth = h->tx_depth, .rx_depth = proto_rx_depth(h->op, h->tx_depth),
		.inline_size = h->inline_size, .slot_size = h->slot_size, .wait = dev.wait,
	};
	snprintf(s->on, sizeof(s->on), "%s/%u GID %d", dev.device, dev.port, dev.gid_index);
	if (perf_open(&pc, &s->perf, why, sizeof(why)))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_RESOURCES, "cannot set up the test on %s: %s", s->on, why);
	perf_local_endpoint(s->perf, ep);
	if (ep->link_layer != h->ep.link_layer)
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_INCOMPATIBLE, "this serve's %s is %s, the client's port is "
				"%s", s->on, ep->link_layer == PERF_LINK_ETHERNET ? "Ethernet" : "InfiniBand",
				h->ep.link_layer == PERF_LINK_ETHERNET ? "Ethernet" : "InfiniBand");
	if (ep->link_layer == PERF_LINK_ETHERNET && gid_is_ipv4(ep->gid) != gid_is_ipv4(h->ep.gid))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_INCOMPATIBLE, "GID families differ: this serve's %s is "
				"%s, the client's GID is %s; choose GIDs of one family (-x)", s->on,
				gid_is_ipv4(ep->gid) ? "IPv4" : "IPv6", gid_is_ipv4(h->ep.gid) ? "IPv4" : "IPv6");
	path_mtu = ep->mtu < h->ep.mtu ? ep->mtu : h->ep.mtu;
	if (h->mtu_request && h->mtu_request < path_mtu)
		path_mtu = h->mtu_request;
	if (perf_connect(s->perf, &h->ep, path_mtu, why, sizeof(why)) || perf_post_receives(s->perf, why, sizeof(why)))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_RESOURCES, "cannot connect the QPs on %s: %s", s->on, why);
	m.u.accept.path_mtu = (uint8_t)path_mtu;
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000))
		return ended(s, "the client left before our ACCEPT");
	s->hello = *h;
	s->tested = true;
	logf_(s->srv, s->who, "accepted", "%s %s%s, %u QP%s, %u-byte slots, on %s, path MTU %d",
	      h->test == PROTO_TEST_LAT ? "lat" : "bw", perf_op_name(h->op), h->flags & PROTO_FLAG_BIDIR ? " bidir" : "",
	      h->ep.qps, h->ep.qps > 1 ? "s" : "", h->slot_size, s->on, perf_mtu_bytes(path_mtu));
	return 0;
}

static bool serve_sends_data(const struct proto_hello *h)
{
	return h->test == PROTO_TEST_LAT || h->op == PERF_OP_READ || (h->flags & PROTO_FLAG_BIDIR);
}

static bool serve_receives_data(const struct proto_hello *h)
{
	return h->test == PROTO_TEST_LAT || h->op != PERF_OP_READ || (h->flags & PROTO_FLAG_BIDIR);
}

/* Takes the client's DONE for the size in progress. 0, or -1 with the session ended. */
static int take_done(struct session *s, const struct proto_msg *m)
{
	if (m->type != PROTO_DONE)
		return end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "expected DONE, got %s", proto_type_name(m->type));
	if (m->u.done.size != s->start.size)
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "DONE for %u-byte messages, the size running is %u",
				m->u.done.size, s->start.size);
	if (m->u.done.iters == 0 || (s->start.iters && m->u.done.iters != s->start.iters))
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "DONE after %llu iterations, START said %llu",
				(unsigned long long)m->u.done.iters, (unsigned long long)s->start.iters);
	s->done = m->u.done;
	s->have_done = true;
	return 0;
}

/* Called from the engine's loops: keeps the serve responsive while it moves data. */
static int tick(void *arg, struct perf_progress *p)
{
	struct session *s = arg;
	struct proto_msg m;
	char why[256];
	int ret;

	if (!wait_for(s->srv, s->fd, 0)) {
		if (s->srv->stopping) {
			end_with(s, PROTO_ERROR, PROTO_ERR_TEST, "serve is shutting down (%s)", s->srv->stop_signal);
			return -ECANCELED;
		}
		if (perf_now_ns() > s->deadline) {
			end_with(s, PROTO_ERROR, PROTO_ERR_TIMEOUT, "the %u-byte size ran past this serve's limit of "
				 "%u s (serve --max-seconds)", s->start.size, s->srv->cfg->limits.max_seconds);
			return -ECANCELED;
		}
		return 0;
	}
	ret = chan_recv(s->fd, &m, FRAME_TIMEOUT_MS, why, sizeof(why));
	if (ret) {
		frame_failed(s, ret, why, "during the run");
		return -ECANCELED;
	}
	if (m.type == PROTO_ERROR) {
		ended(s, "the client stopped the test: %s", m.u.reason.text);
		return -ECANCELED;
	}
	if (s->have_done) {
		end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "%s after DONE", proto_type_name(m.type));
		return -ECANCELED;
	}
	if (take_done(s, &m))
		return -ECANCELED;
	p->rx_expected = s->done.iters;
	return 1;
}

static int run_failed(struct session *s, int ret, const char *err, const struct perf_wc_error *wc)
{
	if (ret == -ECANCELED)
		return -1;
	if (ret == -EIO)
		return end_with(s, PROTO_ERROR, PROTO_ERR_TEST, "on the serve, %s completion failed on QP %u at "
				"%u-byte messages: %s (status %d)", wc->receive ? "a receive" : "a send", wc->qp,
				s->start.size, perf_wc_status_name(wc->status), wc->status);
	return end_with(s, PROTO_ERROR, PROTO_ERR_TEST, "on the serve, at %u-byte messages: %s", s->start.size, err);
}

static void prepare_buffers(struct session *s)
{
	const struct proto_hello *h = &s->hello;
	uint32_t size = s->start.size;

	if (serve_sends_data(h)) {
		size_t checked = pattern_checked_len(h->test == PROTO_TEST_LAT, size);

		pattern_fill(perf_slot(s->perf, PERF_SLOT_BULK), size, pattern_seed(s->start.seed, true, false));
		pattern_fill(perf_slot(s->perf, PERF_SLOT_FINAL), size, pattern_seed(s->start.seed, true, true));
		if (s->srv->cfg->corrupt && checked)
			perf_slot(s->perf, PERF_SLOT_FINAL)[checked / 2] ^= 0x01;
	}
	if (serve_receives_data(h))
		for (unsigned i = 0; i < h->ep.qps; i++)
			memset(perf_slot(s->perf, PERF_SLOTS(i)), 0, size);
}

static void check_received(struct session *s, struct proto_result *r)
{
	const struct proto_hello *h = &s->hello;
	size_t len = pattern_checked_len(h->test == PROTO_TEST_LAT, s->start.size), offset;

	r->check = PROTO_CHECK_NONE;
	if (!(h->flags & PROTO_FLAG_VERIFY) || !serve_receives_data(h))
		return;
	if (s->srv->cfg->corrupt && !serve_sends_data(h))
		perf_slot(s->perf, PERF_SLOTS(0))[len / 2] ^= 0x01;
	r->check = PROTO_CHECK_OK;
	for (unsigned i = 0; i < h->ep.qps; i++) {
		uint8_t want, got;

		if (!pattern_check(perf_slot(s->perf, PERF_SLOTS(i)), len, pattern_seed(s->start.seed, false, true),
				   &offset, &want, &got)) {
			r->check = PROTO_CHECK_BAD;
			r->qp = (uint16_t)i;
			r->offset = (uint32_t)offset;
			r->expected = want;
			r->got = got;
			s->data_bad = true;
			logf_(s->srv, s->who, "data-mismatch", "%u-byte messages: byte %zu of QP %u's last message was "
			      "0x%02x, expected 0x%02x", s->start.size, offset, i, got, want);
			return;
		}
	}
}

static int run_size(struct session *s, const struct proto_start *start)
{
	const struct proto_hello *h = &s->hello;
	const struct serve_limits *lim = &s->srv->cfg->limits;
	struct proto_msg m = { .type = PROTO_READY, .u.ready.size = start->size };
	struct proto_result *r = &m.u.result;
	struct perf_bw_result res = { 0 };
	struct perf_wc_error wc = { 0 };
	char err[256];
	int ret = 0;

	if (++s->sizes > SERVE_MAX_SIZES)
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "more than %d sizes in one test", SERVE_MAX_SIZES);
	if (start->size > h->slot_size)
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "%u-byte messages do not fit the %u-byte slots "
				"of this test", start->size, h->slot_size);
	if (start->duration_ms > lim->max_seconds * 1000u)
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "a %.1f s run is over this serve's limit of %u s "
				"(serve --max-seconds)", start->duration_ms / 1000.0, lim->max_seconds);
	if (h->test == PROTO_TEST_LAT && !start->iters)
		return end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "lat counts iterations, not time");
	s->start = *start;
	s->have_done = false;
	s->deadline = perf_now_ns() + (uint64_t)lim->max_seconds * 1000000000u;
	prepare_buffers(s);
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000))
		return ended(s, "the client left before READY");

	if (h->test == PROTO_TEST_LAT) {
		struct perf_lat_run run = { .size = start->size, .iters = start->iters, .initiate = false,
					    .stall_ns = SERVE_IDLE_TIMEOUT_S * 1000000000ull, .tick = tick, .arg = s };

		ret = perf_lat(s->perf, &run, &wc, err, sizeof(err));
	} else if ((h->flags & PROTO_FLAG_BIDIR) || h->op == PERF_OP_SEND) {
		struct perf_bw_run run = {
			.op = h->op, .size = start->size, .iters = start->iters,
			.duration_ns = (uint64_t)start->duration_ms * 1000000u,
			.initiate = h->flags & PROTO_FLAG_BIDIR, .receive = h->op == PERF_OP_SEND,
			.stall_ns = SERVE_IDLE_TIMEOUT_S * 1000000000ull, .tick = tick, .arg = s,
		};

		ret = perf_bw(s->perf, &run, &res, err, sizeof(err));
		wc = res.wc;
	}
	if (ret)
		return run_failed(s, ret, err, &wc);
	if (!s->have_done) {
		int wait = remaining_ms(s->deadline);

		if (next_frame(s, &m, wait, "before DONE") || take_done(s, &m))
			return -1;
	}
	memset(&m, 0, sizeof(m));
	m.type = PROTO_RESULT;
	check_received(s, r);
	if (h->flags & PROTO_FLAG_BIDIR) {
		r->tx_iters = res.iters;
		r->tx_bytes = res.bytes;
		r->tx_ns = res.ns;
	}
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000))
		return ended(s, "the client left before RESULT");
	return 0;
}

/* ---- requests besides tests ---- */

static void note_answer(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note_answer(struct session *s, const char *fmt, ...)
{
	size_t used = strlen(s->answered);
	va_list ap;

	if (used + 3 >= sizeof(s->answered))
		return;
	if (used)
		used += (size_t)snprintf(s->answered + used, sizeof(s->answered) - used, "; ");
	va_start(ap, fmt);
	vsnprintf(s->answered + used, sizeof(s->answered) - used, fmt, ap);
	va_end(ap);
}

/* Its own snapshot, in numbered chunks that each declare the total; the whole transfer within the idle
 * timeout, so a client that stops reading costs a bounded time. 0, or -1 with the session ended. */
static int answer_snapshot(struct session *s)
{
	const struct serve_config *cfg = s->srv->cfg;
	uint64_t deadline;
	struct proto_msg m;
	char why[512];
	char *text = NULL;
	size_t len = 0;
	uint32_t count;

	if (!cfg->snapshot || cfg->snapshot(cfg->arg, &text, &len, why, sizeof(why)))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_UNAVAILABLE, "the serve cannot take its snapshot: %s",
				cfg->snapshot ? why : "not offered");
	if (len == 0 || len > PROTO_SNAPSHOT_MAX) {
		free(text);
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_UNAVAILABLE, "the serve's snapshot is %zu bytes, the "
				"protocol carries 1..%u", len, PROTO_SNAPSHOT_MAX);
	}
	count = proto_chunk_count((uint32_t)len);
	deadline = perf_now_ns() + SERVE_IDLE_TIMEOUT_S * 1000000000ull;
	for (uint32_t i = 0; i < count; i++) {
		size_t off = (size_t)i * PROTO_CHUNK_DATA;

		m.type = PROTO_SNAPSHOT_CHUNK;
		m.u.chunk.index = i;
		m.u.chunk.count = count;
		m.u.chunk.total = (uint32_t)len;
		m.u.chunk.len = (uint16_t)(len - off < PROTO_CHUNK_DATA ? len - off : PROTO_CHUNK_DATA);
		memcpy(m.u.chunk.data, text + off, m.u.chunk.len);
		if (chan_send(s->fd, &m, remaining_ms(deadline))) {
			free(text);
			return ended(s, "the client did not take the snapshot (chunk %u of %u)", i + 1, count);
		}
	}
	free(text);
	note_answer(s, "snapshot of %zu bytes", len);
	return 0;
}

/* Waits for the probe's connection on lfd until the deadline, watching the session (a client that leaves
 * ends it) and signals. 1 with from filled when one arrived, 0 when none, -1 with the session ended. */
static int await_arrival(struct session *s, int lfd, uint64_t deadline, struct sockaddr_storage *from)
{
	struct server *srv = s->srv;

	for (;;) {
		struct pollfd p[3] = { { .fd = lfd, .events = POLLIN }, { .fd = s->fd, .events = POLLIN },
				       { .fd = srv->signal_fd, .events = POLLIN } };
		int left = remaining_ms(deadline);

		if (left == 0)
			return 0;
		if (poll(p, 3, left) < 0 && errno != EINTR)
			return ended(s, "poll: %s", strerror(errno));
		if (p[2].revents & POLLIN) {
			take_signal(srv);
			return end_with(s, PROTO_ERROR, PROTO_ERR_TEST, "serve is shutting down (%s)", srv->stop_signal);
		}
		if (p[0].revents & POLLIN) {
			socklen_t len = sizeof(*from);
			int fd = accept4(lfd, (struct sockaddr *)from, &len, SOCK_CLOEXEC);

			if (fd >= 0) {
				close(fd);
				return 1;
			}
		}
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			struct proto_msg m;
			char why[256];
			int ret = chan_recv(s->fd, &m, FRAME_TIMEOUT_MS, why, sizeof(why));

			if (ret)
				return frame_failed(s, ret, why, "while we listened for its connection");
			if (m.type == PROTO_ERROR)
				return ended(s, "the client stopped the probe: %s", m.u.reason.text);
			return end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "%s while we listened for its connection",
					proto_type_name(m.type));
		}
	}
}

/* A temporary listener on the address the client names, for a few seconds: did its connection arrive, and
 * from where. The kernel's bind is the check that the address is this host's own. */
static int answer_reach(struct session *s, const struct proto_reach_req *r)
{
	struct proto_msg m = { .type = PROTO_REACH_LISTENING };
	struct sockaddr_storage from, on;
	char why[256], where[80], who[80] = "";
	uint16_t port;
	uint64_t deadline;
	int lfd, arrived;

	if (reach_listen(r->address, r->port, &lfd, &port, why, sizeof(why)))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_BAD_REQUEST, "%s", why);
	reach_addr_from_wire(r->address, port, &on);
	chan_addr_text((const struct sockaddr *)&on, where, sizeof(where), true);
	m.u.listening.port = port;
	m.u.listening.wait_ms = r->wait_ms;
	deadline = perf_now_ns() + (uint64_t)r->wait_ms * 1000000u;
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000)) {
		close(lfd);
		return ended(s, "the client left before REACH_LISTENING");
	}
	arrived = await_arrival(s, lfd, deadline, &from);
	close(lfd);
	if (arrived < 0)
		return -1;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_REACH_RESULT;
	if (arrived) {
		m.u.reach.arrived = 1;
		reach_addr_to_wire(&from, m.u.reach.from, &m.u.reach.from_port);
		chan_addr_text((const struct sockaddr *)&from, who, sizeof(who), true);
	}
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000))
		return ended(s, "the client left before REACH_RESULT");
	note_answer(s, "reach %s: %s%s", where, arrived ? "arrived from " : "nothing arrived in time", who);
	return 0;
}

/* HELLO_ON: the client names the serve's device, port and GID index of a rail; the serve checks them. */
static int accept_hello_on(struct session *s, const struct proto_hello_on *h)
{
	const struct serve_config *cfg = s->srv->cfg;
	struct serve_device dev;
	char why[512];

	if (!cfg->rail || cfg->rail(cfg->arg, h->device, h->port, h->gid_index, &dev, why, sizeof(why)))
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_NO_DEVICE, "%s", cfg->rail ? why : "not offered");
	return accept_hello(s, &h->hello, &dev);
}

static void run_test(struct session *s)
{
	struct proto_msg m;

	for (;;) {
		if (next_frame(s, &m, SERVE_IDLE_TIMEOUT_S * 1000, "between sizes"))
			return;
		if (m.type == PROTO_BYE)
			return;
		if (m.type != PROTO_START) {
			end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "expected START or BYE, got %s", proto_type_name(m.type));
			return;
		}
		if (run_size(s, &m.u.start))
			return;
	}
}

/* A connection opens with a test (HELLO, HELLO_ON: the test is the rest of it) or with requests, any number
 * up to SERVE_MAX_REQUESTS, ended by BYE. */
static void session_run(struct session *s)
{
	struct proto_msg m;

	for (;;) {
		if (next_frame(s, &m, s->requests ? SERVE_IDLE_TIMEOUT_S * 1000 : hello_timeout_ms(s->srv),
			       s->requests ? "after a request" : "to start"))
			return;
		if (m.type == PROTO_BYE && s->requests)
			return;
		if (m.type == PROTO_HELLO || m.type == PROTO_HELLO_ON) {
			if (s->requests) {
				end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "%s after a request: a test opens its own "
					 "connection", proto_type_name(m.type));
				return;
			}
			if ((m.type == PROTO_HELLO ? accept_hello(s, &m.u.hello, NULL)
						   : accept_hello_on(s, &m.u.hello_on)) == 0)
				run_test(s);
			return;
		}
		if (++s->requests > SERVE_MAX_REQUESTS) {
			end_with(s, PROTO_ERROR, PROTO_ERR_PAYLOAD, "more than %d requests on one connection",
				 SERVE_MAX_REQUESTS);
			return;
		}
		if (m.type == PROTO_SNAPSHOT_REQ) {
			if (answer_snapshot(s))
				return;
		} else if (m.type == PROTO_REACH_REQ) {
			if (answer_reach(s, &m.u.reach_req))
				return;
		} else {
			end_with(s, PROTO_ERROR, PROTO_ERR_TYPE, "expected HELLO, HELLO_ON, SNAPSHOT_REQ or REACH_REQ%s, "
				 "got %s", s->requests > 1 ? " or BYE" : "", proto_type_name(m.type));
			return;
		}
	}
}

/* The client must prove it knows the secret: AUTH over our nonce, within the HELLO timeout; then we prove it
 * too. 0, or -1 with the session ended and refused. */
static int authenticate(struct session *s, const uint8_t nonce[PROTO_NONCE_LEN])
{
	const struct secret *secret = s->srv->cfg->secret;
	uint8_t want[PROTO_MAC_LEN], client_nonce[PROTO_NONCE_LEN];
	struct proto_msg m;
	bool right;

	if (next_frame(s, &m, hello_timeout_ms(s->srv), "to authenticate"))
		return -1;
	if (m.type != PROTO_AUTH) {
		s->refused = true;
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_NOT_ALLOWED, "this serve requires a shared secret "
				"(serve --secret-file): the client sent %s, not AUTH; give it --secret-file FILE, a copy "
				"of the serve's file", proto_type_name(m.type));
	}
	auth_mac(secret, false, nonce, m.u.auth.nonce, want);
	right = equal_constant_time(want, m.u.auth.mac, sizeof(want));
	wipe(want, sizeof(want));
	if (!right) {
		s->refused = true;
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_NOT_ALLOWED, "wrong shared secret: the client's "
				"--secret-file is not the same file as the serve's");
	}
	memcpy(client_nonce, m.u.auth.nonce, sizeof(client_nonce));   /* AUTH_OK shares the union with AUTH */
	memset(&m, 0, sizeof(m));
	m.type = PROTO_AUTH_OK;
	auth_mac(secret, true, client_nonce, nonce, m.u.auth_ok.mac);
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000))
		return ended(s, "the client left before AUTH_OK");
	return 0;
}

/* Protocol 2's opening: GREETING with a fresh nonce (and whether a secret is required), then the secret's
 * challenge. 0, or -1 with the session ended. */
static int open_session(struct session *s)
{
	struct proto_msg m = { .type = PROTO_GREETING };
	int ret = auth_nonce(m.u.greeting.nonce);

	if (ret)
		return end_with(s, PROTO_REFUSE, PROTO_REFUSE_UNAVAILABLE, "the serve cannot draw a nonce: %s",
				strerror(-ret));
	m.u.greeting.flags = s->srv->cfg->secret ? PROTO_GREET_SECRET : 0;
	if (chan_send(s->fd, &m, SERVE_IDLE_TIMEOUT_S * 1000))
		return ended(s, "the client left before our GREETING");
	return s->srv->cfg->secret ? authenticate(s, m.u.greeting.nonce) : 0;
}

static void serve_client(struct server *srv, int fd, const struct sockaddr_storage *addr)
{
	struct session s = { .srv = srv, .fd = fd, .addr = *addr };

	chan_prepare(fd);
	chan_addr_text((const struct sockaddr *)addr, s.who, sizeof(s.who), true);
	if (!admitted(srv, fd, s.who, addr))
		return;
	srv->busy_with = s.who;
	srv->busy_since = perf_now_ns();
	logf_(srv, s.who, "connected", NULL);
	if (open_session(&s) == 0)
		session_run(&s);
	/* Everything the client made us take goes back before the next one: QPs, MR, CQs, PD, device. */
	perf_close(s.perf);
	if (s.refused)
		logf_(srv, s.who, "refused", "%s", s.ended);
	else if (s.ended[0])
		logf_(srv, s.who, "ended", "%s%s%s", s.answered, s.answered[0] ? "; then " : "", s.ended);
	else if (!s.tested)
		logf_(srv, s.who, "done", "%s", s.answered);
	else
		logf_(srv, s.who, "done", "%u size%s, data %s", s.sizes, s.sizes == 1 ? "" : "s",
		      !(s.hello.flags & PROTO_FLAG_VERIFY) ? "not checked" : s.data_bad ? "MISMATCH" : "ok");
	send_last(srv, fd, NULL);
	srv->busy_with = NULL;
	/* A snapshot takes a few MiB in many pieces; after the first large one glibc raises its mmap threshold and
	 * keeps what the next ones free in the heap. Give it back, so a serve that runs for days stays at the size
	 * of one client (measured by tests/serve/soak.py: 7 MiB, not 14). */
	malloc_trim(0);
}

/* The port the kernel chose for --port 0: a script (the tests, many serves at once) reads it from the log
 * instead of guessing a free one and racing others for it. */
static unsigned bound_port(int fd)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len) < 0)
		return 0;
	return ntohs(a.ss_family == AF_INET6 ? ((const struct sockaddr_in6 *)&a)->sin6_port
					     : ((const struct sockaddr_in *)&a)->sin_port);
}

int serve_run(const struct serve_config *cfg, char *err, size_t err_size)
{
	struct server srv = { .cfg = cfg, .listen_fd = -1, .signal_fd = -1 };
	sigset_t mask, old;
	int ret;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, &old) < 0) {
		snprintf(err, err_size, "cannot block signals: %s", strerror(errno));
		return -errno;
	}
	srv.signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (srv.signal_fd < 0) {
		ret = -errno;
		snprintf(err, err_size, "signalfd: %s", strerror(errno));
		goto out_mask;
	}
	ret = chan_listen(cfg->bind_addr, cfg->port, &srv.listen_fd, err, err_size);
	if (ret)
		goto out_signal;
	logf_(&srv, NULL, "listening", "on %s port %u", cfg->bind_addr ? cfg->bind_addr : "every address",
	      cfg->port ? cfg->port : bound_port(srv.listen_fd));
	if (cfg->allowing)
		logf_(&srv, NULL, "allowing", "%s", cfg->allowing);
	while (!srv.stopping) {
		struct sockaddr_storage addr;
		socklen_t len = sizeof(addr);
		int fd;

		if (!wait_for(&srv, -1, -1))
			continue;
		fd = accept4(srv.listen_fd, (struct sockaddr *)&addr, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0)
			serve_client(&srv, fd, &addr);
	}
	logf_(&srv, NULL, "stopped", "%s", srv.stop_signal);
	while (srv.linger_count)
		linger_close(&srv, 0);
	close(srv.listen_fd);
out_signal:
	close(srv.signal_fd);
out_mask:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
