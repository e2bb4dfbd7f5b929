// SPDX-License-Identifier: GPL-2.0-only
/* compare's lossless rules: per RoCE port (by HCA name and port number, as compare's other port rules) the
 * PFC-enabled priorities, the trust mode and the priority of the DSCP NCCL sends, and per node the traffic class
 * NCCL's packets carry. One node whose chain differs drops what the others keep lossless: its NIC sends no pause
 * for the priority the packets arrive on. A tie (two nodes, one each) aligns on the value of the nodes whose own
 * chain is lossless, not on the first in text order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/qos/compare_qos.h"
#include "core/qos/chain.h"
#include "core/qos/fixes.h"

#define KEY_MAX 32
#define TC_UNKNOWN (-2)

enum qos_value { VALUE_PFC, VALUE_TRUST, VALUE_DSCP_MAP, VALUE_COUNT };

struct slot {
	const char *device;
	unsigned port;
	unsigned dscp;          /* the DSCP most nodes' NCCL traffic carries on this port */
};

const struct qos_port *compare_qos_port(const struct compare_node *node, const char *device, unsigned port)
{
	for (size_t i = 0; node->qos && i < node->qos->count; i++)
		if (node->qos->ports[i].port == port && strcmp(node->qos->ports[i].device, device) == 0)
			return &node->qos->ports[i];
	return NULL;
}

const char *compare_qos_setting(const struct compare_node *node, const char *name)
{
	for (size_t i = 0; node->nccl_known && i < node->nccl_count; i++)
		if (node->nccl[i].name && strcmp(node->nccl[i].name, name) == 0)
			return node->nccl[i].value;
	return NULL;
}

/* The traffic class a node's packets carry on a port: the port's forced class, else NCCL_IB_TC (unset: 0);
 * TC_UNKNOWN when the node's NCCL settings were not recorded, -1 when NCCL_IB_TC is not a class. */
static int node_class(const struct compare_node *node, const struct qos_port *qp)
{
	const char *tc;

	if (qp && qp->forced_tc >= 0)
		return qp->forced_tc;
	if (!node->nccl_known)
		return TC_UNKNOWN;
	tc = compare_qos_setting(node, "NCCL_IB_TC");
	return tc ? qos_parse_class(tc) : 0;
}

/* Whether the node's own chain on this port ends on a PFC-enabled priority. */
bool compare_qos_port_lossless(const struct compare_node *node, const struct qos_port *qp)
{
	struct qos_port_input in;
	struct qos_chain chain;

	if (!qp || !qp->dcb.known)
		return false;
	qos_port_input_of(qp, compare_qos_setting(node, "NCCL_IB_TC"), compare_qos_setting(node, "NCCL_IB_SL"), &in);
	qos_chain_follow(&in, &chain);
	return chain.pfc == QOS_ON;
}

/* Every known port of the node lossless (and at least one known). */
bool compare_qos_node_lossless(const struct compare_node *node)
{
	size_t known = 0;

	for (size_t i = 0; node->qos && i < node->qos->count; i++) {
		if (!node->qos->ports[i].dcb.known)
			continue;
		if (!compare_qos_port_lossless(node, &node->qos->ports[i]))
			return false;
		known++;
	}
	return known > 0;
}

static const char *port_value(const struct qos_port *qp, enum qos_value v, const struct slot *s, char *buf,
			      size_t size)
{
	if (!qp || !qp->dcb.known)
		return NULL;
	switch (v) {
	case VALUE_PFC:
		if (!qp->dcb.pfc_known)
			return NULL;
		qos_pfc_list(qp->dcb.pfc_enabled, buf, size);
		return buf;
	case VALUE_TRUST:
		if (!qp->dcb.trust_known || qp->dcb.trust == QOS_TRUST_UNKNOWN)
			return NULL;
		return qos_trust_name(qp->dcb.trust);
	case VALUE_DSCP_MAP:
		/* the map decides nothing under trust pcp: compare.trust says that difference */
		if (!qp->dcb.trust_known || qp->dcb.trust != QOS_TRUST_DSCP)
			return NULL;
		snprintf(buf, size, "%u", qos_dscp_lands_on(&qp->dcb, s->dscp));
		return buf;
	default:
		return NULL;
	}
}

