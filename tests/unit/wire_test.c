// SPDX-License-Identifier: GPL-2.0-only
/* The bw/lat/serve wire format: every message survives encode and decode, and every malformed frame is
 * refused with the error the serve turns into its ERROR code. Also the data pattern and the slot sizes. */
#include <errno.h>
#include <string.h>

#include "proto/pattern.h"
#include "proto/wire.h"
#include "tap.h"

static struct proto_msg sample_hello(unsigned qps)
{
	struct proto_msg m = { .type = PROTO_HELLO };
	struct proto_hello *h = &m.u.hello;

	h->test = PROTO_TEST_BW;
	h->op = PERF_OP_SEND;
	h->flags = PROTO_FLAG_BIDIR | PROTO_FLAG_VERIFY;
	h->mtu_request = 3;
	h->tx_depth = 128;
	h->inline_size = 220;
	h->slot_size = 65536;
	h->ep.link_layer = PERF_LINK_ETHERNET;
	h->ep.mtu = 5;
	h->ep.rd_atomic = 16;
	h->ep.gid[10] = h->ep.gid[11] = 0xff;
	h->ep.gid[12] = 10, h->ep.gid[13] = 88, h->ep.gid[15] = 1;
	h->ep.rkey = 0x1234;
	h->ep.addr = 0x7f0000001000ull;
	h->ep.len = PERF_SLOTS(qps) * 65536ull;
	h->ep.qps = (uint16_t)qps;
	for (unsigned i = 0; i < qps && i < PERF_MAX_QPS; i++) {   /* qps > PERF_MAX_QPS: only the count is wrong */
		h->ep.qpn[i] = 0x11 + i;
		h->ep.psn[i] = 0xabcdef - i;
	}
	return m;
}

/* Encodes m, then decodes header and payload back into out. 0 or the first error. */
static int round_trip(const struct proto_msg *m, struct proto_msg *out, uint8_t *buf, int *len)
{
	uint32_t length;
	uint8_t type;
	char why[256];
	int ret;

	*len = proto_encode(m, buf, PROTO_MAX_FRAME);
	if (*len < 0)
		return *len;
	ret = proto_decode_header(buf, &type, &length, why, sizeof(why));
	if (ret)
		return ret;
	if (length + PROTO_HEADER_LEN != (uint32_t)*len)
		return -EMSGSIZE;
	return proto_decode(type, buf + PROTO_HEADER_LEN, length, out, why, sizeof(why));
}

static void every_message_survives_encode_and_decode(void)
{
	uint8_t buf[PROTO_MAX_FRAME];
	struct proto_msg m = sample_hello(64), out;
	int len;

	CHECK(round_trip(&m, &out, buf, &len) == 0);
	CHECK(len == PROTO_HEADER_LEN + 16 + 46 + 8 * 64);
	CHECK(memcmp(buf, "RDOC", 4) == 0);
	CHECK(out.u.hello.ep.qps == 64 && out.u.hello.ep.qpn[63] == 0x11 + 63 && out.u.hello.ep.psn[63] == 0xabcdef - 63);
	CHECK(out.u.hello.ep.addr == m.u.hello.ep.addr && out.u.hello.ep.len == m.u.hello.ep.len);
	CHECK(memcmp(out.u.hello.ep.gid, m.u.hello.ep.gid, 16) == 0 && out.u.hello.flags == m.u.hello.flags);

	m = (struct proto_msg){ .type = PROTO_START, .u.start = { .size = 4096, .seed = 7, .iters = 1000 } };
	CHECK(round_trip(&m, &out, buf, &len) == 0 && out.u.start.size == 4096 && out.u.start.iters == 1000);
	m = (struct proto_msg){ .type = PROTO_DONE, .u.done = { .size = 4096, .iters = 1000 } };
	CHECK(round_trip(&m, &out, buf, &len) == 0 && out.u.done.iters == 1000);
	m = (struct proto_msg){ .type = PROTO_RESULT, .u.result = { .check = PROTO_CHECK_BAD, .expected = 0x0f, .got = 0x0e,
								     .qp = 3, .offset = 2048, .tx_bytes = 1u << 30 } };
	CHECK(round_trip(&m, &out, buf, &len) == 0 && out.u.result.offset == 2048 && out.u.result.got == 0x0e &&
	      out.u.result.tx_bytes == 1u << 30);
	m = (struct proto_msg){ .type = PROTO_BYE };
	CHECK(round_trip(&m, &out, buf, &len) == 0 && len == PROTO_HEADER_LEN);
	proto_reason(&m, PROTO_REFUSE, PROTO_REFUSE_BUSY, "busy: %s\x1b[31m", "10.88.0.1");
	CHECK(round_trip(&m, &out, buf, &len) == 0 && out.u.reason.code == PROTO_REFUSE_BUSY);
	CHECK_STR(out.u.reason.text, "busy: 10.88.0.1?[31m");
}

static int decode_payload(uint8_t type, const uint8_t *payload, size_t len)
{
	struct proto_msg out;
	char why[256];

	return proto_decode(type, payload, len, &out, why, sizeof(why));
}

