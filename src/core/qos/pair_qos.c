// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain across one rail. A packet is marked by its sender (the traffic class, so the DSCP) and
 * classified by the receiver's NIC (trust mode, DSCP map), which pauses the link only for its own PFC
 * priorities: both ends must agree, or one direction is lossy while each node alone looks fine. The fix goes to
 * the node whose own chain is not lossless, aligning it on the one that is. */
#include "core/qos/pair_qos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/qos/chain.h"
#include "core/qos/fixes.h"
#include "util/text_append.h"

#define CLASS_UNKNOWN (-2)

struct end {
	const struct pair_side *side;
	char node;                    /* 'a' or 'b' */
	char name[96];                /* "b (node-b)" */
	const struct qos_port *qp;    /* NULL: not in the model */
	const char *tc, *sl;          /* the job's NCCL_IB_TC and NCCL_IB_SL on this node, NULL unset */
	int cls;                      /* the class its packets carry; -1 not a class, CLASS_UNKNOWN */
	bool lossless;                /* its own chain ends on a PFC priority */
	char chain[320];
};

static const struct qos_port *find_port(const struct check_input *in, const struct pair_port *p)
{
	for (size_t i = 0; p->present && in->qos && i < in->qos->count; i++)
		if (in->qos->ports[i].port == p->end.port && strcmp(in->qos->ports[i].device, p->end.device) == 0)
			return &in->qos->ports[i];
	return NULL;
}

static const char *setting(const struct check_input *in, const char *name)
{
	const struct nccl_setting *s = in->nccl ? nccl_conf_get(in->nccl, name) : NULL;

	return s ? s->value : NULL;
}

static void end_init(struct end *e, const struct pair_side *side, char node, const struct pair_port *p)
{
	struct qos_port_input in;
	struct qos_chain c;

	memset(e, 0, sizeof(*e));
	e->side = side;
	e->node = node;
	pair_node_name(side, e->name, sizeof(e->name));
	e->qp = find_port(side->in, p);
	e->tc = setting(side->in, "NCCL_IB_TC");
	e->sl = setting(side->in, "NCCL_IB_SL");
	if (e->qp && e->qp->forced_tc >= 0)
		e->cls = e->qp->forced_tc;
	else if (!side->in->nccl)
		e->cls = CLASS_UNKNOWN;
	else
		e->cls = e->tc ? qos_parse_class(e->tc) : 0;
	snprintf(e->chain, sizeof(e->chain), "its DCB settings unknown");
	if (!e->qp || !e->qp->dcb.known)
		return;
	qos_port_input_of(e->qp, e->tc, e->sl, &in);
	qos_chain_follow(&in, &c);
	qos_chain_describe(&in, &c, e->chain, sizeof(e->chain));
	e->lossless = c.pfc == QOS_ON;
}

/* The packets from one end as the other's NIC classifies them: the sender's class, the receiver's settings. */
static bool lands_lossless(const struct end *from, const struct end *to)
{
	struct qos_port_input in;
	struct qos_chain c;

	if (!to->qp || !to->qp->dcb.known || !from->qp)
		return false;
	qos_port_input_of(to->qp, from->tc, from->sl, &in);
	in.forced_tc = from->qp->forced_tc;
	qos_chain_follow(&in, &c);
	return c.pfc == QOS_ON;
}

/* The verdict on one difference: who aligns on whom, and how bad it is. */
struct judged {
	const struct end *fix, *keep;  /* fix aligns on keep */
	enum severity severity;
	char why[900];
};

