// SPDX-License-Identifier: GPL-2.0-only
/* Interface addresses from the kernel (RTM_GETADDR dump through libnl-route). */
#include "netcfg/addresses.h"

#include <errno.h>
#include <netlink/addr.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <stdlib.h>
#include <string.h>

#define ADDRS_PER_NETDEV_MAX HOST_ADDRS_MAX

static struct netdev *netdev_by_index(struct host *host, int ifindex)
{
	for (size_t i = 0; i < host->netdev_count; i++)
		if (host->netdevs[i].ifindex == ifindex)
			return &host->netdevs[i];
	return NULL;
}

static void add_address(struct host *host, struct rtnl_addr *ra)
{
	struct nl_addr *local = rtnl_addr_get_local(ra);
	struct netdev *nd = netdev_by_index(host, rtnl_addr_get_ifindex(ra));
	struct ip_address *ip;
	int family;

	if (!nd || !local || nd->addr_count >= ADDRS_PER_NETDEV_MAX)
		return;
	family = nl_addr_get_family(local);
	if ((family == AF_INET && nl_addr_get_len(local) != 4) || (family == AF_INET6 && nl_addr_get_len(local) != 16) ||
	    (family != AF_INET && family != AF_INET6))
		return;
	ip = &nd->addrs[nd->addr_count++];
	memset(ip, 0, sizeof(*ip));
	ip->family = family;
	ip->prefix_len = (unsigned)rtnl_addr_get_prefixlen(ra);
	if (family == AF_INET) {
		ip->addr.s6_addr[10] = 0xff;
		ip->addr.s6_addr[11] = 0xff;
		memcpy(&ip->addr.s6_addr[12], nl_addr_get_binary_addr(local), 4);
	} else {
		memcpy(&ip->addr, nl_addr_get_binary_addr(local), 16);
	}
}

int netlink_fill_addresses(struct host *host)
{
	struct nl_sock *sock;
	struct nl_cache *cache = NULL;
	struct nl_object *obj;
	int ret;

	sock = nl_socket_alloc();
	if (!sock)
		return -ENOMEM;
	ret = nl_connect(sock, NETLINK_ROUTE);
	if (ret < 0) {
		ret = -EIO;
		goto out;
	}
	ret = rtnl_addr_alloc_cache(sock, &cache);
	if (ret < 0) {
		ret = -EIO;
		goto out;
	}
	for (size_t i = 0; i < host->netdev_count; i++) {
		host->netdevs[i].addrs = calloc(ADDRS_PER_NETDEV_MAX, sizeof(struct ip_address));
		if (!host->netdevs[i].addrs) {
			ret = -ENOMEM;
			goto out;
		}
		host->netdevs[i].addrs_known = true;
	}
	for (obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj))
		add_address(host, (struct rtnl_addr *)obj);
	ret = 0;
out:
	if (cache)
		nl_cache_free(cache);
	nl_socket_free(sock);
	return ret;
}
