// SPDX-License-Identifier: GPL-2.0-only
/* A netdev's driver statistics (what `ethtool -S IF` prints), read through the kernel's SIOCETHTOOL
 * interface: ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS and ETHTOOL_GSTATS. */
#ifndef ROCE_DOCTOR_NETCFG_ETHTOOL_STATS_H
#define ROCE_DOCTOR_NETCFG_ETHTOOL_STATS_H

#include <stddef.h>
#include <stdint.h>

/* mlx5 has about 1,500 with its per-queue counters at 64 queues; beyond this a reply is not believed. */
#define ETHTOOL_STATS_MAX 16384

struct netdev_stat {
	char name[33];           /* ETH_GSTRING_LEN and its terminator */
	uint64_t value;
};

struct netdev_stats {
	struct netdev_stat *items;
	size_t count;
};

/* 0 with *out filled (free with netdev_stats_free), or -errno: -EOPNOTSUPP when the driver has none,
 * -ENODEV when the netdev is gone, -EBADMSG when the driver's count changed between two requests. */
int netdev_stats_read(const char *ifname, struct netdev_stats *out);
void netdev_stats_free(struct netdev_stats *s);

#endif
