// SPDX-License-Identifier: GPL-2.0-only
/* peer_tcp_reach: the serve listens on an address of its own for a moment, we connect from an address of
 * ours, and its account of what arrived must match what we did: a serve that names another port than asked,
 * or an arrival from an address we did not use, is lying (or not a roce-doctor) and the probe says so. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "proto/auth.h"
#include "proto/channel.h"
#include "proto/peer_client.h"
#include "proto/reach.h"

static int reach_error(struct tcp_reach_probe *out, int ret, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int reach_error(struct tcp_reach_probe *out, int ret, const char *fmt, ...)
{
	va_list ap;

	out->outcome = TCP_REACH_ERROR;
	va_start(ap, fmt);
	vsnprintf(out->detail, sizeof(out->detail), fmt, ap);
	va_end(ap);
	return ret;
}

/* (reach_error sets the detail of every outcome; the caller corrects the outcome where it is not an error.) */

/* One frame of the type wanted within timeout_ms; REFUSE fills out as the serve's refusal (1). */
static int expect(int fd, uint8_t type, int timeout_ms, const char *where, const char *when,
		  struct proto_msg *m, struct tcp_reach_probe *out)
{
	char why[256];
	int ret = chan_recv(fd, m, timeout_ms, why, sizeof(why));

	if (ret == -ECONNRESET)
		return reach_error(out, ret, "the serve at %s closed the connection %s", where, when);
	if (ret == -ETIMEDOUT)
		return reach_error(out, ret, "the serve at %s stopped answering %s", where, when);
	if (ret)
		return reach_error(out, -EPROTO, "the serve at %s sent a bad frame %s: %s", where, when, why);
	if (m->type == type)
		return 0;
	if (m->type == PROTO_REFUSE) {
		reach_error(out, 1, "the serve at %s would not listen: %s", where, m->u.reason.text);
		out->outcome = TCP_REACH_REFUSED_BY_PEER;
		return 1;
	}
	if (m->type == PROTO_ERROR)
		return reach_error(out, -EPROTO, "the serve at %s stopped %s: %s%s", where, when, m->u.reason.text,
				   m->u.reason.code == PROTO_ERR_TYPE ? " (an older roce-doctor there?)" : "");
	return reach_error(out, -EPROTO, "the serve at %s sent %s %s, expected %s", where, proto_type_name(m->type),
			   when, proto_type_name(type));
}

/* Checks the serve's REACH_RESULT against what we did and fills out. */
static int judge(const struct proto_reach_result *r, const struct sockaddr_storage *from, bool connected,
		 const char *where, struct tcp_reach_probe *out)
{
	struct sockaddr_storage claimed;
	char claim[80], ours[80];

	chan_addr_text((const struct sockaddr *)from, ours, sizeof(ours), true);
	if (!r->arrived) {
		if (connected)
			return reach_error(out, -EPROTO, "the serve at %s says nothing arrived on port %u, yet our "
					   "connection from %s was accepted there", where, out->port, ours);
		reach_error(out, 0, "nothing from %s arrived at %s port %u (%s)", out->local_address,
			    out->remote_address, out->port, out->connect_errno ? strerror(out->connect_errno) : "no connection");
		out->outcome = TCP_REACH_NOT_ARRIVED;
		return 0;
	}
	reach_addr_from_wire(r->from, r->from_port, &claimed);
	chan_addr_text((const struct sockaddr *)&claimed, claim, sizeof(claim), true);
	if (!connected || !reach_addr_equal(&claimed, from))
		return reach_error(out, -EPROTO, "the serve at %s claims a connection from %s arrived; we %s %s", where,
				   claim, connected ? "connected from" : "did not connect, from", ours);
	reach_error(out, 0, "%s reached %s port %u", ours, out->remote_address, out->port);
	out->outcome = TCP_REACH_ARRIVED;
	return 0;
}

