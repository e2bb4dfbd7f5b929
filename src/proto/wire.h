// SPDX-License-Identifier: GPL-2.0-only
/* The bw/lat/serve wire format: length-prefixed, magic-tagged, versioned frames with strict bounds.
 * Pure encoding and decoding, no I/O; docs/bw-protocol.md describes every field. */
#ifndef ROCE_DOCTOR_WIRE_H
#define ROCE_DOCTOR_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "verbs/perf.h"

#define PROTO_MAGIC 0x52444f43u        /* "RDOC" */
#define PROTO_VERSION 2               /* 2: GREETING first, optional AUTH (issue 15) */
#define PROTO_HEADER_LEN 12
#define PROTO_MAX_PAYLOAD 1024         /* the largest message, HELLO with 64 QPs, is 580 bytes */
#define PROTO_MAX_FRAME (PROTO_HEADER_LEN + PROTO_MAX_PAYLOAD)
#define PROTO_DEFAULT_PORT 18516
#define PROTO_MIN_SLOT 64
#define PROTO_MAX_SLOT (8u << 20)      /* the largest message size, 8 MiB */
#define PROTO_MAX_ITERS 1000000000ull
#define PROTO_MAX_DURATION_MS 600000u
#define PROTO_REASON_MAX 255
#define PROTO_CHUNK_DATA 1000          /* snapshot bytes per SNAPSHOT_CHUNK (the last one may carry fewer) */
#define PROTO_SNAPSHOT_MAX (4u << 20)  /* a snapshot on the wire: real ones are 10-300 KiB compact */
#define PROTO_REACH_MIN_MS 200         /* how long a reachability listener waits for the connection */
#define PROTO_REACH_MAX_MS 10000
#define PROTO_DEVICE_MAX 63            /* an RDMA device name in HELLO_ON (IB_DEVICE_NAME_MAX - 1) */

enum proto_type {
	PROTO_HELLO = 1,    /* client -> serve: test parameters and the client's endpoint */
	PROTO_ACCEPT,       /* serve -> client: the serve's endpoint; its QPs are already RTR/RTS */
	PROTO_REFUSE,       /* serve -> client: a test it will not run, and why */
	PROTO_START,        /* client -> serve: one message size */
	PROTO_READY,        /* serve -> client: buffers prepared, go */
	PROTO_DONE,         /* client -> serve: this side finished the size */
	PROTO_RESULT,       /* serve -> client: its check of the data, its own counts */
	PROTO_BYE,          /* client -> serve: the test is over */
	PROTO_ERROR,        /* either way: the last frame before closing */
	/* check --peer's requests (docs/bw-protocol.md, "Requests besides tests") */
	PROTO_SNAPSHOT_REQ,     /* client -> serve: send me your snapshot */
	PROTO_SNAPSHOT_CHUNK,   /* serve -> client: one numbered piece of it, the total declared in each */
	PROTO_REACH_REQ,        /* client -> serve: listen on this address of yours, this port (0: pick one) */
	PROTO_REACH_LISTENING,  /* serve -> client: listening there, on this port, for this long */
	PROTO_REACH_RESULT,     /* serve -> client: whether a connection arrived, and from where */
	PROTO_HELLO_ON,         /* client -> serve: HELLO on the serve's device, port and GID index named */
	/* the opening of every connection (docs/bw-protocol.md, "Opening: greeting and shared secret") */
	PROTO_GREETING,         /* serve -> client: first frame; a nonce, whether a shared secret is required */
	PROTO_AUTH,             /* client -> serve: its nonce and HMAC(secret, serve nonce || client nonce || ...) */
	PROTO_AUTH_OK,          /* serve -> client: HMAC(secret, client nonce || serve nonce || ...): it knows too */
	PROTO_TYPE_MAX = PROTO_AUTH_OK,
};

enum proto_test { PROTO_TEST_BW = 1, PROTO_TEST_LAT = 2 };

