// SPDX-License-Identifier: GPL-2.0-only
/* SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104): serve's shared-secret challenge, with no new dependency. */
#ifndef ROCE_DOCTOR_SHA256_H
#define ROCE_DOCTOR_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32
#define SHA256_BLOCK_LEN 64

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;                 /* message length so far */
	uint8_t block[SHA256_BLOCK_LEN];
	size_t used;                    /* bytes waiting in block */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
void sha256_final(struct sha256 *c, uint8_t out[SHA256_DIGEST_LEN]);

/* HMAC-SHA256 over the concatenation of parts (so callers need not copy nonce || context into one buffer). */
struct hmac_part {
	const void *data;
	size_t len;
};
void hmac_sha256(const void *key, size_t key_len, const struct hmac_part *parts, size_t count,
		 uint8_t out[SHA256_DIGEST_LEN]);

/* Compares in time that depends on len only, never on where the first difference is. */
bool equal_constant_time(const void *a, const void *b, size_t len);

/* Overwrites memory in a way the compiler may not drop (a secret on the stack). */
void wipe(void *p, size_t len);

#endif
