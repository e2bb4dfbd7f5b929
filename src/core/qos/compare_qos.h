// SPDX-License-Identifier: GPL-2.0-only
/* compare's lossless rules, internal to src/core/qos/compare_qos*.c: a node's port and NCCL settings, whether its
 * own chain is lossless, and compare_keys with a tie broken towards the lossless side. */
#ifndef ROCE_DOCTOR_CORE_QOS_COMPARE_QOS_H
#define ROCE_DOCTOR_CORE_QOS_COMPARE_QOS_H

#include "core/compare_group.h"
#include "model/qos.h"

/* The node's port device/port in its qos model; NULL when not there. */
const struct qos_port *compare_qos_port(const struct compare_node *node, const char *device, unsigned port);

/* The node's effective NCCL setting name; NULL unset or not recorded. */
const char *compare_qos_setting(const struct compare_node *node, const char *name);

/* Whether the node's own chain on qp ends on a PFC-enabled priority. */
bool compare_qos_port_lossless(const struct compare_node *node, const struct qos_port *qp);

/* Every known port of the node lossless (and at least one known). */
bool compare_qos_node_lossless(const struct compare_node *node);

/* compare_keys where a tie aligns on the nodes whose lossless[node] is true. 1 differ, 0, -ENOMEM. */
int compare_qos_keys(const struct compare_ctx *c, const struct attribute_rule *r, const char *const *keys,
		     const bool *lossless, bool report_ok);

/* compare.roce_tos and compare.forced_tc per RoCE port, compare.fifo_tc per node (compare_qos_classes.c). */
int compare_qos_classes(const struct compare_ctx *c);

#endif
