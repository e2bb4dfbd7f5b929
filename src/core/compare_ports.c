// SPDX-License-Identifier: GPL-2.0-only
/* compare's per-port rules: port i (by HCA name and port number) of every node against the others: rate, link
 * layer, netdev MTU, active MTU and rail subnet. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/compare_group.h"
#include "util/gidaddr.h"

#define KEY_MAX 64

struct slot {
	const char *device;
	unsigned port;
	const struct host *ref;   /* the reference node's host: what the majority looks like */
};

/* Every node's port and netdev at one slot, looked up once for the five values: the lookups by name
 * (host_find_device, host_find_netdev) for every value of every slot were most of this rule's time. */
struct slot_ports {
	const struct rdma_port **ports;   /* [node]; NULL: no such port */
	const struct netdev **netdevs;    /* [node]; NULL: none */
};

static const struct rdma_port *node_port(const struct compare_node *node, const struct slot *s)
{
	const struct rdma_device *d = node->host ? host_find_device(node->host, s->device) : NULL;

	for (size_t i = 0; d && i < d->port_count; i++)
		if (d->ports[i].num == s->port)
			return &d->ports[i];
	return NULL;
}

static const struct netdev *port_netdev(const struct host *host, const struct rdma_port *p)
{
	return p && p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
}

/* The first address of family on the netdev that is not link-local; NULL when none. */
static const struct ip_address *rail_address(const struct netdev *nd, int family)
{
	for (size_t i = 0; i < nd->addr_count; i++) {
		const struct ip_address *a = &nd->addrs[i];

		if (a->family != family || gid_is_link_local(&a->addr))
			continue;
		if (family == AF_INET && a->addr.s6_addr[12] == 169 && a->addr.s6_addr[13] == 254)
			continue;
		return a;
	}
	return NULL;
}

static void format_subnet(const struct ip_address *a, char *buf, size_t size)
{
	struct in6_addr net = a->addr;
	unsigned bits = a->family == AF_INET ? a->prefix_len + 96 : a->prefix_len;
	char text[INET6_ADDRSTRLEN];

	for (unsigned i = 0; i < 16; i++) {
		unsigned keep = bits > i * 8 ? bits - i * 8 : 0;

		if (keep < 8)
			net.s6_addr[i] &= (uint8_t)(0xff << (8 - keep));
	}
	if (a->family == AF_INET)
		inet_ntop(AF_INET, &net.s6_addr[12], text, sizeof(text));
	else
		inet_ntop(AF_INET6, &net, text, sizeof(text));
	snprintf(buf, size, "%s/%u", text, a->prefix_len);
}

static void format_address(const struct ip_address *a, char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (a->family == AF_INET)
		inet_ntop(AF_INET, &a->addr.s6_addr[12], text, sizeof(text));
	else
		inet_ntop(AF_INET6, &a->addr, text, sizeof(text));
	snprintf(buf, size, "%s/%u", text, a->prefix_len);
}

enum port_value { VALUE_RATE, VALUE_LINK_LAYER, VALUE_MTU, VALUE_ACTIVE_MTU, VALUE_RAIL, VALUE_COUNT };

/* n in decimal into buf: snprintf's "%d" for the 10,000 nodes of every slot was a tenth of this rule. */
static const char *decimal(int n, char *buf, size_t size)
{
	char digits[16];
	size_t len = 0;
	unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;

	do
		digits[len++] = (char)('0' + u % 10);
	while ((u /= 10) && len < sizeof(digits) - 1);
	if (n < 0)
		digits[len++] = '-';
	for (size_t i = 0; i < len && i + 1 < size; i++)
		buf[i] = digits[len - 1 - i];
	buf[len < size ? len : size - 1] = '\0';
	return buf;
}

/* The value of port p (netdev nd) into buf; NULL when unknown. */
static const char *port_value(const struct compare_ctx *c, const struct rdma_port *p, const struct netdev *nd,
			      enum port_value v, char *buf, size_t size)
{
	const struct ip_address *a;

