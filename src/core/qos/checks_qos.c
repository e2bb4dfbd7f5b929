// SPDX-License-Identifier: GPL-2.0-only
/* The lossless audit per RoCE port. NCCL_IB_TC defaults to 0, so on the usual NIC setup (trust dscp, PFC on
 * priority 3) NCCL's packets ride priority 0, lossy, unless NCCL_IB_TC=106 (DSCP 26, ECT) is set or the port
 * forces a class: that is the finding this file exists for. */
#include "core/qos/checks_qos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/qos/chain.h"
#include "core/qos/pause_storm.h"
#include "core/qos/pfc_buffer.h"
#include "core/qos/vlan_egress.h"

static void subject_of(const struct qos_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%u", p->device, p->port);
}

/* The NIC's side of the fix, in both tools people have: iproute2's dcb and MLNX_OFED's mlnx_qos. */
static void nic_fix(char *buf, size_t len, const char *netdev, unsigned prio)
{
	char pfc[32];

	for (unsigned i = 0; i < QOS_PRIOS; i++)
		snprintf(pfc + 2 * i, sizeof(pfc) - 2 * i, "%c,", i == prio ? '1' : '0');
	pfc[15] = '\0';
	snprintf(buf, len,
		 "dcb pfc set dev %s prio-pfc %u:on   # iproute2\n"
		 "mlnx_qos -i %s --pfc %s --trust dscp   # or the same with MLNX_OFED\n"
		 "# and PFC on priority %u on the switch port",
		 netdev, prio, netdev, pfc, prio);
}

static void lossless(const struct qos_port *p, const struct qos_job *job, struct findings *out)
{
	struct qos_port_input in;
	struct qos_chain c;
	char subject[96], chain[320], fix[1024];
	int lossless_prio, tc;

	subject_of(p, subject, sizeof(subject));
	if (!p->dcb.known) {
		/* Not captured (a --root tree without mlnx_qos text): nothing is known, so nothing is said. A driver
		 * without dcbnl has no PFC to audit, said as such: ok, since no setting on the host would change it. */
		if (p->dcb.error == -ENOENT)
			return;
		if (p->dcb.error == -EOPNOTSUPP)
			finding_add(out, "qos.lossless", SEVERITY_OK, subject, NULL,
				    "%s: no DCB, the driver has no dcbnl (as Soft-RoCE's netdev): no PFC or ECN to audit; "
				    "RoCE there relies on retransmits", p->netdev);
		else
			finding_add(out, "qos.lossless", SEVERITY_INFO, subject, NULL,
				    "%s: the DCB settings could not be read (%s): the lossless chain cannot be followed",
				    p->netdev, p->dcb.error == -EBADMSG ? "not mlnx_qos -i text, or a reply cut short"
									: strerror(-p->dcb.error));
		return;
	}
	qos_port_input_of(p, job->tc, job->sl, &in);
	qos_chain_follow(&in, &c);
	qos_chain_describe(&in, &c, chain, sizeof(chain));
	if (c.tc < 0) {
		finding_add(out, "qos.lossless", SEVERITY_WARN, subject, "export NCCL_IB_TC=106   # DSCP 26, ECT(0)",
			    "%s (%s): NCCL cannot put it in the packets", chain, job->tc_source ? job->tc_source : "environment");
		return;
	}
	if (!c.prio_known) {
		finding_add(out, "qos.lossless", SEVERITY_INFO, subject, NULL, "%s", chain);
		return;
	}
	if (c.pfc == QOS_ON) {
		finding_add(out, "qos.lossless", SEVERITY_OK, subject, NULL, "%s: lossless", chain);
		return;
	}
	if (c.ecn == QOS_ON) {
		finding_add(out, "qos.lossless", SEVERITY_OK, subject, NULL,
			    "%s: lossy RoCE with congestion control (ECN/DCQCN)", chain);
		return;
	}
	/* Neither: say where the traffic should go and both ways to get it there. */
	lossless_prio = qos_lossless_priority(&p->dcb);
	tc = lossless_prio >= 0 ? qos_tc_for_priority(&p->dcb, (unsigned)lossless_prio) : -1;
	if (lossless_prio >= 0 && tc >= 0 && p->forced_tc < 0) {
		snprintf(fix, sizeof(fix),
			 "export NCCL_IB_TC=%d   # in the job's environment (sbatch script, pod spec): DSCP %d -> "
			 "priority %d, PFC on", tc, tc >> 2, lossless_prio);
		finding_add(out, "qos.lossless", SEVERITY_WARN, subject, fix,
			    "%s: NCCL's RoCE traffic rides a lossy priority without ECN, while priority %d is lossless; "
			    "drops there end in 'transport retry counter exceeded'", chain, lossless_prio);
		return;
	}
	if (lossless_prio >= 0 && p->dcb.trust == QOS_TRUST_PCP && !p->vlan) {
		snprintf(fix, sizeof(fix),
			 "dcb app add dev %s dscp-prio 26:%d   # mlx5: the first DSCP entry turns trust dscp on\n"
			 "mlnx_qos -i %s --trust dscp   # or the same with MLNX_OFED\n"
			 "export NCCL_IB_TC=106   # in the job's environment: DSCP 26",
			 p->netdev, lossless_prio, p->netdev);
		finding_add(out, "qos.lossless", SEVERITY_WARN, subject, fix,
			    "%s: with trust pcp and no VLAN every RoCE frame is untagged and lands on priority 0; "
			    "PFC is on priority %d", chain, lossless_prio);
		return;
	}
	if (lossless_prio >= 0 && p->dcb.trust == QOS_TRUST_PCP && p->vlan) {
		/* trust pcp on a VLAN: NCCL's PCP is NCCL_IB_SL, no class moves it */
		snprintf(fix, sizeof(fix), "export NCCL_IB_SL=%d   # in the job's environment: PCP %d on the VLAN -> "
			 "priority %d, PFC on", lossless_prio, lossless_prio, lossless_prio);
		finding_add(out, "qos.lossless", SEVERITY_WARN, subject, fix,
			    "%s: NCCL's RoCE frames leave the VLAN with PCP %u (NCCL_IB_SL%s), while priority %d is "
			    "lossless", chain, c.prio, job->sl ? "" : " unset", lossless_prio);
		return;
	}
	nic_fix(fix, sizeof(fix), p->netdev, c.prio);
	if (c.prio != 3 || !job->tc) {
		char more[160];
		snprintf(more, sizeof(more), "\nexport NCCL_IB_TC=106   # in the job's environment: DSCP 26, priority 3 "
			 "by the default map; then make 3 lossless instead");
		strncat(fix, more, sizeof(fix) - strlen(fix) - 1);
	}
	if (c.ecn == QOS_OFF) {
		/* the port has MLNX_OFED's ECN switches and this priority's are off: the lossy fabric's own fix */
		char ecn[256];
		snprintf(ecn, sizeof(ecn), "\necho 1 > /sys/class/net/%s/ecn/roce_np/enable/%u; echo 1 > "
			 "/sys/class/net/%s/ecn/roce_rp/enable/%u   # or ECN (DCQCN) on it, with ECN marking on the switch",
			 p->netdev, c.prio, p->netdev, c.prio);
		strncat(fix, ecn, sizeof(fix) - strlen(fix) - 1);
	}
	finding_add(out, "qos.lossless", SEVERITY_WARN, subject, fix,
		    "%s: NCCL's RoCE traffic is neither lossless (PFC) nor congestion-controlled (ECN)", chain);
}

