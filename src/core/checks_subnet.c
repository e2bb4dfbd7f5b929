// SPDX-License-Identifier: GPL-2.0-only
/* net.same_subnet: two RDMA netdevs with IPv4 addresses in one subnet answer ARP for each other and send
 * replies out of the wrong port, unless arp_ignore=1/arp_announce=2 or per-port policy routing is set. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "core/checks.h"

static uint32_t v4_of(const struct ip_address *a)
{
	uint32_t v;

	memcpy(&v, &a->addr.s6_addr[12], 4);
	return ntohl(v);
}

static uint32_t mask_of(unsigned len)
{
	return len == 0 ? 0 : len >= 32 ? 0xffffffffu : ~((1u << (32 - len)) - 1);
}

static const struct ip_address *first_v4(const struct netdev *nd)
{
	for (size_t i = 0; nd && nd->addrs_known && i < nd->addr_count; i++)
		if (nd->addrs[i].family == AF_INET)
			return &nd->addrs[i];
	return NULL;
}

static const struct netdev_arp *arp_of(const struct check_input *in, const char *netdev)
{
	for (size_t i = 0; i < in->arp_count; i++)
		if (strcmp(in->arp[i].netdev, netdev) == 0)
			return &in->arp[i];
	return NULL;
}

/* arp_ignore >= 1 and arp_announce >= 2 on this netdev. */
static bool arp_ok(const struct check_input *in, const char *netdev)
{
	const struct netdev_arp *a = arp_of(in, netdev);

	return a && a->known && a->value.ignore >= 1 && a->value.announce >= 2;
}

static bool routed_by_source(const struct check_input *in, const struct ip_address *a)
{
	const struct ip_rule *r;

	if (!in->ip_rules || !in->ip_rules->known)
		return false;
	r = ip_rule_for_source(in->ip_rules, AF_INET, &a->addr);
	return r && r->table != 254 && r->table != 255 && r->table != 253;
}

static void pair_finding(const struct check_input *in, const struct netdev *x, const struct ip_address *ax,
			 const struct netdev *y, const struct ip_address *ay, struct findings *out)
{
	char subject[64], fix[1536], sx[INET_ADDRSTRLEN], sy[INET_ADDRSTRLEN], net[INET_ADDRSTRLEN];
	uint32_t n = htonl(v4_of(ax) & mask_of(ax->prefix_len)), hx = htonl(v4_of(ax)), hy = htonl(v4_of(ay));

	inet_ntop(AF_INET, &hx, sx, sizeof(sx));
	inet_ntop(AF_INET, &hy, sy, sizeof(sy));
	inet_ntop(AF_INET, &n, net, sizeof(net));
	snprintf(subject, sizeof(subject), "%s,%s", x->name, y->name);
	if ((arp_ok(in, x->name) && arp_ok(in, y->name)) || (routed_by_source(in, ax) && routed_by_source(in, ay))) {
		finding_add(out, "net.same_subnet", SEVERITY_OK, subject, NULL, "%s and %s share %s/%u, with %s", sx, sy,
			    net, ax->prefix_len, arp_ok(in, x->name) && arp_ok(in, y->name) ?
			    "arp_ignore=1 and arp_announce=2" : "a routing table per source address");
		return;
	}
	snprintf(fix, sizeof(fix),
		 "printf 'net.ipv4.conf.%s.arp_ignore=1\\nnet.ipv4.conf.%s.arp_announce=2\\n"
		 "net.ipv4.conf.%s.arp_ignore=1\\nnet.ipv4.conf.%s.arp_announce=2\\n' > /etc/sysctl.d/90-roce-arp.conf "
		 "&& sysctl --system\n"
		 "# or policy routing (one table per port; not persistent: add them to the interface's connection):\n"
		 "ip route add %s/%u dev %s src %s table 101\nip rule add from %s table 101\n"
		 "ip route add %s/%u dev %s src %s table 102\nip rule add from %s table 102",
		 x->name, x->name, y->name, y->name, net, ax->prefix_len, x->name, sx, sx, net, ay->prefix_len, y->name,
		 sy, sy);
	finding_add(out, "net.same_subnet", SEVERITY_WARN, subject, fix,
		    "%s (%s) and %s (%s) are in one subnet %s/%u without arp_ignore=1/arp_announce=2 or policy routing: "
		    "ARP replies and RoCE traffic can leave by the wrong port", x->name, sx, y->name, sy, net,
		    ax->prefix_len);
}

void check_same_subnet(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	const struct netdev *nds[64];
	size_t n = 0;
	bool unknown = false;

	if (!in->arp || !findings_wanted(out, "net.same_subnet"))
		return;
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count && n < 64; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];
			const struct netdev *nd = p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL;
			bool dup = false;

			if (!nd || p->link_layer != LINK_LAYER_ETHERNET || !input_port_checked(in, &h->devices[i], p))
				continue;
			for (size_t k = 0; k < n; k++)
				dup |= nds[k] == nd;
			if (!dup)
				nds[n++] = nd;
			unknown |= !nd->addrs_known;
		}
	if (n < 2)
		return;
	if (unknown) {
		finding_add(out, "net.same_subnet", SEVERITY_INFO, "addresses", NULL,
			    "unknown: interface addresses come from netlink on the live host, not from a --root tree");
		return;
	}
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++) {
			const struct ip_address *x = first_v4(nds[a]), *y = first_v4(nds[b]);

			if (x && y && x->prefix_len == y->prefix_len &&
			    (v4_of(x) & mask_of(x->prefix_len)) == (v4_of(y) & mask_of(y->prefix_len)))
				pair_finding(in, nds[a], x, nds[b], y, out);
		}
}