	if (!p)
		return NULL;
	switch (v) {
	case VALUE_RATE:
		if (p->rate_gbps <= 0)
			return NULL;
		snprintf(buf, size, "%g Gb/s", p->rate_gbps);
		return buf;
	case VALUE_LINK_LAYER:
		return p->link_layer == LINK_LAYER_UNKNOWN ? NULL : link_layer_name(p->link_layer);
	case VALUE_MTU:
		if (!nd || nd->mtu <= 0)
			return NULL;
		return decimal(nd->mtu, buf, size);
	case VALUE_ACTIVE_MTU:
		if (p->active_mtu <= 0)
			return NULL;
		return decimal(p->active_mtu, buf, size);
	case VALUE_RAIL:
		if (!nd || !nd->addrs_known || p->link_layer == LINK_LAYER_INFINIBAND)
			return NULL;
		a = rail_address(nd, c->family);
		if (!a)
			return "no address";
		format_subnet(a, buf, size);
		return buf;
	default:
		return NULL;
	}
}

/* The netdev name the fix names: the first odd node's, else the reference node's. */
static const char *odd_netdev(const struct compare_ctx *c, const struct slot *s, const struct value_group *odd)
{
	const struct rdma_port *p = node_port(&c->nodes[odd->items[0].node], s);

	return p && p->netdev[0] ? p->netdev : "NETDEV";
}

static void fix_rate(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		     const char *nodes, char *buf, size_t size)
{
	const char *nd = odd_netdev(c, arg, odd);

	snprintf(buf, size,
		 "on %s (%s): `ethtool %s` shows what was negotiated; reseat or replace the cable or transceiver and "
		 "check the switch port's speed (`ethtool -s %s autoneg on`) until it links at %s like the others",
		 nodes, odd->value, nd, nd, want);
}

static void fix_link_layer(const struct compare_ctx *c, const void *arg, const char *want,
			   const struct value_group *odd, const char *nodes, char *buf, size_t size)
{
	const struct slot *s = arg;
	const struct compare_node *node = &c->nodes[odd->items[0].node];
	const struct rdma_device *d = host_find_device(node->host, s->device);

	snprintf(buf, size,
		 "on %s (%s): switch the port to %s like the others: `mstconfig -d %s set LINK_TYPE_P%u=%s`, then "
		 "reboot", nodes, odd->value, want, d && d->pci_address[0] ? d->pci_address : s->device, s->port,
		 strcmp(want, "Ethernet") == 0 ? "2" : "1");
}

static void fix_mtu(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		    const char *nodes, char *buf, size_t size)
{
	const char *nd = odd_netdev(c, arg, odd);

	snprintf(buf, size,
		 "on %s (MTU %s): `ip link set dev %s mtu %s`, and the same MTU in the node's network configuration "
		 "(netplan, NetworkManager) so it stays after a reboot", nodes, odd->value, nd, want);
}

static void fix_active_mtu(const struct compare_ctx *c, const void *arg, const char *want,
			   const struct value_group *odd, const char *nodes, char *buf, size_t size)
{
	const struct slot *s = arg;
	const struct rdma_device *d = host_find_device(s->ref, s->device);
	const struct rdma_port *p = NULL;
	const struct netdev *ref_nd;
	const char *nd = odd_netdev(c, arg, odd);

	for (size_t i = 0; d && i < d->port_count; i++)
		if (d->ports[i].num == s->port)
			p = &d->ports[i];
	ref_nd = port_netdev(s->ref, p);
	/* RoCE's active MTU is the largest IB MTU that fits the netdev's: raising the netdev MTU raises it */
	if (ref_nd && ref_nd->mtu > 0)
		snprintf(buf, size,
			 "on %s (active MTU %s, the others %s): the active MTU follows the netdev's; `ip link set dev %s "
			 "mtu %d` as on the others", nodes, odd->value, want, nd, ref_nd->mtu);
	else
		snprintf(buf, size,
			 "on %s (active MTU %s, the others %s): the active MTU follows the netdev's; raise %s's MTU "
			 "(`ip link set dev %s mtu 9000`) until `ibv_devinfo` shows active_mtu %s", nodes, odd->value,
			 want, nd, nd, want);
}

