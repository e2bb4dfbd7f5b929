// SPDX-License-Identifier: GPL-2.0-only
/* Why a RoCE port is down, and the commands that bring it up: a netdev set down is one command, a link with no
 * carrier is a cable, a transceiver or the switch port, which no command on the node fixes. Pure. */
#ifndef ROCE_DOCTOR_PORT_DOWN_H
#define ROCE_DOCTOR_PORT_DOWN_H

#include <stddef.h>

#include "model/host.h"

enum port_down_cause {
	PORT_DOWN_ADMIN,        /* the netdev is set down (phys state Disabled): ip link set IF up */
	PORT_DOWN_NO_CARRIER,   /* the netdev is up, the wire is not (phys state Polling, Training ...) */
	PORT_DOWN_UNKNOWN,      /* neither can be told (no phys state): both are said */
};

/* nd: the port's netdev, or NULL. Only for a port that is down (gid_port_use() says PORT_DOWN). */
enum port_down_cause port_down_cause(const struct rdma_port *p, const struct netdev *nd);

/* "set down", "no carrier", "down": what the cause is, said in a message. */
const char *port_down_cause_text(enum port_down_cause cause);

/* The fix lines for a down port, each a shell command with a '#' comment: "ip link set eth1 up", or
 * "ethtool eth8 ..." and, on a ConnectX, "mlxlink -d PCI -m ...". */
void port_down_fix(const struct rdma_device *d, const struct rdma_port *p, const struct netdev *nd, char *buf,
		   size_t size);

#endif
