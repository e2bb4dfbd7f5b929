// SPDX-License-Identifier: GPL-2.0-only
/* The frames of check --peer's requests (SNAPSHOT_REQ/CHUNK, REACH_REQ/LISTENING/RESULT, HELLO_ON): each
 * survives encode and decode, and every bound the decoder enforces refuses the frame just past it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto/wire.h"
#include "tap.h"

static uint8_t buf[PROTO_MAX_FRAME];
static uint8_t *const p = buf + PROTO_HEADER_LEN;

/* Encodes m, checks the header, decodes the payload into out: 0 or the decoder's error. */
static int round_trip(const struct proto_msg *m, struct proto_msg *out, int *plen)
{
	uint32_t length;
	uint8_t type;
	char why[256];
	int len = proto_encode(m, buf, sizeof(buf)), ret;

	if (len < 0)
		return len;
	*plen = len - PROTO_HEADER_LEN;
	ret = proto_decode_header(buf, &type, &length, why, sizeof(why));
	if (ret)
		return ret;
	return proto_decode(type, p, length, out, why, sizeof(why));
}

static int decode(uint8_t type, size_t len)
{
	struct proto_msg m;
	char why[256];

	return proto_decode(type, p, len, &m, why, sizeof(why));
}

static struct proto_msg chunk(uint32_t index, uint32_t total)
{
	struct proto_msg m = { .type = PROTO_SNAPSHOT_CHUNK };
	uint32_t count = proto_chunk_count(total);

	m.u.chunk = (struct proto_chunk){ .index = index, .count = count, .total = total,
					  .len = (uint16_t)(index + 1 < count ? PROTO_CHUNK_DATA
							    : total - (count - 1) * PROTO_CHUNK_DATA) };
	for (unsigned i = 0; i < m.u.chunk.len; i++)
		m.u.chunk.data[i] = (uint8_t)('a' + i % 26);
	return m;
}

static void snapshot_frames_round_trip(void)
{
	struct proto_msg m = { .type = PROTO_SNAPSHOT_REQ }, out;
	int plen;

	CHECK(round_trip(&m, &out, &plen) == 0 && plen == 0 && out.type == PROTO_SNAPSHOT_REQ);
	CHECK(decode(PROTO_SNAPSHOT_REQ, 1) == -EBADMSG);
	m = chunk(0, 2500);
	CHECK(round_trip(&m, &out, &plen) == 0 && plen == 12 + PROTO_CHUNK_DATA);
	CHECK(out.u.chunk.count == 3 && out.u.chunk.len == PROTO_CHUNK_DATA && memcmp(out.u.chunk.data, m.u.chunk.data,
											PROTO_CHUNK_DATA) == 0);
	m = chunk(2, 2500);
	CHECK(round_trip(&m, &out, &plen) == 0 && out.u.chunk.len == 500 && out.u.chunk.index == 2);
	m = chunk(0, PROTO_SNAPSHOT_MAX);
	CHECK(round_trip(&m, &out, &plen) == 0 && out.u.chunk.count == PROTO_SNAPSHOT_MAX / PROTO_CHUNK_DATA + 1);
	m = chunk(0, 1);
	CHECK(round_trip(&m, &out, &plen) == 0 && out.u.chunk.len == 1);
}

static void snapshot_chunks_out_of_bounds_are_refused(void)
{
	struct proto_msg m = chunk(1, 2500), out;
	int plen;

	CHECK(round_trip(&m, &out, &plen) == 0);
	CHECK(decode(PROTO_SNAPSHOT_CHUNK, (size_t)plen - 1) == -EBADMSG);   /* a middle chunk one byte short */
	CHECK(decode(PROTO_SNAPSHOT_CHUNK, 11) == -EBADMSG);                 /* no room for the header */
	m = chunk(2, 2500);
	CHECK(round_trip(&m, &out, &plen) == 0);
	CHECK(decode(PROTO_SNAPSHOT_CHUNK, (size_t)plen + 1) == -EBADMSG);   /* the last one, one byte long */
	m = chunk(0, PROTO_SNAPSHOT_MAX + 1);                                /* oversized: declared past the bound */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = chunk(0, 2500);
	m.u.chunk.total = 0;
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = chunk(0, 2500);
	m.u.chunk.count = 4;                                                 /* count that does not fit the total */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = chunk(0, 2500);
	m.u.chunk.index = 3;                                                 /* index past the count */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = chunk(0, 2500);
	m.u.chunk.len = PROTO_CHUNK_DATA + 1;                                /* never sent */
	CHECK(proto_encode(&m, buf, sizeof(buf)) == -EINVAL);
}

