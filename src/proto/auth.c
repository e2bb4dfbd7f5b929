// SPDX-License-Identifier: GPL-2.0-only
/* The client's side of the opening, and the proofs both sides compute. docs/bw-protocol.md, "Opening:
 * greeting and shared secret". */
#include "proto/auth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "proto/channel.h"
#include "util/hmac.h"

_Static_assert(PROTO_MAC_LEN == HMAC_SHA256_LEN, "a proof is one HMAC-SHA256");

static const char client_context[] = "roce-doctor serve protocol 2: client proof";
static const char serve_context[] = "roce-doctor serve protocol 2: serve proof";

void auth_mac(const struct secret *secret, bool by_serve, const uint8_t first[PROTO_NONCE_LEN],
	      const uint8_t second[PROTO_NONCE_LEN], uint8_t out[PROTO_MAC_LEN])
{
	const char *context = by_serve ? serve_context : client_context;
	const struct hmac_part parts[3] = { { first, PROTO_NONCE_LEN }, { second, PROTO_NONCE_LEN },
					    { context, strlen(context) } };

	hmac_sha256_parts(secret->bytes, secret->len, parts, 3, out);
}

int auth_nonce(uint8_t out[PROTO_NONCE_LEN])
{
	size_t got = 0;

	while (got < PROTO_NONCE_LEN) {
		ssize_t n = getrandom(out + got, PROTO_NONCE_LEN - got, 0);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	return 0;
}

/* The next frame of the opening, or -errno with err said. */
static int opening_frame(int fd, uint8_t want, int timeout_ms, const char *where, const char *when,
			 struct proto_msg *m, char *err, size_t err_size)
{
	char why[256];
	int ret = chan_recv(fd, m, timeout_ms, why, sizeof(why));

	if (ret == -ETIMEDOUT) {
		/* A silent serve is most often a stopped or hung one; an old one is the other reason for GREETING. */
		snprintf(err, err_size, "the serve at %s sent no %s within %d s%s", where, proto_type_name(want),
			 timeout_ms / 1000, want == PROTO_GREETING ? " (stopped, hung or swamped; or a roce-doctor serve "
			 "older than protocol 2, which sends none: run the same version on both nodes)" : "");
		return ret;
	}
	if (ret == -ECONNRESET) {
		snprintf(err, err_size, "the serve at %s closed the connection %s", where, when);
		return ret;
	}
	if (ret == -EPROTONOSUPPORT || ret == -EBADMSG) {
		snprintf(err, err_size, "the serve at %s speaks another protocol: %s", where, why);
		return -EPROTO;
	}
	if (ret) {
		snprintf(err, err_size, "the serve at %s sent a bad frame %s: %s", where, when, why);
		return -EPROTO;
	}
	if (m->type == want)
		return 0;
	if (m->type == PROTO_REFUSE) {
		snprintf(err, err_size, "the serve at %s refused the test: %s", where, m->u.reason.text);
		return -EACCES;
	}
	if (m->type == PROTO_ERROR)
		snprintf(err, err_size, "the serve at %s stopped %s: %s", where, when, m->u.reason.text);
	else
		snprintf(err, err_size, "the serve at %s sent %s %s, expected %s", where, proto_type_name(m->type),
			 when, proto_type_name(want));
	return -EPROTO;
}

/* Our proof, then the serve's. 0 or -errno with err. */
static int prove(int fd, int timeout_ms, const struct secret *secret, const uint8_t serve_nonce[PROTO_NONCE_LEN],
		 const char *where, char *err, size_t err_size)
{
	struct proto_msg m = { .type = PROTO_AUTH };
	uint8_t nonce[PROTO_NONCE_LEN], want[PROTO_MAC_LEN];
	int ret = auth_nonce(nonce);

	if (ret) {
		snprintf(err, err_size, "cannot draw a nonce: %s", strerror(-ret));
		return ret;
	}
	memcpy(m.u.auth.nonce, nonce, sizeof(nonce));
	auth_mac(secret, false, serve_nonce, nonce, m.u.auth.mac);
	ret = chan_send(fd, &m, timeout_ms);
	if (ret) {
		snprintf(err, err_size, "cannot send AUTH to the serve at %s: %s", where, strerror(-ret));
		goto out;
	}
	ret = opening_frame(fd, PROTO_AUTH_OK, timeout_ms, where, "in answer to our AUTH", &m, err, err_size);
	if (ret)
		goto out;
	auth_mac(secret, true, nonce, serve_nonce, want);
	if (!equal_constant_time(want, m.u.auth_ok.mac, sizeof(want))) {
		snprintf(err, err_size, "the serve at %s does not prove it knows our secret: its --secret-file is not "
			 "the same file as ours (copy one file to both nodes)", where);
		ret = -EACCES;
	}
out:
	wipe(want, sizeof(want));
	wipe(&m, sizeof(m));
	return ret;
}

int chan_open(const struct sockaddr_storage *addr, int timeout_ms, const struct secret *secret, int *fd,
	      char *err, size_t err_size)
{
	struct proto_msg m;
	char where[80];
	int s, ret;

	chan_addr_text((const struct sockaddr *)addr, where, sizeof(where), true);
	ret = chan_connect(addr, timeout_ms, &s, err, err_size);
	if (ret)
		return ret;
	ret = opening_frame(s, PROTO_GREETING, timeout_ms, where, "before its GREETING", &m, err, err_size);
	if (ret == 0 && (m.u.greeting.flags & PROTO_GREET_SECRET) && !secret) {
		snprintf(err, err_size, "the serve at %s requires a shared secret: give this command --secret-file "
			 "FILE, a copy of the serve's file", where);
		ret = -EACCES;
	} else if (ret == 0 && !(m.u.greeting.flags & PROTO_GREET_SECRET) && secret) {
		snprintf(err, err_size, "the serve at %s runs without --secret-file, so it cannot prove it knows our "
			 "secret: start it with --secret-file FILE, or leave --secret-file out here", where);
		ret = -EACCES;
	} else if (ret == 0 && secret) {
		ret = prove(s, timeout_ms, secret, m.u.greeting.nonce, where, err, err_size);
	}
	if (ret) {
		close(s);
		return ret;
	}
	*fd = s;
	return 0;
}
