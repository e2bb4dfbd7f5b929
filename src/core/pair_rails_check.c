// SPDX-License-Identifier: GPL-2.0-only
/* What the two models alone say about the rails: missing, down, routed or crossed rails, ends that disagree on
 * MTU or speed, an end without a GID, the GID index each side uses against a pinned NCCL_IB_GID_INDEX, and two
 * rails in one subnet without the ARP settings that keep replies on their own port. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nccl_setting_fix.h"
#include "core/pair.h"
#include "util/gidaddr.h"
#include "util/text_append.h"

static void port_text(const struct pair_port *p, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%u (%s%s%s)", p->end.device, p->end.port, p->netdev[0] ? p->netdev : "no netdev",
		 p->end.address[0] ? ", " : "", p->end.address);
}

static void rail_subject(const struct pair_rail *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%u<->%s/%u", r->a.present ? r->a.end.device : "-", r->a.present ? r->a.end.port : 0,
		 r->b.present ? r->b.end.device : "-", r->b.present ? r->b.end.port : 0);
}

/* B's address moved into a's subnet, keeping its host part: 192.168.89.2 with a's 192.168.88.1/24 -> .88.2. */
static int renumber(const struct pair_port *a, const struct pair_port *b, unsigned len, int family, char *out)
{
	struct in6_addr ga, gb;
	unsigned bits = len + (family == AF_INET ? 96 : 0);

	if (ip_parse_as_gid(a->end.address, &ga) < 0 || ip_parse_as_gid(b->end.address, &gb) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < bits && i < 128; i++) {
		uint8_t bit = (uint8_t)(0x80u >> (i % 8));

		gb.s6_addr[i / 8] = (uint8_t)((gb.s6_addr[i / 8] & ~bit) | (ga.s6_addr[i / 8] & bit));
	}
	gid_format_ip(&gb, out);
	return 0;
}

static void check_link(const struct pair_side *a, const struct pair_side *b, const struct pair_rail *r, int family,
		       struct pair_findings *out)
{
	char subject[160], pa[160], pb[160], fix[1024], na[96], nb[96];
	unsigned len;

	rail_subject(r, subject, sizeof(subject));
	pair_node_name(a, na, sizeof(na));
	pair_node_name(b, nb, sizeof(nb));
	port_text(&r->a, pa, sizeof(pa));
	port_text(&r->b, pb, sizeof(pb));
	if (r->link == RAIL_LINK_MISSING) {
		char lacking = r->a.present ? 'b' : 'a';
		const struct pair_port *p = r->a.present ? &r->a : &r->b;

		snprintf(fix, sizeof(fix), "rdma link show; ip -br link   # on %s: the RDMA port of this rail is missing, "
			 "down before NCCL_IB_HCA selects it, or not selected by NCCL_IB_HCA\n"
			 "# or leave the rail out on %s: NCCL_IB_HCA=^%s:%u", lacking == 'a' ? na : nb,
			 r->a.present ? na : nb, p->end.device, p->end.port);
		pair_add(out, lacking, "pair.rail", SEVERITY_FAIL, subject, fix, "%s's %s has no port on %s to reach: "
			 "NCCL's rail %s carries nothing", r->a.present ? na : nb, r->a.present ? pa : pb,
			 lacking == 'a' ? na : nb, p->end.device);
		return;
	}
	for (int k = 0; k < 2; k++) {
		const struct pair_port *p = k ? &r->b : &r->a;
		char node = k ? 'b' : 'a';

		if (!p->down)
			continue;
		snprintf(fix, sizeof(fix), "ip link set dev %s up   # on %s; if it stays down: the cable, the transceiver, "
			 "the switch port (ethtool %s)", p->netdev[0] ? p->netdev : "IF", k ? nb : na,
			 p->netdev[0] ? p->netdev : "IF");
		pair_add(out, node, "pair.rail", SEVERITY_FAIL, subject, fix, "%s's %s: %s", k ? nb : na,
			 k ? pb : pa, p->why);
		return;
	}
	if (r->link == RAIL_LINK_ROUTED) {
		char addr[64];

		len = r->a.prefix_known ? r->a.prefix_len : r->b.prefix_known ? r->b.prefix_len :
		      family == AF_INET6 ? 64 : 24;
		if (renumber(&r->a, &r->b, len, family, addr) == 0 && r->b.end.address[0])
			snprintf(fix, sizeof(fix), "ip addr del %s/%u dev %s && ip addr add %s/%u dev %s   # on %s: into "
				 "%s's subnet; or add a route on both nodes", r->b.end.address, r->b.prefix_known ?
				 r->b.prefix_len : len, r->b.netdev, addr, len, r->b.netdev, nb, na);
		else
			snprintf(fix, sizeof(fix), "ip addr add ADDR/%u dev %s   # on %s: ADDR a free address in %s's subnet",
				 len, r->b.netdev, nb, na);
		pair_add(out, 'b', "pair.rail", SEVERITY_WARN, subject, fix, "%s's %s and %s's %s are in different "
			 "subnets: only a route joins them (the RDMA probe says whether one does)", na, pa, nb, pb);
		return;
	}
	if (r->crossed) {
		pair_add(out, 'b', "pair.rail", SEVERITY_WARN, subject, "# on the nodes: swap the two cables of these "
			 "rails, or swap the addresses of the two netdevs on b (ip addr del / ip addr add)",
			 "%s's %s reaches %s's %s, not the port of the same rank: cables or addresses are crossed",
			 na, pa, nb, pb);
		return;
	}
	pair_add(out, 0, "pair.rail", SEVERITY_OK, subject, NULL, "%s <-> %s, %s", pa, pb, r->subnet);
}

