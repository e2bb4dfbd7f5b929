// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL_IB_TC that lands on the lossless priority. One value serves every HCA of the job (NCCL reads it
 * once), so the ports have to agree on it; a port that forces its own class is left to that class. */
#include "core/qos/nccl_tc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/qos/chain.h"
#include "util/text_append.h"

static void note(struct qos_tc_advice *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct qos_tc_advice *a, const char *fmt, ...)
{
	va_list ap;

	if (a->note_count >= QOS_TC_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(a->notes[a->note_count++], sizeof(a->notes[0]), fmt, ap);
	va_end(ap);
}

static const struct qos_port *find(const struct qos_host *q, const struct qos_port_ref *r)
{
	for (size_t i = 0; q && i < q->count; i++)
		if (q->ports[i].port == r->port && strcmp(q->ports[i].device, r->device) == 0)
			return &q->ports[i];
	return NULL;
}

/* The class port p needs, or -1 with a note saying why there is none. */
static int port_class(const struct qos_port *p, struct qos_tc_advice *a)
{
	int prio = qos_lossless_priority(&p->dcb), tc;

	if (prio < 0) {
		note(a, "NCCL_IB_TC left unset: %s has no PFC-enabled priority, so no class makes NCCL's traffic "
		     "lossless (`roce-doctor check --only qos` says how to set one up)", p->netdev);
		return -1;
	}
	if (p->dcb.trust != QOS_TRUST_DSCP) {
		note(a, "NCCL_IB_TC left unset: %s trusts %s, so the priority comes from the VLAN PCP (NCCL_IB_SL), not "
		     "from the class%s (`mlnx_qos -i %s --trust dscp` makes NCCL_IB_TC count)", p->netdev,
		     qos_trust_name(p->dcb.trust), p->vlan ? "" : ", and untagged frames land on priority 0", p->netdev);
		return -1;
	}
	tc = qos_tc_for_priority(&p->dcb, (unsigned)prio);
	if (tc < 0)
		note(a, "NCCL_IB_TC left unset: no DSCP lands on %s's PFC priority %d (`dcb app replace dev %s dscp-prio "
		     "26:%d` maps DSCP 26 there)", p->netdev, prio, p->netdev, prio);
	return tc;
}

void qos_advise_tc(const struct qos_host *q, const struct qos_port_ref *ports, size_t n, struct qos_tc_advice *out)
{
	const struct qos_port *first = NULL;
	char netdevs[128] = "", differ[256] = "";
	bool none = false;

	memset(out, 0, sizeof(*out));
	out->tc = -1;
	for (size_t i = 0; i < n; i++) {
		const struct qos_port *p = find(q, &ports[i]);
		int tc;

		if (!p || !p->dcb.known)
			continue;
		if (p->forced_tc >= 0) {
			note(out, "%s/%u forces traffic class %d (tc/%u/traffic_class): its packets carry it whatever "
			     "NCCL_IB_TC says", p->device, p->port, p->forced_tc, p->port);
			continue;
		}
		tc = port_class(p, out);
		none |= tc < 0;
		if (tc < 0)
			continue;
		text_append(differ, sizeof(differ), "%s%s/%u: %d", differ[0] ? ", " : "", p->device, p->port, tc);
		if (!first) {
			first = p;
			out->tc = tc;
		} else if (tc != out->tc) {
			out->tc = -2;
		}
		if (!strstr(netdevs, p->netdev))
			text_append(netdevs, sizeof(netdevs), "%s%s", netdevs[0] ? ", " : "", p->netdev);
	}
	if (out->tc == -2 || (none && out->tc >= 0)) {
		if (out->tc == -2)
			note(out, "NCCL_IB_TC left unset: the ports' lossless priorities need different classes (%s), and "
			     "NCCL sets one for every HCA: give the ports the same DSCP map and PFC", differ);
		out->tc = -1;
		return;
	}
	if (out->tc >= 0)
		snprintf(out->chain, sizeof(out->chain), "TC %d -> DSCP %d -> priority %d (trust dscp) -> PFC on (%s)",
			 out->tc, out->tc >> 2, qos_lossless_priority(&first->dcb), netdevs);
}
