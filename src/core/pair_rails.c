// SPDX-License-Identifier: GPL-2.0-only
/* The rails between two nodes: which port of a reaches which port of b (one subnet, or only a route), crossed
 * and missing rails, and where the two ends of a rail disagree (MTU, speed, GID, the pinned GID index). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gid_suggest.h"
#include "core/pair.h"
#include "util/gidaddr.h"
#include "util/text_append.h"

static bool soft_device(const struct rdma_device *d)
{
	return strncmp(d->name, "rxe", 3) == 0 || strncmp(d->name, "siw", 3) == 0 ||
	       (!d->pci_address[0] && d->parent[0]);
}

/* The prefix length of the netdev's address that the GID carries (rtnetlink; unknown under --root: 0). */
static unsigned address_prefix(const struct netdev *nd, const struct in6_addr *gid)
{
	for (size_t i = 0; nd && nd->addrs_known && i < nd->addr_count; i++)
		if (memcmp(&nd->addrs[i].addr, gid, sizeof(*gid)) == 0)
			return nd->addrs[i].prefix_len;
	return 0;
}

static void add_candidate(struct pair_port *pp, const struct netdev *nd, const struct gid_entry *e)
{
	struct pair_candidate *c = &pp->cand[pp->cand_count++];

	c->index = e->index;
	c->gid = e->gid;
	c->prefix_len = address_prefix(nd, &e->gid);
}

/* The rail's end takes candidate k: its index, address and prefix. */
static void take_candidate(struct pair_port *pp, size_t k)
{
	const struct pair_candidate *c = &pp->cand[k];
	char text[64];

	pp->end.gid_index = (int)c->index;
	gid_format_ip(&c->gid, text);
	snprintf(pp->end.address, sizeof(pp->end.address), "%.45s", text);
	pp->prefix_len = c->prefix_len;
	pp->prefix_known = c->prefix_len != 0;
}

static void fill_port(const struct host *h, const struct rdma_device *d, const struct rdma_port *p, int family,
		      struct pair_port *pp)
{
	const struct netdev *nd = p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL;
	struct gid_choice choice;

	memset(pp, 0, sizeof(*pp));
	pp->present = true;
	snprintf(pp->end.device, sizeof(pp->end.device), "%s", d->name);
	pp->end.port = p->num;
	pp->end.gid_index = -1;
	snprintf(pp->netdev, sizeof(pp->netdev), "%s", p->netdev);
	pp->netdev_mtu = nd ? nd->mtu : 0;
	pp->active_mtu = p->active_mtu;
	pp->rate_gbps = p->rate_gbps;
	pp->soft = soft_device(d);
	gid_suggest_port(p, nd, family, NULL, &choice);
	if (choice.found) {
		add_candidate(pp, nd, choice.entry);
		for (size_t i = 0; i < choice.other_count; i++)
			add_candidate(pp, nd, choice.others[i]);
		take_candidate(pp, 0);
	}
	if (gid_port_use(p, nd, pp->why, sizeof(pp->why)) == PORT_DOWN) {
		pp->down = true;
		return;
	}
	if (!choice.found)
		snprintf(pp->why, sizeof(pp->why), "%s", choice.reason);
	pp->usable = choice.found;
}

/* The Ethernet ports NCCL would select on a side, in the host's order. */
static size_t side_ports(const struct pair_side *s, int family, struct pair_port *ports, size_t max)
{
	const struct host *h = s->in->host;
	size_t n = 0;

	for (size_t d = 0; d < h->device_count; d++)
		for (size_t p = 0; p < h->devices[d].port_count && n < max; p++) {
			const struct rdma_port *port = &h->devices[d].ports[p];

			if (port->link_layer == LINK_LAYER_ETHERNET && input_port_selected(s->in, &h->devices[d], port))
				fill_port(h, &h->devices[d], port, family, &ports[n++]);
		}
	return n;
}

static unsigned default_prefix(int family)
{
	return family == AF_INET6 ? 64 : 24;
}

/* Whether candidates i of x and j of y share a subnet: under x's prefix when known, else y's, else a /24 (/64). */
static bool candidates_meet(const struct pair_port *x, size_t i, const struct pair_port *y, size_t j, int family,
			    unsigned *len)
{
	const struct pair_candidate *cx = &x->cand[i], *cy = &y->cand[j];

	*len = cx->prefix_len ? cx->prefix_len : cy->prefix_len ? cy->prefix_len : default_prefix(family);
	return gid_common_prefix(&cx->gid, &cy->gid) >= *len + (family == AF_INET ? 96 : 0);
}