static void judge(const struct end *a, const struct end *b, struct judged *j)
{
	bool both_ways = lands_lossless(a, b) && lands_lossless(b, a);

	j->fix = b;
	j->keep = a;
	if (b->lossless && !a->lossless)
		j->fix = a, j->keep = b;
	j->severity = both_ways ? SEVERITY_INFO : SEVERITY_WARN;
	j->why[0] = '\0';   /* text_append: a chain cut short is still said, never overrun */
	if (both_ways)
		text_append(j->why, sizeof(j->why), "NCCL's packets still land on a PFC priority both ways");
	else if (j->keep->lossless && !j->fix->lossless)
		text_append(j->why, sizeof(j->why), "%s's chain is lossless (%s), %s's is not (%s): packets between them "
			 "are lossy in at least one direction, so %s aligns on %s", j->keep->name, j->keep->chain,
			 j->fix->name, j->fix->chain, j->fix->name, j->keep->name);
	else if (a->lossless)
		text_append(j->why, sizeof(j->why), "each node's own chain is lossless, but the packets of one land on a "
			 "priority without PFC at the other: %s aligns on %s", b->name, a->name);
	else
		text_append(j->why, sizeof(j->why), "neither node's own chain is lossless (%s: %s; %s: %s): %s aligns on %s "
			 "here, and `roce-doctor check --only qos.lossless` on each says how to make it lossless", a->name,
			 a->chain, b->name, b->chain, b->name, a->name);
}

static void add(struct pair_findings *out, const char *id, const char *subject, const struct judged *j,
		const struct qos_fix *f, const char *what)
{
	char fix[1024];

	if (f->alt[0])
		snprintf(fix, sizeof(fix), "%s   # on %s\n%s   # or the same with the other tool, on %s", f->cmd,
			 j->fix->name, f->alt, j->fix->name);
	else
		snprintf(fix, sizeof(fix), "%s   # on %s", f->cmd, j->fix->name);
	pair_add(out, j->fix->node, id, j->severity, subject, fix, "%s; %s", what, j->why);
}

static bool dcb_known(const struct end *e)
{
	return e->qp && e->qp->dcb.known;
}

static void check_pfc(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	char la[32], lb[32], what[256];
	struct judged j;
	struct qos_fix f;

	if (!dcb_known(a) || !dcb_known(b) || !a->qp->dcb.pfc_known || !b->qp->dcb.pfc_known)
		return;
	qos_pfc_list(a->qp->dcb.pfc_enabled, la, sizeof(la));
	qos_pfc_list(b->qp->dcb.pfc_enabled, lb, sizeof(lb));
	if (a->qp->dcb.pfc_enabled == b->qp->dcb.pfc_enabled) {
		pair_add(out, 0, "pair.pfc", SEVERITY_OK, subject, NULL, "PFC on %s on both ends", la);
		return;
	}
	judge(a, b, &j);
	qos_fix_pfc(j.fix->qp->netdev, j.fix->qp->dcb.pfc_enabled, j.keep->qp->dcb.pfc_enabled, &f);
	what[0] = '\0';
	text_append(what, sizeof(what), "PFC is on %s on %s's %s, on %s on %s's %s", la, a->name, a->qp->netdev, lb, b->name,
		 b->qp->netdev);
	add(out, "pair.pfc", subject, &j, &f, what);
}

static void check_trust(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	char what[256];
	struct judged j;
	struct qos_fix f;
	int prio;

	if (!dcb_known(a) || !dcb_known(b) || !a->qp->dcb.trust_known || !b->qp->dcb.trust_known ||
	    a->qp->dcb.trust == QOS_TRUST_UNKNOWN || b->qp->dcb.trust == QOS_TRUST_UNKNOWN)
		return;
	if (a->qp->dcb.trust == b->qp->dcb.trust) {
		pair_add(out, 0, "pair.trust", SEVERITY_OK, subject, NULL, "trust %s on both ends",
			 qos_trust_name(a->qp->dcb.trust));
		return;
	}
	judge(a, b, &j);
	prio = qos_lossless_priority(&j.keep->qp->dcb);
	qos_fix_trust(j.fix->qp->netdev, j.keep->qp->dcb.trust, prio >= 0 ? (unsigned)prio : 3, &f);
	what[0] = '\0';
	text_append(what, sizeof(what), "%s's %s trusts %s, %s's %s trusts %s", a->name, a->qp->netdev,
		 qos_trust_name(a->qp->dcb.trust), b->name, b->qp->netdev, qos_trust_name(b->qp->dcb.trust));
	add(out, "pair.trust", subject, &j, &f, what);
}