#define PROTO_FLAG_BIDIR 0x1
#define PROTO_FLAG_VERIFY 0x2
#define PROTO_FLAGS_KNOWN (PROTO_FLAG_BIDIR | PROTO_FLAG_VERIFY)

enum proto_refuse_code {
	PROTO_REFUSE_BUSY = 1,          /* another test is running */
	PROTO_REFUSE_LIMIT,             /* a parameter beyond this serve's limits */
	PROTO_REFUSE_NO_DEVICE,         /* no usable RDMA port for this client */
	PROTO_REFUSE_RESOURCES,         /* setting up the QPs or memory failed */
	PROTO_REFUSE_INCOMPATIBLE,      /* link layers or GID families that cannot talk */
	PROTO_REFUSE_SHUTDOWN,          /* serve is stopping */
	PROTO_REFUSE_UNAVAILABLE,       /* the serve cannot answer this request now (its snapshot failed) */
	PROTO_REFUSE_BAD_REQUEST,       /* a request the serve will not do: not its address, port in use */
	PROTO_REFUSE_NOT_ALLOWED,       /* the client's address is outside serve --allow, or its secret is wrong */
};

enum proto_error_code {
	PROTO_ERR_MAGIC = 1,
	PROTO_ERR_VERSION,
	PROTO_ERR_LENGTH,
	PROTO_ERR_TYPE,                 /* unknown, or not expected now */
	PROTO_ERR_PAYLOAD,              /* a field out of range, or the wrong length */
	PROTO_ERR_TIMEOUT,
	PROTO_ERR_TEST,                 /* the RDMA part of the test failed on this side */
};

enum proto_check { PROTO_CHECK_OK = 0, PROTO_CHECK_BAD = 1, PROTO_CHECK_NONE = 2 };

struct proto_hello {
	uint8_t test, op, flags;
	uint8_t mtu_request;            /* IBV_MTU_*, 0: the ports' active MTUs decide */
	uint16_t tx_depth;
	uint32_t inline_size;
	uint32_t slot_size;
	struct perf_endpoint ep;        /* ep.qps is the number of QPs */
};

struct proto_accept {
	uint8_t path_mtu;
	struct perf_endpoint ep;
};

struct proto_reason {                  /* REFUSE and ERROR */
	uint16_t code;
	char text[PROTO_REASON_MAX + 1];   /* printable ASCII only after decoding */
};

struct proto_start {
	uint32_t size, seed, duration_ms;
	uint64_t iters;                 /* exactly one of iters and duration_ms is non-zero */
};

struct proto_ready {
	uint32_t size;
};

struct proto_done {
	uint32_t size;
	uint64_t iters;                 /* per QP, what this side sent */
};

struct proto_result {
	uint8_t check;                  /* enum proto_check, of the data this side received */
	uint8_t expected, got;
	uint16_t qp;
	uint32_t offset;
	uint64_t tx_iters, tx_bytes, tx_ns;   /* what the serve itself sent (bidir), else 0 */
};

/* ceil(total / PROTO_CHUNK_DATA): the chunks a snapshot of total bytes travels in. */
static inline uint32_t proto_chunk_count(uint32_t total)
{
	return (total + PROTO_CHUNK_DATA - 1) / PROTO_CHUNK_DATA;
}

struct proto_chunk {
	uint32_t index, count;          /* 0-based; count = proto_chunk_count(total) */
	uint32_t total;                 /* the whole document, 1..PROTO_SNAPSHOT_MAX bytes */
	uint16_t len;                   /* PROTO_CHUNK_DATA, except in the last chunk */
	uint8_t data[PROTO_CHUNK_DATA];
};

/* Addresses travel as 16 bytes, IPv4 as ::ffff:a.b.c.d (the way RoCE GIDs carry it). */
struct proto_reach_req {
	uint8_t address[16];            /* the serve's own address to listen on; not unspecified, not multicast */
	uint16_t port;                  /* 0: the serve picks one from its ip_local_port_range */
	uint16_t wait_ms;               /* PROTO_REACH_MIN_MS..PROTO_REACH_MAX_MS */
};

