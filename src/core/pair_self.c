// SPDX-License-Identifier: GPL-2.0-only
/* Is the peer this node? An address comparison on a's model (see pair_self.h). */
#include "core/pair_self.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

/* addr as the model keeps it: IPv6, IPv4 mapped (::ffff:a.b.c.d). */
static bool as_model(const struct sockaddr_storage *addr, struct in6_addr *out)
{
	if (addr->ss_family == AF_INET) {
		const struct sockaddr_in *in4 = (const struct sockaddr_in *)addr;

		memset(out, 0, sizeof(*out));
		out->s6_addr[10] = 0xff;
		out->s6_addr[11] = 0xff;
		memcpy(&out->s6_addr[12], &in4->sin_addr, 4);
		return true;
	}
	if (addr->ss_family == AF_INET6) {
		*out = ((const struct sockaddr_in6 *)addr)->sin6_addr;
		return true;
	}
	return false;
}

static bool loopback(const struct in6_addr *a)
{
	return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

bool pair_peer_is_self(const struct host *a, const struct sockaddr_storage *addr, char *netdev, size_t size)
{
	struct in6_addr want;

	if (!as_model(addr, &want))
		return false;
	for (size_t n = 0; a && n < a->netdev_count; n++) {
		const struct netdev *nd = &a->netdevs[n];

		for (size_t k = 0; nd->addrs_known && k < nd->addr_count; k++)
			if (memcmp(&nd->addrs[k].addr, &want, sizeof(want)) == 0) {
				snprintf(netdev, size, "%s", nd->name);
				return true;
			}
	}
	if (!loopback(&want))
		return false;
	snprintf(netdev, size, "lo");
	return true;
}
