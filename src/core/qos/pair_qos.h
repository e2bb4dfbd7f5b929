// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's lossless rules: per rail, the two ends' PFC set, trust mode, DSCP map and the traffic class
 * NCCL's packets carry, and which node carries the fix. Pure: the two sides' models and their rails. */
#ifndef ROCE_DOCTOR_CORE_QOS_PAIR_QOS_H
#define ROCE_DOCTOR_CORE_QOS_PAIR_QOS_H

#include "core/pair.h"

/* pair.pfc, pair.trust, pair.dscp_map, pair.traffic_class, pair.forced_tc, pair.fifo_tc (pair.roce_tos: by
 * rdma_cm's own chain): a difference is warned about on the node whose own
 * chain is not lossless while the other's is (that node aligns on the other), info when packets land on a
 * PFC priority both ways anyway; nothing where neither node's DCB settings are known. */
void pair_qos_check(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		    struct pair_findings *out);

#endif