/* The address the odd port should have: its own host part in the majority's subnet (rails usually differ
 * only in the network part), when the prefix lengths match; 0 when it cannot be derived. */
static int rail_suggestion(const struct ip_address *have, const char *want, char *buf, size_t size)
{
	char net_text[INET6_ADDRSTRLEN];
	const char *slash = strchr(want, '/');
	struct in6_addr net, addr;
	unsigned len, bits;

	if (!slash || (size_t)(slash - want) >= sizeof(net_text) || sscanf(slash + 1, "%u", &len) != 1 ||
	    len != have->prefix_len)
		return 0;
	memcpy(net_text, want, (size_t)(slash - want));
	net_text[slash - want] = 0;
	if (ip_parse_as_gid(net_text, &net) < 0)
		return 0;
	addr = have->addr;
	bits = have->family == AF_INET ? len + 96 : len;
	for (unsigned i = 0; i < 16; i++) {
		unsigned keep = bits > i * 8 ? bits - i * 8 : 0;
		uint8_t mask = keep >= 8 ? 0xff : (uint8_t)(0xff << (8 - keep));

		addr.s6_addr[i] = (uint8_t)((net.s6_addr[i] & mask) | (addr.s6_addr[i] & ~mask));
	}
	format_address(&(struct ip_address){ .family = have->family, .addr = addr, .prefix_len = len }, buf, size);
	return 1;
}

static void fix_rail(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		     const char *nodes, char *buf, size_t size)
{
	const struct compare_node *node = &c->nodes[odd->items[0].node];
	const struct rdma_port *p = node_port(node, arg);
	const struct netdev *nd = port_netdev(node->host, p);
	const struct ip_address *a = nd ? rail_address(nd, c->family) : NULL;
	const char *name = nd ? nd->name : odd_netdev(c, arg, odd);
	char have[64], next[64];

	if (!a) {
		snprintf(buf, size, "on %s (no address): this port's rail is %s on the other nodes: `ip addr add "
			 "FREE_ADDRESS/%s dev %s` with a free address of that subnet", nodes, want,
			 strchr(want, '/') ? strchr(want, '/') + 1 : "LEN", name);
		return;
	}
	format_address(a, have, sizeof(have));
	if (rail_suggestion(a, want, next, sizeof(next)))
		snprintf(buf, size, "on %s (%s): this port's rail is %s on the other nodes: `ip addr del %s dev %s && "
			 "ip addr add %s dev %s` on %s (its host part kept; each odd node keeps its own)", nodes,
			 odd->value, want, have, name, next, name, c->names[odd->items[0].node]);
	else
		snprintf(buf, size, "on %s (%s): this port's rail is %s on the other nodes: `ip addr del %s dev %s && "
			 "ip addr add FREE_ADDRESS_IN_%s dev %s` on %s", nodes, odd->value, want, have, name, want, name,
			 c->names[odd->items[0].node]);
}

static const struct attribute_rule port_rules[VALUE_COUNT] = {
	[VALUE_RATE] = { "compare.port_rate", "port rate", NULL, SEVERITY_WARN, fix_rate, NULL, true },
	[VALUE_LINK_LAYER] = { "compare.link_layer", "link layer", NULL, SEVERITY_FAIL, fix_link_layer, NULL, false },
	[VALUE_MTU] = { "compare.mtu", "netdev MTU", NULL, SEVERITY_WARN, fix_mtu, NULL, true },
	[VALUE_ACTIVE_MTU] = { "compare.active_mtu", "active MTU", NULL, SEVERITY_WARN, fix_active_mtu, NULL, true },
	[VALUE_RAIL] = { "compare.rails", "rail subnet", NULL, SEVERITY_FAIL, fix_rail, NULL, false },
};
static int compare_slot(const struct compare_ctx *c, const struct slot *s, const struct slot_ports *at,
			enum port_value v, const char **keys, char (*bufs)[KEY_MAX], size_t *differing)
{
	struct attribute_rule rule = port_rules[v];
	char subject[96], what[160];
	int ret;

