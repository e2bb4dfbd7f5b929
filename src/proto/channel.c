// SPDX-License-Identifier: GPL-2.0-only
/* Non-blocking TCP with poll() deadlines: a silent or slow peer costs at most the timeout given. */
#include "proto/channel.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "verbs/perf.h"

static int remaining_ms(uint64_t deadline)
{
	uint64_t now = perf_now_ns();

	if (now >= deadline)
		return 0;
	return (int)((deadline - now + 999999) / 1000000);
}

static uint64_t deadline_after(int timeout_ms)
{
	return perf_now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000u;
}

int chan_resolve(const char *host, unsigned port, struct sockaddr_storage *addr, char *err, size_t err_size)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
	char service[16];
	int ret;

	snprintf(service, sizeof(service), "%u", port);
	ret = getaddrinfo(host, service, &hints, &res);
	if (ret) {
		snprintf(err, err_size, "cannot resolve %s: %s", host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	memset(addr, 0, sizeof(*addr));
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

static socklen_t addr_len(const struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

void chan_addr_text(const struct sockaddr *sa, char *buf, size_t size, bool with_port)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
		port = ntohs(in->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
		port = ntohs(in6->sin6_port);
		/* An IPv4 client on a dual-stack socket: say it the IPv4 way. */
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr))
			inet_ntop(AF_INET, &in6->sin6_addr.s6_addr[12], ip, sizeof(ip));
		else if (with_port) {
			snprintf(buf, size, "[%s]:%u", ip, port);
			return;
		}
	}
	if (with_port)
		snprintf(buf, size, "%s:%u", ip, port);
	else
		snprintf(buf, size, "%s", ip);
}

static int listen_on(const struct sockaddr_storage *a, bool dual_stack, int *fd)
{
	int s = socket(a->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1, zero = 0;

	if (s < 0)
		return -errno;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->ss_family == AF_INET6)
		setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, dual_stack ? &zero : &one, sizeof(int));
	if (bind(s, (const struct sockaddr *)a, addr_len(a)) < 0 || listen(s, SOMAXCONN) < 0) {
		int ret = -errno;

		close(s);
		return ret;
	}
	*fd = s;
	return 0;
}

int chan_listen(const char *bind_addr, unsigned port, int *fd, char *err, size_t err_size)
{
	struct sockaddr_storage a = { 0 };
	int ret;

	if (bind_addr) {
		ret = chan_resolve(bind_addr, port, &a, err, err_size);
		if (ret)
			return ret;
		ret = listen_on(&a, false, fd);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a;
		struct sockaddr_in *in = (struct sockaddr_in *)&a;

		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
		in6->sin6_port = htons((uint16_t)port);
		ret = listen_on(&a, true, fd);
		if (ret == -EAFNOSUPPORT) {
			memset(&a, 0, sizeof(a));
			in->sin_family = AF_INET;
			in->sin_addr.s_addr = htonl(INADDR_ANY);
			in->sin_port = htons((uint16_t)port);
			ret = listen_on(&a, false, fd);
		}
	}
	if (ret)
		snprintf(err, err_size, "cannot listen on %s port %u: %s%s", bind_addr ? bind_addr : "every address",
			 port, strerror(-ret), ret == -EADDRINUSE ? " (another serve running? try --port)" : "");
	return ret;
}

void chan_prepare(int fd)
{
	int one = 1;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int chan_connect(const struct sockaddr_storage *addr, int timeout_ms, int *fd, char *err, size_t err_size)
{
	char where[80];
	int s = socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), ret = 0;

	chan_addr_text((const struct sockaddr *)addr, where, sizeof(where), true);
	if (s < 0) {
		ret = -errno;
		goto out;
	}
	if (connect(s, (const struct sockaddr *)addr, addr_len(addr)) < 0) {
		struct pollfd p = { .fd = s, .events = POLLOUT };
		socklen_t len = sizeof(ret);

		if (errno != EINPROGRESS) {
			ret = -errno;
			goto out;
		}
		ret = poll(&p, 1, timeout_ms);
		if (ret == 0) {
			ret = -ETIMEDOUT;
			goto out;
		}
		if (ret < 0 || getsockopt(s, SOL_SOCKET, SO_ERROR, &ret, &len) < 0) {
			ret = -errno;
			goto out;
		}
		ret = -ret;
	}
out:
	if (ret) {
		if (s >= 0)
			close(s);
		snprintf(err, err_size, "cannot connect to %s: %s%s", where, strerror(-ret),
			 ret == -ECONNREFUSED ? " (is 'roce-doctor serve' running there, listening on that port?)"
			 : ret == -ETIMEDOUT ? " (a firewall dropping the port, or the wrong address?)" : "");
		return ret;
	}
	chan_prepare(s);
	*fd = s;
	return 0;
}

int chan_send(int fd, const struct proto_msg *m, int timeout_ms)
{
	uint8_t buf[PROTO_MAX_FRAME];
	uint64_t deadline = deadline_after(timeout_ms);
	int len = proto_encode(m, buf, sizeof(buf));
	size_t off = 0;

	if (len < 0)
		return -EINVAL;
	while (off < (size_t)len) {
		ssize_t n = send(fd, buf + off, (size_t)len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		struct pollfd p = { .fd = fd, .events = POLLOUT };

		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return errno == ECONNRESET ? -EPIPE : -errno;
		if (remaining_ms(deadline) == 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, remaining_ms(deadline)) < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

/* Exactly len bytes before the deadline; -ECONNRESET with *got bytes when the peer closes first. */
static int read_exact(int fd, uint8_t *buf, size_t len, uint64_t deadline, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = recv(fd, buf + *got, len - *got, MSG_DONTWAIT);
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (n > 0) {
			*got += (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EINTR)
			return errno == ECONNRESET ? -ECONNRESET : -errno;
		if (remaining_ms(deadline) == 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, remaining_ms(deadline)) < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

int chan_recv(int fd, struct proto_msg *m, int timeout_ms, char *why, size_t why_size)
{
	uint8_t hdr[PROTO_HEADER_LEN], payload[PROTO_MAX_PAYLOAD];
	uint64_t deadline = deadline_after(timeout_ms);
	uint32_t length = 0;
	uint8_t type = 0;
	size_t got;
	int ret;

	ret = read_exact(fd, hdr, sizeof(hdr), deadline, &got);
	if (ret) {
		if (ret == -ECONNRESET)
			snprintf(why, why_size, got ? "connection closed after %zu of %d header bytes"
						    : "connection closed", got, PROTO_HEADER_LEN);
		else if (ret == -ETIMEDOUT)
			snprintf(why, why_size, "no frame within %.1f s", timeout_ms / 1000.0);
		else
			snprintf(why, why_size, "%s", strerror(-ret));
		return ret;
	}
	ret = proto_decode_header(hdr, &type, &length, why, why_size);
	if (ret)
		return ret;
	ret = read_exact(fd, payload, length, deadline, &got);
	if (ret) {
		snprintf(why, why_size, ret == -ECONNRESET ? "connection closed after %zu of %u %s payload bytes"
			 : ret == -ETIMEDOUT ? "only %zu of %u %s payload bytes came in time" : "%zu of %u %s bytes",
			 got, length, proto_type_name(type));
		return ret;
	}
	ret = proto_decode(type, payload, length, m, why, why_size);
	return ret ? -EPROTO : 0;
}

bool chan_readable_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	do
		ret = poll(&p, 1, ms);
	while (ret < 0 && errno == EINTR);
	return ret > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR));
}

bool chan_readable(int fd)
{
	return chan_readable_within(fd, 0);
}
