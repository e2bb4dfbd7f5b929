// SPDX-License-Identifier: GPL-2.0-only
/* arp_ignore / arp_announce: with two RDMA netdevs in one subnet, the defaults (0/0) let either port answer
 * ARP for both addresses, so RoCE traffic leaves by the wrong port. The usual fix is 1 and 2. */
#ifndef ROCE_DOCTOR_SYSCTL_ARP_H
#define ROCE_DOCTOR_SYSCTL_ARP_H

#include "model/net.h"
#include "util/rootfs.h"

/* From <root>/proc/sys/net/ipv4/conf/{all,DEV}/. 0, or -errno (-ENOENT: DEV has no IPv4 configuration). */
int arp_sysctl_read(const struct rootfs *root, const char *netdev, struct arp_sysctl *out);

#endif
