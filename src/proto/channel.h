// SPDX-License-Identifier: GPL-2.0-only
/* The control connection: TCP sockets carrying whole frames, every wait bounded by a deadline. */
#ifndef ROCE_DOCTOR_CHANNEL_H
#define ROCE_DOCTOR_CHANNEL_H

#include <stdbool.h>
#include <sys/socket.h>

#include "proto/wire.h"

/* The first address of host (a name or a literal) for TCP port. 0 or -errno with err. */
int chan_resolve(const char *host, unsigned port, struct sockaddr_storage *addr, char *err, size_t err_size);

/* Listens on bind_addr (NULL: every address, IPv6 and IPv4). 0 or -errno with err. */
int chan_listen(const char *bind_addr, unsigned port, int *fd, char *err, size_t err_size);

/* Connects within timeout_ms; the socket is non-blocking with TCP_NODELAY. 0 or -errno with err. */
int chan_connect(const struct sockaddr_storage *addr, int timeout_ms, int *fd, char *err, size_t err_size);

/* Makes an accepted socket like a connected one. */
void chan_prepare(int fd);

/* One frame within timeout_ms. 0, -ETIMEDOUT, -EPIPE (peer gone), -EINVAL (not encodable). */
int chan_send(int fd, const struct proto_msg *m, int timeout_ms);

/* One frame within timeout_ms. 0; -ETIMEDOUT; -ECONNRESET (closed, also in the middle of a frame);
 * the header errors of proto_decode_header; -EPROTO for a payload that does not decode. why explains. */
int chan_recv(int fd, struct proto_msg *m, int timeout_ms, char *why, size_t why_size);

/* Something to read, or the peer hung up: the next chan_recv will not wait long. */
bool chan_readable(int fd);
/* The same, waiting up to ms for it. */
bool chan_readable_within(int fd, int ms);

/* "10.88.0.1:18516" or "[fd00::1]:18516" (with_port), or the bare address. */
void chan_addr_text(const struct sockaddr *sa, char *buf, size_t size, bool with_port);

#endif
