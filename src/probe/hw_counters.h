// SPDX-License-Identifier: GPL-2.0-only
/* Reads an RDMA port's hardware counters from sysfs, for bw to show what moved during each size. */
#ifndef ROCE_DOCTOR_PROBE_HW_COUNTERS_H
#define ROCE_DOCTOR_PROBE_HW_COUNTERS_H

#include "model/hw_counters.h"
#include "util/rootfs.h"

/* sys/class/infiniband/DEV/ports/PORT/hw_counters/ and DEV/hw_counters/ ("device/NAME"), every file whose
 * text is an unsigned number, sorted by name. 0 when either directory was read (a device may have only
 * one), -ENOENT when neither exists (a driver without hw_counters), -errno otherwise. */
int hw_counters_read(const struct rootfs *root, const char *dev, unsigned port, struct hw_counter_set *out);

/* sys/class/infiniband/DEV/ports/PORT/counters/ (the IB port counters every driver has: port_xmit_data,
 * port_rcv_errors, link_downed ...), sorted by name. 0, or -errno of the directory. */
int port_counters_read(const struct rootfs *root, const char *dev, unsigned port, struct hw_counter_set *out);

#endif
