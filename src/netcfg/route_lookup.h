// SPDX-License-Identifier: GPL-2.0-only
/* The interface the kernel would send to an address through: one RTM_GETROUTE, as `ip route get ADDR`. */
#ifndef ROCE_DOCTOR_ROUTE_LOOKUP_H
#define ROCE_DOCTOR_ROUTE_LOOKUP_H

#include <netinet/in.h>

/* dst in GID form (IPv4 as ::ffff:a.b.c.d). 0 and *ifindex, or -errno (-ENETUNREACH: no route). */
int route_lookup_oif(const struct in6_addr *dst, int *ifindex);

#endif
