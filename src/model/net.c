// SPDX-License-Identifier: GPL-2.0-only
/* Questions about the addressing model that the rules ask: pure functions of the model. */
#include "model/net.h"

#include <linux/fib_rules.h>
#include <string.h>
#include <sys/socket.h>

static bool prefix_contains(const struct in6_addr *net, unsigned len, const struct in6_addr *addr)
{
	unsigned full = len / 8, rest = len % 8;

	if (memcmp(net, addr, full) != 0)
		return false;
	return rest == 0 || ((net->s6_addr[full] ^ addr->s6_addr[full]) & (0xff << (8 - rest))) == 0;
}

const struct ip_rule *ip_rule_for_source(const struct ip_rule_list *list, int family, const struct in6_addr *addr)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct ip_rule *r = &list->items[i];
		unsigned bits = r->family == AF_INET ? 96 + r->src_len : r->src_len;

		if (r->family == family && r->src_len && r->action == FR_ACT_TO_TBL &&
		    prefix_contains(&r->src, bits, addr))
			return r;
	}
	return NULL;
}
