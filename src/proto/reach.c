// SPDX-License-Identifier: GPL-2.0-only
/* Sockets of the reachability probe: the serve's short-lived listener and the client's bound connection. */
#include "proto/reach.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "proto/channel.h"

static socklen_t addr_len(const struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

void reach_addr_to_wire(const struct sockaddr_storage *sa, uint8_t out[16], uint16_t *port)
{
	memset(out, 0, 16);
	*port = 0;
	if (sa->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		out[10] = out[11] = 0xff;
		memcpy(out + 12, &in->sin_addr, 4);
		*port = ntohs(in->sin_port);
	} else if (sa->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		memcpy(out, &in6->sin6_addr, 16);
		*port = ntohs(in6->sin6_port);
	}
}

void reach_addr_from_wire(const uint8_t in[16], uint16_t port, struct sockaddr_storage *sa)
{
	struct in6_addr a;

	memcpy(&a, in, 16);
	memset(sa, 0, sizeof(*sa));
	if (IN6_IS_ADDR_V4MAPPED(&a)) {
		struct sockaddr_in *v4 = (struct sockaddr_in *)sa;

		v4->sin_family = AF_INET;
		memcpy(&v4->sin_addr, in + 12, 4);
		v4->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)sa;

		v6->sin6_family = AF_INET6;
		v6->sin6_addr = a;
		v6->sin6_port = htons(port);
	}
}

int reach_addr_equal(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	uint8_t wa[16], wb[16];
	uint16_t pa, pb;

	reach_addr_to_wire(a, wa, &pa);
	reach_addr_to_wire(b, wb, &pb);
	return pa == pb && memcmp(wa, wb, 16) == 0;
}

int reach_listen(const uint8_t address[16], uint16_t port, int *fd, uint16_t *bound_port, char *why,
		 size_t why_size)
{
	struct sockaddr_storage a, got;
	socklen_t len = sizeof(got);
	char where[INET6_ADDRSTRLEN + 8];
	uint8_t wire[16];
	int s, ret = 0, one = 1;

	*fd = -1;
	reach_addr_from_wire(address, port, &a);
	chan_addr_text((const struct sockaddr *)&a, where, sizeof(where), false);
	if (a.ss_family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(&((struct sockaddr_in6 *)&a)->sin6_addr)) {
		snprintf(why, why_size, "%s is link-local: name a global address of the serve", where);
		return -EINVAL;
	}
	s = socket(a.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot open a socket for %s: %s", where, strerror(errno));
		return ret;
	}
	/* A port in TIME_WAIT from an earlier probe is free to take; one with a live listener is not. */
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (const struct sockaddr *)&a, addr_len(&a)) < 0 || listen(s, 4) < 0) {
		ret = -errno;
		if (ret == -EADDRNOTAVAIL)
			snprintf(why, why_size, "%s is not an address of this serve's host", where);
		else if (ret == -EADDRINUSE)
			snprintf(why, why_size, "port %u on %s is in use on the serve's host", port, where);
		else if (ret == -EACCES)
			snprintf(why, why_size, "port %u on %s needs privileges the serve does not have", port, where);
		else
			snprintf(why, why_size, "cannot listen on %s port %u: %s", where, port, strerror(-ret));
		close(s);
		return ret;
	}
	if (getsockname(s, (struct sockaddr *)&got, &len) < 0) {
		ret = -errno;
		snprintf(why, why_size, "getsockname: %s", strerror(errno));
		close(s);
		return ret;
	}
	reach_addr_to_wire(&got, wire, bound_port);
	*fd = s;
	return 0;
}

int reach_connect(const struct sockaddr_storage *local, const struct sockaddr_storage *remote, int timeout_ms,
		  int *fd, struct sockaddr_storage *from, char *why, size_t why_size)
{
	char here[INET6_ADDRSTRLEN + 8], there[INET6_ADDRSTRLEN + 16];
	struct sockaddr_storage bind_to = *local;
	socklen_t len = sizeof(*from);
	int s, ret = 0;

	*fd = -1;
	chan_addr_text((const struct sockaddr *)local, here, sizeof(here), false);
	chan_addr_text((const struct sockaddr *)remote, there, sizeof(there), true);
	if (bind_to.ss_family == AF_INET)
		((struct sockaddr_in *)&bind_to)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&bind_to)->sin6_port = 0;
	s = socket(remote->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot open a socket: %s", strerror(errno));
		return ret;
	}
	if (bind(s, (const struct sockaddr *)&bind_to, addr_len(&bind_to)) < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot bind to %s (an address of this host of %s's family?): %s", here, there,
			 strerror(errno));
		goto fail;
	}
	if (getsockname(s, (struct sockaddr *)from, &len) < 0) {
		ret = -errno;
		snprintf(why, why_size, "getsockname: %s", strerror(errno));
		goto fail;
	}
	if (connect(s, (const struct sockaddr *)remote, addr_len(remote)) < 0) {
		struct pollfd p = { .fd = s, .events = POLLOUT };
		socklen_t elen = sizeof(ret);

		if (errno != EINPROGRESS) {
			ret = -errno;
		} else {
			int n = poll(&p, 1, timeout_ms);

			if (n == 0)
				ret = -ETIMEDOUT;
			else if (n < 0 || getsockopt(s, SOL_SOCKET, SO_ERROR, &ret, &elen) < 0)
				ret = -errno;
			else
				ret = -ret;
		}
		if (ret) {
			snprintf(why, why_size, "connecting from %s to %s: %s", here, there, strerror(-ret));
			goto fail;
		}
	}
	*fd = s;
	return 0;
fail:
	close(s);
	return ret;
}
