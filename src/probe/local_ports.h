// SPDX-License-Identifier: GPL-2.0-only
/* net.ipv4.ip_local_port_range: where NCCL's bootstrap and its TCP data sockets bind when they ask for port
 * 0, so the range a firewall must let in. */
#ifndef ROCE_DOCTOR_LOCAL_PORTS_H
#define ROCE_DOCTOR_LOCAL_PORTS_H

#include "util/rootfs.h"

/* From <root>/proc/sys/net/ipv4/ip_local_port_range ("32768\t60999"). 0; -ENOENT when the file is not there;
 * -EINVAL when it is not two ports, low first. */
int local_port_range_read(const struct rootfs *root, unsigned *low, unsigned *high);

#endif
