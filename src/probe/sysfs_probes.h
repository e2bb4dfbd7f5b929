// SPDX-License-Identifier: GPL-2.0-only
/* The sysfs readers behind host_probe(); internal to src/probe. */
#ifndef ROCE_DOCTOR_SYSFS_PROBES_H
#define ROCE_DOCTOR_SYSFS_PROBES_H

#include "probe/host.h"

/* /sys/class/infiniband: devices, ports, GID tables. */
int rdma_sysfs_probe(struct host *host, const struct rootfs *root);

/* /sys/class/infiniband/DEV/ports/N/gids and gid_attrs. */
int gid_table_read(const struct rootfs *root, const char *dev, struct rdma_port *port, struct notes *warnings);

/* /sys/class/net: name, ifindex, MTU, operstate of every netdev. */
int netdev_sysfs_probe(struct host *host, const struct rootfs *root);

/* Directory entries that are decimal numbers, sorted ascending; at most max of them. */
int numeric_entries(const struct rootfs *root, unsigned **out, size_t *count, size_t max, const char *dir);

#endif