int peer_tcp_reach(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		   const struct peer_reach_ask *ask, struct tcp_reach_probe *out)
{
	struct proto_msg m = { .type = PROTO_REACH_REQ };
	struct sockaddr_storage target = ask->remote, from;
	char where[80], why[256];
	int fd = -1, conn = -1, ret, timeout_ms = (int)timeout_s * 1000, connect_ms;
	uint16_t ignored;

	memset(out, 0, sizeof(*out));
	snprintf(out->purpose, sizeof(out->purpose), "%s", ask->purpose ? ask->purpose : "");
	chan_addr_text((const struct sockaddr *)&ask->local, out->local_address, sizeof(out->local_address), false);
	chan_addr_text((const struct sockaddr *)&ask->remote, out->remote_address, sizeof(out->remote_address), false);
	chan_addr_text((const struct sockaddr *)serve, where, sizeof(where), true);
	if (ask->listen_ms < PROTO_REACH_MIN_MS || ask->listen_ms > PROTO_REACH_MAX_MS)
		return reach_error(out, -EINVAL, "listen time %u ms (%u..%u)", ask->listen_ms, PROTO_REACH_MIN_MS,
				   PROTO_REACH_MAX_MS);
	ret = chan_open(serve, timeout_ms, secret, &fd, why, sizeof(why));
	if (ret)
		return reach_error(out, ret, "%s", why);
	reach_addr_to_wire(&ask->remote, m.u.reach_req.address, &ignored);
	m.u.reach_req.port = ask->port;
	m.u.reach_req.wait_ms = (uint16_t)ask->listen_ms;
	ret = chan_send(fd, &m, timeout_ms);
	if (ret) {
		reach_error(out, ret, "cannot ask the serve at %s to listen: %s", where, strerror(-ret));
		goto out;
	}
	ret = expect(fd, PROTO_REACH_LISTENING, timeout_ms, where, "in answer to REACH_REQ", &m, out);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto out;
	}
	if ((ask->port && m.u.listening.port != ask->port) || m.u.listening.wait_ms > ask->listen_ms) {
		ret = reach_error(out, -EPROTO, "the serve at %s listens on port %u for %u ms; we asked for %s%u for at "
				  "most %u ms", where, m.u.listening.port, m.u.listening.wait_ms, ask->port ? "port " :
				  "any port, got ", ask->port ? ask->port : m.u.listening.port, ask->listen_ms);
		goto out;
	}
	out->port = m.u.listening.port;
	((struct sockaddr_in *)&target)->sin_port = htons(out->port);   /* same offset in sockaddr_in6 */
	/* Our attempt ends before the serve stops listening, so its answer covers it. */
	connect_ms = (int)m.u.listening.wait_ms * 3 / 4;
	ret = reach_connect(&ask->local, &target, connect_ms < timeout_ms ? connect_ms : timeout_ms, &conn, &from,
			    out->detail, sizeof(out->detail));
	if (ret == -EADDRNOTAVAIL || ret == -EINVAL || ret == -EAFNOSUPPORT) {
		reach_error(out, ret, "%s", out->detail);   /* our bind: the ask was wrong, nothing was probed */
		goto out;
	}
	out->connect_failed = ret != 0;
	out->connect_errno = -ret;
	chan_addr_text((const struct sockaddr *)&from, out->local_address, sizeof(out->local_address), false);
	ret = expect(fd, PROTO_REACH_RESULT, (int)m.u.listening.wait_ms + timeout_ms, where,
		     "while it listened for our connection", &m, out);
	if (ret == 0)
		ret = judge(&m.u.reach, &from, conn >= 0, where, out);
	else if (ret > 0)
		ret = reach_error(out, -EPROTO, "the serve at %s refused after it listened", where);
	if (ret == 0) {
		m.type = PROTO_BYE;
		chan_send(fd, &m, 1000);
	}
out:
	if (conn >= 0)
		close(conn);
	close(fd);
	return ret;
}
