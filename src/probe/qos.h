// SPDX-License-Identifier: GPL-2.0-only
/* Each RoCE port's side of the lossless chain: its netdev's DCB settings (dcbnl live; under --root the
 * `mlnx_qos -i` text tools/capture-host saved), the port's forced traffic class, ECN per priority and VLAN. */
#ifndef ROCE_DOCTOR_PROBE_QOS_H
#define ROCE_DOCTOR_PROBE_QOS_H

#include "model/host.h"
#include "model/qos.h"
#include "util/rootfs.h"

/* Where capture-host keeps `mlnx_qos -i IF`'s text inside a tree, relative to its root. */
#define QOS_CAPTURE_DIR "var/lib/roce-doctor/capture"

/* A netdev's PFC counters: live through SIOCETHTOOL, under a tree from the `ethtool -S IF` text capture-host
 * saved (QOS_CAPTURE_DIR/ethtool-S-IF.txt). c->known says whether they were read, c->error why not. */
void qos_counters_read(const struct rootfs *root, const char *netdev, struct qos_counters *c);

/* Fills out with one entry per Ethernet RDMA port that has a netdev. 0, or -ENOMEM. */
int qos_probe(const struct rootfs *root, const struct host *host, struct qos_host *out);

#endif
