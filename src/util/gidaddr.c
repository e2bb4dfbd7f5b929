// SPDX-License-Identifier: GPL-2.0-only
/* Parsing and formatting of GIDs, and the address tests the GID choice depends on. */
#include "util/gidaddr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int gid_parse_sysfs(const char *text, struct in6_addr *gid)
{
	const char *p = text;

	for (int group = 0; group < 8; group++) {
		unsigned value = 0;

		for (int digit = 0; digit < 4; digit++) {
			int v = hex_value(*p++);
			if (v < 0)
				return -EINVAL;
			value = value << 4 | (unsigned)v;
		}
		gid->s6_addr[group * 2] = (uint8_t)(value >> 8);
		gid->s6_addr[group * 2 + 1] = (uint8_t)value;
		if (group < 7 && *p++ != ':')
			return -EINVAL;
	}
	return *p == '\0' ? 0 : -EINVAL;
}

bool gid_is_zero(const struct in6_addr *gid)
{
	static const struct in6_addr zero;

	return memcmp(gid, &zero, sizeof(zero)) == 0;
}

bool gid_is_ipv4_mapped(const struct in6_addr *gid)
{
	return IN6_IS_ADDR_V4MAPPED(gid);
}

bool gid_is_link_local(const struct in6_addr *gid)
{
	return IN6_IS_ADDR_LINKLOCAL(gid);
}

void gid_format_sysfs(const struct in6_addr *gid, char buf[40])
{
	char *p = buf;

	for (int group = 0; group < 8; group++) {
		p += sprintf(p, "%02x%02x", gid->s6_addr[group * 2], gid->s6_addr[group * 2 + 1]);
		if (group < 7)
			*p++ = ':';
	}
	*p = '\0';
}

void gid_format_ip(const struct in6_addr *gid, char buf[64])
{
	if (gid_is_ipv4_mapped(gid))
		inet_ntop(AF_INET, &gid->s6_addr[12], buf, 64);
	else
		inet_ntop(AF_INET6, gid, buf, 64);
}

unsigned gid_common_prefix(const struct in6_addr *a, const struct in6_addr *b)
{
	unsigned bits = 0;

	for (int i = 0; i < 16; i++) {
		uint8_t diff = a->s6_addr[i] ^ b->s6_addr[i];
		if (diff == 0) {
			bits += 8;
			continue;
		}
		while (!(diff & 0x80)) {
			bits++;
			diff = (uint8_t)(diff << 1);
		}
		break;
	}
	return bits;
}

int ip_parse_as_gid(const char *text, struct in6_addr *out)
{
	struct in_addr v4;

	if (inet_pton(AF_INET, text, &v4) == 1) {
		memset(out, 0, sizeof(*out));
		out->s6_addr[10] = 0xff;
		out->s6_addr[11] = 0xff;
		memcpy(&out->s6_addr[12], &v4, 4);
		return 0;
	}
	return inet_pton(AF_INET6, text, out) == 1 ? 0 : -EINVAL;
}