	for (size_t i = 0; i < c->n; i++) {
		if (i > 0 && c->nodes[i].host == c->nodes[i - 1].host) {
			keys[i] = keys[i - 1];
			continue;
		}
		keys[i] = at->ports[i] ? port_value(c, at->ports[i], at->netdevs[i], v, bufs[i], KEY_MAX) : NULL;
	}
	snprintf(subject, sizeof(subject), "%s/%u", s->device, s->port);
	snprintf(what, sizeof(what), "%s of %s", rule.what, subject);
	rule.subject = subject;
	rule.what = what;
	rule.arg = s;
	ret = compare_keys(c, &rule, keys, false);
	*differing += ret > 0;
	return ret < 0 ? ret : 0;
}

/* The reference host's slots, in its order, with every node's port and netdev at each. */
static int slot_table(const struct compare_ctx *c, const struct host *ref, struct slot **slots,
		      struct slot_ports **at, size_t *count)
{
	size_t n = 0;

	for (size_t d = 0; ref && d < ref->device_count; d++)
		n += ref->devices[d].port_count;
	*count = 0;
	*slots = calloc(n ? n : 1, sizeof(**slots));
	*at = calloc(n ? n : 1, sizeof(**at));
	if (!*slots || !*at)
		return -ENOMEM;
	for (size_t d = 0; ref && d < ref->device_count; d++)
		for (size_t p = 0; p < ref->devices[d].port_count; p++) {
			struct slot *s = &(*slots)[*count];
			struct slot_ports *sp = &(*at)[*count];

			*s = (struct slot){ ref->devices[d].name, ref->devices[d].ports[p].num, ref };
			(*count)++;
			sp->ports = calloc(c->n ? c->n : 1, sizeof(*sp->ports));
			sp->netdevs = calloc(c->n ? c->n : 1, sizeof(*sp->netdevs));
			if (!sp->ports || !sp->netdevs)
				return -ENOMEM;
			for (size_t i = 0; i < c->n; i++) {
				sp->ports[i] = node_port(&c->nodes[i], s);
				sp->netdevs[i] = sp->ports[i] ? port_netdev(c->nodes[i].host, sp->ports[i]) : NULL;
			}
		}
	return 0;
}

int compare_ports(const struct compare_ctx *c)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char (*bufs)[KEY_MAX] = calloc(c->n ? c->n : 1, sizeof(*bufs));
	const struct host *ref;
	struct slot *slots = NULL;
	struct slot_ports *at = NULL;
	size_t ports = 0;
	int ret = -ENOMEM;

	if (!keys || !bufs)
		goto out;
	ret = compare_reference_host(c, &ref);
	if (ret == 0)
		ret = slot_table(c, ref, &slots, &at, &ports);
	for (enum port_value v = 0; ret == 0 && v < VALUE_COUNT; v++) {
		size_t differing = 0;

		for (size_t k = 0; ret == 0 && k < ports; k++)
			ret = compare_slot(c, &slots[k], &at[k], v, keys, bufs, &differing);
		if (ret == 0 && !differing && ports)
		{
			char all[32];

			finding_add(c->out, port_rules[v].id, SEVERITY_OK, "ports", NULL,
				    "%s agrees on every port (%zu per node) of %s, where known", port_rules[v].what, ports,
				    compare_all_nodes(c->n, all, sizeof(all)));
		}
		else if (ret == 0 && !differing)
			finding_add(c->out, port_rules[v].id, SEVERITY_INFO, "ports", NULL,
				    "%s: no RDMA port on any node to compare", port_rules[v].what);
	}
out:
	for (size_t k = 0; at && k < ports; k++) {
		free(at[k].ports);
		free(at[k].netdevs);
	}
	free(at);
	free(slots);
	free(keys);
	free(bufs);
	return ret;
}
