// SPDX-License-Identifier: GPL-2.0-only
/* peer_snapshot: SNAPSHOT_REQ, then the serve's snapshot in numbered chunks, checked chunk by chunk (order,
 * declared total, size bound) and the whole by the snapshot reader. One deadline covers the whole transfer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/auth.h"
#include "proto/channel.h"
#include "proto/peer_client.h"

static int remaining_ms(uint64_t deadline)
{
	uint64_t now = perf_now_ns();

	return now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
}

/* A failed chan_recv during the transfer, said with how far it got. */
static int recv_failed(int ret, const char *where, const char *why, uint32_t got, uint32_t total,
		       unsigned timeout_s, char *out, size_t out_size)
{
	char progress[64] = "before its snapshot";

	if (total)
		snprintf(progress, sizeof(progress), "after %u of %u snapshot bytes", got, total);
	if (ret == -ECONNRESET)
		snprintf(out, out_size, "the serve at %s closed the connection %s: it was stopped or crashed", where,
			 progress);
	else if (ret == -ETIMEDOUT)
		snprintf(out, out_size, "the serve at %s stopped answering %s (--timeout %u s)", where, progress,
			 timeout_s);
	else if (ret == -EPROTONOSUPPORT)
		snprintf(out, out_size, "the serve at %s speaks another protocol: %s", where, why);
	else
		snprintf(out, out_size, "the serve at %s sent a bad frame %s: %s", where, progress, why);
	return ret == -ECONNRESET || ret == -ETIMEDOUT ? ret : -EPROTO;
}

/* A frame that is not the next chunk: the serve's refusal or error, or a protocol violation. */
static int unexpected(const struct proto_msg *m, const char *where, bool first, char *why, size_t why_size)
{
	if (m->type == PROTO_REFUSE) {
		snprintf(why, why_size, "the serve at %s refused the snapshot: %s", where, m->u.reason.text);
		return -EACCES;
	}
	if (m->type == PROTO_ERROR && first && m->u.reason.code == PROTO_ERR_TYPE)
		snprintf(why, why_size, "the serve at %s does not answer snapshot requests (an older roce-doctor? "
			 "upgrade it there): %s", where, m->u.reason.text);
	else if (m->type == PROTO_ERROR)
		snprintf(why, why_size, "the serve at %s stopped: %s", where, m->u.reason.text);
	else
		snprintf(why, why_size, "the serve at %s sent %s, expected SNAPSHOT_CHUNK", where,
			 proto_type_name(m->type));
	return -EPROTO;
}

/* The chunks, in order, into a buffer of the declared size. 0 with *text (malloc'd) and *len, or -errno. */
static int receive_text(int fd, const char *where, unsigned timeout_s, char **text, uint32_t *len, char *why,
			size_t why_size)
{
	uint64_t deadline = perf_now_ns() + (uint64_t)timeout_s * 1000000000u;
	uint32_t total = 0, count = 0, got = 0;
	char *buf = NULL;
	struct proto_msg *m = malloc(sizeof(*m));
	char frame_why[256];
	int ret = 0;

	if (!m)
		return -ENOMEM;
	for (uint32_t next = 0; next == 0 || got < total; next++) {
		ret = chan_recv(fd, m, remaining_ms(deadline), frame_why, sizeof(frame_why));
		if (ret) {
			ret = recv_failed(ret, where, frame_why, got, total, timeout_s, why, why_size);
			break;
		}
		if (m->type != PROTO_SNAPSHOT_CHUNK) {
			ret = unexpected(m, where, next == 0, why, why_size);
			break;
		}
		/* proto_decode has checked each chunk alone (total bound, count, length); the sequence is ours. */
		if (next == 0) {
			total = m->u.chunk.total;
			count = m->u.chunk.count;
			buf = malloc(total + 1);
			if (!buf) {
				ret = -ENOMEM;
				snprintf(why, why_size, "out of memory for a %u-byte snapshot", total);
				break;
			}
		}
		if (m->u.chunk.index != next || m->u.chunk.total != total || m->u.chunk.count != count) {
			snprintf(why, why_size, "the serve at %s sent chunk %u of %u (a %u-byte snapshot) where chunk %u "
				 "of %u (%u bytes) was due", where, m->u.chunk.index + 1, m->u.chunk.count, m->u.chunk.total,
				 next + 1, count, total);
			ret = -EPROTO;
			break;
		}
		memcpy(buf + got, m->u.chunk.data, m->u.chunk.len);
		got += m->u.chunk.len;
	}
	free(m);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[total] = '\0';
	*text = buf;
	*len = total;
	return 0;
}

int peer_snapshot_ask(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		      int *fd, char *why, size_t why_size)
{
	struct proto_msg req = { .type = PROTO_SNAPSHOT_REQ };
	char where[80];
	int ret;

	*fd = -1;
	chan_addr_text((const struct sockaddr *)serve, where, sizeof(where), true);
	ret = chan_open(serve, (int)timeout_s * 1000, secret, fd, why, why_size);
	if (ret)
		return ret;
	ret = chan_send(*fd, &req, (int)timeout_s * 1000);
	if (ret) {
		snprintf(why, why_size, "cannot ask the serve at %s for its snapshot: %s", where, strerror(-ret));
		close(*fd);
		*fd = -1;
	}
	return ret;
}

int peer_snapshot(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		  struct snapshot *s, char *why, size_t why_size)
{
	int fd, ret = peer_snapshot_ask(serve, secret, timeout_s, &fd, why, why_size);

	memset(s, 0, sizeof(*s));
	return ret ? ret : peer_snapshot_take(fd, serve, timeout_s, s, why, why_size);
}

int peer_snapshot_take(int fd, const struct sockaddr_storage *serve, unsigned timeout_s, struct snapshot *s, char *why,
		       size_t why_size)
{
	struct proto_msg req = { .type = PROTO_BYE };
	char where[80], detail[768];
	char *text = NULL;
	uint32_t len = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	chan_addr_text((const struct sockaddr *)serve, where, sizeof(where), true);
	ret = receive_text(fd, where, timeout_s, &text, &len, why, why_size);
	if (ret)
		goto out;
	chan_send(fd, &req, 1000);
	ret = snapshot_parse(text, len, s, detail, sizeof(detail));
	if (ret == -EINVAL)
		snprintf(why, why_size, "the serve at %s sent a snapshot that is not valid: %s", where, detail);
	else if (ret)
		snprintf(why, why_size, "the serve at %s sent a snapshot we cannot read: %s", where, strerror(-ret));
out:
	free(text);
	close(fd);
	return ret;
}