static void check_mtu(const struct pair_side *a, const struct pair_side *b, const struct pair_rail *r,
		      struct pair_findings *out)
{
	const struct pair_port *lo, *hi;
	char subject[160], fix[512], name[96], na[96], nb[96];

	rail_subject(r, subject, sizeof(subject));
	pair_node_name(a, na, sizeof(na));
	pair_node_name(b, nb, sizeof(nb));
	if (r->a.netdev_mtu > 0 && r->b.netdev_mtu > 0 && r->a.netdev_mtu != r->b.netdev_mtu) {
		bool a_low = r->a.netdev_mtu < r->b.netdev_mtu;

		lo = a_low ? &r->a : &r->b;
		hi = a_low ? &r->b : &r->a;
		pair_node_name(a_low ? a : b, name, sizeof(name));
		snprintf(fix, sizeof(fix), "ip link set dev %s mtu %d   # on %s\n# to keep it: nmcli connection modify %s "
			 "802-3-ethernet.mtu %d", lo->netdev, hi->netdev_mtu, name, lo->netdev, hi->netdev_mtu);
		pair_add(out, a_low ? 'a' : 'b', "pair.mtu", SEVERITY_WARN, subject, fix, "%s has netdev MTU %d on %s, "
			 "%s has %d on %s: the rail carries only %d-byte packets", na, r->a.netdev_mtu, r->a.netdev, nb,
			 r->b.netdev_mtu, r->b.netdev, lo->netdev_mtu);
		return;
	}
	if (r->a.active_mtu > 0 && r->b.active_mtu > 0 && r->a.active_mtu != r->b.active_mtu) {
		bool a_low = r->a.active_mtu < r->b.active_mtu;

		lo = a_low ? &r->a : &r->b;
		pair_node_name(a_low ? a : b, name, sizeof(name));
		snprintf(fix, sizeof(fix), "ip link set dev %s mtu 9000   # on %s: a 4096-byte RoCE MTU needs a netdev "
			 "MTU of at least 4200", lo->netdev, name);
		pair_add(out, a_low ? 'a' : 'b', "pair.mtu", SEVERITY_WARN, subject, fix, "%s has active RoCE MTU %d on "
			 "%s/%u, %s has %d on %s/%u", na, r->a.active_mtu, r->a.end.device, r->a.end.port, nb,
			 r->b.active_mtu, r->b.end.device, r->b.end.port);
		return;
	}
	if (r->a.netdev_mtu > 0 && r->b.netdev_mtu > 0)
		pair_add(out, 0, "pair.mtu", SEVERITY_OK, subject, NULL, "netdev MTU %d on both ends", r->a.netdev_mtu);
}

static void check_speed(const struct pair_side *a, const struct pair_side *b, const struct pair_rail *r,
			struct pair_findings *out)
{
	char subject[160], fix[512], name[96], na[96], nb[96];
	bool a_low = r->a.rate_gbps < r->b.rate_gbps;
	const struct pair_port *lo = a_low ? &r->a : &r->b;

