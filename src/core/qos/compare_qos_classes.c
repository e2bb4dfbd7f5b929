// SPDX-License-Identifier: GPL-2.0-only
/* compare's rules for the classes beside NCCL_IB_TC: per RoCE port rdma_cm's default ToS (what perftest -R, rping
 * and UCX or MPI over rdma_cm send; NCCL does not read it) and the class the port forces on every QP, per node
 * NCCL_IB_FIFO_TC (the class of NCCL's CTS messages, NCCL 2.22 on). Nodes that differ put those packets on
 * different priorities, so one direction can be lossy while each node alone looks right. Said only where some
 * node sets the value; a tie aligns on the nodes whose chain for that class is lossless. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/qos/chain.h"
#include "core/qos/compare_qos.h"
#include "core/qos/fixes.h"

#define KEY_MAX 32

struct slot {
	const char *device;
	unsigned port;
};

/* Whether rdma_cm's packets (the port's default ToS, 0 when not set) land on a PFC priority of the port. */
static bool cm_lossless(const struct qos_port *qp)
{
	struct qos_port_input in;
	struct qos_chain c;

	if (!qp || !qp->dcb.known)
		return false;
	qos_port_input_of(qp, NULL, NULL, &in);
	in.class_from = "rdma_cm's default_roce_tos";
	in.class = qp->default_roce_tos >= 0 ? qp->default_roce_tos : 0;
	in.sl_from_tos = true;
	qos_chain_follow(&in, &c);
	return c.pfc == QOS_ON;
}

static void fix_line(const struct qos_fix *f, const struct value_group *odd, const char *nodes, const char *where,
		     char *buf, size_t size)
{
	if (f->alt[0])
		snprintf(buf, size, "on %s (%s): `%s` (or `%s`)%s", nodes, odd->value, f->cmd, f->alt, where);
	else
		snprintf(buf, size, "on %s (%s): `%s`%s", nodes, odd->value, f->cmd, where);
}

static void fix_tos(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		    const char *nodes, char *buf, size_t size)
{
	const struct slot *s = arg;
	struct qos_fix f;

	(void)c;
	qos_fix_roce_tos(s->device, s->port, atoi(want), &f);
	fix_line(&f, odd, nodes, "", buf, size);
}

static void fix_forced(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		       const char *nodes, char *buf, size_t size)
{
	const struct slot *s = arg;
	struct qos_fix f;

	(void)c;
	qos_fix_forced_tc(s->device, s->port, strcmp(want, "none") == 0 ? -1 : atoi(want), &f);
	fix_line(&f, odd, nodes, strcmp(want, "none") == 0 ? "   # no forced class: NCCL_IB_TC decides, as on the others" : "",
		 buf, size);
}

static void fix_fifo(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		     const char *nodes, char *buf, size_t size)
{
	struct qos_fix f;

	(void)c;
	(void)arg;
	qos_fix_fifo_tc(strcmp(want, "unset") == 0 ? NULL : want, &f);
	fix_line(&f, odd, nodes, " in the job's environment (and its line in nccl.conf), as on the others", buf, size);
}

/* What the ports showed: some node's port known; some set a ToS, some forced a class. */
struct seen {
	bool known, tos, forced;
};

static int compare_port(const struct compare_ctx *c, const struct slot *s, const char **keys, char (*bufs)[KEY_MAX],
			bool *lossless, struct seen *seen)
{
	struct attribute_rule tos = { "compare.roce_tos", NULL, NULL, SEVERITY_INFO, fix_tos, s, false };
	struct attribute_rule forced = { "compare.forced_tc", NULL, NULL, SEVERITY_INFO, fix_forced, s, false };
	char subject[96], what_tos[160], what_forced[160];
	bool set = false;
	int ret = 0;

	snprintf(subject, sizeof(subject), "%s/%u", s->device, s->port);
	snprintf(what_tos, sizeof(what_tos), "rdma_cm's default ToS of %s (perftest -R, rping, UCX; not NCCL)", subject);
	snprintf(what_forced, sizeof(what_forced), "traffic class %s forces (tc/%u/traffic_class)", subject, s->port);
	tos.subject = forced.subject = subject;
	tos.what = what_tos;
	forced.what = what_forced;
	for (size_t i = 0; i < c->n; i++) {
		const struct qos_port *qp = compare_qos_port(&c->nodes[i], s->device, s->port);

		keys[i] = NULL;
		if (!qp)
			continue;
		snprintf(bufs[i], KEY_MAX, "%d", qp->default_roce_tos >= 0 ? qp->default_roce_tos : 0);
		keys[i] = bufs[i];
		set |= qp->default_roce_tos >= 0;
		lossless[i] = cm_lossless(qp);
	}
	if (set)
		ret = compare_qos_keys(c, &tos, keys, lossless, true);
	seen->tos |= set;
	set = false;
	for (size_t i = 0; ret >= 0 && i < c->n; i++) {
		const struct qos_port *qp = compare_qos_port(&c->nodes[i], s->device, s->port);

		keys[i] = NULL;
		if (!qp)
			continue;
		if (qp->forced_tc >= 0)
			keys[i] = (snprintf(bufs[i], KEY_MAX, "%d", qp->forced_tc), bufs[i]);
		else
			keys[i] = "none";
		set |= qp->forced_tc >= 0;
		seen->known = true;
		lossless[i] = compare_qos_port_lossless(&c->nodes[i], qp);
	}
	if (ret >= 0 && set)
		ret = compare_qos_keys(c, &forced, keys, lossless, true);
	seen->forced |= set;
	return ret < 0 ? ret : 0;
}