static uint8_t parse_pfc_list(const char *list)
{
	uint8_t mask = 0;

	for (const char *p = list; *p; p++)
		if (*p >= '0' && *p <= '7')
			mask |= (uint8_t)(1u << (*p - '0'));
	return mask;
}

struct fix_arg {
	const struct slot *slot;
};

/* "on b (4): `dcb pfc set ...` (or `mlnx_qos ...`)": the odd group's first node names the netdev. */
static void fix_line(const struct qos_fix *f, const struct value_group *odd, const char *nodes, char *buf,
		     size_t size)
{
	if (f->alt[0])
		snprintf(buf, size, "on %s (%s): `%s` (or `%s`)", nodes, odd->value, f->cmd, f->alt);
	else
		snprintf(buf, size, "on %s (%s): `%s`", nodes, odd->value, f->cmd);
}

static const char *odd_netdev(const struct compare_ctx *c, const struct slot *s, const struct value_group *odd,
			      const struct qos_port **qp)
{
	*qp = compare_qos_port(&c->nodes[odd->items[0].node], s->device, s->port);
	return *qp && (*qp)->netdev[0] ? (*qp)->netdev : "NETDEV";
}

static void fix_pfc(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		    const char *nodes, char *buf, size_t size)
{
	const struct qos_port *qp;
	const char *nd = odd_netdev(c, ((const struct fix_arg *)arg)->slot, odd, &qp);
	struct qos_fix f;

	qos_fix_pfc(nd, qp ? qp->dcb.pfc_enabled : 0, parse_pfc_list(want), &f);
	fix_line(&f, odd, nodes, buf, size);
	text_append(buf, size, ", and the same PFC on its switch port");
}

static void fix_trust(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		      const char *nodes, char *buf, size_t size)
{
	const struct slot *s = ((const struct fix_arg *)arg)->slot;
	const struct qos_port *qp;
	const char *nd = odd_netdev(c, s, odd, &qp);
	int lossless = qp ? qos_lossless_priority(&qp->dcb) : -1;
	struct qos_fix f;

	qos_fix_trust(nd, strcmp(want, "dscp") == 0 ? QOS_TRUST_DSCP : QOS_TRUST_PCP,
		      lossless >= 0 ? (unsigned)lossless : 3, &f);
	fix_line(&f, odd, nodes, buf, size);
}

static void fix_dscp(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		     const char *nodes, char *buf, size_t size)
{
	const struct slot *s = ((const struct fix_arg *)arg)->slot;
	const struct qos_port *qp;
	const char *nd = odd_netdev(c, s, odd, &qp);
	struct qos_fix f;

	qos_fix_dscp(nd, s->dscp, (unsigned)atoi(want), &f);
	fix_line(&f, odd, nodes, buf, size);
}

/* On a tie, the value of the nodes whose own chain is lossless goes first: that is the one to align on. */
static void tie_prefers_lossless(struct grouping *g, const bool *lossless)
{
	if (!g->tie)
		return;
	for (size_t i = 0; i < g->group_count && g->groups[i].count == g->groups[0].count; i++) {
		bool all = true;

		for (size_t j = 0; j < g->groups[i].count; j++)
			all &= lossless[g->groups[i].items[j].node];
		if (all) {
			struct value_group first = g->groups[0];

			g->groups[0] = g->groups[i];
			g->groups[i] = first;
			return;
		}
	}
}

static void tie_lossless(struct grouping *g, const void *lossless)
{
	tie_prefers_lossless(g, lossless);
}

/* compare_keys with the tie broken towards the lossless side. Returns 1 when the nodes differ, 0, -ENOMEM. */
int compare_qos_keys(const struct compare_ctx *c, const struct attribute_rule *r, const char *const *keys,
				 const bool *lossless, bool report_ok)
{
	return compare_keys_tied(c, r, keys, report_ok, tie_lossless, lossless);
}