static void bad_headers_name_their_error(void)
{
	uint8_t buf[PROTO_MAX_FRAME], type;
	struct proto_msg m = { .type = PROTO_BYE };
	uint32_t length;
	char why[256];

	CHECK(proto_encode(&m, buf, sizeof(buf)) == PROTO_HEADER_LEN);
	buf[0] = 'X';
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == -EBADMSG);
	CHECK(strstr(why, "not a roce-doctor frame") != NULL);
	buf[0] = 'R';
	buf[5] = PROTO_VERSION + 1;
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == -EPROTONOSUPPORT);
	buf[5] = PROTO_VERSION - 1;    /* the protocol before the secret's GREETING: refused too */
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == -EPROTONOSUPPORT);
	buf[5] = PROTO_VERSION;
	buf[7] = PROTO_TYPE_MAX + 1;
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == -ENOMSG);
	buf[7] = PROTO_BYE;
	buf[8] = 0xff;
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == -EMSGSIZE);
	CHECK(strstr(why, "limit is 1024") != NULL);
	buf[8] = 0;
	buf[10] = 0x04, buf[11] = 0x01;   /* 1025 */
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == -EMSGSIZE);
	buf[10] = 0x04, buf[11] = 0x00;   /* 1024: allowed */
	CHECK(proto_decode_header(buf, &type, &length, why, sizeof(why)) == 0 && length == 1024);
}

static void bad_payloads_are_refused(void)
{
	uint8_t buf[PROTO_MAX_FRAME], *p = buf + PROTO_HEADER_LEN;
	struct proto_msg m = sample_hello(2);
	int len = proto_encode(&m, buf, sizeof(buf)), plen = len - PROTO_HEADER_LEN;
	uint8_t saved;

	CHECK(decode_payload(PROTO_HELLO, p, (size_t)plen) == 0);
	CHECK(decode_payload(PROTO_HELLO, p, (size_t)plen - 1) == -EBADMSG);        /* cut short */
	CHECK(decode_payload(PROTO_HELLO, p, (size_t)plen + 4) == -EBADMSG);        /* bytes past the end */
	for (int field = 0; field < 6; field++) {
		static const int offsets[] = { 0, 1, 2, 3, 6, 17 };   /* test, op, flags, mtu, reserved, ep MTU */
		static const uint8_t bad[] = { 9, 7, 0x80, 9, 1, 0 };

		saved = p[offsets[field]];
		p[offsets[field]] = bad[field];
		CHECK(decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
		p[offsets[field]] = saved;
	}
	m.u.hello.tx_depth = 0;
	CHECK(proto_encode(&m, buf, sizeof(buf)) == len && decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
	m = sample_hello(2);
	m.u.hello.slot_size = 4100;
	CHECK(proto_encode(&m, buf, sizeof(buf)) == len && decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
	m = sample_hello(2);
	m.u.hello.ep.len--;
	CHECK(proto_encode(&m, buf, sizeof(buf)) == len && decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
	m = sample_hello(2);
	m.u.hello.ep.qpn[1] = 1u << 24;
	CHECK(proto_encode(&m, buf, sizeof(buf)) == len && decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
	m = sample_hello(2);
	memset(m.u.hello.ep.gid, 0, 16);
	CHECK(proto_encode(&m, buf, sizeof(buf)) == len && decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
	m = sample_hello(2);
	m.u.hello.test = PROTO_TEST_LAT;
	CHECK(proto_encode(&m, buf, sizeof(buf)) == len && decode_payload(PROTO_HELLO, p, (size_t)plen) == -EBADMSG);
	m = sample_hello(65);
	CHECK(proto_encode(&m, buf, sizeof(buf)) == -EINVAL);   /* never sent */

	m = (struct proto_msg){ .type = PROTO_START, .u.start = { .size = 64, .iters = 10, .duration_ms = 1000 } };
	len = proto_encode(&m, buf, sizeof(buf));
	CHECK(decode_payload(PROTO_START, p, (size_t)len - PROTO_HEADER_LEN) == -EBADMSG);   /* both set */
	m.u.start.duration_ms = 0;
	m.u.start.size = PROTO_MAX_SLOT + 1;
	len = proto_encode(&m, buf, sizeof(buf));
	CHECK(decode_payload(PROTO_START, p, (size_t)len - PROTO_HEADER_LEN) == -EBADMSG);
	m.u.start.size = 64;
	m.u.start.iters = PROTO_MAX_ITERS + 1;
	len = proto_encode(&m, buf, sizeof(buf));
	CHECK(decode_payload(PROTO_START, p, (size_t)len - PROTO_HEADER_LEN) == -EBADMSG);
	CHECK(decode_payload(PROTO_BYE, p, 1) == -EBADMSG);
	/* a REFUSE whose text length runs past the payload */
	p[0] = 0, p[1] = 1, p[2] = 0, p[3] = 200;
	CHECK(decode_payload(PROTO_REFUSE, p, 10) == -EBADMSG);
}

static void pattern_catches_one_flipped_bit(void)
{
	static uint8_t buf[8195];
	size_t offset = 0;
	uint8_t want = 0, got = 0;

	pattern_fill(buf, sizeof(buf), 42);
	CHECK(pattern_check(buf, sizeof(buf), 42, &offset, &want, &got));
	CHECK(!pattern_check(buf, sizeof(buf), 43, &offset, &want, &got) && offset < 8);
	buf[8193] ^= 0x10;
	CHECK(!pattern_check(buf, sizeof(buf), 42, &offset, &want, &got));
	CHECK(offset == 8193 && (want ^ got) == 0x10);
	CHECK(pattern_seed(1, false, true) != pattern_seed(1, true, true));
	CHECK(pattern_seed(1, false, true) != pattern_seed(1, false, false));
}

static void slots_hold_the_largest_message(void)
{
	CHECK(proto_slot_size(1) == 64);
	CHECK(proto_slot_size(65) == 128);
	CHECK(proto_slot_size(4096) == 4096);
	CHECK(proto_slot_size(4097) == 8192);
	CHECK(proto_slot_size(8u << 20) == 8u << 20);
}

int main(void)
{
	RUN(every_message_survives_encode_and_decode);
	RUN(bad_headers_name_their_error);
	RUN(bad_payloads_are_refused);
	RUN(pattern_catches_one_flipped_bit);
	RUN(slots_hold_the_largest_message);
	TAP_DONE();
}
