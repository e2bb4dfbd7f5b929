// SPDX-License-Identifier: GPL-2.0-only
/* mesh's frames over non-blocking TCP: the header first, then at most MESH_FRAME_MAX bytes of payload. */
#include "proto/mesh_chan.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "verbs/perf.h"

static int left_ms(uint64_t deadline)
{
	uint64_t now = perf_now_ns();

	return now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
}

int mesh_chan_send(int fd, const struct mesh_msg *m, int timeout_ms)
{
	uint64_t deadline = perf_now_ns() + (uint64_t)timeout_ms * 1000000u;
	uint8_t *frame;
	size_t len, off = 0;
	int ret = mesh_msg_encode(m, &frame, &len);

	if (ret)
		return ret;
	while (off < len) {
		ssize_t n = send(fd, frame + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		struct pollfd p = { .fd = fd, .events = POLLOUT };

		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			ret = errno == ECONNRESET || errno == EPIPE ? -EPIPE : -errno;
			break;
		}
		if (left_ms(deadline) == 0) {
			ret = -ETIMEDOUT;
			break;
		}
		poll(&p, 1, left_ms(deadline));
	}
	free(frame);
	return ret;
}

/* len bytes before the deadline; -ECONNRESET when the peer closes first. */
static int read_all(int fd, uint8_t *buf, size_t len, uint64_t deadline)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, MSG_DONTWAIT);
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EINTR)
			return errno == ECONNRESET ? -ECONNRESET : -errno;
		if (left_ms(deadline) == 0)
			return -ETIMEDOUT;
		poll(&p, 1, left_ms(deadline));
	}
	return 0;
}

int mesh_chan_recv(int fd, struct mesh_msg *m, int timeout_ms, char *why, size_t why_size)
{
	uint64_t deadline = perf_now_ns() + (uint64_t)timeout_ms * 1000000u;
	uint8_t header[MESH_HEADER_LEN], *payload;
	uint32_t len;
	int ret = read_all(fd, header, sizeof(header), deadline);

	if (ret == 0)
		ret = mesh_msg_header(header, &len, why, why_size);
	else
		snprintf(why, why_size, "%s", ret == -ECONNRESET ? "the connection closed" : ret == -ETIMEDOUT ?
			 "no message in time" : strerror(-ret));
	if (ret)
		return ret;
	payload = malloc(len);
	if (!payload) {
		snprintf(why, why_size, "out of memory");
		return -ENOMEM;
	}
	ret = read_all(fd, payload, len, deadline);
	if (ret)
		snprintf(why, why_size, "%s in the middle of a %u-byte message", ret == -ECONNRESET ?
			 "the connection closed" : ret == -ETIMEDOUT ? "the rest did not come in time" : strerror(-ret), len);
	else
		ret = mesh_msg_decode(payload, len, m, why, why_size);
	free(payload);
	return ret;
}