/* The DSCP most nodes send on this port (a tie: the larger, since 0 is what an unset NCCL_IB_TC sends). */
static unsigned slot_dscp(const struct compare_ctx *c, const char *device, unsigned port)
{
	size_t count[QOS_DSCPS] = { 0 };
	unsigned best = 0;

	for (size_t i = 0; i < c->n; i++) {
		int tc = node_class(&c->nodes[i], compare_qos_port(&c->nodes[i], device, port));

		if (tc >= 0)
			count[(unsigned)tc >> 2]++;
	}
	for (unsigned d = 1; d < QOS_DSCPS; d++)
		if (count[d] >= count[best])
			best = d;
	return best;
}

static const struct attribute_rule rules[VALUE_COUNT] = {
	[VALUE_PFC] = { "compare.pfc", "PFC-enabled priority set", NULL, SEVERITY_WARN, fix_pfc, NULL, false },
	[VALUE_TRUST] = { "compare.trust", "trust mode", NULL, SEVERITY_WARN, fix_trust, NULL, false },
	[VALUE_DSCP_MAP] = { "compare.dscp_map", "priority", NULL, SEVERITY_WARN, fix_dscp, NULL, false },
};

struct tally {
	size_t known[VALUE_COUNT];      /* ports with the value known on some node */
	size_t differing[VALUE_COUNT];
};

static int compare_slot(const struct compare_ctx *c, struct slot *s, const char **keys, char (*bufs)[KEY_MAX],
			bool *lossless, struct tally *t)
{
	char subject[96], what[160];
	int ret = 0;

	s->dscp = slot_dscp(c, s->device, s->port);
	for (size_t i = 0; i < c->n; i++)
		lossless[i] = compare_qos_port_lossless(&c->nodes[i], compare_qos_port(&c->nodes[i], s->device, s->port));
	snprintf(subject, sizeof(subject), "%s/%u", s->device, s->port);
	for (enum qos_value v = 0; ret >= 0 && v < VALUE_COUNT; v++) {
		struct attribute_rule r = rules[v];
		struct fix_arg arg = { s };
		bool any = false;

		for (size_t i = 0; i < c->n; i++) {
			keys[i] = port_value(compare_qos_port(&c->nodes[i], s->device, s->port), v, s, bufs[i], KEY_MAX);
			any |= keys[i] != NULL;
		}
		if (!any)
			continue;
		if (v == VALUE_DSCP_MAP)
			snprintf(what, sizeof(what), "priority of DSCP %u (NCCL_IB_TC %u) on %s", s->dscp, s->dscp << 2 | 2,
				 subject);
		else
			snprintf(what, sizeof(what), "%s of %s", r.what, subject);
		r.subject = subject;
		r.what = what;
		r.arg = &arg;
		t->known[v]++;
		ret = compare_qos_keys(c, &r, keys, lossless, false);
		t->differing[v] += ret > 0;
	}
	return ret < 0 ? ret : 0;
}

static void fix_class(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		      const char *nodes, char *buf, size_t size)
{
	const struct compare_node *node = &c->nodes[odd->items[0].node];
	struct qos_fix f;
	int tc = atoi(want);

	(void)arg;
	for (size_t i = 0; node->qos && i < node->qos->count; i++)
		if (node->qos->ports[i].forced_tc >= 0) {
			qos_fix_class(node->qos->ports[i].device, node->qos->ports[i].port, node->qos->ports[i].forced_tc,
				      tc, &f);
			snprintf(buf, size, "on %s (%s, forced by the port): `%s` on each port that forces a class", nodes,
				 odd->value, f.cmd);
			return;
		}
	if (tc == 0) {
		snprintf(buf, size, "on %s (%s): `unset NCCL_IB_TC` in the job's environment (and its line in nccl.conf), "
			 "as on the others", nodes, odd->value);
		return;
	}
	qos_fix_class(NULL, 0, -1, tc, &f);
	snprintf(buf, size, "on %s (%s): `%s` in the job's environment (or NCCL_IB_TC=%d in /etc/nccl.conf), as on the "
		 "others", nodes, odd->value, f.cmd, tc);
}

