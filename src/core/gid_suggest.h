/* Which GID index NCCL should use on a port, and why: a pure function of the probed port. */
#ifndef ROCE_DOCTOR_GID_SUGGEST_H
#define ROCE_DOCTOR_GID_SUGGEST_H

#include <stdbool.h>

#include "probe/host.h"

#define GID_OTHER_CANDIDATES_MAX 8

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

#endif
