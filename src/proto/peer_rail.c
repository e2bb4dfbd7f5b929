// SPDX-License-Identifier: GPL-2.0-only
/* The rail probes of check --peer: an RC QP between the two ends of one rail (the serve's end named in
 * HELLO_ON, which the serve checks), one RDMA WRITE and its read-back; and a short bw run on the same ends. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "proto/auth.h"
#include "proto/channel.h"
#include "proto/client.h"
#include "proto/pattern.h"
#include "proto/peer_client.h"

#define PROBE_BYTES 64                  /* one slot: the write and the read-back */
#define PROBE_RDMA_MS 2000              /* the QPs give up after ~0.5 s (timeout 14, 7 retries); rxe may not */

static int rail_fail(struct rail_rdma_probe *out, enum rail_rdma_outcome outcome, bool by_peer, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rail_fail(struct rail_rdma_probe *out, enum rail_rdma_outcome outcome, bool by_peer, const char *fmt, ...)
{
	va_list ap;

	out->outcome = outcome;
	out->seen_by_peer = by_peer;
	va_start(ap, fmt);
	vsnprintf(out->detail, sizeof(out->detail), fmt, ap);
	va_end(ap);
	return -1;
}

/* The serve's answer to HELLO_ON, its endpoint checked against ours. 0, or -1 with out filled. */
static int handshake(int fd, struct perf_ctx *perf, const struct rail_end *remote, int timeout_ms,
		     const char *where, struct proto_msg *m, struct rail_rdma_probe *out)
{
	struct perf_endpoint local;
	char why[256];
	int ret, path_mtu;

	perf_local_endpoint(perf, &local);
	memset(m, 0, sizeof(*m));
	m->type = PROTO_HELLO_ON;
	snprintf(m->u.hello_on.device, sizeof(m->u.hello_on.device), "%s", remote->device);
	m->u.hello_on.port = (uint8_t)remote->port;
	m->u.hello_on.gid_index = (uint16_t)remote->gid_index;
	m->u.hello_on.hello = (struct proto_hello){ .test = PROTO_TEST_BW, .op = PERF_OP_WRITE,
						     .flags = PROTO_FLAG_VERIFY, .tx_depth = 4,
						     .slot_size = PROTO_MIN_SLOT, .ep = local };
	ret = chan_send(fd, m, timeout_ms);
	if (ret)
		return rail_fail(out, RAIL_RDMA_PEER_GONE, true, "cannot send HELLO_ON to the serve at %s: %s", where,
				 strerror(-ret));
	ret = chan_recv(fd, m, timeout_ms, why, sizeof(why));
	if (ret)
		return rail_fail(out, RAIL_RDMA_PEER_GONE, true, "the serve at %s %s", where,
				 ret == -ECONNRESET ? "closed the connection before it answered HELLO_ON"
				 : ret == -ETIMEDOUT ? "did not answer HELLO_ON in time" : why);
	if (m->type == PROTO_REFUSE)
		return rail_fail(out, m->u.reason.code == PROTO_REFUSE_RESOURCES ? RAIL_RDMA_SETUP_FAILED
				 : RAIL_RDMA_REFUSED, true, "the serve at %s refused the rail: %s", where,
				 m->u.reason.text);
	if (m->type != PROTO_ACCEPT)
		return rail_fail(out, RAIL_RDMA_PEER_GONE, true, "the serve at %s answered HELLO_ON with %s%s%s", where,
				 proto_type_name(m->type), m->type == PROTO_ERROR ? ": " : "",
				 m->type == PROTO_ERROR ? m->u.reason.text : "");
	path_mtu = local.mtu < m->u.accept.ep.mtu ? local.mtu : m->u.accept.ep.mtu;
	if (proto_check_endpoint(&m->u.accept.ep, PROTO_MIN_SLOT, why, sizeof(why)) || m->u.accept.ep.qps != 1 ||
	    m->u.accept.ep.link_layer != local.link_layer || m->u.accept.path_mtu != path_mtu)
		return rail_fail(out, RAIL_RDMA_PEER_GONE, true, "the serve at %s answered with an endpoint that does "
				 "not fit ours (%s)", where, why[0] ? why : "QPs, link layer or path MTU");
	return 0;
}

int peer_rail_rdma(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		   const struct rail_end *local, const struct rail_end *remote, struct rail_rdma_probe *out)
{
	struct perf_config pc = { .device = local->device, .port = local->port, .gid_index = local->gid_index,
				  .qps = 1, .tx_depth = 4, .slot_size = PROTO_MIN_SLOT, .wait = PERF_WAIT_POLL };
	int timeout_ms = (int)timeout_s * 1000, fd = -1, ret = -1;
	struct perf_wc_error wc = { 0 };
	struct perf_ctx *perf = NULL;
	struct proto_msg m;
	char where[80], err[512];
	uint64_t t0;
	uint32_t seed;
	size_t offset;
	uint8_t want, got;

	memset(out, 0, sizeof(*out));
	chan_addr_text((const struct sockaddr *)serve, where, sizeof(where), true);
	if (local->gid_index < 0 || remote->gid_index < 0) {
		out->outcome = RAIL_RDMA_NOT_RUN;
		snprintf(out->detail, sizeof(out->detail), "%s has no usable GID", local->gid_index < 0 ? "this side"
			 : "the serve's side");
		return -1;
	}
	ret = chan_open(serve, timeout_ms, secret, &fd, err, sizeof(err));
	if (ret)
		return rail_fail(out, ret == -EACCES ? RAIL_RDMA_REFUSED : RAIL_RDMA_PEER_GONE, true, "%s", err);
	ret = -1;
	if (perf_open(&pc, &perf, err, sizeof(err))) {
		rail_fail(out, RAIL_RDMA_SETUP_FAILED, false, "cannot set up %s/%u GID %d here: %s", local->device,
			  local->port, local->gid_index, err);
		goto out;
	}
	if (handshake(fd, perf, remote, timeout_ms, where, &m, out))
		goto out;
	out->path_mtu_bytes = (unsigned)perf_mtu_bytes(m.u.accept.path_mtu);
	if (perf_connect(perf, &m.u.accept.ep, m.u.accept.path_mtu, err, sizeof(err))) {
		rail_fail(out, RAIL_RDMA_SETUP_FAILED, false, "cannot connect the QP to %s/%u GID %d: %s",
			  remote->device, remote->port, remote->gid_index, err);
		goto out;
	}
	seed = pattern_seed((uint32_t)perf_now_ns(), false, true);
	pattern_fill(perf_slot(perf, PERF_SLOT_FINAL), PROBE_BYTES, seed);
	memset(perf_slot(perf, PERF_SLOTS(0)), 0, PROBE_BYTES);
	t0 = perf_now_ns();
	ret = perf_write_read(perf, PROBE_BYTES, (uint64_t)(timeout_ms < PROBE_RDMA_MS ? timeout_ms : PROBE_RDMA_MS)
			      * 1000000u, &wc, err, sizeof(err));
	if (ret == -EIO) {
		out->wc_status = wc.status;
		rail_fail(out, RAIL_RDMA_WC_ERROR, false, "%s: %s", err, perf_wc_explain(wc.status));
	} else if (ret == -ETIMEDOUT) {
		rail_fail(out, RAIL_RDMA_TIMEOUT, false, "%s (RoCE dropped between the two ends: UDP 4791 filtered, "
			  "a wrong GID or route?)", err);
	} else if (ret) {
		rail_fail(out, RAIL_RDMA_SETUP_FAILED, false, "%s", err);
	} else if (!pattern_check(perf_slot(perf, PERF_SLOTS(0)), PROBE_BYTES, seed, &offset, &want, &got)) {
		rail_fail(out, RAIL_RDMA_WC_ERROR, false, "the read-back differs from what was written: byte %zu is "
			  "0x%02x, expected 0x%02x", offset, got, want);
		ret = -1;
	} else {
		out->outcome = RAIL_RDMA_OK;
		out->round_trip_us = (double)(perf_now_ns() - t0) / 1000.0;
		snprintf(out->detail, sizeof(out->detail), "RDMA WRITE and READ of %d bytes, path MTU %u",
			 PROBE_BYTES, out->path_mtu_bytes);
	}
	if (ret == 0) {
		m.type = PROTO_BYE;
		chan_send(fd, &m, 1000);
	} else if (out->outcome != RAIL_RDMA_PEER_GONE && out->outcome != RAIL_RDMA_REFUSED) {
		proto_reason(&m, PROTO_ERROR, PROTO_ERR_TEST, "rail probe: %s", out->detail);
		chan_send(fd, &m, 1000);
	}
out:
	close(fd);
	perf_close(perf);
	return out->outcome == RAIL_RDMA_OK ? 0 : -1;
}

int peer_rail_bw(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		 const struct rail_end *local, const struct rail_end *remote, unsigned duration_ms, enum perf_wait wait,
		 struct rail_bw_probe *out)
{
	static const uint32_t size = 65536;
	struct client_config cfg = {
		.peer = *serve, .test = PROTO_TEST_BW, .op = PERF_OP_WRITE, .verify = true, .qps = 1, .tx_depth = 128,
		.wait = wait, .sizes = &size, .size_count = 1, .duration_ms = duration_ms,
		.timeout_s = timeout_s, .secret = secret, .device = local->device, .port = local->port, .gid_index = local->gid_index,
		.serve_device = remote->device, .serve_port = remote->port, .serve_gid_index = remote->gid_index,
	};
	struct client_report rep;

	memset(out, 0, sizeof(*out));
	if (local->gid_index < 0 || remote->gid_index < 0) {
		snprintf(out->detail, sizeof(out->detail), "%s has no usable GID", local->gid_index < 0 ? "this side"
			 : "the serve's side");
		return -1;
	}
	out->run = true;
	client_run(&cfg, &rep);
	out->ok = rep.failure == CLIENT_OK && rep.sizes.count == 1 && rep.sizes.items[0].ns > 0;
	/* a frozen serve still moves the data (rxe's side runs in its kernel): it is its control channel that stalls */
	out->serve_gone = rep.failure == CLIENT_CONNECT || rep.failure == CLIENT_PEER_GONE ||
			  (rep.failure == CLIENT_STALL && !rep.stalled_in_run);
	if (rep.sizes.count == 1 && rep.sizes.items[0].ns > 0)
		out->gbps = (double)rep.sizes.items[0].bytes * 8 / (double)rep.sizes.items[0].ns;
	/* pair.h keeps 256 bytes; the start of the client's message is the part that names the cause */
	snprintf(out->detail, sizeof(out->detail), "%.*s", (int)sizeof(out->detail) - 1,
		 rep.failure == CLIENT_OK ? "" : rep.message);
	client_report_free(&rep);
	return out->ok ? 0 : -1;
}