/* Under trust dscp on both ends: the priority the DSCP the packets carry lands on, at each end. */
static void check_dscp(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	unsigned dscp, pa, pb;
	char what[256];
	struct judged j;
	struct qos_fix f;
	const struct end *sender;

	if (!dcb_known(a) || !dcb_known(b) || a->qp->dcb.trust != QOS_TRUST_DSCP || b->qp->dcb.trust != QOS_TRUST_DSCP)
		return;
	/* the DSCP of the lossless side's packets (else a's): the one the map has to agree on */
	sender = b->lossless && !a->lossless ? b : a;
	if (sender->cls < 0)
		sender = sender == a ? b : a;
	if (sender->cls < 0)
		return;
	dscp = (unsigned)sender->cls >> 2;
	pa = qos_dscp_lands_on(&a->qp->dcb, dscp);
	pb = qos_dscp_lands_on(&b->qp->dcb, dscp);
	if (pa == pb) {
		pair_add(out, 0, "pair.dscp_map", SEVERITY_OK, subject, NULL, "DSCP %u lands on priority %u on both ends",
			 dscp, pa);
		return;
	}
	judge(a, b, &j);
	qos_fix_dscp(j.fix->qp->netdev, dscp, j.fix == b ? pa : pb, &f);
	what[0] = '\0';
	text_append(what, sizeof(what), "DSCP %u (traffic class %d) lands on priority %u on %s's %s, on %u on %s's %s", dscp,
		 sender->cls, pa, a->name, a->qp->netdev, pb, b->name, b->qp->netdev);
	add(out, "pair.dscp_map", subject, &j, &f, what);
}

/* "106 (NCCL_IB_TC)", "0 (NCCL_IB_TC unset)", "106 (forced by the port)", "none (NCCL_IB_TC=x)". */
static void class_text(const struct end *e, char *buf, size_t size)
{
	if (e->qp && e->qp->forced_tc >= 0)
		snprintf(buf, size, "%d (forced by the port)", e->cls);
	else if (e->cls < 0)
		snprintf(buf, size, "none (NCCL_IB_TC=%.40s is not a class)", e->tc ? e->tc : "");
	else
		snprintf(buf, size, "%d (NCCL_IB_TC%s)", e->cls, e->tc ? "" : " unset");
}

static void check_class(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	char what[512], ca[96], cb[96];
	struct judged j;
	struct qos_fix f;
	int want;

	if (!dcb_known(a) && !dcb_known(b))
		return;   /* nothing to say about classes where no end's classification is known */
	if (a->cls == CLASS_UNKNOWN || b->cls == CLASS_UNKNOWN)
		return;
	if (a->cls == b->cls) {
		pair_add(out, 0, "pair.traffic_class", SEVERITY_OK, subject, NULL,
			 "NCCL's packets carry traffic class %d from both ends", a->cls);
		return;
	}
	judge(a, b, &j);
	want = j.keep->cls;
	if (want < 0) {
		/* the side kept has no valid class: NCCL_IB_TC there is the thing to fix */
		const struct end *t = j.fix;

		j.fix = j.keep;
		j.keep = t;
		want = j.keep->cls;
	}
	if (j.fix->qp && j.fix->qp->forced_tc >= 0)
		qos_fix_class(j.fix->qp->device, j.fix->qp->port, j.fix->qp->forced_tc, want, &f);
	else if (want == 0)
		snprintf(f.cmd, sizeof(f.cmd), "unset NCCL_IB_TC"), f.alt[0] = '\0';
	else
		qos_fix_class(NULL, 0, -1, want, &f);
	class_text(a, ca, sizeof(ca));
	class_text(b, cb, sizeof(cb));
	what[0] = '\0';
	text_append(what, sizeof(what), "NCCL's packets carry traffic class %s from %s, %s from %s", ca, a->name, cb,
		 b->name);
	add(out, "pair.traffic_class", subject, &j, &f, what);
}

