// SPDX-License-Identifier: GPL-2.0-only
/* Which RDMA ports the user named: DEV, DEV/PORT, DEV:PORT or a netdev name, matched against the probed host. */
#ifndef ROCE_DOCTOR_PORT_SELECTION_H
#define ROCE_DOCTOR_PORT_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "model/host.h"

struct port_selection {
	char name[64];      /* an RDMA device or a netdev; empty: every port */
	unsigned port;      /* 1-255; 0: every port of the device or netdev */
};

/* "mlx5_0", "mlx5_0/1", "mlx5_0:1", "eth3" -> sel. 0, or -EINVAL for an empty or malformed text. */
int port_selection_parse(const char *text, struct port_selection *sel);

/* Whether port p of device d is selected: the name is the device's or the port's netdev, and the port fits. */
bool port_selection_matches(const struct port_selection *sel, const struct rdma_device *d,
			    const struct rdma_port *p);

/* 0 when the selection matches a port of host (or selects everything); otherwise -ENOENT and one sentence in
 * why that lists what exists: "no RDMA device or netdev eth9 (devices: mlx5_0; netdevs: ens1np0)". */
int port_selection_check(const struct host *host, const struct port_selection *sel, char *why, size_t size);

#endif