/* compare.traffic_class: per node, the class its packets carry (NCCL_IB_TC, or the class every port forces). */
static int compare_class(const struct compare_ctx *c, const char **keys, char (*bufs)[KEY_MAX], bool *lossless)
{
	static const struct attribute_rule rule = { "compare.traffic_class", "traffic class of NCCL's packets",
						    "NCCL_IB_TC", SEVERITY_WARN, fix_class, NULL, false };
	size_t known = 0;
	int ret;

	for (size_t i = 0; i < c->n; i++) {
		const struct compare_node *node = &c->nodes[i];
		int forced = -1, tc;
		bool same = node->qos && node->qos->count > 0;

		for (size_t k = 0; same && k < node->qos->count; k++) {
			same = node->qos->ports[k].forced_tc >= 0 &&
			       (k == 0 || node->qos->ports[k].forced_tc == node->qos->ports[k - 1].forced_tc);
			forced = node->qos->ports[k].forced_tc;
		}
		tc = same ? forced : node_class(node, NULL);
		keys[i] = NULL;
		if (tc >= 0)
			keys[i] = (snprintf(bufs[i], KEY_MAX, "%d", tc), bufs[i]);
		else if (tc == -1)
			keys[i] = "not a class";
		known += keys[i] != NULL;
		lossless[i] = compare_qos_node_lossless(node);
	}
	if (!known)
		return 0;
	ret = compare_qos_keys(c, &rule, keys, lossless, true);
	return ret < 0 ? ret : 0;
}

/* Whether any node has a port whose DCB settings are known: without one there is nothing to say. */
static bool any_dcb(const struct compare_ctx *c)
{
	for (size_t i = 0; i < c->n; i++)
		for (size_t k = 0; c->nodes[i].qos && k < c->nodes[i].qos->count; k++)
			if (c->nodes[i].qos->ports[k].dcb.known)
				return true;
	return false;
}

bool compare_qos_judges_setting(const struct compare_ctx *c, const char *name)
{
	return strcmp(name, "NCCL_IB_FIFO_TC") == 0 || (strcmp(name, "NCCL_IB_TC") == 0 && any_dcb(c));
}

int compare_qos(const struct compare_ctx *c)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char (*bufs)[KEY_MAX] = calloc(c->n ? c->n : 1, sizeof(*bufs));
	bool *lossless = calloc(c->n ? c->n : 1, sizeof(*lossless));
	const struct host *ref = NULL;
	struct tally t = { { 0 }, { 0 } };
	int ret = -ENOMEM;

	if (!keys || !bufs || !lossless)
		goto out;
	ret = 0;
	/* the classes (rdma_cm's ToS, a forced class, NCCL_IB_FIFO_TC) are read without the DCB settings */
	if (!any_dcb(c))
		goto classes;
	ret = compare_reference_host(c, &ref);
	for (size_t d = 0; ret == 0 && ref && d < ref->device_count; d++)
		for (size_t p = 0; ret == 0 && p < ref->devices[d].port_count; p++) {
			struct slot s = { ref->devices[d].name, ref->devices[d].ports[p].num, 0 };

			ret = compare_slot(c, &s, keys, bufs, lossless, &t);
		}
	for (enum qos_value v = 0; ret == 0 && v < VALUE_COUNT; v++)
		if (t.known[v] && !t.differing[v]) {
			char all[32];

			static const char *const agree[VALUE_COUNT] = {
				[VALUE_PFC] = "the PFC-enabled priorities agree",
				[VALUE_TRUST] = "the trust mode agrees",
				[VALUE_DSCP_MAP] = "the priority NCCL's DSCP lands on agrees",
			};

			finding_add(c->out, rules[v].id, SEVERITY_OK, "ports", NULL,
				    "%s on every RoCE port (%zu per node) of %s, where known", agree[v], t.known[v],
				    compare_all_nodes(c->n, all, sizeof(all)));
		}
	if (ret == 0)
		ret = compare_class(c, keys, bufs, lossless);
classes:
	if (ret == 0)
		ret = compare_qos_classes(c);
out:
	free(keys);
	free(bufs);
	free(lossless);
	return ret;
}
