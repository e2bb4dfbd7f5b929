// SPDX-License-Identifier: GPL-2.0-only
/* The proofs that open a mesh control connection: rank 0's CHALLENGE carries a fresh nonce, the rank's REGISTER
 * an HMAC-SHA256 under the job's token over that nonce, its own and the rank and size it claims, and rank 0's
 * WELCOME the same under another context, so neither side's proof can be sent back as the other's and neither
 * is good on another connection. The token never crosses the wire. */
#ifndef ROCE_DOCTOR_MESH_AUTH_H
#define ROCE_DOCTOR_MESH_AUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/mesh/message.h"
#include "util/secret_file.h"

/* The proof by rank 0 (by_rank0) or by the rank, over rank 0's nonce (challenge) and the rank's (answer). */
void mesh_auth_mac(const struct secret *token, bool by_rank0, const uint8_t challenge[MESH_NONCE_LEN],
		   const uint8_t answer[MESH_NONCE_LEN], unsigned rank, unsigned size, uint8_t out[MESH_MAC_LEN]);

/* Whether mac is that proof, compared in constant time. */
bool mesh_auth_check(const struct secret *token, bool by_rank0, const uint8_t challenge[MESH_NONCE_LEN],
		     const uint8_t answer[MESH_NONCE_LEN], unsigned rank, unsigned size,
		     const uint8_t mac[MESH_MAC_LEN]);

#endif