	rail_subject(r, subject, sizeof(subject));
	if (r->a.rate_gbps <= 0 || r->b.rate_gbps <= 0)
		return;
	if (r->a.rate_gbps == r->b.rate_gbps) {
		pair_add(out, 0, "pair.speed", SEVERITY_OK, subject, NULL, "%g Gb/s on both ends", r->a.rate_gbps);
		return;
	}
	pair_node_name(a_low ? a : b, name, sizeof(name));
	snprintf(fix, sizeof(fix), "ethtool %s   # on %s: the supported and advertised modes; then ethtool -s %s "
		 "autoneg on, or the cable, transceiver or switch port", lo->netdev, name, lo->netdev);
	pair_node_name(a, na, sizeof(na));
	pair_node_name(b, nb, sizeof(nb));
	pair_add(out, a_low ? 'a' : 'b', "pair.speed", SEVERITY_WARN, subject, fix, "%s's %s/%u runs at %g Gb/s, "
		 "%s's %s/%u at %g Gb/s: the rail runs at %g Gb/s", na, r->a.end.device, r->a.end.port, r->a.rate_gbps,
		 nb, r->b.end.device, r->b.end.port, r->b.rate_gbps, lo->rate_gbps);
}

static void check_gid(const struct pair_side *a, const struct pair_side *b, const struct pair_rail *r,
		      struct pair_findings *out)
{
	char subject[160], fix[512], name[96];

	rail_subject(r, subject, sizeof(subject));
	for (int k = 0; k < 2; k++) {
		const struct pair_port *p = k ? &r->b : &r->a;
		const struct pair_port *o = k ? &r->a : &r->b;

		if (!p->present || p->down || p->usable)
			continue;
		pair_node_name(k ? b : a, name, sizeof(name));
		if (o->end.address[0])
			snprintf(fix, sizeof(fix), "ip addr add ADDR/%u dev %s   # on %s: ADDR a free address in the "
				 "subnet of %s", o->prefix_known ? o->prefix_len : 24, p->netdev, name, o->end.address);
		else
			snprintf(fix, sizeof(fix), "ip addr add ADDR/PREFIX dev %s   # on %s", p->netdev, name);
		pair_add(out, k ? 'b' : 'a', "pair.gid", SEVERITY_FAIL, subject, fix, "%s's %s/%u has no GID to "
			 "reach the other end with: %s", name, p->end.device, p->end.port, p->why);
	}
}

/* The indexes a side's usable rail ends use: -1 none, -2 several, else the one index. */
static int side_index(const struct pair_rails *rails, bool b_side)
{
	int v = -1;

	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_port *p = b_side ? &rails->items[i].b : &rails->items[i].a;

		if (!p->usable)
			continue;
		if (v == -1)
			v = p->end.gid_index;
		else if (v != p->end.gid_index)
			return -2;
	}
	return v;
}

static void index_list(const struct pair_rails *rails, bool b_side, char *buf, size_t size)
{
	buf[0] = 0;
	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_port *p = b_side ? &rails->items[i].b : &rails->items[i].a;

		if (p->usable)
			text_append(buf, size, "%s%s/%u:%d", buf[0] ? ", " : "", p->end.device, p->end.port,
				    p->end.gid_index);
	}
}

/* A pinned NCCL_IB_GID_INDEX that is not the index this side's rails use: NCCL would address the peer from
 * another GID (often another address, in no subnet of the rail), and the rail fails. */
static void check_pinned(const struct pair_side *s, char node, int need, const char *list, struct pair_findings *out)
{
	const char *v = s->in->gid_index_value, *src = s->in->gid_index_source;
	char fix[640], name[96], *end;
	long pinned;

	if (!v)
		return;
	pinned = strtol(v, &end, 10);
	if (!*v || *end)
		return;   /* not a number: the node's own gid.env says so */
	pair_node_name(s, name, sizeof(name));
	if (need >= 0 && pinned == need) {
		pair_add(out, node, "pair.gid_index", SEVERITY_OK, "NCCL_IB_GID_INDEX", NULL,
			 "NCCL_IB_GID_INDEX=%ld on %s is the index its rails use", pinned, name);
		return;
	}
	if (need >= 0 && !nccl_source_is_environment(src))
		snprintf(fix, sizeof(fix), "sed -i '%ss|.*|NCCL_IB_GID_INDEX=%d|' %.*s   # on %s", strrchr(src, ':') + 1,
			 need, (int)(strrchr(src, ':') - src), src, name);
	else if (need >= 0)
		snprintf(fix, sizeof(fix), "export NCCL_IB_GID_INDEX=%d   # on %s (and in mpirun -x / the launcher's "
			 "environment for %s only); or unset it: NCCL >= 2.21 picks per HCA", need, name, name);
	else
		snprintf(fix, sizeof(fix), "unset NCCL_IB_GID_INDEX   # on %s: its rails use different indexes (%s); "
			 "NCCL >= 2.21 picks a RoCE v2 GID per HCA", name, list);
	pair_add(out, node, "pair.gid_index", SEVERITY_FAIL, "NCCL_IB_GID_INDEX", fix, "NCCL_IB_GID_INDEX=%ld (%s) "
		 "on %s, but its rails use %s: NCCL would address the peer from the wrong GID", pinned,
		 src ? src : "environment", name, list[0] ? list : "no GID");
}

