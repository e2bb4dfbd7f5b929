// SPDX-License-Identifier: GPL-2.0-only
/* check's per-port table: one row per RDMA port (a rail), with the cells that a non-ok finding is about. */
#ifndef ROCE_DOCTOR_PORT_TABLE_H
#define ROCE_DOCTOR_PORT_TABLE_H

#include "core/checks.h"

/* The table's columns, in print order. */
enum port_column { PORT_COL_PORT, PORT_COL_NETDEV, PORT_COL_STATE, PORT_COL_SPEED, PORT_COL_MTU, PORT_COL_GID,
		   PORT_COL_NUMA, PORT_COL_COUNT };

struct port_row {
	const struct rdma_device *device;
	const struct rdma_port *port;
	const struct netdev *netdev;        /* NULL when the port has none on this host */
	bool selected;                      /* NCCL_IB_HCA selects it (check looked at it) */
	int gid_index;                      /* what gid --suggest picks for the family; -1 none */
	enum severity marked[PORT_COL_COUNT]; /* worst non-ok finding about that cell; SEVERITY_OK: none */
};

/* Which cell a finding id is about: port.speed, port.active_mtu and netdev.mtu their own; other port.* the
 * state, netdev.* the netdev, gid.* the GID index; PORT_COL_PORT for any other id. */
enum port_column port_column_of(const char *id);

/* Rows for every port of in->host, in host order, marked from the non-ok findings (their covers included)
 * whose device and port are the row's (findings_locate() ran). *rows is malloc'ed (NULL when no port).
 * 0 or -ENOMEM. */
int port_table_build(const struct check_input *in, const struct findings *f, struct port_row **rows,
		     size_t *count);

#endif
