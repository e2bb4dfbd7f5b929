// SPDX-License-Identifier: GPL-2.0-only
/* What serve's shared-secret challenge (src/proto/auth.c) needs: HMAC-SHA256 from nettle over several parts,
 * the constant-time comparison of two proofs, and wiping a secret from memory. */
#ifndef ROCE_DOCTOR_HMAC_H
#define ROCE_DOCTOR_HMAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HMAC_SHA256_LEN 32

/* HMAC-SHA256 over the concatenation of parts (so callers need not copy nonce || context into one buffer). */
struct hmac_part {
	const void *data;
	size_t len;
};
void hmac_sha256_parts(const void *key, size_t key_len, const struct hmac_part *parts, size_t count,
		       uint8_t out[HMAC_SHA256_LEN]);

/* Compares in time that depends on len only, never on where the first difference is (a proof checked byte by
 * byte with memcmp would tell an attacker how many leading bytes were right). */
bool equal_constant_time(const void *a, const void *b, size_t len);

/* Overwrites memory in a way the compiler may not drop (a secret on the stack). */
void wipe(void *p, size_t len);

#endif
