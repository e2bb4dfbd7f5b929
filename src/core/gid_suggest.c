// SPDX-License-Identifier: GPL-2.0-only
/* The GID choice: a RoCE v2 entry of the wanted family, never link-local, preferring the peer's subnet. */
#include "core/gid_suggest.h"

#include <stdio.h>
#include <string.h>

#include "util/gidaddr.h"
#include "util/text_append.h"

#define ACTIVE 4

static bool family_matches(const struct gid_entry *e, int family)
{
	if (family == AF_INET)
		return gid_is_ipv4_mapped(&e->gid);
	return !gid_is_ipv4_mapped(&e->gid) && !gid_is_link_local(&e->gid);
}

static bool qualifies(const struct rdma_port *port, const struct gid_entry *e, const struct gid_prefs *prefs)
{
	return e->type == GID_TYPE_ROCE_V2 && family_matches(e, prefs->family) &&
	       (e->netdev[0] || !port->netdev[0]) && (!prefs->netdev || strcmp(e->netdev, prefs->netdev) == 0);
}

bool gid_port_has_candidate_on(const struct rdma_port *port, int family, const char *name)
{
	struct gid_prefs prefs = { .family = family, .netdev = name };

	for (size_t i = 0; i < port->gid_count; i++)
		if (qualifies(port, &port->gids[i], &prefs))
			return true;
	return false;
}

/* The netdev address behind a GID, for its prefix length; NULL when addresses are unknown. */
static const struct ip_address *address_of(const struct netdev *nd, const struct gid_entry *e)
{
	for (size_t i = 0; nd && nd->addrs_known && i < nd->addr_count; i++)
		if (memcmp(&nd->addrs[i].addr, &e->gid, sizeof(e->gid)) == 0)
			return &nd->addrs[i];
	return NULL;
}

static bool subnet_holds(const struct ip_address *a, const struct in6_addr *peer)
{
	unsigned bits = a->prefix_len + (a->family == AF_INET ? 96 : 0);

	return gid_common_prefix(&a->addr, peer) >= bits;
}

/* "0-3,7,8": three or more consecutive indexes collapse into a range. */
static void format_ranges(const unsigned *idx, size_t n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		size_t j = i;

		while (j + 1 < n && idx[j + 1] == idx[j] + 1)
			j++;
		if (j < i + 2)
			j = i;
		len += (size_t)snprintf(buf + len, size - len, j > i ? "%s%u-%u" : "%s%u", i ? "," : "", idx[i], idx[j]);
		i = j;
	}
}

/* Appends "; 0-3 are fe80:: link-local; 4 is RoCE v1" for the lower slots that were passed over. */
static void explain_skipped(const struct rdma_port *port, const struct gid_entry *chosen, int family, char *buf,
			    size_t size)
{
	static const char *const labels[] = { "fe80:: link-local", "RoCE v1", "other-family", "unusable" };
	unsigned idx[4][32];
	size_t count[4] = { 0 };
	bool more[4] = { false };

	for (size_t i = 0; i < port->gid_count && &port->gids[i] != chosen; i++) {
		const struct gid_entry *e = &port->gids[i];
		int kind;

		if (gid_is_link_local(&e->gid))
			kind = 0;
		else if (e->type != GID_TYPE_ROCE_V2)
			kind = 1;
		else if (!family_matches(e, family))
			kind = 2;
		else
			kind = 3;
		if (count[kind] < 32)
			idx[kind][count[kind]++] = e->index;
		else
			more[kind] = true;
	}
	for (int k = 0; k < 4; k++) {
		char list[256];

		if (!count[k])
			continue;
		format_ranges(idx[k], count[k], list, sizeof(list));
		text_append(buf, size, "; %s%s %s %s", list, more[k] ? ",..." : "",
		       count[k] > 1 || list[strcspn(list, "-")] ? "are" : "is",
		       k == 2 ? (family == AF_INET ? "IPv6" : "IPv4") : labels[k]);
	}
}