/* rdma_cm's default ToS of an end (0 when not set), and whether its packets land on a PFC priority there. */
static int end_tos(const struct end *e)
{
	return e->qp->default_roce_tos >= 0 ? e->qp->default_roce_tos : 0;
}

static bool cm_lossless(const struct end *e)
{
	struct qos_port_input in;
	struct qos_chain c;

	if (!dcb_known(e))
		return false;
	qos_port_input_of(e->qp, NULL, NULL, &in);
	in.class_from = "rdma_cm's default_roce_tos";
	in.class = end_tos(e);
	in.sl_from_tos = true;
	qos_chain_follow(&in, &c);
	return c.pfc == QOS_ON;
}

/* rdma_cm's users (perftest -R, rping, UCX or MPI over rdma_cm) send the port's default ToS; NCCL does not. Two
 * ends that differ put that traffic on different priorities: the fix goes to the end whose ToS lands on no PFC
 * priority while the other's does (warn), else to b (info). */
static void check_roce_tos(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	struct judged j;
	struct qos_fix f;
	char what[256];
	bool la, lb;

	if (!a->qp || !b->qp || (a->qp->default_roce_tos < 0 && b->qp->default_roce_tos < 0))
		return;
	if (end_tos(a) == end_tos(b)) {
		pair_add(out, 0, "pair.roce_tos", SEVERITY_OK, subject, NULL, "rdma_cm's default ToS is %d on both ends",
			 end_tos(a));
		return;
	}
	la = cm_lossless(a);
	lb = cm_lossless(b);
	j.fix = la && !lb ? b : lb && !la ? a : b;
	j.keep = j.fix == a ? b : a;
	j.severity = la != lb ? SEVERITY_WARN : SEVERITY_INFO;
	j.why[0] = '\0';
	if (la != lb)
		text_append(j.why, sizeof(j.why), "%s's lands on a PFC priority, %s's does not: rdma_cm's traffic between "
			    "them is lossy in at least one direction, so %s aligns on %s", j.keep->name, j.fix->name,
			    j.fix->name, j.keep->name);
	else
		text_append(j.why, sizeof(j.why), "%s aligns on %s (NCCL sets its own class from NCCL_IB_TC)", j.fix->name,
			    j.keep->name);
	qos_fix_roce_tos(j.fix->qp->device, j.fix->qp->port, end_tos(j.keep), &f);
	what[0] = '\0';
	text_append(what, sizeof(what), "rdma_cm's default ToS (perftest -R, rping, UCX) is %d on %s's %s/%u, %d on %s's "
		    "%s/%u", end_tos(a), a->name, a->qp->device, a->qp->port, end_tos(b), b->name, b->qp->device,
		    b->qp->port);
	add(out, "pair.roce_tos", subject, &j, &f, what);
}

/* The class a port forces on every QP (tc/N/traffic_class), at both ends. */
static void check_forced_tc(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	char what[256], fa[16], fb[16];
	struct judged j;
	struct qos_fix f;

	if (!a->qp || !b->qp || (a->qp->forced_tc < 0 && b->qp->forced_tc < 0))
		return;
	if (a->qp->forced_tc == b->qp->forced_tc) {
		pair_add(out, 0, "pair.forced_tc", SEVERITY_OK, subject, NULL, "both ends force traffic class %d",
			 a->qp->forced_tc);
		return;
	}
	judge(a, b, &j);
	qos_fix_forced_tc(j.fix->qp->device, j.fix->qp->port, j.keep->qp->forced_tc, &f);
	snprintf(fa, sizeof(fa), a->qp->forced_tc >= 0 ? "%d" : "none", a->qp->forced_tc);
	snprintf(fb, sizeof(fb), b->qp->forced_tc >= 0 ? "%d" : "none", b->qp->forced_tc);
	what[0] = '\0';
	text_append(what, sizeof(what), "the forced traffic class (tc/N/traffic_class) is %s on %s's %s/%u, %s on %s's "
		    "%s/%u", fa, a->name, a->qp->device, a->qp->port, fb, b->name, b->qp->device, b->qp->port);
	add(out, "pair.forced_tc", subject, &j, &f, what);
}

