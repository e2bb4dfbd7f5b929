// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env's NCCL_IB_TC: the traffic class whose DSCP lands on the ports' lossless (PFC) priority, with the
 * chain it takes, or why none is given (no PFC priority, trust pcp, a class the NIC forces, ports that need
 * different classes). A pure function of the ports' lossless-chain models. */
#ifndef ROCE_DOCTOR_CORE_QOS_NCCL_TC_H
#define ROCE_DOCTOR_CORE_QOS_NCCL_TC_H

#include <stddef.h>

#include "model/qos.h"

#define QOS_TC_NOTES_MAX 4

/* A port NCCL will use. */
struct qos_port_ref {
	const char *device;
	unsigned port;
};

struct qos_tc_advice {
	int tc;                          /* the NCCL_IB_TC to set; -1 none */
	char chain[256];                 /* "TC 106 -> DSCP 26 -> priority 3 (trust dscp) -> PFC on (ens19f0np0)" */
	char notes[QOS_TC_NOTES_MAX][384];   /* why none, or what else holds; none when the DCB is unknown */
	size_t note_count;
};

/* Over the ports NCCL will use that the model knows; nothing (tc -1, no note) when none has known DCB. */
void qos_advise_tc(const struct qos_host *q, const struct qos_port_ref *ports, size_t n, struct qos_tc_advice *out);

#endif
