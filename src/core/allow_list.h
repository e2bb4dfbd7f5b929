// SPDX-License-Identifier: GPL-2.0-only
/* Who may talk to serve: a list of networks (serve --allow), its default from the host model (loopback and
 * the subnets of the RDMA netdevs), and the match of a client's address. Pure: no I/O. */
#ifndef ROCE_DOCTOR_ALLOW_LIST_H
#define ROCE_DOCTOR_ALLOW_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "model/host.h"

#define ALLOW_MAX 128

struct allow_net {
	struct in6_addr addr;           /* IPv4 mapped (::ffff:a.b.c.d), host bits cleared */
	unsigned prefix;                /* in IPv6 terms: an IPv4 /24 is 120 */
};

struct allow_list {
	bool any;                       /* --allow any, 0.0.0.0/0 or ::/0: every client */
	struct allow_net nets[ALLOW_MAX];
	size_t count;
};

/* "any", "A.B.C.D/N", "X::Y/N", or a bare address (one host). 0, or -EINVAL with why. */
int allow_parse(const char *text, struct allow_net *out, bool *any, char *why, size_t why_size);

/* Appends net unless the list holds it already. 0, or -ENOSPC when the list is full. */
int allow_add(struct allow_list *list, const struct allow_net *net);

/* The default: 127.0.0.0/8, ::1/128 and the subnet of every address (with its prefix length) on the netdev of
 * each RDMA port of host. */
void allow_default(struct allow_list *list, const struct host *host);

/* Whether the client at addr (AF_INET, or AF_INET6 including ::ffff:a.b.c.d) may talk to serve. */
bool allow_match(const struct allow_list *list, const struct sockaddr_storage *addr);

/* "10.88.0.0/24" or "fd00::/64". */
void allow_net_text(const struct allow_net *net, char *buf, size_t size);

/* "127.0.0.0/8, ::1/128, 10.88.0.0/24", or "any address". */
void allow_list_text(const struct allow_list *list, char *buf, size_t size);

#endif
