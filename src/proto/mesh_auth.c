// SPDX-License-Identifier: GPL-2.0-only
/* The mesh's proofs of the job's token: HMAC-SHA256 over both nonces, the rank and size, and a context of the
 * prover's role (serve's own proofs, src/proto/auth.c, have contexts of their own: a proof of one protocol is
 * none of the other's, when the token is --secret-file's secret). */
#include "proto/mesh_auth.h"

#include <stdio.h>
#include <string.h>

#include "util/hmac.h"

_Static_assert(MESH_MAC_LEN == HMAC_SHA256_LEN, "a proof is one HMAC-SHA256");

static const char rank_context[] = "roce-doctor mesh protocol 2: rank proof";
static const char rank0_context[] = "roce-doctor mesh protocol 2: rank 0 proof";

void mesh_auth_mac(const struct secret *token, bool by_rank0, const uint8_t challenge[MESH_NONCE_LEN],
		   const uint8_t answer[MESH_NONCE_LEN], unsigned rank, unsigned size, uint8_t out[MESH_MAC_LEN])
{
	const char *context = by_rank0 ? rank0_context : rank_context;
	char who[48];
	struct hmac_part parts[4];

	/* the rank and size it claims: a proof for rank 3 is not one for rank 4 */
	snprintf(who, sizeof(who), " rank %u of %u", rank, size);
	parts[0] = (struct hmac_part){ challenge, MESH_NONCE_LEN };
	parts[1] = (struct hmac_part){ answer, MESH_NONCE_LEN };
	parts[2] = (struct hmac_part){ context, strlen(context) };
	parts[3] = (struct hmac_part){ who, strlen(who) };
	hmac_sha256_parts(token->bytes, token->len, parts, 4, out);
}

bool mesh_auth_check(const struct secret *token, bool by_rank0, const uint8_t challenge[MESH_NONCE_LEN],
		     const uint8_t answer[MESH_NONCE_LEN], unsigned rank, unsigned size,
		     const uint8_t mac[MESH_MAC_LEN])
{
	uint8_t want[MESH_MAC_LEN];
	bool ok;

	mesh_auth_mac(token, by_rank0, challenge, answer, rank, size, want);
	ok = equal_constant_time(want, mac, sizeof(want));
	wipe(want, sizeof(want));
	return ok;
}
