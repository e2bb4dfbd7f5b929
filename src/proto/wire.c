// SPDX-License-Identifier: GPL-2.0-only
/* Frames in network byte order through a bounds-checked cursor; every decoded field is range-checked. */
#include "proto/wire.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define ENDPOINT_FIXED_LEN 46
#define ENDPOINT_LEN(qps) (ENDPOINT_FIXED_LEN + 8 * (size_t)(qps))

struct cursor {
	uint8_t *out;            /* encoding */
	const uint8_t *in;       /* decoding */
	size_t len, off;
	bool short_;             /* ran past the end */
};

static void put(struct cursor *c, uint64_t v, unsigned bytes)
{
	if (c->off + bytes > c->len) {
		c->short_ = true;
		return;
	}
	for (unsigned i = 0; i < bytes; i++)
		c->out[c->off + i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
	c->off += bytes;
}

static void put_bytes(struct cursor *c, const void *p, size_t n)
{
	if (c->off + n > c->len) {
		c->short_ = true;
		return;
	}
	memcpy(c->out + c->off, p, n);
	c->off += n;
}

static uint64_t get(struct cursor *c, unsigned bytes)
{
	uint64_t v = 0;

	if (c->off + bytes > c->len) {
		c->short_ = true;
		return 0;
	}
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | c->in[c->off + i];
	c->off += bytes;
	return v;
}

static void get_bytes(struct cursor *c, void *p, size_t n)
{
	if (c->off + n > c->len) {
		c->short_ = true;
		memset(p, 0, n);
		return;
	}
	memcpy(p, c->in + c->off, n);
	c->off += n;
}

static const char *const type_names[] = {
	[PROTO_HELLO] = "HELLO", [PROTO_ACCEPT] = "ACCEPT", [PROTO_REFUSE] = "REFUSE", [PROTO_START] = "START",
	[PROTO_READY] = "READY", [PROTO_DONE] = "DONE",     [PROTO_RESULT] = "RESULT", [PROTO_BYE] = "BYE",
	[PROTO_ERROR] = "ERROR",   [PROTO_SNAPSHOT_REQ] = "SNAPSHOT_REQ", [PROTO_SNAPSHOT_CHUNK] = "SNAPSHOT_CHUNK",
	[PROTO_REACH_REQ] = "REACH_REQ", [PROTO_REACH_LISTENING] = "REACH_LISTENING",
	[PROTO_REACH_RESULT] = "REACH_RESULT", [PROTO_HELLO_ON] = "HELLO_ON", [PROTO_GREETING] = "GREETING",
	[PROTO_AUTH] = "AUTH", [PROTO_AUTH_OK] = "AUTH_OK",
};

const char *proto_type_name(uint8_t type)
{
	return type >= 1 && type <= PROTO_TYPE_MAX ? type_names[type] : "unknown";
}

void proto_reason(struct proto_msg *m, uint8_t type, uint16_t code, const char *fmt, ...)
{
	va_list ap;

	memset(m, 0, sizeof(*m));
	m->type = type;
	m->u.reason.code = code;
	va_start(ap, fmt);
	vsnprintf(m->u.reason.text, sizeof(m->u.reason.text), fmt, ap);
	va_end(ap);
}

/* ---- encoding ---- */

static void put_endpoint(struct cursor *c, const struct perf_endpoint *ep)
{
	put(c, ep->link_layer, 1);
	put(c, ep->mtu, 1);
	put(c, ep->lid, 2);
	put(c, ep->rd_atomic, 1);
	put(c, 0, 3);
	put_bytes(c, ep->gid, sizeof(ep->gid));
	put(c, ep->rkey, 4);
	put(c, ep->addr, 8);
	put(c, ep->len, 8);
	put(c, ep->qps, 2);
	for (unsigned i = 0; i < ep->qps && i < PERF_MAX_QPS; i++) {
		put(c, ep->qpn[i], 4);
		put(c, ep->psn[i], 4);
	}
}

static void put_hello(struct cursor *c, const struct proto_hello *h)
{
	put(c, h->test, 1);
	put(c, h->op, 1);
	put(c, h->flags, 1);
	put(c, h->mtu_request, 1);
	put(c, h->tx_depth, 2);
	put(c, 0, 2);
	put(c, h->inline_size, 4);
	put(c, h->slot_size, 4);
	put_endpoint(c, &h->ep);
}

static void put_payload(struct cursor *c, const struct proto_msg *m)
{
	const struct proto_result *r = &m->u.result;
	uint8_t device[PROTO_DEVICE_MAX + 1] = { 0 };
	size_t text_len;

	switch (m->type) {
	case PROTO_HELLO:
		put_hello(c, &m->u.hello);
		break;
	case PROTO_HELLO_ON:
		memcpy(device, m->u.hello_on.device, strnlen(m->u.hello_on.device, PROTO_DEVICE_MAX));
		put_bytes(c, device, sizeof(device));
		put(c, m->u.hello_on.port, 1);
		put(c, 0, 1);
		put(c, m->u.hello_on.gid_index, 2);
		put_hello(c, &m->u.hello_on.hello);
		break;
	case PROTO_SNAPSHOT_REQ:
		break;
	case PROTO_SNAPSHOT_CHUNK:
		put(c, m->u.chunk.index, 4);
		put(c, m->u.chunk.count, 4);
		put(c, m->u.chunk.total, 4);
		put_bytes(c, m->u.chunk.data, m->u.chunk.len);
		break;
	case PROTO_REACH_REQ:
		put_bytes(c, m->u.reach_req.address, 16);
		put(c, m->u.reach_req.port, 2);
		put(c, m->u.reach_req.wait_ms, 2);
		put(c, 0, 4);
		break;
	case PROTO_REACH_LISTENING:
		put(c, m->u.listening.port, 2);
		put(c, m->u.listening.wait_ms, 2);
		break;
	case PROTO_REACH_RESULT:
		put(c, m->u.reach.arrived, 1);
		put(c, 0, 1);
		put(c, m->u.reach.from_port, 2);
		put_bytes(c, m->u.reach.from, 16);
		put(c, 0, 4);
		break;
	case PROTO_ACCEPT:
		put(c, m->u.accept.path_mtu, 1);
		put(c, 0, 3);
		put_endpoint(c, &m->u.accept.ep);
		break;
	case PROTO_REFUSE:
	case PROTO_ERROR:
		text_len = strnlen(m->u.reason.text, PROTO_REASON_MAX);
		put(c, m->u.reason.code, 2);
		put(c, text_len, 2);
		put_bytes(c, m->u.reason.text, text_len);
		break;
	case PROTO_START:
		put(c, m->u.start.size, 4);
		put(c, m->u.start.seed, 4);
		put(c, m->u.start.duration_ms, 4);
		put(c, 0, 4);
		put(c, m->u.start.iters, 8);
		break;
	case PROTO_READY:
		put(c, m->u.ready.size, 4);
		break;
	case PROTO_DONE:
		put(c, m->u.done.size, 4);
		put(c, 0, 4);
		put(c, m->u.done.iters, 8);
		break;
	case PROTO_RESULT:
		put(c, r->check, 1);
		put(c, r->expected, 1);
		put(c, r->got, 1);
		put(c, 0, 1);
		put(c, r->qp, 2);
		put(c, 0, 2);
		put(c, r->offset, 4);
		put(c, 0, 4);
		put(c, r->tx_iters, 8);
		put(c, r->tx_bytes, 8);
		put(c, r->tx_ns, 8);
		break;
	case PROTO_BYE:
		break;
	case PROTO_GREETING:
		put(c, m->u.greeting.flags, 1);
		put(c, 0, 3);
		put_bytes(c, m->u.greeting.nonce, PROTO_NONCE_LEN);
		break;
	case PROTO_AUTH:
		put_bytes(c, m->u.auth.nonce, PROTO_NONCE_LEN);
		put_bytes(c, m->u.auth.mac, PROTO_MAC_LEN);
		break;
	case PROTO_AUTH_OK:
		put_bytes(c, m->u.auth_ok.mac, PROTO_MAC_LEN);
		break;
	}
}

int proto_encode(const struct proto_msg *m, uint8_t *buf, size_t size)
{
	struct cursor c = { .out = buf, .len = size < PROTO_MAX_FRAME ? size : PROTO_MAX_FRAME, .off = PROTO_HEADER_LEN };
	struct cursor hdr = { .out = buf, .len = PROTO_HEADER_LEN };

	if (m->type < 1 || m->type > PROTO_TYPE_MAX)
		return -EINVAL;
	if ((m->type == PROTO_HELLO && m->u.hello.ep.qps > PERF_MAX_QPS) ||
	    (m->type == PROTO_HELLO_ON && m->u.hello_on.hello.ep.qps > PERF_MAX_QPS) ||
	    (m->type == PROTO_ACCEPT && m->u.accept.ep.qps > PERF_MAX_QPS) ||
	    (m->type == PROTO_SNAPSHOT_CHUNK && m->u.chunk.len > PROTO_CHUNK_DATA))
		return -EINVAL;
	put_payload(&c, m);
	if (c.short_ || size < PROTO_HEADER_LEN)
		return -EMSGSIZE;
	put(&hdr, PROTO_MAGIC, 4);
	put(&hdr, PROTO_VERSION, 2);
	put(&hdr, m->type, 2);
	put(&hdr, c.off - PROTO_HEADER_LEN, 4);
	return (int)c.off;
}

/* ---- decoding ---- */

static int bad(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

int proto_decode_header(const uint8_t *hdr, uint8_t *type, uint32_t *length, char *why, size_t why_size)
{
	struct cursor c = { .in = hdr, .len = PROTO_HEADER_LEN };
	uint32_t magic = (uint32_t)get(&c, 4);
	uint16_t version = (uint16_t)get(&c, 2);
	uint16_t t = (uint16_t)get(&c, 2);
	uint32_t len = (uint32_t)get(&c, 4);

	if (magic != PROTO_MAGIC) {
		bad(why, why_size, "not a roce-doctor frame (magic 0x%08x, expected 0x%08x \"RDOC\")", magic, PROTO_MAGIC);
		return -EBADMSG;
	}
	if (version != PROTO_VERSION) {
		bad(why, why_size, "protocol version %u, this side speaks %u: run the same roce-doctor version on both "
		    "nodes", version, PROTO_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (len > PROTO_MAX_PAYLOAD) {
		bad(why, why_size, "frame payload of %u bytes, the limit is %u", len, PROTO_MAX_PAYLOAD);
		return -EMSGSIZE;
	}
	if (t < 1 || t > PROTO_TYPE_MAX) {
		bad(why, why_size, "unknown frame type %u", t);
		return -ENOMSG;
	}
	*type = (uint8_t)t;
	*length = len;
	return 0;
}

static int get_endpoint(struct cursor *c, struct perf_endpoint *ep, char *why, size_t size)
{
	static const uint8_t zero[16];
	uint32_t reserved;

	memset(ep, 0, sizeof(*ep));
	ep->link_layer = (uint8_t)get(c, 1);
	ep->mtu = (uint8_t)get(c, 1);
	ep->lid = (uint16_t)get(c, 2);
	ep->rd_atomic = (uint8_t)get(c, 1);
	reserved = (uint32_t)get(c, 3);
	get_bytes(c, ep->gid, sizeof(ep->gid));
	ep->rkey = (uint32_t)get(c, 4);
	ep->addr = get(c, 8);
	ep->len = get(c, 8);
	ep->qps = (uint16_t)get(c, 2);
	if (c->short_)
		return bad(why, size, "endpoint cut short");
	if (reserved)
		return bad(why, size, "endpoint: reserved bytes are not zero");
	if (ep->link_layer != PERF_LINK_ETHERNET && ep->link_layer != PERF_LINK_INFINIBAND)
		return bad(why, size, "endpoint: link layer %u", ep->link_layer);
	if (ep->mtu < 1 || ep->mtu > 5)
		return bad(why, size, "endpoint: MTU code %u (1..5 for 256..4096)", ep->mtu);
	if (ep->rd_atomic == 0)
		return bad(why, size, "endpoint: zero RDMA READ resources");
	if (ep->link_layer == PERF_LINK_ETHERNET && memcmp(ep->gid, zero, sizeof(zero)) == 0)
		return bad(why, size, "endpoint: zero GID on Ethernet");
	if (ep->link_layer == PERF_LINK_INFINIBAND && ep->lid == 0 && memcmp(ep->gid, zero, sizeof(zero)) == 0)
		return bad(why, size, "endpoint: neither LID nor GID");
	if (ep->addr == 0 || ep->len == 0 || ep->addr + ep->len < ep->addr)
		return bad(why, size, "endpoint: buffer 0x%llx + %llu", (unsigned long long)ep->addr,
			   (unsigned long long)ep->len);
	if (ep->qps < 1 || ep->qps > PERF_MAX_QPS)
		return bad(why, size, "endpoint: %u QPs (1..%u)", ep->qps, PERF_MAX_QPS);
	if (c->len - c->off < 8 * (size_t)ep->qps)
		return bad(why, size, "endpoint: %u QPs announced, room for %zu", ep->qps, (c->len - c->off) / 8);
	for (unsigned i = 0; i < ep->qps; i++) {
		ep->qpn[i] = (uint32_t)get(c, 4);
		ep->psn[i] = (uint32_t)get(c, 4);
		if (ep->qpn[i] == 0 || ep->qpn[i] > 0xffffff)
			return bad(why, size, "endpoint: QP %u number %u", i, ep->qpn[i]);
		if (ep->psn[i] > 0xffffff)
			return bad(why, size, "endpoint: QP %u PSN %u is over 24 bits", i, ep->psn[i]);
	}
	return 0;
}

int proto_check_endpoint(const struct perf_endpoint *ep, uint32_t slot_size, char *why, size_t size)
{
	uint64_t want = PERF_SLOTS(ep->qps) * (uint64_t)slot_size;

	if (ep->len != want)
		return bad(why, size, "endpoint: buffer of %llu bytes, %u QPs of %u-byte slots need %llu",
			   (unsigned long long)ep->len, ep->qps, slot_size, (unsigned long long)want);
	return 0;
}

static int get_hello(struct cursor *c, struct proto_hello *h, char *why, size_t size)
{
	uint32_t reserved;
	int ret;

	h->test = (uint8_t)get(c, 1);
	h->op = (uint8_t)get(c, 1);
	h->flags = (uint8_t)get(c, 1);
	h->mtu_request = (uint8_t)get(c, 1);
	h->tx_depth = (uint16_t)get(c, 2);
	reserved = (uint32_t)get(c, 2);
	h->inline_size = (uint32_t)get(c, 4);
	h->slot_size = (uint32_t)get(c, 4);
	if (c->short_)
		return bad(why, size, "HELLO cut short");
	if (reserved)
		return bad(why, size, "HELLO: reserved bytes are not zero");
	if (h->test != PROTO_TEST_BW && h->test != PROTO_TEST_LAT)
		return bad(why, size, "HELLO: test %u (1 bw, 2 lat)", h->test);
	if (h->op < PERF_OP_WRITE || h->op > PERF_OP_SEND)
		return bad(why, size, "HELLO: operation %u (1 write, 2 read, 3 send)", h->op);
	if (h->flags & ~PROTO_FLAGS_KNOWN)
		return bad(why, size, "HELLO: unknown flags 0x%x", h->flags);
	if (h->mtu_request > 5)
		return bad(why, size, "HELLO: MTU code %u (0, or 1..5 for 256..4096)", h->mtu_request);
	if (h->tx_depth < 1 || h->tx_depth > PERF_MAX_DEPTH)
		return bad(why, size, "HELLO: send queue depth %u (1..%u)", h->tx_depth, PERF_MAX_DEPTH);
	if (h->inline_size > PERF_MAX_INLINE)
		return bad(why, size, "HELLO: inline size %u (0..%u)", h->inline_size, PERF_MAX_INLINE);
	if (h->slot_size < PROTO_MIN_SLOT || h->slot_size > PROTO_MAX_SLOT || h->slot_size % PROTO_MIN_SLOT)
		return bad(why, size, "HELLO: slot size %u (a multiple of %u up to %u)", h->slot_size, PROTO_MIN_SLOT,
			   PROTO_MAX_SLOT);
	ret = get_endpoint(c, &h->ep, why, size);
	if (ret)
		return ret;
	if (h->test == PROTO_TEST_LAT && (h->ep.qps != 1 || h->op != PERF_OP_WRITE || (h->flags & PROTO_FLAG_BIDIR)))
		return bad(why, size, "HELLO: lat runs RDMA WRITE on one QP, one way");
	return proto_check_endpoint(&h->ep, h->slot_size, why, size);
}

/* A device name as sysfs spells them: no path separators, no control bytes, nothing after the first NUL. */
static int get_hello_on(struct cursor *c, struct proto_hello_on *h, char *why, size_t size)
{
	uint8_t name[PROTO_DEVICE_MAX + 1];
	size_t len;
	uint8_t reserved;

	get_bytes(c, name, sizeof(name));
	h->port = (uint8_t)get(c, 1);
	reserved = (uint8_t)get(c, 1);
	h->gid_index = (uint16_t)get(c, 2);
	if (c->short_)
		return bad(why, size, "HELLO_ON cut short");
	len = strnlen((const char *)name, sizeof(name));
	if (len == 0 || len == sizeof(name))
		return bad(why, size, "HELLO_ON: device name of %s bytes (1..%d, NUL-terminated)",
			   len ? "too many" : "0", PROTO_DEVICE_MAX);
	for (size_t i = 0; i < sizeof(name); i++) {
		uint8_t b = name[i];
		bool ok = i >= len ? b == 0 : (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') ||
					       b == '_' || b == '-' || b == '.';

		if (!ok)
			return bad(why, size, "HELLO_ON: device name byte %zu is 0x%02x", i, b);
	}
	if (name[0] == '.')
		return bad(why, size, "HELLO_ON: device name starts with '.'");
	memcpy(h->device, name, sizeof(name));
	if (h->port == 0)
		return bad(why, size, "HELLO_ON: port 0 (ports count from 1)");
	if (reserved)
		return bad(why, size, "HELLO_ON: reserved byte is not zero");
	return get_hello(c, &h->hello, why, size);
}

static int get_chunk(struct cursor *c, struct proto_chunk *k, char *why, size_t size)
{
	uint32_t want;

	k->index = (uint32_t)get(c, 4);
	k->count = (uint32_t)get(c, 4);
	k->total = (uint32_t)get(c, 4);
	if (c->short_)
		return bad(why, size, "SNAPSHOT_CHUNK cut short");
	if (k->total == 0 || k->total > PROTO_SNAPSHOT_MAX)
		return bad(why, size, "SNAPSHOT_CHUNK: a snapshot of %u bytes (1..%u)", k->total, PROTO_SNAPSHOT_MAX);
	if (k->count != proto_chunk_count(k->total))
		return bad(why, size, "SNAPSHOT_CHUNK: %u chunks for %u bytes, expected %u", k->count, k->total,
			   proto_chunk_count(k->total));
	if (k->index >= k->count)
		return bad(why, size, "SNAPSHOT_CHUNK: chunk %u of %u", k->index, k->count);
	want = k->index + 1 < k->count ? PROTO_CHUNK_DATA : k->total - (k->count - 1) * PROTO_CHUNK_DATA;
	if (c->len - c->off != want)
		return bad(why, size, "SNAPSHOT_CHUNK: chunk %u of %u carries %zu bytes, expected %u", k->index, k->count,
			   c->len - c->off, want);
	k->len = (uint16_t)want;
	get_bytes(c, k->data, want);
	return 0;
}

static bool address_is_zero(const uint8_t *a)
{
	static const uint8_t zero[16];

	return memcmp(a, zero, 16) == 0;
}

static int get_reach_req(struct cursor *c, struct proto_reach_req *r, char *why, size_t size)
{
	static const uint8_t v4_any[16] = { [10] = 0xff, [11] = 0xff };
	uint32_t reserved;

	get_bytes(c, r->address, 16);
	r->port = (uint16_t)get(c, 2);
	r->wait_ms = (uint16_t)get(c, 2);
	reserved = (uint32_t)get(c, 4);
	if (c->short_)
		return bad(why, size, "REACH_REQ cut short");
	if (reserved)
		return bad(why, size, "REACH_REQ: reserved bytes are not zero");
	if (address_is_zero(r->address) || memcmp(r->address, v4_any, 16) == 0)
		return bad(why, size, "REACH_REQ: the unspecified address (name one of the serve's addresses)");
	if (r->address[0] == 0xff || (memcmp(r->address, v4_any, 12) == 0 && r->address[12] >= 224))
		return bad(why, size, "REACH_REQ: a multicast or broadcast address");
	if (r->wait_ms < PROTO_REACH_MIN_MS || r->wait_ms > PROTO_REACH_MAX_MS)
		return bad(why, size, "REACH_REQ: listen for %u ms (%u..%u)", r->wait_ms, PROTO_REACH_MIN_MS,
			   PROTO_REACH_MAX_MS);
	return 0;
}

static int get_reach_result(struct cursor *c, struct proto_reach_result *r, char *why, size_t size)
{
	uint64_t reserved;

	r->arrived = (uint8_t)get(c, 1);
	reserved = get(c, 1);
	r->from_port = (uint16_t)get(c, 2);
	get_bytes(c, r->from, 16);
	reserved |= get(c, 4);
	if (c->short_)
		return bad(why, size, "REACH_RESULT cut short");
	if (reserved)
		return bad(why, size, "REACH_RESULT: reserved bytes are not zero");
	if (r->arrived > 1)
		return bad(why, size, "REACH_RESULT: arrived %u (0 or 1)", r->arrived);
	if (r->arrived && (r->from_port == 0 || address_is_zero(r->from)))
		return bad(why, size, "REACH_RESULT: an arrival from no address");
	if (!r->arrived && (r->from_port || !address_is_zero(r->from)))
		return bad(why, size, "REACH_RESULT: no arrival, yet an address");
	return 0;
}

/* Non-printable bytes from the peer never reach a terminal. */
static void get_reason(struct cursor *c, struct proto_reason *r)
{
	size_t len;

	r->code = (uint16_t)get(c, 2);
	len = (size_t)get(c, 2);
	if (len > PROTO_REASON_MAX || len > c->len - c->off) {
		c->short_ = true;
		return;
	}
	get_bytes(c, r->text, len);
	r->text[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (r->text[i] < 0x20 || r->text[i] > 0x7e)
			r->text[i] = '?';
}

int proto_decode(uint8_t type, const uint8_t *payload, size_t length, struct proto_msg *m, char *why,
		 size_t why_size)
{
	struct cursor c = { .in = payload, .len = length };
	uint64_t reserved = 0;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->type = type;
	switch (type) {
	case PROTO_HELLO:
		ret = get_hello(&c, &m->u.hello, why, why_size);
		break;
	case PROTO_ACCEPT:
		m->u.accept.path_mtu = (uint8_t)get(&c, 1);
		reserved = get(&c, 3);
		if (m->u.accept.path_mtu < 1 || m->u.accept.path_mtu > 5)
			return bad(why, why_size, "ACCEPT: path MTU code %u", m->u.accept.path_mtu);
		ret = get_endpoint(&c, &m->u.accept.ep, why, why_size);
		break;
	case PROTO_REFUSE:
	case PROTO_ERROR:
		get_reason(&c, &m->u.reason);
		break;
	case PROTO_START:
		m->u.start.size = (uint32_t)get(&c, 4);
		m->u.start.seed = (uint32_t)get(&c, 4);
		m->u.start.duration_ms = (uint32_t)get(&c, 4);
		reserved = get(&c, 4);
		m->u.start.iters = get(&c, 8);
		if (c.short_)
			break;
		if (m->u.start.size < 1 || m->u.start.size > PROTO_MAX_SLOT)
			return bad(why, why_size, "START: message size %u (1..%u)", m->u.start.size, PROTO_MAX_SLOT);
		if (!m->u.start.iters == !m->u.start.duration_ms)
			return bad(why, why_size, "START: exactly one of iterations and duration must be set");
		if (m->u.start.iters > PROTO_MAX_ITERS)
			return bad(why, why_size, "START: %llu iterations (at most %llu)",
				   (unsigned long long)m->u.start.iters, PROTO_MAX_ITERS);
		if (m->u.start.duration_ms > PROTO_MAX_DURATION_MS)
			return bad(why, why_size, "START: %u ms (at most %u)", m->u.start.duration_ms,
				   PROTO_MAX_DURATION_MS);
		break;
	case PROTO_READY:
		m->u.ready.size = (uint32_t)get(&c, 4);
		break;
	case PROTO_DONE:
		m->u.done.size = (uint32_t)get(&c, 4);
		reserved = get(&c, 4);
		m->u.done.iters = get(&c, 8);
		if (!c.short_ && m->u.done.iters > PROTO_MAX_ITERS + 1)
			return bad(why, why_size, "DONE: %llu iterations", (unsigned long long)m->u.done.iters);
		break;
	case PROTO_RESULT:
		m->u.result.check = (uint8_t)get(&c, 1);
		m->u.result.expected = (uint8_t)get(&c, 1);
		m->u.result.got = (uint8_t)get(&c, 1);
		reserved = get(&c, 1);
		m->u.result.qp = (uint16_t)get(&c, 2);
		reserved |= get(&c, 2);
		m->u.result.offset = (uint32_t)get(&c, 4);
		reserved |= get(&c, 4);
		m->u.result.tx_iters = get(&c, 8);
		m->u.result.tx_bytes = get(&c, 8);
		m->u.result.tx_ns = get(&c, 8);
		if (!c.short_ && m->u.result.check > PROTO_CHECK_NONE)
			return bad(why, why_size, "RESULT: check %u", m->u.result.check);
		if (!c.short_ && m->u.result.tx_iters > PROTO_MAX_ITERS + 1)
			return bad(why, why_size, "RESULT: %llu iterations", (unsigned long long)m->u.result.tx_iters);
		break;
	case PROTO_BYE:
	case PROTO_SNAPSHOT_REQ:
		break;
	case PROTO_HELLO_ON:
		ret = get_hello_on(&c, &m->u.hello_on, why, why_size);
		break;
	case PROTO_SNAPSHOT_CHUNK:
		ret = get_chunk(&c, &m->u.chunk, why, why_size);
		break;
	case PROTO_REACH_REQ:
		ret = get_reach_req(&c, &m->u.reach_req, why, why_size);
		break;
	case PROTO_REACH_LISTENING:
		m->u.listening.port = (uint16_t)get(&c, 2);
		m->u.listening.wait_ms = (uint16_t)get(&c, 2);
		if (!c.short_ && m->u.listening.port == 0)
			return bad(why, why_size, "REACH_LISTENING: port 0");
		if (!c.short_ && (m->u.listening.wait_ms < 1 || m->u.listening.wait_ms > PROTO_REACH_MAX_MS))
			return bad(why, why_size, "REACH_LISTENING: listening for %u ms (1..%u)", m->u.listening.wait_ms,
				   PROTO_REACH_MAX_MS);
		break;
	case PROTO_REACH_RESULT:
		ret = get_reach_result(&c, &m->u.reach, why, why_size);
		break;
	case PROTO_GREETING:
		m->u.greeting.flags = (uint8_t)get(&c, 1);
		reserved = get(&c, 3);
		get_bytes(&c, m->u.greeting.nonce, PROTO_NONCE_LEN);
		if (!c.short_ && (m->u.greeting.flags & ~PROTO_GREET_SECRET))
			return bad(why, why_size, "GREETING: unknown flags 0x%02x", m->u.greeting.flags);
		break;
	case PROTO_AUTH:
		get_bytes(&c, m->u.auth.nonce, PROTO_NONCE_LEN);
		get_bytes(&c, m->u.auth.mac, PROTO_MAC_LEN);
		break;
	case PROTO_AUTH_OK:
		get_bytes(&c, m->u.auth_ok.mac, PROTO_MAC_LEN);
		break;
	default:
		return bad(why, why_size, "unknown frame type %u", type);
	}
	if (ret)
		return ret;
	if (c.short_)
		return bad(why, why_size, "%s payload of %zu bytes is too short", proto_type_name(type), length);
	if (reserved)
		return bad(why, why_size, "%s: reserved bytes are not zero", proto_type_name(type));
	if (c.off != length)
		return bad(why, why_size, "%s payload has %zu bytes past its end", proto_type_name(type), length - c.off);
	return 0;
}