struct proto_reach_listening {
	uint16_t port;                  /* not 0; the one asked for when one was */
	uint16_t wait_ms;               /* how long the serve listens, at most what was asked */
};

struct proto_reach_result {
	uint8_t arrived;                /* 0 or 1 */
	uint16_t from_port;             /* 0 when nothing arrived */
	uint8_t from[16];               /* all zero when nothing arrived */
};

struct proto_hello_on {
	char device[PROTO_DEVICE_MAX + 1];   /* [A-Za-z0-9_.-], NUL-terminated */
	uint8_t port;                   /* 1..255 */
	uint16_t gid_index;
	struct proto_hello hello;
};

#define PROTO_NONCE_LEN 32
#define PROTO_MAC_LEN 32
#define PROTO_GREET_SECRET 0x1          /* GREETING flag: answer with AUTH before anything else */

struct proto_greeting {
	uint8_t flags;                  /* PROTO_GREET_SECRET; nothing else */
	uint8_t nonce[PROTO_NONCE_LEN];
};

struct proto_auth {
	uint8_t nonce[PROTO_NONCE_LEN];  /* the client's, for the serve's proof */
	uint8_t mac[PROTO_MAC_LEN];
};

struct proto_auth_ok {
	uint8_t mac[PROTO_MAC_LEN];
};

struct proto_msg {
	uint8_t type;
	union {
		struct proto_hello hello;
		struct proto_accept accept;
		struct proto_reason reason;
		struct proto_start start;
		struct proto_ready ready;
		struct proto_done done;
		struct proto_result result;
		struct proto_chunk chunk;
		struct proto_reach_req reach_req;
		struct proto_reach_listening listening;
		struct proto_reach_result reach;
		struct proto_hello_on hello_on;
		struct proto_greeting greeting;
		struct proto_auth auth;
		struct proto_auth_ok auth_ok;
	} u;
};

/* Receive queue entries per QP for op send: twice the sender's queue, so it rarely waits for us. */
static inline unsigned proto_rx_depth(uint8_t op, unsigned tx_depth)
{
	return op == PERF_OP_SEND ? 2 * tx_depth : 0;
}

/* The slot every message size of a test fits in: 64-byte multiples, whole pages from 4 KiB on. */
static inline uint32_t proto_slot_size(uint32_t max_size)
{
	uint32_t align = max_size >= 4096 ? 4096 : PROTO_MIN_SLOT;

	return max_size <= PROTO_MIN_SLOT ? PROTO_MIN_SLOT : (max_size + align - 1) / align * align;
}

/* The whole frame into buf; its length, or -EMSGSIZE / -EINVAL for a message that must not be sent. */
int proto_encode(const struct proto_msg *m, uint8_t *buf, size_t size);

/* Checks the 12-byte header: 0 and the payload length, or -EBADMSG (magic), -EPROTONOSUPPORT (version),
 * -EMSGSIZE (length), -ENOMSG (type), with why saying which value was wrong. */
int proto_decode_header(const uint8_t *hdr, uint8_t *type, uint32_t *length, char *why, size_t why_size);

/* Decodes and validates one payload: 0, or -EBADMSG with why naming the field. */
int proto_decode(uint8_t type, const uint8_t *payload, size_t length, struct proto_msg *m, char *why,
		 size_t why_size);

/* Validation shared by both directions: the peer's endpoint for a test of qps QPs and slot_size slots. */
int proto_check_endpoint(const struct perf_endpoint *ep, uint32_t slot_size, char *why, size_t why_size);

const char *proto_type_name(uint8_t type);

/* Fills a REFUSE or ERROR message; the text is cut to PROTO_REASON_MAX. */
void proto_reason(struct proto_msg *m, uint8_t type, uint16_t code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