/* "its GIDs: 0-1 fe80:: link-local, 2 2001:db8::10 (RoCE v1), 3 2001:db8::10 (RoCE v2)": what is there. */
static void describe_table(const struct rdma_port *port, char *buf, size_t size)
{
	enum { LISTED_MAX = 6 };
	unsigned link_local[32];
	size_t n_link_local = 0, listed = 0, unlisted = 0;
	char list[256];

	for (size_t i = 0; i < port->gid_count && n_link_local < 32; i++)
		if (gid_is_link_local(&port->gids[i].gid))
			link_local[n_link_local++] = port->gids[i].index;
	text_append(buf, size, "; its GIDs:");
	if (n_link_local) {
		format_ranges(link_local, n_link_local, list, sizeof(list));
		text_append(buf, size, " %s fe80:: link-local", list);
	}
	for (size_t i = 0; i < port->gid_count; i++) {
		const struct gid_entry *e = &port->gids[i];
		char addr[64];

		if (gid_is_link_local(&e->gid))
			continue;
		if (listed == LISTED_MAX) {
			unlisted++;
			continue;
		}
		gid_format_ip(&e->gid, addr);
		text_append(buf, size, "%s %u %s (%s)", n_link_local || listed ? "," : "", e->index, addr,
		       e->type == GID_TYPE_ROCE_V2 ? "RoCE v2" : e->type == GID_TYPE_IB_ROCE_V1 ? "RoCE v1" : "unknown type");
		listed++;
	}
	if (unlisted)
		text_append(buf, size, " and %zu more", unlisted);
}

static void suggest(const struct rdma_port *port, const struct netdev *netdev, const struct gid_prefs *prefs,
		    struct gid_choice *choice, bool try_other_family);

/* Nothing of the family qualifies: say exactly what the table holds, and what would work instead. */
static void explain_none(const struct rdma_port *port, const struct netdev *netdev, const struct gid_prefs *prefs,
			 bool try_other_family, char *buf, size_t size)
{
	const char *nd = port->netdev[0] ? port->netdev : "its netdev";
	int family = prefs->family, other = family == AF_INET ? AF_INET6 : AF_INET;
	bool any_family = false, any_routable = false;
	struct gid_prefs other_prefs = { .family = other };
	struct gid_choice alt;

	if (port->link_layer == LINK_LAYER_INFINIBAND) {
		char lid[16] = "";

		if (port->lid_known)
			snprintf(lid, sizeof(lid), " 0x%x", port->lid);
		snprintf(buf, size, "InfiniBand link layer: NCCL addresses the port by its LID%s, not by a GID index; "
			 "NCCL_IB_GID_INDEX does not apply to it", lid);
		return;
	}
	if (port->gid_count == 0) {
		snprintf(buf, size, "the GID table is empty: %s has no address (is it up?)", nd);
		return;
	}
	if (prefs->netdev) {
		snprintf(buf, size, "no RoCE v2 %s GID on %s (--netdev)", family == AF_INET ? "IPv4" : "IPv6",
			 prefs->netdev);
		return;
	}
	for (size_t i = 0; i < port->gid_count; i++) {
		any_family |= family_matches(&port->gids[i], family);
		any_routable |= !gid_is_link_local(&port->gids[i].gid);
	}
	if (any_family) {
		snprintf(buf, size, "only RoCE v1 entries carry an %s address of %s: RoCE v2 is not enabled on this "
			 "port", family == AF_INET ? "IPv4" : "IPv6", nd);
		return;
	}
	if (family == AF_INET)
		snprintf(buf, size, "%s has no IPv4 address (no ::ffff:a.b.c.d GID)", nd);
	else
		snprintf(buf, size, "%s has no global IPv6 address", nd);
	if (!any_routable) {
		text_append(buf, size, ", only fe80:: link-local GIDs, which do not route; add one with '%s %s'",
		       family == AF_INET ? "ip addr add ADDR/PREFIX dev" : "ip -6 addr add ADDR/64 dev", nd);
		return;
	}
	describe_table(port, buf, size);
	if (try_other_family) {
		suggest(port, netdev, &other_prefs, &alt, false);
		if (alt.found)
			text_append(buf, size, ". --family %s would work: index %u (for NCCL: NCCL_IB_ADDR_FAMILY=%s, or "
			       "NCCL_IB_GID_INDEX=%u)", other == AF_INET ? "ipv4" : "ipv6", alt.entry->index,
			       other == AF_INET ? "AF_INET" : "AF_INET6", alt.entry->index);
	}
	text_append(buf, size, "%s add an %s address with '%s %s'", try_other_family && alt.found ? "; or" : ";",
	       family == AF_INET ? "IPv4" : "IPv6",
	       family == AF_INET ? "ip addr add ADDR/PREFIX dev" : "ip -6 addr add ADDR/64 dev", nd);
}

