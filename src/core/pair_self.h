// SPDX-License-Identifier: GPL-2.0-only
/* Whether check --peer's peer is node a itself: an address of a's own (or a loopback address) given as --peer.
 * Pure: the caller resolves the address and has a's host model; a pair of one host with itself would only find
 * its duplicate host name and addresses. */
#ifndef ROCE_DOCTOR_PAIR_SELF_H
#define ROCE_DOCTOR_PAIR_SELF_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "model/host.h"

/* True when addr (AF_INET or AF_INET6) is a loopback address or one of a's netdevs holds it; then netdev names
 * the netdev ("lo" for a loopback address not in the model). a must be the live model of the host addr was
 * resolved on: a recorded model (--from, --root) says nothing about this host's addresses. */
bool pair_peer_is_self(const struct host *a, const struct sockaddr_storage *addr, char *netdev, size_t size);

#endif
