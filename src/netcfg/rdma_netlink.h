// SPDX-License-Identifier: GPL-2.0-only
/* RDMA netlink (NLDEV): which netdev the kernel says each RDMA port is bound to. */
#ifndef ROCE_DOCTOR_RDMA_NETLINK_H
#define ROCE_DOCTOR_RDMA_NETLINK_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

struct rdma_nl_port {
	char dev[64];
	unsigned port;
	bool has_netdev;
	unsigned netdev_index;
	char netdev_name[IF_NAMESIZE];
};

/* Dumps RDMA_NLDEV_CMD_PORT_GET. 0, or -errno (-EPROTONOSUPPORT: the kernel has no RDMA netlink). */
int rdma_netlink_ports(struct rdma_nl_port **ports, size_t *count);

/* The replies of that dump (netlink messages as the kernel sends them) decoded without a socket, for tests and
 * tests/fuzz. 0 or -errno; *ports to free(). */
int rdma_netlink_parse_ports(const void *buf, size_t len, struct rdma_nl_port **ports, size_t *count);

#endif
