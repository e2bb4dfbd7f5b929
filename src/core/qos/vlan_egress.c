// SPDX-License-Identifier: GPL-2.0-only
/* The PCP RoCE leaves a VLAN with. Under trust pcp the receiver classifies by the VLAN tag's PCP, which the
 * sender's kernel writes from the VLAN's egress QoS map (rdma_cm's QPs: the ToS's skb priority through it; an
 * empty map sends PCP 0) and NCCL from NCCL_IB_SL. The usual fix maps every skb priority to the PFC priority, as
 * NVIDIA's "HowTo Set Egress Priority VLAN on Linux" does. */
#include "core/qos/vlan_egress.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/qos/chain.h"
#include "util/text_append.h"

/* "0:3 1:3 ..." of the map, or "empty" (every skb priority leaves with PCP 0). */
static void map_text(const struct qos_port *p, char *buf, size_t size)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		if (p->vlan_egress[i])
			text_append(buf, size, "%s%u:%u", buf[0] ? " " : "", i, p->vlan_egress[i]);
	if (!buf[0])
		snprintf(buf, size, "empty: every skb priority leaves with PCP 0");
}

void qos_check_vlan_egress(const struct qos_port *p, const struct qos_job *job, struct findings *out)
{
	struct qos_port_input in;
	struct qos_chain cm, nccl;
	char subject[96], map[64], fix[512];
	const char *vlan = p->vlan_netdev[0] ? p->vlan_netdev : p->netdev;
	int lossless, tos = p->default_roce_tos >= 0 ? p->default_roce_tos : 0;

	if (!p->vlan || !p->vlan_egress_known || !p->dcb.known || !p->dcb.pfc_known || p->dcb.trust != QOS_TRUST_PCP ||
	    p->forced_tc >= 0 || (lossless = qos_lossless_priority(&p->dcb)) < 0)
		return;
	snprintf(subject, sizeof(subject), "%s/%u", p->device, p->port);
	map_text(p, map, sizeof(map));
	qos_port_input_of(p, job->tc, job->sl, &in);
	qos_chain_follow(&in, &nccl);
	in.class_from = "rdma_cm's default_roce_tos";
	in.class = tos;
	in.sl_from_tos = true;
	qos_chain_follow(&in, &cm);
	if (!cm.prio_known)
		return;
	if (cm.pfc == QOS_ON) {
		finding_add(out, "qos.vlan_egress", SEVERITY_OK, subject, NULL,
			    "%s: rdma_cm's RoCE frames (ToS %d, skb priority %u) leave with PCP %u by the egress map (%s): "
			    "PFC on", vlan, tos, cm.skb_prio, cm.prio, map);
		return;
	}
	fix[0] = '\0';
	text_append(fix, sizeof(fix), "ip link set dev %s type vlan egress-qos-map", vlan);
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		text_append(fix, sizeof(fix), " %u:%d", i, lossless);
	text_append(fix, sizeof(fix), "   # every skb priority to PCP %d, PFC on", lossless);
	if (!nccl.prio_known || nccl.pfc != QOS_ON)
		text_append(fix, sizeof(fix), "\nexport NCCL_IB_SL=%d   # in the job's environment: NCCL's own PCP", lossless);
	finding_add(out, "qos.vlan_egress", SEVERITY_WARN, subject, fix,
		    "%s trusts pcp and its RoCE frames leave the VLAN %s with PCP %u (rdma_cm's ToS %d, skb priority %u, "
		    "through the egress map: %s), while PFC is on priority %d: rdma_cm's traffic (perftest -R, rping, "
		    "UCX) rides a lossy priority%s", p->netdev, vlan, cm.prio, tos, cm.skb_prio, map, lossless,
		    nccl.prio_known && nccl.pfc != QOS_ON ? ", and NCCL's (NCCL_IB_SL) too" : "");
}