/* Whether every known port of the node puts its CTS messages (NCCL_IB_FIFO_TC, else NCCL_IB_TC's class) on a PFC
 * priority, and one is known. */
static bool fifo_lossless(const struct compare_node *node, const char *fifo)
{
	size_t known = 0;

	for (size_t i = 0; node->qos && i < node->qos->count; i++) {
		const struct qos_port *qp = &node->qos->ports[i];
		struct qos_port_input in;
		struct qos_chain ch;

		if (!qp->dcb.known)
			continue;
		qos_port_input_of(qp, compare_qos_setting(node, "NCCL_IB_TC"), compare_qos_setting(node, "NCCL_IB_SL"), &in);
		if (fifo) {
			in.class_from = "NCCL_IB_FIFO_TC";
			in.class = qos_parse_class(fifo);
		}
		qos_chain_follow(&in, &ch);
		if (ch.tc < 0 || ch.pfc != QOS_ON)
			return false;
		known++;
	}
	return known > 0;
}

/* compare.fifo_tc: NCCL_IB_FIFO_TC per node, where some node sets it; a tie aligns on the nodes whose CTS messages
 * land on a PFC priority. */
static int compare_fifo(const struct compare_ctx *c, const char **keys, bool *lossless)
{
	static const struct attribute_rule rule = { "compare.fifo_tc", "NCCL_IB_FIFO_TC (the class of NCCL's CTS messages)",
						    "NCCL_IB_FIFO_TC", SEVERITY_WARN, fix_fifo, NULL, false };
	bool set = false, known = false;
	char all[32];
	int ret;

	for (size_t i = 0; i < c->n; i++) {
		const char *v = compare_qos_setting(&c->nodes[i], "NCCL_IB_FIFO_TC");

		keys[i] = c->nodes[i].nccl_known ? (v ? v : "unset") : NULL;
		known |= c->nodes[i].nccl_known;
		set |= v != NULL;
		lossless[i] = fifo_lossless(&c->nodes[i], v);
	}
	if (known && !set)
		finding_add(c->out, rule.id, SEVERITY_OK, rule.subject, NULL, "NCCL_IB_FIFO_TC is set on none of %s, where "
			    "known: NCCL's CTS messages go as its data does", compare_all_nodes(c->n, all, sizeof(all)));
	if (!set)
		return 0;
	ret = compare_qos_keys(c, &rule, keys, lossless, true);
	return ret < 0 ? ret : 0;
}

int compare_qos_classes(const struct compare_ctx *c)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char (*bufs)[KEY_MAX] = calloc(c->n ? c->n : 1, sizeof(*bufs));
	bool *lossless = calloc(c->n ? c->n : 1, sizeof(*lossless));
	const struct host *ref = NULL;
	struct seen seen = { false, false, false };
	char all[32];
	int ret = -ENOMEM;

	if (!keys || !bufs || !lossless)
		goto out;
	ret = compare_reference_host(c, &ref);
	for (size_t d = 0; ret == 0 && ref && d < ref->device_count; d++)
		for (size_t p = 0; ret == 0 && p < ref->devices[d].port_count; p++) {
			struct slot s = { ref->devices[d].name, ref->devices[d].ports[p].num };

			ret = compare_port(c, &s, keys, bufs, lossless, &seen);
		}
	/* nothing set anywhere is agreement too, said once */
	if (ret == 0 && seen.known && !seen.tos)
		finding_add(c->out, "compare.roce_tos", SEVERITY_OK, "ports", NULL, "no RoCE port of %s sets rdma_cm's "
			    "default ToS, where known: rdma_cm's users send 0 everywhere", compare_all_nodes(c->n, all, sizeof(all)));
	if (ret == 0 && seen.known && !seen.forced)
		finding_add(c->out, "compare.forced_tc", SEVERITY_OK, "ports", NULL, "no RoCE port of %s forces a traffic "
			    "class, where known", compare_all_nodes(c->n, all, sizeof(all)));
	if (ret == 0)
		ret = compare_fifo(c, keys, lossless);
out:
	free(keys);
	free(bufs);
	free(lossless);
	return ret;
}
