// SPDX-License-Identifier: GPL-2.0-only
/* compare.duplicate_address: an address two nodes both hold. One sort of every node's addresses: no pairs. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/compare_group.h"
#include "util/gidaddr.h"

#define DUPLICATES_SHOWN 16

struct address_item {
	const struct ip_address *addr;
	const char *netdev;
	size_t node;
};

static int address_order(const void *a, const void *b)
{
	const struct address_item *x = a, *y = b;
	int d = memcmp(&x->addr->addr, &y->addr->addr, sizeof(x->addr->addr));

	if (d)
		return d;
	return (x->node > y->node) - (x->node < y->node);
}

/* Loopback and link-local addresses repeat on every node by design. */
static bool address_is_unique_by_design(const struct ip_address *a)
{
	const uint8_t *b = a->addr.s6_addr;

	if (a->family == AF_INET)
		return b[12] == 127 || (b[12] == 169 && b[13] == 254);
	return gid_is_link_local(&a->addr) || IN6_IS_ADDR_LOOPBACK(&a->addr);
}

static void address_text(const struct ip_address *a, char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (a->family == AF_INET)
		inet_ntop(AF_INET, &a->addr.s6_addr[12], text, sizeof(text));
	else
		inet_ntop(AF_INET6, &a->addr, text, sizeof(text));
	snprintf(buf, size, "%s", text);
}

static void report_duplicate(const struct compare_ctx *c, const struct address_item *run, size_t count)
{
	char addr[INET6_ADDRSTRLEN], holders[1024] = "", fix[1536] = "";
	size_t shown = 0;

	address_text(run[0].addr, addr, sizeof(addr));
	/* the first holder (in the order given) keeps it: any one would do, the fix must name one */
	text_append(fix, sizeof(fix), "%s (%s) keeps %s", c->names[run[0].node], run[0].netdev, addr);
	for (size_t i = 0; i < count; i++) {
		if (i > 0 && run[i].node == run[i - 1].node)
			continue;   /* the same node twice (a VLAN and its parent) is check's business */
		compare_concern(c, run[i].node);
		if (shown++ < COMPARE_NAMES_SHOWN) {
			text_append(holders, sizeof(holders), "%s%s (%s)", shown > 1 ? ", " : "", c->names[run[i].node],
				 run[i].netdev);
			if (shown > 1)
				text_append(fix, sizeof(fix), "%son %s: `ip addr del %s/%u dev %s` and give it a free address "
					 "of that subnet", "\n", c->names[run[i].node], addr,
					 run[i].addr->prefix_len, run[i].netdev);
		}
	}
	if (shown > COMPARE_NAMES_SHOWN) {
		text_append(holders, sizeof(holders), " (+%zu more)", shown - COMPARE_NAMES_SHOWN);
		text_append(fix, sizeof(fix), "\nthe same on the other %zu nodes", shown - COMPARE_NAMES_SHOWN);
	}
	finding_add(c->out, "compare.duplicate_address", SEVERITY_FAIL, addr, fix,
		    "%s is held by %zu nodes: %s; connections to it reach one of them at random", addr, shown, holders);
}

int compare_addresses(const struct compare_ctx *c)
{
	struct address_item *items;
	size_t total = 0, count = 0, unknown = 0, duplicates = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct host *h = c->nodes[i].host;

		for (size_t j = 0; h && j < h->netdev_count; j++)
			total += h->netdevs[j].addrs_known ? h->netdevs[j].addr_count : 0;
	}
	items = malloc((total ? total : 1) * sizeof(*items));
	if (!items)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		const struct host *h = c->nodes[i].host;
		bool known = false;

		for (size_t j = 0; h && j < h->netdev_count; j++) {
			const struct netdev *nd = &h->netdevs[j];

			known |= nd->addrs_known;
			for (size_t k = 0; nd->addrs_known && k < nd->addr_count; k++)
				if (!address_is_unique_by_design(&nd->addrs[k]))
					items[count++] = (struct address_item){ &nd->addrs[k], nd->name, i };
		}
		unknown += !known;
	}
	qsort(items, count, sizeof(*items), address_order);
	for (size_t start = 0, end; start < count; start = end) {
		size_t nodes = 1;

		for (end = start + 1; end < count && memcmp(&items[end].addr->addr, &items[start].addr->addr,
							   sizeof(items[start].addr->addr)) == 0; end++)
			nodes += items[end].node != items[end - 1].node;
		if (nodes < 2)
			continue;
		if (duplicates++ < DUPLICATES_SHOWN)
			report_duplicate(c, &items[start], end - start);
	}
	if (duplicates > DUPLICATES_SHOWN)
		finding_add(c->out, "compare.duplicate_address", SEVERITY_FAIL, "addresses",
			    "give each node its own addresses (`ip addr del ADDRESS/LEN dev NETDEV` on all but one holder)",
			    "%zu more addresses are held by several nodes", duplicates - DUPLICATES_SHOWN);
	else if (!duplicates)
		finding_add(c->out, "compare.duplicate_address", unknown == c->n ? SEVERITY_INFO : SEVERITY_OK,
			    "addresses", NULL, "no address is held by two nodes (%zu %s addresses unknown)", unknown,
			    unknown == 1 ? "node's" : "nodes'");
	free(items);
	return 0;
}