static struct proto_msg reach_req(void)
{
	struct proto_msg m = { .type = PROTO_REACH_REQ };

	m.u.reach_req.address[10] = m.u.reach_req.address[11] = 0xff;
	m.u.reach_req.address[12] = 192, m.u.reach_req.address[13] = 168, m.u.reach_req.address[14] = 88;
	m.u.reach_req.address[15] = 2;
	m.u.reach_req.port = 29500;
	m.u.reach_req.wait_ms = 3000;
	return m;
}

static void reach_frames_round_trip(void)
{
	struct proto_msg m = reach_req(), out;
	int plen;

	CHECK(round_trip(&m, &out, &plen) == 0 && plen == 24);
	CHECK(out.u.reach_req.port == 29500 && out.u.reach_req.wait_ms == 3000 && out.u.reach_req.address[15] == 2);
	m = (struct proto_msg){ .type = PROTO_REACH_LISTENING, .u.listening = { .port = 40001, .wait_ms = 3000 } };
	CHECK(round_trip(&m, &out, &plen) == 0 && plen == 4 && out.u.listening.port == 40001);
	m = (struct proto_msg){ .type = PROTO_REACH_RESULT, .u.reach = { .arrived = 1, .from_port = 51000 } };
	m.u.reach.from[10] = m.u.reach.from[11] = 0xff, m.u.reach.from[12] = 192, m.u.reach.from[15] = 1;
	CHECK(round_trip(&m, &out, &plen) == 0 && plen == 24 && out.u.reach.arrived == 1 &&
	      out.u.reach.from_port == 51000 && out.u.reach.from[15] == 1);
	m = (struct proto_msg){ .type = PROTO_REACH_RESULT };
	CHECK(round_trip(&m, &out, &plen) == 0 && out.u.reach.arrived == 0);
}

static void reach_frames_out_of_bounds_are_refused(void)
{
	struct proto_msg m = reach_req(), out;
	int plen;

	memset(m.u.reach_req.address, 0, 16);                                /* :: */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = reach_req();
	m.u.reach_req.address[12] = m.u.reach_req.address[13] = m.u.reach_req.address[14] = 0;
	m.u.reach_req.address[15] = 0;                                        /* 0.0.0.0 */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = reach_req();
	m.u.reach_req.address[12] = 239;                                      /* multicast IPv4 */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = reach_req();
	memset(m.u.reach_req.address, 0, 16);
	m.u.reach_req.address[0] = 0xff, m.u.reach_req.address[15] = 1;      /* multicast IPv6 */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = reach_req();
	m.u.reach_req.wait_ms = PROTO_REACH_MIN_MS - 1;
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m.u.reach_req.wait_ms = PROTO_REACH_MAX_MS + 1;
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m.u.reach_req.wait_ms = PROTO_REACH_MAX_MS;
	CHECK(round_trip(&m, &out, &plen) == 0);
	p[23] = 1;                                                            /* reserved */
	CHECK(decode(PROTO_REACH_REQ, 24) == -EBADMSG);
	CHECK(decode(PROTO_REACH_REQ, 23) == -EBADMSG);

	m = (struct proto_msg){ .type = PROTO_REACH_LISTENING, .u.listening = { .port = 0, .wait_ms = 3000 } };
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m.u.listening = (struct proto_reach_listening){ .port = 1, .wait_ms = PROTO_REACH_MAX_MS + 1 };
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);

	m = (struct proto_msg){ .type = PROTO_REACH_RESULT, .u.reach = { .arrived = 1, .from_port = 51000 } };
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);                      /* arrived from no address */
	m = (struct proto_msg){ .type = PROTO_REACH_RESULT, .u.reach = { .arrived = 0, .from_port = 51000 } };
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);                      /* nothing arrived, yet a port */
	m = (struct proto_msg){ .type = PROTO_REACH_RESULT, .u.reach = { .arrived = 2 } };
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = (struct proto_msg){ .type = PROTO_REACH_RESULT };
	CHECK(round_trip(&m, &out, &plen) == 0);
	p[1] = 1;                                                             /* reserved */
	CHECK(decode(PROTO_REACH_RESULT, 24) == -EBADMSG);
}

