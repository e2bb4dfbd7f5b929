// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain: NCCL_IB_TC (or the port's forced class) -> DSCP -> priority -> PFC / ECN. */
#include "core/qos/chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NCCL reads NCCL_IB_TC with strtol-like parsing into an int and puts it in the GRH's 8-bit traffic class;
 * anything that is not 0..255 is not a class we can follow. */
int qos_parse_class(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 0);
	if (*end || v < 0 || v > 255)
		return -1;
	return (int)v;
}

/* mlx5's DSCP-to-priority map before anyone sets it: the DSCP's top three bits (DSCP 26 -> 3, 0 -> 0). */
static unsigned default_dscp_priority(unsigned dscp)
{
	return dscp >> 3;
}

unsigned qos_dscp_lands_on(const struct qos_dcb *dcb, unsigned dscp)
{
	unsigned prio;

	return qos_dscp_priority(dcb, dscp, &prio) ? prio : default_dscp_priority(dscp);
}

unsigned qos_tos_skb_priority(int tos)
{
	/* the kernel's ip_tos2prio[] at IPTOS_TOS(tos) >> 1: best effort, bulk, interactive, interactive bulk */
	static const unsigned char tos2prio[16] = { 0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4 };

	return tos2prio[(tos & 0x1e) >> 1];
}

void qos_port_input_of(const struct qos_port *p, const char *nccl_tc, const char *nccl_sl, struct qos_port_input *in)
{
	memset(in, 0, sizeof(*in));
	in->dcb = &p->dcb;
	in->forced_tc = p->forced_tc;
	in->nccl_tc = nccl_tc;
	in->nccl_sl = nccl_sl;
	in->vlan = p->vlan;
	in->vlan_egress = p->vlan_egress_known ? p->vlan_egress : NULL;
	memcpy(in->ecn, p->ecn, sizeof(in->ecn));
}

void qos_chain_follow(const struct qos_port_input *in, struct qos_chain *out)
{
	const struct qos_dcb *dcb = in->dcb;
	unsigned prio;

	memset(out, 0, sizeof(*out));
	out->pfc = out->ecn = QOS_UNKNOWN;
	if (in->forced_tc >= 0) {
		out->tc = in->forced_tc;
		out->tc_from = "forced";
	} else if (in->class_from) {
		out->tc = in->class >= 0 && in->class <= 255 ? in->class : -1;
		out->tc_from = in->class_from;
	} else if (in->nccl_tc) {
		out->tc = qos_parse_class(in->nccl_tc);
		out->tc_from = "NCCL_IB_TC";
	} else {
		out->tc = 0;
		out->tc_from = "default";
	}
	if (out->tc < 0)
		return;
	out->dscp = (unsigned)out->tc >> 2;
	if (!dcb || !dcb->known || !dcb->trust_known || dcb->trust == QOS_TRUST_UNKNOWN)
		return;
	if (dcb->trust == QOS_TRUST_DSCP) {
		if (qos_dscp_priority(dcb, out->dscp, &prio)) {
			out->prio_from = "dscp map";
		} else {
			prio = default_dscp_priority(out->dscp);
			out->prio_from = "default dscp map";
		}
	} else if (in->vlan && in->sl_from_tos) {
		if (!in->vlan_egress)
			return;
		out->skb_prio = qos_tos_skb_priority(out->tc);
		prio = in->vlan_egress[out->skb_prio];
		out->prio_from = "pcp (VLAN egress map)";
	} else if (in->vlan) {
		int sl = in->nccl_sl ? qos_parse_class(in->nccl_sl) : 0;
		if (sl < 0 || sl >= QOS_PRIOS)
			return;
		prio = (unsigned)sl;
		out->prio_from = "pcp (VLAN, NCCL_IB_SL)";
	} else {
		prio = 0;
		out->prio_from = "untagged";
	}
	out->prio_known = true;
	out->prio = prio;
	if (dcb->pfc_known)
		out->pfc = (dcb->pfc_enabled >> prio) & 1 ? QOS_ON : QOS_OFF;
	out->ecn = in->ecn[prio];
}

static const char *tristate_word(enum qos_tristate t)
{
	return t == QOS_ON ? "on" : t == QOS_OFF ? "off" : "unknown";
}

void qos_chain_describe(const struct qos_port_input *in, const struct qos_chain *c, char *buf, size_t len)
{
	const struct qos_dcb *dcb = in->dcb;
	size_t n = 0;

#define PUT(...) do { int w = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__); if (w > 0) n += (size_t)w; } while (0)
	if (len)
		buf[0] = '\0';
	if (c->tc < 0) {
		PUT("NCCL_IB_TC=%s is not a traffic class (0-255)", in->nccl_tc ? in->nccl_tc : "");
		return;
	}
	if (!strcmp(c->tc_from, "forced"))
		PUT("traffic class %d (forced on the port)", c->tc);
	else if (!strcmp(c->tc_from, "NCCL_IB_TC"))
		PUT("traffic class %d (NCCL_IB_TC)", c->tc);
	else if (!strcmp(c->tc_from, "default"))
		PUT("traffic class 0 (NCCL_IB_TC unset)");
	else
		PUT("traffic class %d (%s)", c->tc, c->tc_from);
	PUT(" -> DSCP %u", c->dscp);
	if (!dcb || !dcb->known) {
		PUT(" -> priority unknown (DCB settings not readable)");
		return;
	}
	if (!c->prio_known) {
		PUT(" -> priority unknown (trust mode %s)", qos_trust_name(dcb->trust));
		return;
	}
	if (dcb->trust == QOS_TRUST_DSCP)
		PUT(" -> priority %u (trust dscp, %s)", c->prio, c->prio_from);
	else if (in->vlan && in->sl_from_tos)
		PUT(" -> priority %u (trust pcp, VLAN PCP from the egress map at skb priority %u)", c->prio, c->skb_prio);
	else if (in->vlan)
		PUT(" -> priority %u (trust pcp, VLAN PCP from NCCL_IB_SL)", c->prio);
	else
		PUT(" -> priority 0 (trust pcp, untagged frames)");
	PUT(" -> PFC %s", tristate_word(c->pfc));
	PUT(", ECN %s", tristate_word(c->ecn));
#undef PUT
}

int qos_tc_for_priority(const struct qos_dcb *dcb, unsigned prio)
{
	unsigned d, p;

	if (!dcb->known || dcb->trust != QOS_TRUST_DSCP || prio >= QOS_PRIOS)
		return -1;
	/* The usual RoCE DSCP first (26, NCCL_IB_TC=106 in NVIDIA's guides), then the lowest that maps there. */
	if ((qos_dscp_priority(dcb, 26, &p) ? p : default_dscp_priority(26)) == prio)
		return (26 << 2) | 2;
	for (d = 0; d < QOS_DSCPS; d++)
		if ((qos_dscp_priority(dcb, d, &p) ? p : default_dscp_priority(d)) == prio)
			return (int)((d << 2) | 2);
	return -1;
}

int qos_lossless_priority(const struct qos_dcb *dcb)
{
	unsigned p;

	if (!dcb->known || !dcb->pfc_known)
		return -1;
	for (p = 0; p < QOS_PRIOS; p++)
		if ((dcb->pfc_enabled >> p) & 1)
			return (int)p;
	return -1;
}
