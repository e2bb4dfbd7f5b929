// SPDX-License-Identifier: GPL-2.0-only
/* The mesh's control messages between rank 0 and the others, over one TCP connection per node: a frame is
 * an 8-byte header ("RDM1" and the payload's length, big-endian) and a JSON object. Everything a peer sends
 * is checked before it is used: the length against MESH_FRAME_MAX, each member's type, every number's range,
 * every string's length, every array's count. Pure: bytes in, structs out. */
#ifndef ROCE_DOCTOR_MESH_MESSAGE_H
#define ROCE_DOCTOR_MESH_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/mesh/plan.h"

#define MESH_HEADER_LEN 8
#define MESH_FRAME_MAX (256 * 1024)   /* a registration of 64 rails is under 20 KB */
#define MESH_PROTOCOL_VERSION 2   /* 2: rank 0's challenge first, the proofs of the job's token */
#define MESH_WHY_MAX 256
#define MESH_NONCE_LEN 32
#define MESH_MAC_LEN 32

enum mesh_msg_type {
	MESH_MSG_REGISTER,   /* rank -> 0: who it is, its serve, its rails */
	MESH_MSG_WELCOME,    /* 0 -> rank: registered */
	MESH_MSG_REFUSE,     /* 0 -> rank: not registered, and why */
	MESH_MSG_ROUND,      /* 0 -> rank: the bw runs it makes this round (none: it serves, or sits out) */
	MESH_MSG_RESULT,     /* rank -> 0: their outcomes; also the barrier */
	MESH_MSG_DONE,       /* 0 -> rank: the run is over */
	MESH_MSG_CHALLENGE,  /* 0 -> rank, as it connects: a fresh nonce, and whether rank 0 holds the job's token */
};

struct mesh_challenge {
	uint8_t nonce[MESH_NONCE_LEN];
	bool token;
};

/* A register's proof that the rank holds the job's token, or a welcome's that rank 0 does (src/proto/mesh_auth.h):
 * the prover's nonce and its HMAC. */
struct mesh_proof {
	bool given;
	uint8_t nonce[MESH_NONCE_LEN];
	uint8_t mac[MESH_MAC_LEN];
};

struct mesh_reg_rail {
	char device[64];
	unsigned port;
	char netdev[16];
	char address[64];    /* "" none known */
	double link_gbps;    /* 0 unknown */
};

struct mesh_register {
	unsigned version;
	unsigned rank, size;
	char host[256];              /* its host name */
	unsigned serve_port;
	char serve_error[MESH_WHY_MAX];   /* "" when its serve listens */
	char tool_version[64];       /* roce-doctor's */
	unsigned devices;            /* RDMA devices in its snapshot */
	unsigned rail_count;
	struct mesh_reg_rail rails[MESH_RAILS_MAX];
};

/* One bw to run: to peer's serve at address:serve_port, from this node's rail (the same index there). */
struct mesh_order {
	int rail;
	unsigned peer;
	char address[256];
	unsigned serve_port;
};

struct mesh_round {
	unsigned round, rounds;      /* 1-based */
	double seconds;              /* bw's -D */
	uint32_t bytes;              /* bw's -s */
	bool together;               /* run the orders side by side (a rail plan: each on its own rail) */
	unsigned count;
	struct mesh_order orders[MESH_RAILS_MAX];
};

struct mesh_outcome {
	int rail;
	unsigned peer;
	bool measured;
	double gbps, link_gbps;
	unsigned attempts;           /* 1 or 2 */
	char why[MESH_WHY_MAX];      /* bw's reason when it failed */
};

struct mesh_report {
	unsigned round;
	unsigned count;
	struct mesh_outcome outcomes[MESH_RAILS_MAX];
};

struct mesh_msg {
	enum mesh_msg_type type;
	struct mesh_proof proof;     /* register and welcome only */
	union {
		struct mesh_register reg;
		char refuse[MESH_WHY_MAX];
		struct mesh_round round;
		struct mesh_report report;
		struct mesh_challenge challenge;
	} u;
};

/* m as a whole frame in a new *frame of *len bytes (free it). 0, -EINVAL (a value out of range), -ENOMEM. */
int mesh_msg_encode(const struct mesh_msg *m, uint8_t **frame, size_t *len);

/* A header's payload length. 0, or -EPROTO (not a mesh frame) / -EMSGSIZE (over MESH_FRAME_MAX) with why. */
int mesh_msg_header(const uint8_t header[MESH_HEADER_LEN], uint32_t *len, char *why, size_t why_size);

/* A payload into *m. 0, or -EPROTO with why naming the member and what was expected. */
int mesh_msg_decode(const uint8_t *payload, size_t len, struct mesh_msg *m, char *why, size_t why_size);

#endif
