// SPDX-License-Identifier: GPL-2.0-only
/* The opening of every control connection (protocol 2): the serve's GREETING with a nonce, and with a shared
 * secret a mutual challenge-response: each side proves it knows the secret by an HMAC over both nonces and a
 * context string of its own role, so one side's proof cannot be sent back as the other's. */
#ifndef ROCE_DOCTOR_AUTH_H
#define ROCE_DOCTOR_AUTH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "proto/wire.h"
#include "util/secret_file.h"

/* HMAC-SHA256(secret, first || second || context of the role): the client's proof is over the serve's nonce
 * then its own, the serve's over the client's then its own. */
void auth_mac(const struct secret *secret, bool by_serve, const uint8_t first[PROTO_NONCE_LEN],
	      const uint8_t second[PROTO_NONCE_LEN], uint8_t out[PROTO_MAC_LEN]);

/* A fresh nonce from getrandom. 0 or -errno. */
int auth_nonce(uint8_t out[PROTO_NONCE_LEN]);

/* Connects to a serve and opens the connection: takes its GREETING and, with secret (NULL: none), proves it
 * and checks the serve's proof. 0 with *fd ready for the first request; else -errno with one line in err
 * naming the serve: chan_connect's errors, -EACCES (refused by the serve, which err quotes, or a secret on one
 * side only, or a serve that does not know ours), -ETIMEDOUT (no greeting: an older serve, protocol 1),
 * -ECONNRESET, -EPROTO (a bad frame). */
int chan_open(const struct sockaddr_storage *addr, int timeout_ms, const struct secret *secret, int *fd,
	      char *err, size_t err_size);

#endif
