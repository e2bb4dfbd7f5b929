// SPDX-License-Identifier: GPL-2.0-only
/* A down port's cause from the RDMA port's physical state: the mlx5 driver reports Disabled while its netdev is
 * set down and Polling while the netdev is up and no link partner answers, so the state that NCCL's ibv_query_port
 * sees also says which fix is right. */
#include "core/port_down.h"

#include <stdio.h>
#include <string.h>

#include "util/text_append.h"

/* IB spec phys states (sysfs ports/N/phys_state "2: Polling"). */
enum { PHYS_POLLING = 2, PHYS_DISABLED = 3, PHYS_TRAINING = 4, PHYS_LINK_UP = 5, PHYS_ERROR_RECOVERY = 6,
       PHYS_TEST = 7 };

enum port_down_cause port_down_cause(const struct rdma_port *p, const struct netdev *nd)
{
	/* The netdev is up and the port under it is not: the wire is what is missing. */
	if (nd && strcmp(nd->operstate, "up") == 0)
		return PORT_DOWN_NO_CARRIER;
	if (p->phys_state == PHYS_DISABLED)
		return PORT_DOWN_ADMIN;
	if (p->phys_state == PHYS_POLLING || p->phys_state == PHYS_TRAINING || p->phys_state == PHYS_ERROR_RECOVERY ||
	    p->phys_state == PHYS_TEST)
		return PORT_DOWN_NO_CARRIER;
	/* The port says LinkUp (or nothing) while its netdev is down: the netdev is what is down. */
	if (nd && p->phys_state == PHYS_LINK_UP)
		return PORT_DOWN_ADMIN;
	return PORT_DOWN_UNKNOWN;
}

const char *port_down_cause_text(enum port_down_cause cause)
{
	return cause == PORT_DOWN_ADMIN ? "its netdev is set down" :
	       cause == PORT_DOWN_NO_CARRIER ? "no carrier: the netdev is set up, nothing answers on the wire" : "down";
}

/* A ConnectX (mlx4, mlx5) has mlxlink, which reads the module and what the peer sends. */
static bool connectx(const struct rdma_device *d)
{
	return strncmp(d->name, "mlx5", 4) == 0 || strncmp(d->name, "mlx4", 4) == 0;
}

void port_down_fix(const struct rdma_device *d, const struct rdma_port *p, const struct netdev *nd, char *buf,
		   size_t size)
{
	enum port_down_cause cause = port_down_cause(p, nd);
	const char *name = nd ? nd->name : p->netdev[0] ? p->netdev : NULL;

	buf[0] = '\0';
	if (name && cause != PORT_DOWN_NO_CARRIER)
		text_append(buf, size, "ip link set %s up%s\nnmcli connection up %s   # NetworkManager", name,
			    cause == PORT_DOWN_ADMIN ? "" : "   # if it was set down", name);
	if (cause == PORT_DOWN_ADMIN && name)
		return;
	if (name)
		text_append(buf, size, "%sethtool %s   # 'Link detected: no': check the cable, the transceiver and the "
			    "switch port (no command on this node fixes a missing carrier)", buf[0] ? "\n" : "", name);
	else
		text_append(buf, size, "%s# no command fixes a missing link: check the cable, the transceiver and the "
			    "switch port of %s/%u", buf[0] ? "\n" : "", d->name, p->num);
	if (connectx(d))
		text_append(buf, size, "\nmlxlink -d %s -m   # the module and the peer's signal, as the NIC sees them",
			    d->pci_address[0] ? d->pci_address : d->name);
}
