// SPDX-License-Identifier: GPL-2.0-only
/* GID text parsing and the address tests the suggestion depends on. */
#include <string.h>

#include "tap.h"
#include "util/gidaddr.h"

static void parses_sysfs_gid_and_formats_it_back(void)
{
	struct in6_addr gid;
	char text[40], ip[64];

	CHECK(gid_parse_sysfs("0000:0000:0000:0000:0000:ffff:c0a8:5801", &gid) == 0);
	CHECK(gid_is_ipv4_mapped(&gid));
	CHECK(!gid_is_link_local(&gid));
	gid_format_sysfs(&gid, text);
	CHECK_STR(text, "0000:0000:0000:0000:0000:ffff:c0a8:5801");
	gid_format_ip(&gid, ip);
	CHECK_STR(ip, "192.168.88.1");
}

static void recognises_link_local_and_zero(void)
{
	struct in6_addr gid;
	char ip[64];

	CHECK(gid_parse_sysfs("fe80:0000:0000:0000:5aa2:e1ff:feb0:3772", &gid) == 0);
	CHECK(gid_is_link_local(&gid));
	CHECK(!gid_is_ipv4_mapped(&gid));
	gid_format_ip(&gid, ip);
	CHECK_STR(ip, "fe80::5aa2:e1ff:feb0:3772");
	CHECK(gid_parse_sysfs("0000:0000:0000:0000:0000:0000:0000:0000", &gid) == 0);
	CHECK(gid_is_zero(&gid));
}

static void rejects_truncated_and_malformed_gids(void)
{
	struct in6_addr gid;

	CHECK(gid_parse_sysfs("0000:0000:0000:00", &gid) < 0);
	CHECK(gid_parse_sysfs("", &gid) < 0);
	CHECK(gid_parse_sysfs("fe80::1", &gid) < 0);
	CHECK(gid_parse_sysfs("fe80:0000:0000:0000:5aa2:e1ff:feb0:377g", &gid) < 0);
	CHECK(gid_parse_sysfs("fe80:0000:0000:0000:5aa2:e1ff:feb0:3772:0000", &gid) < 0);
	CHECK(gid_parse_sysfs("fe80-0000:0000:0000:5aa2:e1ff:feb0:3772", &gid) < 0);
}

static void parses_peer_addresses_into_gid_form(void)
{
	struct in6_addr a, b;

	CHECK(ip_parse_as_gid("192.168.88.2", &a) == 0);
	CHECK(gid_is_ipv4_mapped(&a));
	CHECK(gid_parse_sysfs("0000:0000:0000:0000:0000:ffff:c0a8:5801", &b) == 0);
	CHECK(gid_common_prefix(&a, &b) == 126);
	CHECK(ip_parse_as_gid("2001:db8::1", &a) == 0);
	CHECK(!gid_is_ipv4_mapped(&a));
	CHECK(ip_parse_as_gid("192.168.88", &a) < 0);
	CHECK(ip_parse_as_gid("mlx5_0", &a) < 0);
	CHECK(gid_common_prefix(&a, &a) == 128);
}

int main(void)
{
	RUN(parses_sysfs_gid_and_formats_it_back);
	RUN(recognises_link_local_and_zero);
	RUN(rejects_truncated_and_malformed_gids);
	RUN(parses_peer_addresses_into_gid_form);
	TAP_DONE();
}
