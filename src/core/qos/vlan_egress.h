// SPDX-License-Identifier: GPL-2.0-only
/* qos.vlan_egress: under trust pcp on a VLAN, the PCP RoCE frames leave with. rdma_cm (and the node's own TCP)
 * take it from the VLAN's egress QoS map at the ToS's skb priority, NCCL from NCCL_IB_SL: either one off the PFC
 * priority is lossy. Pure, over one port of the lossless chain's model. */
#ifndef ROCE_DOCTOR_CORE_QOS_VLAN_EGRESS_H
#define ROCE_DOCTOR_CORE_QOS_VLAN_EGRESS_H

#include "core/findings.h"
#include "core/qos/checks_qos.h"
#include "model/qos.h"

/* Nothing unless the port is a VLAN with its egress map known, trusts pcp and has PFC on some priority. */
void qos_check_vlan_egress(const struct qos_port *p, const struct qos_job *job, struct findings *out);

#endif