/* Among the candidates holding the chosen address on other netdevs (a bond and a VLAN or VXLAN on top of it),
 * the one on the netdev of the route to the peer, else on the port's own netdev; the reason names who lost. */
static const struct gid_entry *prefer_netdev(const struct rdma_port *port, const struct gid_entry *chosen,
					     const struct gid_prefs *prefs, char *note, size_t size)
{
	const char *want = prefs->netdev ? prefs->netdev : prefs->route_netdev ? prefs->route_netdev : port->netdev;
	const struct gid_entry *same[GID_OTHER_CANDIDATES_MAX + 1], *best = chosen;
	struct gid_prefs any_netdev = *prefs;
	size_t n = 0;

	/* --netdev kept the others out of the choice; they are still named, with why they lost */
	any_netdev.netdev = NULL;
	note[0] = '\0';
	for (size_t i = 0; i < port->gid_count && n < GID_OTHER_CANDIDATES_MAX; i++) {
		const struct gid_entry *e = &port->gids[i];

		if (qualifies(port, e, &any_netdev) && memcmp(&e->gid, &chosen->gid, sizeof(e->gid)) == 0 &&
		    strcmp(e->netdev, chosen->netdev) != 0)
			same[n++] = e;
	}
	if (n == 0)
		return chosen;
	for (size_t i = 0; i < n && strcmp(best->netdev, want) != 0; i++)
		if (strcmp(same[i]->netdev, want) == 0)
			best = same[i];
	same[n++] = chosen;
	for (size_t i = 0; i < n; i++) {
		if (same[i] == best)
			continue;
		text_append(note, size, "; index %u holds the same address on %s and lost: ", same[i]->index,
		       same[i]->netdev);
		if (prefs->netdev)
			text_append(note, size, "--netdev %s", prefs->netdev);
		else if (strcmp(best->netdev, want) != 0)
			text_append(note, size, "neither is on %s, so the lower index", want);
		else if (prefs->route_netdev)
			text_append(note, size, "the route to the peer leaves through %s", want);
		else
			text_append(note, size, "not the port's own netdev %s", want);
	}
	if (!prefs->netdev && !prefs->route_netdev && prefs->peer && prefs->routes_unknown)
		text_append(note, size, " (routes are unknown under --root: the port's own netdev decided, not the route to "
		       "the peer; use --netdev IF to choose)");
	else if (!prefs->netdev)
		text_append(note, size, " (use --netdev IF to choose)");
	return best;
}

static void suggest(const struct rdma_port *port, const struct netdev *netdev, const struct gid_prefs *prefs,
		    struct gid_choice *choice, bool try_other_family)
{
	const struct gid_entry *first = NULL, *by_peer = NULL, *closest = NULL;
	const struct in6_addr *peer = prefs->peer;
	unsigned closest_bits = 0;
	bool subnets_known = true;
	char addr[64], netdev_note[512];

	memset(choice, 0, sizeof(*choice));
	if (port->link_layer == LINK_LAYER_INFINIBAND) {
		if (!prefs->no_reason)
			explain_none(port, netdev, prefs, false, choice->reason, sizeof(choice->reason));
		return;
	}
	for (size_t i = 0; i < port->gid_count; i++) {
		const struct gid_entry *e = &port->gids[i];
		const struct ip_address *a;

		if (!qualifies(port, e, prefs))
			continue;
		if (!first)
			first = e;
		if (!peer)
			continue;
		a = address_of(netdev, e);
		if (!a)
			subnets_known = false;
		else if (!by_peer && subnet_holds(a, peer))
			by_peer = e;
		if (!closest || gid_common_prefix(&e->gid, peer) > closest_bits) {
			closest = e;
			closest_bits = gid_common_prefix(&e->gid, peer);
		}
	}
	if (!first) {
		if (!prefs->no_reason)
			explain_none(port, netdev, prefs, try_other_family, choice->reason, sizeof(choice->reason));
		return;
	}
	choice->found = true;
	choice->entry = by_peer ? by_peer : (peer && !subnets_known) ? closest : first;
	choice->entry = prefer_netdev(port, choice->entry, prefs, netdev_note, sizeof(netdev_note));
	for (size_t i = 0; i < port->gid_count; i++)
		if (&port->gids[i] != choice->entry && qualifies(port, &port->gids[i], prefs) &&
		    choice->other_count < GID_OTHER_CANDIDATES_MAX)
			choice->others[choice->other_count++] = &port->gids[i];
	if (prefs->no_reason)
		return;

