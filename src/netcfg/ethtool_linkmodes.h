// SPDX-License-Identifier: GPL-2.0-only
/* ethtool netlink LINKMODES_GET: the current speed of a netdev and the fastest mode it supports. */
#ifndef ROCE_DOCTOR_ETHTOOL_LINKMODES_H
#define ROCE_DOCTOR_ETHTOOL_LINKMODES_H

#include <stddef.h>

struct link_modes {
	unsigned speed_mbps;            /* 0 unknown */
	unsigned max_supported_mbps;    /* 0 when the driver lists no modes (veth, virtio) */
	char max_supported_mode[48];    /* "100000baseCR4/Full" */
};

/* 0 or -errno (-EOPNOTSUPP: no ethtool netlink family in this kernel). */
int ethtool_link_modes(const char *ifname, struct link_modes *out);

/* A LINKMODES_GET reply (netlink messages as the kernel sends them) decoded without a socket, for tests and
 * tests/fuzz. 0 or -errno. */
int ethtool_link_modes_parse(const void *buf, size_t len, struct link_modes *out);

/* "25000baseCR/Full" -> 25000; 0 when the name does not start with a speed. */
unsigned link_mode_speed(const char *name);

#endif
