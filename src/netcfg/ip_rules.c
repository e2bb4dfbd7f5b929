// SPDX-License-Identifier: GPL-2.0-only
/* FIB rules from the kernel through libnl-route's rule cache. */
#include "netcfg/ip_rules.h"

#include <errno.h>
#include <linux/fib_rules.h>
#include <netlink/addr.h>
#include <netlink/netlink.h>
#include <netlink/route/rule.h>
#include <stdlib.h>
#include <string.h>

#define RULES_MAX 4096

static bool store_addr(struct nl_addr *a, int family, struct in6_addr *out, unsigned *len)
{
	memset(out, 0, sizeof(*out));
	*len = 0;
	if (!a)
		return true;
	if (family == AF_INET && nl_addr_get_len(a) == 4) {
		out->s6_addr[10] = 0xff;
		out->s6_addr[11] = 0xff;
		memcpy(&out->s6_addr[12], nl_addr_get_binary_addr(a), 4);
	} else if (family == AF_INET6 && nl_addr_get_len(a) == 16) {
		memcpy(out, nl_addr_get_binary_addr(a), 16);
	} else if (nl_addr_get_len(a) != 0) {
		return false;
	}
	*len = nl_addr_get_prefixlen(a);
	return *len <= (family == AF_INET ? 32u : 128u);
}

static void copy_if(char *dst, const char *src)
{
	if (src && strlen(src) < IF_NAMESIZE)
		strcpy(dst, src);
}

static void add_rule(struct ip_rule_list *list, struct rtnl_rule *r)
{
	struct ip_rule *ir = &list->items[list->count];
	int family = rtnl_rule_get_family(r);

	if (family != AF_INET && family != AF_INET6)
		return;
	memset(ir, 0, sizeof(*ir));
	ir->family = family;
	if (!store_addr(rtnl_rule_get_src(r), family, &ir->src, &ir->src_len) ||
	    !store_addr(rtnl_rule_get_dst(r), family, &ir->dst, &ir->dst_len))
		return;
	ir->priority = rtnl_rule_get_prio(r);
	ir->table = rtnl_rule_get_table(r);
	ir->action = rtnl_rule_get_action(r);
	ir->fwmark = rtnl_rule_get_mark(r);
	copy_if(ir->iif, rtnl_rule_get_iif(r));
	copy_if(ir->oif, rtnl_rule_get_oif(r));
	list->count++;
}

static int compare_rules(const void *a, const void *b)
{
	const struct ip_rule *x = a, *y = b;

	if (x->family != y->family)
		return x->family - y->family;
	return x->priority < y->priority ? -1 : x->priority > y->priority;
}

int ip_rules_read(const struct rootfs *root, struct ip_rule_list *out)
{
	struct nl_cache *cache = NULL;
	struct nl_object *obj;
	struct nl_sock *sock;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!root->live)
		return 0;
	sock = nl_socket_alloc();
	if (!sock)
		return -ENOMEM;
	ret = nl_connect(sock, NETLINK_ROUTE);
	if (ret < 0) {
		ret = -EIO;
		goto out;
	}
	ret = rtnl_rule_alloc_cache(sock, AF_UNSPEC, &cache);
	if (ret < 0) {
		ret = -EIO;
		goto out;
	}
	out->items = calloc(RULES_MAX, sizeof(*out->items));
	if (!out->items) {
		ret = -ENOMEM;
		goto out;
	}
	for (obj = nl_cache_get_first(cache); obj && out->count < RULES_MAX; obj = nl_cache_get_next(obj))
		add_rule(out, (struct rtnl_rule *)obj);
	qsort(out->items, out->count, sizeof(*out->items), compare_rules);
	out->known = true;
	ret = 0;
out:
	if (cache)
		nl_cache_free(cache);
	nl_socket_free(sock);
	return ret;
}

void ip_rule_list_free(struct ip_rule_list *list)
{
	free(list->items);
	memset(list, 0, sizeof(*list));
}