/* Whether an end's CTS messages (NCCL_IB_FIFO_TC, else NCCL_IB_TC's class) land on a PFC priority. */
static bool fifo_lossless(const struct end *e, const char *fifo)
{
	struct qos_port_input in;
	struct qos_chain c;

	if (!dcb_known(e))
		return false;
	qos_port_input_of(e->qp, e->tc, e->sl, &in);
	if (fifo) {
		in.class_from = "NCCL_IB_FIFO_TC";
		in.class = qos_parse_class(fifo);
	}
	qos_chain_follow(&in, &c);
	return c.tc >= 0 && c.pfc == QOS_ON;
}

/* NCCL_IB_FIFO_TC (NCCL 2.22 on: the class of its CTS messages) on both nodes. */
static void check_fifo_tc(const struct end *a, const struct end *b, const char *subject, struct pair_findings *out)
{
	const char *va = setting(a->side->in, "NCCL_IB_FIFO_TC"), *vb = setting(b->side->in, "NCCL_IB_FIFO_TC");
	char what[256];
	struct judged j;
	struct qos_fix f;

	if (!a->side->in->nccl || !b->side->in->nccl || (!va && !vb) || (!dcb_known(a) && !dcb_known(b)))
		return;
	if (va && vb && strcmp(va, vb) == 0) {
		pair_add(out, 0, "pair.fifo_tc", SEVERITY_OK, subject, NULL, "NCCL_IB_FIFO_TC=%.40s on both nodes", va);
		return;
	}
	judge(a, b, &j);
	/* the end whose CTS messages land on a PFC priority is the one to align on, whatever the data does */
	if (fifo_lossless(a, va) != fifo_lossless(b, vb)) {
		j.fix = fifo_lossless(a, va) ? b : a;
		j.keep = j.fix == a ? b : a;
		j.severity = SEVERITY_WARN;
		j.why[0] = '\0';
		text_append(j.why, sizeof(j.why), "%s's CTS messages land on a PFC priority, %s's do not: a dropped CTS "
			    "stalls the transfer behind it, so %s aligns on %s", j.keep->name, j.fix->name, j.fix->name,
			    j.keep->name);
	}
	qos_fix_fifo_tc(j.fix == a ? vb : va, &f);
	what[0] = '\0';
	text_append(what, sizeof(what), "NCCL_IB_FIFO_TC (the class of NCCL's CTS messages) is %.40s on %s, %.40s on %s",
		    va ? va : "unset", a->name, vb ? vb : "unset", b->name);
	add(out, "pair.fifo_tc", subject, &j, &f, what);
}

void pair_qos_check(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		    struct pair_findings *out)
{
	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_rail *r = &rails->items[i];
		struct end ea, eb;
		char subject[160];

		if (r->link == RAIL_LINK_MISSING)
			continue;
		end_init(&ea, a, 'a', &r->a);
		end_init(&eb, b, 'b', &r->b);
		snprintf(subject, sizeof(subject), "%s/%u<->%s/%u", r->a.end.device, r->a.end.port, r->b.end.device,
			 r->b.end.port);
		check_pfc(&ea, &eb, subject, out);
		check_trust(&ea, &eb, subject, out);
		check_dscp(&ea, &eb, subject, out);
		check_class(&ea, &eb, subject, out);
		check_roce_tos(&ea, &eb, subject, out);
		check_forced_tc(&ea, &eb, subject, out);
		check_fifo_tc(&ea, &eb, subject, out);
	}
}
