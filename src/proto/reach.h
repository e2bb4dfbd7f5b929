// SPDX-License-Identifier: GPL-2.0-only
/* The TCP reachability probe's sockets, shared by serve (the temporary listener) and the client (the
 * connection from a chosen local address): addresses in their 16-byte wire form and back. */
#ifndef ROCE_DOCTOR_REACH_H
#define ROCE_DOCTOR_REACH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* An IPv4 or IPv6 socket address as the wire's 16 bytes (IPv4 as ::ffff:a.b.c.d) and its port. */
void reach_addr_to_wire(const struct sockaddr_storage *sa, uint8_t out[16], uint16_t *port);
/* The wire's 16 bytes and a port as a socket address: AF_INET for ::ffff:a.b.c.d, else AF_INET6. */
void reach_addr_from_wire(const uint8_t in[16], uint16_t port, struct sockaddr_storage *sa);
/* Same address and port (an IPv4 client seen through a dual-stack socket compares equal to its IPv4 form). */
int reach_addr_equal(const struct sockaddr_storage *a, const struct sockaddr_storage *b);

/* A non-blocking listener bound to address (which must be one of this host's own: the kernel refuses any
 * other) on port (0: the kernel picks one from net.ipv4.ip_local_port_range). 0 with *fd and *bound_port, or
 * -errno with why saying what the client must change. */
int reach_listen(const uint8_t address[16], uint16_t port, int *fd, uint16_t *bound_port, char *why,
		 size_t why_size);

/* A non-blocking TCP socket bound to local (port 0) and connecting to remote, within timeout_ms.
 * 0 with *fd connected and *from (the local address and port used); or -errno (the bind's or the connect's,
 * -ETIMEDOUT) with why, *fd -1. */
int reach_connect(const struct sockaddr_storage *local, const struct sockaddr_storage *remote, int timeout_ms,
		  int *fd, struct sockaddr_storage *from, char *why, size_t why_size);

#endif