static struct proto_msg hello_on(const char *device)
{
	struct proto_msg m = { .type = PROTO_HELLO_ON };
	struct proto_hello *h = &m.u.hello_on.hello;

	snprintf(m.u.hello_on.device, sizeof(m.u.hello_on.device), "%s", device);
	m.u.hello_on.port = 1;
	m.u.hello_on.gid_index = 3;
	*h = (struct proto_hello){ .test = PROTO_TEST_BW, .op = PERF_OP_WRITE, .flags = PROTO_FLAG_VERIFY,
				   .tx_depth = 4, .slot_size = 64 };
	h->ep = (struct perf_endpoint){ .link_layer = PERF_LINK_ETHERNET, .mtu = 3, .rd_atomic = 1, .rkey = 7,
					.addr = 0x1000, .len = 3 * 64, .qps = 1, .qpn = { 17 } };
	h->ep.gid[10] = h->ep.gid[11] = 0xff, h->ep.gid[12] = 10;
	return m;
}

static void hello_on_round_trips_and_checks_the_device_name(void)
{
	struct proto_msg m = hello_on("mlx5_0"), out;
	char name[80];
	int plen;

	CHECK(round_trip(&m, &out, &plen) == 0 && plen == 68 + 16 + 46 + 8);
	CHECK_STR(out.u.hello_on.device, "mlx5_0");
	CHECK(out.u.hello_on.port == 1 && out.u.hello_on.gid_index == 3 && out.u.hello_on.hello.ep.qpn[0] == 17);
	memset(name, 'a', 63);
	name[63] = '\0';
	m = hello_on(name);
	CHECK(round_trip(&m, &out, &plen) == 0 && strlen(out.u.hello_on.device) == 63);
	m = hello_on("");
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = hello_on("../rxe0");
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = hello_on("rxe0\x1b");
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = hello_on(".rxe0");
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = hello_on("rxe0");
	m.u.hello_on.port = 0;
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = hello_on("rxe0");
	CHECK(round_trip(&m, &out, &plen) == 0);
	p[5] = 'x';                                                           /* a byte after the name's NUL */
	CHECK(decode(PROTO_HELLO_ON, (size_t)plen) == -EBADMSG);
	p[5] = 0;
	memset(p, 'a', 64);                                                   /* no NUL at all */
	CHECK(decode(PROTO_HELLO_ON, (size_t)plen) == -EBADMSG);
	m = hello_on("rxe0");
	CHECK(round_trip(&m, &out, &plen) == 0);
	p[65] = 1;                                                            /* reserved */
	CHECK(decode(PROTO_HELLO_ON, (size_t)plen) == -EBADMSG);
	m = hello_on("rxe0");
	m.u.hello_on.hello.ep.len = 4 * 64;                                   /* the HELLO inside is checked too */
	CHECK(round_trip(&m, &out, &plen) == -EBADMSG);
	m = hello_on("rxe0");
	CHECK(round_trip(&m, &out, &plen) == 0);
	CHECK(decode(PROTO_HELLO_ON, (size_t)plen - 1) == -EBADMSG);
	CHECK(decode(PROTO_HELLO_ON, 60) == -EBADMSG);
}

int main(void)
{
	RUN(snapshot_frames_round_trip);
	RUN(snapshot_chunks_out_of_bounds_are_refused);
	RUN(reach_frames_round_trip);
	RUN(reach_frames_out_of_bounds_are_refused);
	RUN(hello_on_round_trips_and_checks_the_device_name);
	TAP_DONE();
}
