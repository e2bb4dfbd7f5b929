// SPDX-License-Identifier: GPL-2.0-only
/* The bw/lat/serve wire format as the other side sends it, both directions: the input is a byte stream of
 * frames, read the way a serve or a client reads them (chan_recv on a socket), and each frame also straight
 * through proto_decode_header/proto_decode. A frame that decodes must encode back, and that encoding must
 * decode to the same message (what one side accepts, the other side can say). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto/channel.h"
#include "proto/wire.h"

static void round_trip(const struct proto_msg *m)
{
	uint8_t buf[PROTO_MAX_FRAME], again[PROTO_MAX_FRAME];
	struct proto_msg back;
	uint32_t length;
	uint8_t type;
	char why[256];
	int n, n2;

	n = proto_encode(m, buf, sizeof(buf));
	if (n < 0)
		return;   /* the encoder may be stricter than the decoder; it never sends what it refuses */
	if (proto_decode_header(buf, &type, &length, why, sizeof(why)) != 0 || type != m->type ||
	    length != (uint32_t)n - PROTO_HEADER_LEN ||
	    proto_decode(type, buf + PROTO_HEADER_LEN, length, &back, why, sizeof(why)) != 0)
		abort();   /* we wrote a frame we cannot read */
	n2 = proto_encode(&back, again, sizeof(again));
	if (n2 != n || memcmp(buf, again, (size_t)n) != 0)
		abort();
}

/* Each frame of the stream straight through the decoder, as far as headers say. */
static void decode_frames(const uint8_t *data, size_t size)
{
	while (size >= PROTO_HEADER_LEN) {
		struct proto_msg m;
		uint32_t length;
		uint8_t type;
		char why[256];

		if (proto_decode_header(data, &type, &length, why, sizeof(why)) != 0)
			return;
		if (length > size - PROTO_HEADER_LEN)
			length = (uint32_t)(size - PROTO_HEADER_LEN);   /* a cut payload: decoded as far as it goes */
		if (proto_decode(type, data + PROTO_HEADER_LEN, length, &m, why, sizeof(why)) == 0) {
			if (strnlen(why, sizeof(why)) == sizeof(why))
				abort();
			round_trip(&m);
		}
		data += PROTO_HEADER_LEN + length;
		size -= PROTO_HEADER_LEN + length;
	}
}

/* The same bytes as they arrive on a connection: the real receive path, cut frames and hang-up included. */
static void receive_frames(const uint8_t *data, size_t size)
{
	int sv[2];

	if (size > 64 * 1024 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	if (write(sv[1], data, size) != (ssize_t)size) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	close(sv[1]);
	chan_prepare(sv[0]);
	for (int i = 0; i < 256; i++) {
		struct proto_msg m;
		char why[256];

		if (chan_recv(sv[0], &m, 1000, why, sizeof(why)) != 0)
			break;
		round_trip(&m);
	}
	close(sv[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode_frames(data, size);
	receive_frames(data, size);
	return 0;
}
