// SPDX-License-Identifier: GPL-2.0-only
/* Which GID index NCCL should use on a port, and why: a pure function of the probed port. */
#ifndef ROCE_DOCTOR_GID_SUGGEST_H
#define ROCE_DOCTOR_GID_SUGGEST_H

#include <stdbool.h>

#include "model/host.h"

#define GID_OTHER_CANDIDATES_MAX 8

/* What the caller knows beyond the port: all but family may be left zero. */
struct gid_prefs {
	int family;                    /* AF_INET or AF_INET6 */
	const struct in6_addr *peer;   /* --peer, or NULL */
	const char *netdev;            /* --netdev: only GIDs on this netdev count; NULL for any */
	const char *route_netdev;      /* the netdev of the route to peer, NULL when not looked up */
	bool routes_unknown;           /* routes cannot be read (--root): say so where a route would decide */
	bool no_reason;                /* the choice only, reason left empty: for callers that never print it */
};

struct gid_choice {
	bool found;
	const struct gid_entry *entry;              /* the chosen entry when found */
	size_t other_count;                         /* further qualifying entries, by ascending index */
	const struct gid_entry *others[GID_OTHER_CANDIDATES_MAX];
	char reason[768];                           /* why this one, or exactly why none */
};

/* family: AF_INET or AF_INET6. netdev (addresses) and peer may be NULL. */
void gid_suggest_port(const struct rdma_port *port, const struct netdev *netdev, int family,
		      const struct in6_addr *peer, struct gid_choice *choice);
void gid_suggest_port_prefs(const struct rdma_port *port, const struct netdev *netdev, const struct gid_prefs *prefs,
			    struct gid_choice *choice);

/* gid_suggest_port's found, entry and others without its reason, which costs most of the call in printf:
 * for the callers that only ask whether a port has a GID, or which index (compare runs them per node). */
void gid_choose_port(const struct rdma_port *port, const struct netdev *netdev, int family, struct gid_choice *choice);

/* Whether a RoCE v2 GID of family on the port sits on netdev name (what --netdev may name). */
bool gid_port_has_candidate_on(const struct rdma_port *port, int family, const char *name);

/* Whether NCCL would open the port, and whether it has anything to choose from. */
enum port_use {
	PORT_IN_USE,        /* ACTIVE (or state unknown) with an address, or InfiniBand */
	PORT_DOWN,          /* not ACTIVE, or its netdev has no carrier: NCCL does not open it */
	PORT_NO_ADDRESS,    /* ACTIVE Ethernet without any routable GID: NCCL opens it, nothing can connect */
};

/* why[] says what was seen ("down: state DOWN, phys state Disabled, eth1 has no carrier"); empty for in use. */
enum port_use gid_port_use(const struct rdma_port *port, const struct netdev *netdev, char *why, size_t size);

#endif