/* PFC on a priority that no DSCP reaches under trust dscp: the lossless queue stands empty while RoCE rides
 * another. */
static void pfc_unmapped(const struct qos_port *p, struct findings *out)
{
	char subject[96];

	if (!p->dcb.known || !p->dcb.pfc_known || p->dcb.trust != QOS_TRUST_DSCP)
		return;
	subject_of(p, subject, sizeof(subject));
	for (unsigned prio = 0; prio < QOS_PRIOS; prio++) {
		char fix[160];
		if (!(p->dcb.pfc_enabled >> prio & 1) || qos_tc_for_priority(&p->dcb, prio) >= 0)
			continue;
		snprintf(fix, sizeof(fix), "dcb app add dev %s dscp-prio 26:%u   # or: mlnx_qos -i %s --dscp2prio set,26,%u",
			 p->netdev, prio, p->netdev, prio);
		finding_add(out, "qos.pfc_unmapped", SEVERITY_WARN, subject, fix,
			    "%s: PFC is on priority %u but no DSCP maps to it (trust dscp)", p->netdev, prio);
	}
}

static void trust_pcp_untagged(const struct qos_port *p, struct findings *out)
{
	char subject[96], fix[256];
	int prio;

	if (!p->dcb.known || p->dcb.trust != QOS_TRUST_PCP || p->vlan)
		return;
	prio = qos_lossless_priority(&p->dcb);
	if (prio <= 0)
		return;   /* PFC off, or on priority 0 itself: untagged frames are where it is */
	subject_of(p, subject, sizeof(subject));
	snprintf(fix, sizeof(fix), "mlnx_qos -i %s --trust dscp   # or: dcb app add dev %s dscp-prio 26:%d", p->netdev,
		 p->netdev, prio);
	finding_add(out, "qos.trust_pcp_untagged", SEVERITY_WARN, subject, fix,
		    "%s trusts PCP but carries no VLAN: its RoCE frames have no PCP and land on priority 0, not the "
		    "lossless %d", p->netdev, prio);
}

