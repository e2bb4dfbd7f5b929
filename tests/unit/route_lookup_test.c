// SPDX-License-Identifier: GPL-2.0-only
/* route_lookup_oif against the kernel's own loopback routes (no root needed), as `ip route get` answers. */
#include <errno.h>
#include <net/if.h>
#include <string.h>

#include "netcfg/route_lookup.h"
#include "tap.h"
#include "util/gidaddr.h"

static void route_to_127_0_0_1_leaves_through_lo(void)
{
	struct in6_addr dst;
	int ifindex = -1;

	CHECK(ip_parse_as_gid("127.0.0.1", &dst) == 0);
	CHECK(route_lookup_oif(&dst, &ifindex) == 0);
	CHECK(ifindex > 0 && ifindex == (int)if_nametoindex("lo"));
}

static void route_to_ipv6_loopback_leaves_through_lo_or_says_why(void)
{
	struct in6_addr dst;
	int ifindex = -1, ret;

	CHECK(ip_parse_as_gid("::1", &dst) == 0);
	ret = route_lookup_oif(&dst, &ifindex);
	/* a kernel with IPv6 disabled answers with an error, never with a wrong interface */
	CHECK(ret < 0 ? ifindex == 0 : ifindex == (int)if_nametoindex("lo"));
}

int main(void)
{
	RUN(route_to_127_0_0_1_leaves_through_lo);
	RUN(route_to_ipv6_loopback_leaves_through_lo_or_says_why);
	TAP_DONE();
}