/* Whether x and y have addresses in one subnet; if so both ends take them (as gid --suggest --peer would). */
static bool same_subnet(struct pair_port *x, struct pair_port *y, int family, bool take)
{
	unsigned len;

	for (size_t i = 0; i < x->cand_count; i++)
		for (size_t j = 0; j < y->cand_count; j++)
			if (candidates_meet(x, i, y, j, family, &len)) {
				if (take) {
					take_candidate(x, i);
					take_candidate(y, j);
					if (!x->prefix_known) {
						x->prefix_len = len;   /* the subnet's, for the rail's text */
					}
				}
				return true;
			}
	return false;
}

static bool gid_of(const struct pair_port *p, struct in6_addr *out)
{
	return p->end.gid_index >= 0 && ip_parse_as_gid(p->end.address, out) == 0;
}

/* "192.168.88.0/24" of the end's address under len (family terms). */
static void subnet_text(const struct pair_port *p, unsigned len, int family, char *buf, size_t size)
{
	struct in6_addr g;
	unsigned bits = len + (family == AF_INET ? 96 : 0);
	char text[64];

	if (!gid_of(p, &g)) {
		snprintf(buf, size, "?");
		return;
	}
	for (unsigned i = bits; i < 128; i++)
		g.s6_addr[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
	gid_format_ip(&g, text);
	snprintf(buf, size, "%.46s/%u", text, len);
}

static void add_rail(struct pair_rails *out, const struct pair_port *a, const struct pair_port *b,
		     enum rail_link link, bool crossed, int family)
{
	struct pair_rail *r;

	if (out->count >= PAIR_RAILS_MAX)
		return;
	r = &out->items[out->count++];
	memset(r, 0, sizeof(*r));
	if (a)
		r->a = *a;
	if (b)
		r->b = *b;
	r->link = link;
	r->crossed = crossed;
	if (link == RAIL_LINK_SAME_SUBNET)
		subnet_text(a, a->prefix_len ? a->prefix_len : default_prefix(family), family, r->subnet,
			    sizeof(r->subnet));
}

int pair_rails_build(const struct pair_side *a, const struct pair_side *b, int family, struct pair_rails *out)
{
	struct pair_port *pa = calloc(2 * PAIR_RAILS_MAX, sizeof(*pa)), *pb = pa + PAIR_RAILS_MAX;
	size_t na, nb;
	int b_of[PAIR_RAILS_MAX];
	bool used[PAIR_RAILS_MAX] = { false };

	memset(out, 0, sizeof(*out));
	if (!pa)
		return -ENOMEM;
	na = side_ports(a, family, pa, PAIR_RAILS_MAX);
	nb = side_ports(b, family, pb, PAIR_RAILS_MAX);
	for (size_t i = 0; i < na; i++)
		b_of[i] = -1;
	/* NCCL pairs rail i with rail i: keep that where the subnets allow, then look for crossed cables. */
	for (size_t i = 0; i < na && i < nb; i++)
		if (same_subnet(&pa[i], &pb[i], family, true)) {
			b_of[i] = (int)i;
			used[i] = true;
		}
	for (size_t i = 0; i < na; i++)
		for (size_t k = 0; b_of[i] < 0 && k < nb; k++)
			if (!used[k] && same_subnet(&pa[i], &pb[k], family, true)) {
				b_of[i] = (int)k;
				used[k] = true;
			}
	for (size_t i = 0; i < na; i++) {
		enum rail_link link = RAIL_LINK_SAME_SUBNET;
		int k = b_of[i];

		if (k < 0 && i < nb && !used[i])
			k = (int)i;
		for (size_t j = 0; k < 0 && j < nb; j++)
			if (!used[j])
				k = (int)j;
		if (k < 0) {
			add_rail(out, &pa[i], NULL, RAIL_LINK_MISSING, false, family);
			continue;
		}
		if (b_of[i] < 0)
			link = RAIL_LINK_ROUTED;
		used[k] = true;
		add_rail(out, &pa[i], &pb[k], link, link == RAIL_LINK_SAME_SUBNET && (size_t)k != i, family);
	}
	for (size_t k = 0; k < nb; k++)
		if (!used[k])
			add_rail(out, NULL, &pb[k], RAIL_LINK_MISSING, false, family);
	for (size_t i = 0; i < out->count; i++)
		for (size_t j = i + 1; j < out->count; j++)
			if (out->items[i].subnet[0] && strcmp(out->items[i].subnet, out->items[j].subnet) == 0)
				out->one_subnet = true;
	free(pa);
	return 0;
}