static void tc_forced(const struct qos_port *p, const struct qos_job *job, struct findings *out)
{
	char subject[96], fix[200];

	if (p->forced_tc < 0 || !job->tc)
		return;
	if (strtol(job->tc, NULL, 0) == p->forced_tc)
		return;
	subject_of(p, subject, sizeof(subject));
	snprintf(fix, sizeof(fix), "unset NCCL_IB_TC   # in the job's launcher (%s): the port's class %d wins anyway",
		 job->tc_source ? job->tc_source : "environment", p->forced_tc);
	finding_add(out, "qos.tc_forced", SEVERITY_INFO, subject, fix,
		    "%s forces traffic class %d (tc/%u/traffic_class); NCCL_IB_TC=%s is not what the packets carry",
		    p->device, p->forced_tc, p->port, job->tc);
}

/* rdma_cm's users (perftest -R, rping, UCX and MPI over rdma_cm) get the class of configfs' default_roce_tos;
 * NCCL builds its own GRH with NCCL_IB_TC and never sees it. When the two land on different priorities, a test
 * through rdma_cm can run lossless while NCCL does not: said here, since it explains exactly that. A forced
 * class overrides both. Under trust pcp on a VLAN rdma_cm's PCP is the VLAN's egress map at the ToS's skb
 * priority, NCCL's is NCCL_IB_SL. */
static void roce_tos(const struct qos_port *p, const struct qos_job *job, struct findings *out)
{
	struct qos_port_input in;
	struct qos_chain cm, nccl;
	char subject[96], cm_chain[320], nccl_chain[320], fix[400];
	int tc;

	if (p->default_roce_tos < 0 || p->forced_tc >= 0 || !p->dcb.known || !p->dcb.trust_known)
		return;
	qos_port_input_of(p, job->tc, job->sl, &in);
	qos_chain_follow(&in, &nccl);
	qos_chain_describe(&in, &nccl, nccl_chain, sizeof(nccl_chain));
	in.class_from = "rdma_cm's default_roce_tos";
	in.class = p->default_roce_tos;
	in.sl_from_tos = true;
	qos_chain_follow(&in, &cm);
	qos_chain_describe(&in, &cm, cm_chain, sizeof(cm_chain));
	if (nccl.tc < 0 || !nccl.prio_known || !cm.prio_known || nccl.prio == cm.prio)
		return;
	subject_of(p, subject, sizeof(subject));
	fix[0] = '\0';
	tc = qos_tc_for_priority(&p->dcb, cm.prio);
	if (p->dcb.trust == QOS_TRUST_PCP && cm.pfc == QOS_ON && nccl.pfc != QOS_ON)
		snprintf(fix, sizeof(fix), "export NCCL_IB_SL=%u   # in the job's environment: NCCL's PCP onto rdma_cm's "
			 "priority %u", cm.prio, cm.prio);
	else if (p->dcb.trust == QOS_TRUST_PCP && nccl.pfc == QOS_ON && cm.pfc != QOS_ON)
		snprintf(fix, sizeof(fix), "ip link set dev %s type vlan egress-qos-map %u:%u   # rdma_cm's ToS %d is "
			 "skb priority %u", p->netdev, cm.skb_prio, nccl.prio, p->default_roce_tos, cm.skb_prio);
	else if (cm.pfc == QOS_ON && nccl.pfc != QOS_ON && tc >= 0)
		snprintf(fix, sizeof(fix), "export NCCL_IB_TC=%d   # in the job's environment: NCCL onto rdma_cm's "
			 "priority %u", tc, cm.prio);
	else if (nccl.pfc == QOS_ON && cm.pfc != QOS_ON && nccl.tc >= 0)
		snprintf(fix, sizeof(fix), "echo %d > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos   "
			 "# or: cma_roce_tos -d %s -p %u -t %d", nccl.tc, p->device, p->port, p->device, p->port, nccl.tc);
	finding_add(out, "qos.roce_tos", SEVERITY_INFO, subject, fix[0] ? fix : NULL,
		    "rdma_cm's users (perftest -R, rping, UCX/MPI over rdma_cm) and NCCL land on different priorities: "
		    "%s; NCCL: %s (NCCL sets its traffic class from NCCL_IB_TC, not from rdma_cm)", cm_chain, nccl_chain);
}

