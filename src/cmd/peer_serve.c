// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's peer source against a running `roce-doctor serve`: each call is one request of
 * proto/peer_client.h on its own control connection, bounded by the timeout. A probe that ran and failed is
 * 0 with the failure in its result (the rules explain it); a control connection that fails (no serve, a serve
 * that died or lies) is -errno with the client's one line, and check --peer stops with it. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/peer_source.h"
#include "proto/channel.h"
#include "proto/peer_client.h"
#include "proto/wire.h"

/* How long the serve's listener waits for our connection: a connect on a LAN takes well under a millisecond,
 * and one a firewall drops never arrives however long it waits. */
#define REACH_LISTEN_MS 2000
/* The short bw run on each rail. */
#define RAIL_BW_MS 500

struct serve_source {
	struct sockaddr_storage serve;
	struct secret *secret;                 /* --secret-file's, owned; NULL: none */
	unsigned timeout_s;
	const struct peer_source *src;         /* for the local host model check --peer fills in */
	int asked_fd;                          /* a snapshot request sent ahead, its answer not yet read; -1: none */
};

static int ask_snapshot(void *ctx, char *why, size_t why_size)
{
	struct serve_source *c = ctx;

	return c->asked_fd >= 0 ? 0 : peer_snapshot_ask(&c->serve, c->secret, c->timeout_s, &c->asked_fd, why, why_size);
}

static int fetch_snapshot(void *ctx, struct snapshot *out, char *why, size_t why_size)
{
	struct serve_source *c = ctx;
	int fd = c->asked_fd;

	c->asked_fd = -1;
	if (fd >= 0)
		return peer_snapshot_take(fd, &c->serve, c->timeout_s, out, why, why_size);
	return peer_snapshot(&c->serve, c->secret, c->timeout_s, out, why, why_size);
}

static int probe_rail(void *ctx, const struct rail_end *local, const struct rail_end *remote, unsigned timeout_s,
		      struct rail_rdma_probe *out, char *why, size_t why_size)
{
	const struct serve_source *c = ctx;

	(void)why;
	(void)why_size;
	peer_rail_rdma(&c->serve, c->secret, timeout_s, local, remote, out);
	return 0;
}

/* Asleep on completion events on a software device (rxe, siw: its work runs on the CPUs a spinning loop would
 * take), spinning on a NIC, as bw does. */
static enum perf_wait local_wait(const struct serve_source *c, const char *device)
{
	const struct rdma_device *d = c->src->local_host ? host_find_device(c->src->local_host, device) : NULL;

	return d && d->parent[0] ? PERF_WAIT_EVENT : PERF_WAIT_POLL;
}

static int probe_bw(void *ctx, const struct rail_end *local, const struct rail_end *remote, unsigned timeout_s,
		    struct rail_bw_probe *out, char *why, size_t why_size)
{
	const struct serve_source *c = ctx;

	(void)why;
	(void)why_size;
	peer_rail_bw(&c->serve, c->secret, timeout_s, local, remote, RAIL_BW_MS, local_wait(c, local->device), out);
	return 0;
}

static int parse_address(const char *text, struct sockaddr_storage *out)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)out;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;

	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, text, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

static int probe_tcp(void *ctx, const char *local_address, const char *remote_address, uint16_t port,
		     unsigned timeout_s, struct tcp_reach_probe *out, char *why, size_t why_size)
{
	const struct serve_source *c = ctx;
	struct peer_reach_ask ask = { .port = port, .listen_ms = REACH_LISTEN_MS };
	char purpose[sizeof(out->purpose)];
	int ret;

	snprintf(purpose, sizeof(purpose), "%s", out->purpose);
	ask.purpose = purpose;
	if (parse_address(local_address, &ask.local) < 0 || parse_address(remote_address, &ask.remote) < 0) {
		snprintf(why, why_size, "the bootstrap addresses %s and %s are not IP addresses", local_address,
			 remote_address);
		return -EINVAL;
	}
	ret = peer_tcp_reach(&c->serve, c->secret, timeout_s, &ask, out);
	if (ret < 0)
		snprintf(why, why_size, "%s", out->detail);
	return ret;
}

static void close_source(void *ctx)
{
	struct serve_source *c = ctx;

	if (c->asked_fd >= 0)
		close(c->asked_fd);   /* asked, never read: the serve sees the connection go and ends that session */
	app_free_secret(c->secret);
	free(c);
}

int peer_split(const char *peer, char *host, size_t host_size, unsigned *port, char *why, size_t why_size)
{
	const char *colon = strrchr(peer, ':'), *p;
	size_t len = strlen(peer);
	char *end;
	unsigned long v;

	*port = PROTO_DEFAULT_PORT;
	if (!*peer || len > 253 + 8 || strspn(peer, "0123456789abcdefABCDEF.:-_%[]ghijklmnopqrstuvwxyz"
						 "GHIJKLMNOPQRSTUVWXYZ") != len) {
		snprintf(why, why_size, "bad --peer '%s': expected an address or a host name, with :PORT when serve "
			 "listens elsewhere", peer);
		return -EINVAL;
	}
	if (peer[0] == '[') {
		const char *close = strchr(peer, ']');

		if (!close || (close[1] && close[1] != ':')) {
			snprintf(why, why_size, "bad --peer '%s': expected [IPV6]:PORT", peer);
			return -EINVAL;
		}
		len = (size_t)(close - peer - 1);
		colon = close[1] ? close + 1 : NULL;
		p = peer + 1;
	} else {
		p = peer;
		if (colon && strchr(peer, ':') != colon)
			colon = NULL;   /* a bare IPv6 address */
		else if (colon)
			len = (size_t)(colon - peer);
	}
	if (colon) {
		errno = 0;
		v = strtoul(colon + 1, &end, 10);
		if (!colon[1] || *end || errno || v < 1 || v > 65535) {
			snprintf(why, why_size, "bad port in --peer '%s': expected 1..65535", peer);
			return -EINVAL;
		}
		*port = (unsigned)v;
	}
	if (len == 0 || len >= host_size) {
		snprintf(why, why_size, "bad --peer '%s': no host", peer);
		return -EINVAL;
	}
	memcpy(host, p, len);
	host[len] = 0;
	return 0;
}

int peer_serve_open(const char *peer, unsigned timeout_s, struct secret *secret, struct peer_source *src, char *why,
		    size_t why_size)
{
	struct serve_source *c = calloc(1, sizeof(*c));
	char host[256];
	unsigned port;
	int ret;

	if (!c) {
		app_free_secret(secret);
		snprintf(why, why_size, "out of memory");
		return -ENOMEM;
	}
	c->secret = secret;
	c->asked_fd = -1;
	ret = peer_split(peer, host, sizeof(host), &port, why, why_size);
	if (ret == 0)
		ret = chan_resolve(host, port, &c->serve, why, why_size);
	if (ret < 0) {
		close_source(c);
		return ret;
	}
	c->timeout_s = timeout_s;
	c->src = src;
	*src = (struct peer_source){ .ctx = c, .ask_snapshot = ask_snapshot, .fetch_snapshot = fetch_snapshot, .probe_rail = probe_rail,
				     .probe_bw = probe_bw, .probe_tcp = probe_tcp, .close = close_source,
				     .address_known = true, .address = c->serve };
	return 0;
}
