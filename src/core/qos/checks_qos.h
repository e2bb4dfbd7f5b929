// SPDX-License-Identifier: GPL-2.0-only
/* The lossless audit's rules: pure functions from each RoCE port's chain and the job's NCCL_IB_TC/SL to
 * findings (qos.*), each with the fix on the NIC (dcb, mlnx_qos) and in the job (NCCL_IB_TC). */
#ifndef ROCE_DOCTOR_CORE_QOS_CHECKS_QOS_H
#define ROCE_DOCTOR_CORE_QOS_CHECKS_QOS_H

#include "core/findings.h"
#include "model/qos.h"

/* Whether the NCCL on the node reads NCCL_IB_FIFO_TC, the class of its CTS (FIFO) RDMA writes: from 2.22, where 0
 * meant "as NCCL_IB_TC" until 2.24 made that -1. */
enum qos_fifo_reader {
	QOS_FIFO_ANY,            /* no NCCL version known: read as the newest NCCL does */
	QOS_FIFO_NONE,           /* the NCCL found is older than 2.22: the variable does nothing */
	QOS_FIFO_ZERO_UNSET,     /* 2.22 and 2.23: 0 sends the CTS with NCCL_IB_TC */
	QOS_FIFO_MINUS1_UNSET,   /* 2.24 on: any class 0-255 is used */
};

struct qos_job {
	const char *tc;          /* NCCL_IB_TC as NCCL sees it; NULL unset */
	const char *tc_source;   /* "environment", "/etc/nccl.conf:3" */
	const char *sl;          /* NCCL_IB_SL; NULL unset */
	const char *fifo_tc;     /* NCCL_IB_FIFO_TC; NULL unset */
	const char *fifo_tc_source;
	enum qos_fifo_reader fifo_reader;
	const char *nccl_version;   /* the NCCL fifo_reader comes from; NULL none known */
};

/* qos.lossless, qos.pfc_unmapped, qos.pfc_buffer, qos.trust_pcp_untagged, qos.vlan_egress, qos.tc_forced, qos.roce_tos, qos.fifo_tc,
 * qos.pause_storm and qos.discards, per port. */
void check_qos(const struct qos_host *q, const struct qos_job *job, struct findings *out);

#endif
