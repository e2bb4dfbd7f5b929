// SPDX-License-Identifier: GPL-2.0-only
/* The lossless audit's rules: pure functions from each RoCE port's chain and the job's NCCL_IB_TC/SL to
 * findings (qos.*), each with the fix on the NIC (dcb, mlnx_qos) and in the job (NCCL_IB_TC). */
#ifndef ROCE_DOCTOR_CORE_QOS_CHECKS_QOS_H
#define ROCE_DOCTOR_CORE_QOS_CHECKS_QOS_H

#include "core/findings.h"
#include "model/qos.h"

struct qos_job {
	const char *tc;          /* NCCL_IB_TC as NCCL sees it; NULL unset */
	const char *tc_source;   /* "environment", "/etc/nccl.conf:3" */
	const char *sl;          /* NCCL_IB_SL; NULL unset */
};

/* qos.lossless, qos.pfc_unmapped, qos.trust_pcp_untagged, qos.tc_forced, qos.roce_tos, qos.pause_storm and
 * qos.discards, per port. */
void check_qos(const struct qos_host *q, const struct qos_job *job, struct findings *out);

#endif
