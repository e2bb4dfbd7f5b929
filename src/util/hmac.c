// SPDX-License-Identifier: GPL-2.0-only
/* HMAC-SHA256 and the comparison of proofs through nettle (Debian's libnettle8), a maintained implementation,
 * rather than one of our own. */
#include "util/hmac.h"

#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <string.h>

void hmac_sha256_parts(const void *key, size_t key_len, const struct hmac_part *parts, size_t count,
		       uint8_t out[HMAC_SHA256_LEN])
{
	struct hmac_sha256_ctx ctx;

	hmac_sha256_set_key(&ctx, key_len, key);
	for (size_t i = 0; i < count; i++)
		hmac_sha256_update(&ctx, parts[i].len, parts[i].data);
	hmac_sha256_digest(&ctx, HMAC_SHA256_LEN, out);
	wipe(&ctx, sizeof(ctx));   /* its inner and outer states are derived from the key */
}

bool equal_constant_time(const void *a, const void *b, size_t len)
{
	return memeql_sec(a, b, len) != 0;
}

void wipe(void *p, size_t len)
{
	explicit_bzero(p, len);
}
