// SPDX-License-Identifier: GPL-2.0-only
/* GIDs as the kernel writes them ("fe80:0000:...:3772") and what they mean as IP addresses. */
#ifndef ROCE_DOCTOR_GIDADDR_H
#define ROCE_DOCTOR_GIDADDR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

/* Parses exactly eight groups of four hex digits separated by ':'; -EINVAL otherwise. */
int gid_parse_sysfs(const char *text, struct in6_addr *gid);

bool gid_is_zero(const struct in6_addr *gid);
bool gid_is_ipv4_mapped(const struct in6_addr *gid);
bool gid_is_link_local(const struct in6_addr *gid);

/* The sysfs spelling (39 chars + NUL). */
void gid_format_sysfs(const struct in6_addr *gid, char buf[40]);
/* The IPv4 address of a mapped GID ("192.168.88.1"), or the compressed IPv6 text otherwise. */
void gid_format_ip(const struct in6_addr *gid, char buf[64]);

/* Number of leading bits two addresses share (0..128). */
unsigned gid_common_prefix(const struct in6_addr *a, const struct in6_addr *b);

/* Parses an IPv4 or IPv6 literal into the GID form (IPv4 becomes ::ffff:a.b.c.d). */
int ip_parse_as_gid(const char *text, struct in6_addr *out);

#endif