static void check_indexes(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
			  struct pair_findings *out)
{
	int ia = side_index(rails, false), ib = side_index(rails, true);
	char la[512], lb[512], na[96], nb[96];

	index_list(rails, false, la, sizeof(la));
	index_list(rails, true, lb, sizeof(lb));
	if (!la[0] && !lb[0])
		return;
	pair_node_name(a, na, sizeof(na));
	pair_node_name(b, nb, sizeof(nb));
	check_pinned(a, 'a', ia, la, out);
	check_pinned(b, 'b', ib, lb, out);
	if (ia >= 0 && ia == ib)
		pair_add(out, 0, "pair.gid_index", SEVERITY_OK, "gid index", NULL, "both nodes use GID index %d on "
			 "every rail: NCCL_IB_GID_INDEX=%d is right on both", ia, ia);
	else if (!a->in->gid_index_value && !b->in->gid_index_value)
		pair_add(out, 0, "pair.gid_index", SEVERITY_INFO, "gid index", "unset NCCL_IB_GID_INDEX   # on both "
			 "nodes: NCCL >= 2.21 picks a RoCE v2 GID per HCA (older NCCL: each node its own value, "
			 "roce-doctor nccl-env --peer)", "%s uses GID index %s; %s uses %s: one NCCL_IB_GID_INDEX for "
			 "both (mpirun -x) would break one", na, la, nb, lb);
}

static bool arp_ok(const struct check_input *in, const char *netdev, bool *known)
{
	for (size_t i = 0; i < in->arp_count; i++)
		if (strcmp(in->arp[i].netdev, netdev) == 0) {
			*known = in->arp[i].known;
			return in->arp[i].known && in->arp[i].value.ignore >= 1 && in->arp[i].value.announce >= 2;
		}
	*known = false;
	return false;
}

/* Two rails in one subnet: a node without arp_ignore/arp_announce answers ARP for both addresses from one port,
 * so the peer's traffic for rail 2 arrives on rail 1's port (whose RDMA device drops it). */
static void check_one_subnet(const struct pair_side *s, char node, const struct pair_rails *rails,
			      struct pair_findings *out)
{
	char bad[256] = "", fix[1536] = "printf '", name[96];
	bool unknown = false;
	size_t n = 0;

	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_port *p = node == 'b' ? &rails->items[i].b : &rails->items[i].a;
		bool known;

		if (!p->present || !p->netdev[0] || !rails->items[i].subnet[0])
			continue;
		if (!arp_ok(s->in, p->netdev, &known)) {
			unknown |= !known;
			text_append(bad, sizeof(bad), "%s%s", bad[0] ? "," : "", p->netdev);
			text_append(fix, sizeof(fix), "net.ipv4.conf.%s.arp_ignore=1\\nnet.ipv4.conf.%s.arp_announce=2\\n",
				    p->netdev, p->netdev);
			n++;
		}
	}
	pair_node_name(s, name, sizeof(name));
	if (!n) {
		pair_add(out, node, "pair.same_subnet", SEVERITY_OK, name, NULL, "arp_ignore=1 and arp_announce=2 on "
			 "%s's rails in one subnet", name);
		return;
	}
	if (unknown && s->in->arp_count == 0) {
		pair_add(out, node, "pair.same_subnet", SEVERITY_INFO, name, NULL, "the rails share one subnet; %s's "
			 "arp_ignore/arp_announce were not read", name);
		return;
	}
	text_append(fix, sizeof(fix), "' > /etc/sysctl.d/90-roce-arp.conf && sysctl --system   # on %s", name);
	pair_add(out, node, "pair.same_subnet", SEVERITY_WARN, bad, fix, "the rails share one subnet and %s has no "
		 "arp_ignore=1/arp_announce=2 on %s: it answers ARP for one rail's address from the other port, so "
		 "the peer's RDMA traffic arrives on the wrong NIC", name, bad);
}

void pair_rails_check(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		      struct pair_findings *out)
{
	int family = a->in->family ? a->in->family : AF_INET;

	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_rail *r = &rails->items[i];

		check_link(a, b, r, family, out);
		if (r->link == RAIL_LINK_MISSING)
			continue;
		check_mtu(a, b, r, out);
		check_speed(a, b, r, out);
		check_gid(a, b, r, out);
	}
	check_indexes(a, b, rails, out);
	if (rails->one_subnet && family == AF_INET) {
		check_one_subnet(a, 'a', rails, out);
		check_one_subnet(b, 'b', rails, out);
	}
}
