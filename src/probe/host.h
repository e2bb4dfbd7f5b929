// SPDX-License-Identifier: GPL-2.0-only
/* The host prober: fills the host model (model/host.h) from sysfs, and live from netlink and verbs. */
#ifndef ROCE_DOCTOR_HOST_H
#define ROCE_DOCTOR_HOST_H

#include "model/host.h"
#include "util/rootfs.h"

/* Reads everything under root; live-only sources (netlink, verbs) when root->live. 0 or -errno. */
int host_probe(struct host *host, const struct rootfs *root);

#endif