/* NCCL 2.22+ sends its CTS messages (the FIFO RDMA writes that let a sender go on) with NCCL_IB_FIFO_TC when
 * set: those small writes follow their own chain, and a dropped CTS stalls the data behind it as a dropped data
 * packet does. Said when they land on another priority than NCCL_IB_TC's; a forced class overrides both. */
static void fifo_tc(const struct qos_port *p, const struct qos_job *job, struct findings *out)
{
	struct qos_port_input in;
	struct qos_chain fifo, data;
	char subject[96], fifo_chain[320], data_chain[320], fix[320];
	int cls = qos_parse_class(job->fifo_tc);

	if (!job->fifo_tc || job->fifo_reader == QOS_FIFO_NONE || p->forced_tc >= 0 || !p->dcb.known)
		return;
	subject_of(p, subject, sizeof(subject));
	if (cls < 0) {
		snprintf(fix, sizeof(fix), "unset NCCL_IB_FIFO_TC   # in the job's launcher (%s)",
			 job->fifo_tc_source ? job->fifo_tc_source : "environment");
		finding_add(out, "qos.fifo_tc", SEVERITY_WARN, subject, fix,
			    "NCCL_IB_FIFO_TC=%s is not a traffic class (0-255)", job->fifo_tc);
		return;
	}
	if (cls == 0 && job->fifo_reader == QOS_FIFO_ZERO_UNSET)
		return;   /* NCCL 2.22 and 2.23 read 0 as "with NCCL_IB_TC" */
	qos_port_input_of(p, job->tc, job->sl, &in);
	qos_chain_follow(&in, &data);
	qos_chain_describe(&in, &data, data_chain, sizeof(data_chain));
	in.class_from = "NCCL_IB_FIFO_TC";
	in.class = cls;
	qos_chain_follow(&in, &fifo);
	qos_chain_describe(&in, &fifo, fifo_chain, sizeof(fifo_chain));
	if (data.tc < 0 || !data.prio_known || !fifo.prio_known)
		return;
	if (data.prio == fifo.prio) {
		finding_add(out, "qos.fifo_tc", SEVERITY_OK, subject, NULL,
			    "NCCL's CTS messages: %s, the priority of its data", fifo_chain);
		return;
	}
	snprintf(fix, sizeof(fix), "unset NCCL_IB_FIFO_TC   # in the job's launcher (%s): CTS messages then go with "
		 "NCCL_IB_TC (priority %u)", job->fifo_tc_source ? job->fifo_tc_source : "environment", data.prio);
	if (data.pfc == QOS_ON && fifo.pfc != QOS_ON)
		finding_add(out, "qos.fifo_tc", SEVERITY_WARN, subject, fix,
			    "NCCL's CTS messages ride a lossy priority while its data is lossless: %s; data: %s; a dropped "
			    "CTS stalls the transfer until a retransmit (NCCL %s sends its CTS with NCCL_IB_FIFO_TC)",
			    fifo_chain, data_chain, job->nccl_version ? job->nccl_version : "2.22+");
	else
		finding_add(out, "qos.fifo_tc", SEVERITY_WARN, subject, fix,
			    "NCCL's CTS messages and its data land on different priorities: %s; data: %s",
			    fifo_chain, data_chain);
}

void check_qos(const struct qos_host *q, const struct qos_job *job, struct findings *out)
{
	if (q && q->count && job->fifo_tc && job->fifo_reader == QOS_FIFO_NONE)
		finding_add(out, "qos.fifo_tc", SEVERITY_INFO, "NCCL_IB_FIFO_TC", NULL,
			    "NCCL %s, the newest found on the node, reads no NCCL_IB_FIFO_TC (NCCL 2.22 on): its CTS "
			    "messages go with NCCL_IB_TC", job->nccl_version ? job->nccl_version : "");
	for (size_t i = 0; q && i < q->count; i++) {
		lossless(&q->ports[i], job, out);
		pfc_unmapped(&q->ports[i], out);
		qos_check_pfc_buffer(&q->ports[i], out);
		trust_pcp_untagged(&q->ports[i], out);
		qos_check_vlan_egress(&q->ports[i], job, out);
		tc_forced(&q->ports[i], job, out);
		roce_tos(&q->ports[i], job, out);
		fifo_tc(&q->ports[i], job, out);
		qos_judge_counters(&q->ports[i], &q->ports[i].counters, 0, out);
	}
}
