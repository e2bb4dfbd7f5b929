// SPDX-License-Identifier: GPL-2.0-only
/* Links and addresses through rtnetlink (libnl-route): what sysfs cannot tell. */
#ifndef ROCE_DOCTOR_ADDRESSES_H
#define ROCE_DOCTOR_ADDRESSES_H

#include "probe/host.h"

/* Fills addrs of every netdev in host from the kernel's address table. 0 or -errno. */
int netlink_fill_addresses(struct host *host);

#endif
