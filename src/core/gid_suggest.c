/* The GID choice: a RoCE v2 entry of the wanted family, never link-local, preferring the peer's subnet. */
#include "core/gid_suggest.h"

#include <stdio.h>
#include <string.h>

#include "util/gidaddr.h"

static bool family_matches(const struct gid_entry *e, int family)
{
	if (family == AF_INET)
		return gid_is_ipv4_mapped(&e->gid);
	return !gid_is_ipv4_mapped(&e->gid) && !gid_is_link_local(&e->gid);
}

static bool qualifies(const struct rdma_port *port, const struct gid_entry *e, int family)
{
	return e->type == GID_TYPE_ROCE_V2 && family_matches(e, family) && (e->netdev[0] || !port->netdev[0]);
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
		size_t len = strlen(buf);

		if (!count[k])
			continue;
		format_ranges(idx[k], count[k], list, sizeof(list));
		snprintf(buf + len, size - len, "; %s%s %s %s", list, more[k] ? ",..." : "",
			 count[k] > 1 || list[strcspn(list, "-")] ? "are" : "is",
			 k == 2 ? (family == AF_INET ? "IPv6" : "IPv4") : labels[k]);
	}
}

static void explain_none(const struct rdma_port *port, int family, char *buf, size_t size)
{
	const char *nd = port->netdev[0] ? port->netdev : "its netdev";
	bool any_family = false, any_v2_linklocal = false;

	if (port->link_layer == LINK_LAYER_INFINIBAND) {
		snprintf(buf, size, "InfiniBand link layer: NCCL addresses IB ports by LID, NCCL_IB_GID_INDEX does not "
			 "apply (unset it)");
		return;
	}
	if (port->gid_count == 0) {
		snprintf(buf, size, "the GID table is empty: %s has no address (is it up?)", nd);
		return;
	}
	for (size_t i = 0; i < port->gid_count; i++) {
		any_family |= family_matches(&port->gids[i], family);
		any_v2_linklocal |= port->gids[i].type == GID_TYPE_ROCE_V2 && gid_is_link_local(&port->gids[i].gid);
	}
	if (any_family)
		snprintf(buf, size, "only RoCE v1 entries carry an %s address of %s: RoCE v2 is not enabled on this "
			 "port", family == AF_INET ? "IPv4" : "IPv6", nd);
	else if (family == AF_INET)
		snprintf(buf, size, "%s has no IPv4 address (no ::ffff:a.b.c.d GID)%s; add one with "
			 "'ip addr add ADDR/PREFIX dev %s', or try --family ipv6", nd,
			 any_v2_linklocal ? ", only fe80:: link-local GIDs, which do not route" : "", nd);
	else
		snprintf(buf, size, "%s has no global IPv6 address: fe80:: link-local GIDs do not route", nd);
}

void gid_suggest_port(const struct rdma_port *port, const struct netdev *netdev, int family,
		      const struct in6_addr *peer, struct gid_choice *choice)
{
	const struct gid_entry *first = NULL, *by_peer = NULL, *closest = NULL;
	unsigned closest_bits = 0;
	bool subnets_known = true;
	char addr[64];
	size_t len;

	memset(choice, 0, sizeof(*choice));
	if (port->link_layer == LINK_LAYER_INFINIBAND) {
		explain_none(port, family, choice->reason, sizeof(choice->reason));
		return;
	}
	for (size_t i = 0; i < port->gid_count; i++) {
		const struct gid_entry *e = &port->gids[i];
		const struct ip_address *a;

		if (!qualifies(port, e, family))
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
		explain_none(port, family, choice->reason, sizeof(choice->reason));
		return;
	}
	choice->found = true;
	choice->entry = by_peer ? by_peer : (peer && !subnets_known) ? closest : first;
	for (size_t i = 0; i < port->gid_count; i++)
		if (&port->gids[i] != choice->entry && qualifies(port, &port->gids[i], family) &&
		    choice->other_count < GID_OTHER_CANDIDATES_MAX)
			choice->others[choice->other_count++] = &port->gids[i];

	gid_format_ip(&choice->entry->gid, addr);
	snprintf(choice->reason, sizeof(choice->reason), "RoCE v2 GID of %s on %s", addr,
		 choice->entry->netdev[0] ? choice->entry->netdev : "the port");
	len = strlen(choice->reason);
	if (choice->other_count) {
		char peer_text[64] = "";

		if (peer)
			gid_format_ip(peer, peer_text);
		if (by_peer)
			snprintf(choice->reason + len, sizeof(choice->reason) - len,
				 ", whose subnet holds the peer %s", peer_text);
		else if (peer && !subnets_known)
			snprintf(choice->reason + len, sizeof(choice->reason) - len,
				 ", the address closest to the peer %s (subnets unknown without netlink)", peer_text);
		else if (peer)
			snprintf(choice->reason + len, sizeof(choice->reason) - len,
				 "; no candidate's subnet holds the peer %s, so the lowest index", peer_text);
		else
			snprintf(choice->reason + len, sizeof(choice->reason) - len,
				 "; %zu more candidate(s), the lowest index wins (use --peer ADDR to choose by subnet)",
				 choice->other_count);
	}
	if (choice->entry == first)
		explain_skipped(port, first, family, choice->reason, sizeof(choice->reason));
	len = strlen(choice->reason);
	if (port->state >= 0 && port->state != 4)
		snprintf(choice->reason + len, sizeof(choice->reason) - len, " (port is %s)", port->state_name);
}
