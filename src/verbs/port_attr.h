// SPDX-License-Identifier: GPL-2.0-only
/* What only the verbs API tells about a port: its active and maximum MTU. */
#ifndef ROCE_DOCTOR_PORT_ATTR_H
#define ROCE_DOCTOR_PORT_ATTR_H

#include "probe/host.h"

/* Sets active_mtu/max_mtu of every port in host that verbs can open. 0 or -errno (no device usable). */
int verbs_fill_port_mtus(struct host *host);

/* IBV_MTU_* enum value to bytes (IBV_MTU_4096 -> 4096); 0 for anything else. */
int verbs_mtu_bytes(int mtu_enum);

#endif