	gid_format_ip(&choice->entry->gid, addr);
	snprintf(choice->reason, sizeof(choice->reason), "RoCE v2 GID of %s on %s", addr,
		 choice->entry->netdev[0] ? choice->entry->netdev : "the port");
	if (choice->other_count) {
		char peer_text[64] = "";

		if (peer)
			gid_format_ip(peer, peer_text);
		if (by_peer)
			text_append(choice->reason, sizeof(choice->reason), ", whose subnet holds the peer %s", peer_text);
		else if (peer && !subnets_known)
			text_append(choice->reason, sizeof(choice->reason),
			       ", the address closest to the peer %s (subnets unknown without netlink)", peer_text);
		else if (peer)
			text_append(choice->reason, sizeof(choice->reason),
			       "; no candidate's subnet holds the peer %s, so the lowest index", peer_text);
		else if (!netdev_note[0] || choice->other_count > 1)
			text_append(choice->reason, sizeof(choice->reason),
			       "; %zu more candidate(s), the lowest index wins (use --peer ADDR to choose by subnet)",
			       choice->other_count);
	}
	text_append(choice->reason, sizeof(choice->reason), "%s", netdev_note);
	if (choice->entry == first)
		explain_skipped(port, first, prefs->family, choice->reason, sizeof(choice->reason));
	if (port->state >= 0 && port->state != ACTIVE)
		text_append(choice->reason, sizeof(choice->reason), " (port is %s)", port->state_name);
}

void gid_suggest_port_prefs(const struct rdma_port *port, const struct netdev *netdev, const struct gid_prefs *prefs,
			    struct gid_choice *choice)
{
	suggest(port, netdev, prefs, choice, true);
}

void gid_suggest_port(const struct rdma_port *port, const struct netdev *netdev, int family,
		      const struct in6_addr *peer, struct gid_choice *choice)
{
	struct gid_prefs prefs = { .family = family, .peer = peer };

	suggest(port, netdev, &prefs, choice, true);
}

void gid_choose_port(const struct rdma_port *port, const struct netdev *netdev, int family, struct gid_choice *choice)
{
	struct gid_prefs prefs = { .family = family, .no_reason = true };

	suggest(port, netdev, &prefs, choice, false);
}

enum port_use gid_port_use(const struct rdma_port *port, const struct netdev *netdev, char *why, size_t size)
{
	const char *nd = port->netdev[0] ? port->netdev : "its netdev";
	bool no_carrier = netdev && netdev->carrier == 0;

	why[0] = '\0';
	if (port->link_layer == LINK_LAYER_INFINIBAND)
		return PORT_IN_USE;
	if ((port->state >= 0 && port->state != ACTIVE) || no_carrier) {
		snprintf(why, size, "down: state %s, phys state %s, %s %s; NCCL opens only ACTIVE ports",
			 port->state_name[0] ? port->state_name : "unknown",
			 port->phys_state_name[0] ? port->phys_state_name : "unknown", nd,
			 !netdev || netdev->carrier < 0 ? "carrier unknown" : no_carrier ? "has no carrier" : "has carrier");
		return PORT_DOWN;
	}
	for (size_t i = 0; i < port->gid_count; i++)
		if (!gid_is_link_local(&port->gids[i].gid))
			return PORT_IN_USE;
	if (port->gid_count == 0)
		snprintf(why, size, "no address: the GID table is empty (%s has no address)", nd);
	else
		snprintf(why, size, "no address: %s has only fe80:: link-local GIDs, which do not route", nd);
	return PORT_NO_ADDRESS;
}
