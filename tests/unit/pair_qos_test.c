// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's lossless rules on hand-built pairs (pair_world.h) with each port's DCB settings: the node
 * whose own chain is not lossless carries the fix; a difference that still lands on PFC both ways is info;
 * neither lossless aligns b on a; nothing is said where no DCB setting is known. */
#include <stdlib.h>

#include "core/qos/pair_qos.h"
#include "pair_world.h"
#include "tap.h"

static struct world_node a, b;
static struct pair_rails rails;
static struct pair_findings out;
static struct qos_port qports[2][WORLD_PORTS];
static struct qos_host qos[2];
static struct nccl_setting tc[2];
static struct nccl_conf conf[2];

/* Both nodes: trust dscp, the default DSCP map (26 lands on 3), PFC on 3; NCCL_IB_TC=tc_value (NULL unset). */
static void setup(const char *tc_value)
{
	struct world_node *w[2] = { &a, &b };

	world_pair(&a, &b);
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < WORLD_PORTS; i++) {
			struct qos_port *p = &qports[s][i];

			memset(p, 0, sizeof(*p));
			snprintf(p->device, sizeof(p->device), "mlx5_%zu", i);
			snprintf(p->netdev, sizeof(p->netdev), "ens19f%zunp%zu", i, i);
			p->port = 1;
			p->forced_tc = p->default_roce_tos = -1;
			p->dcb = (struct qos_dcb){ .known = true, .pfc_known = true, .pfc_enabled = 1 << 3,
						   .trust_known = true, .trust = QOS_TRUST_DSCP };
			for (unsigned k = 0; k < QOS_PRIOS; k++)
				p->ecn[k] = QOS_UNKNOWN;
		}
		qos[s] = (struct qos_host){ qports[s], WORLD_PORTS };
		w[s]->in.qos = &qos[s];
		memset(&tc[s], 0, sizeof(tc[s]));
		snprintf(tc[s].name, sizeof(tc[s].name), "NCCL_IB_TC");
		snprintf(tc[s].value, sizeof(tc[s].value), "%s", tc_value ? tc_value : "");
		snprintf(tc[s].source, sizeof(tc[s].source), "environment");
		tc[s].effective = true;
		conf[s] = (struct nccl_conf){ .items = &tc[s], .count = tc_value ? 1 : 0 };
		w[s]->in.nccl = &conf[s];
	}
}

static void run(void)
{
	findings_free(&out.list);
	memset(&out, 0, sizeof(out));
	CHECK(pair_rails_build(&a.side, &b.side, AF_INET, &rails) == 0);
	pair_qos_check(&a.side, &b.side, &rails, &out);
}

/* The first finding of id that is not ok. */
static const struct finding *first(const char *id)
{
	for (size_t i = 0; i < out.list.count; i++)
		if (strcmp(out.list.items[i].id, id) == 0 && out.list.items[i].severity > SEVERITY_OK)
			return &out.list.items[i];
	return NULL;
}

static bool fix_starts(const struct finding *f, const char *prefix)
{
	if (f && f->fix && strncmp(f->fix, prefix, strlen(prefix)) == 0)
		return true;
	printf("# fix %s does not start with %s\n", f && f->fix ? f->fix : "(none)", prefix);
	return false;
}

static size_t worse_than_ok(void)
{
	size_t n = 0;

	for (size_t i = 0; i < out.list.count; i++)
		n += out.list.items[i].severity > SEVERITY_OK;
	return n;
}

static void the_same_chain_is_ok_on_every_rail(void)
{
	setup("106");
	run();
	CHECK(out.list.count == 8 && worse_than_ok() == 0);
	CHECK(world_count(&out, "pair.pfc", SEVERITY_OK, 0) == 2 && world_count(&out, "pair.traffic_class", SEVERITY_OK, 0) == 2);
}

static void the_node_that_is_not_lossless_carries_the_fix(void)
{
	const struct finding *f;

	setup("106");
	qports[1][0].dcb.pfc_enabled = 1 << 4;
	run();
	CHECK(world_count(&out, "pair.pfc", SEVERITY_WARN, 'b') == 1 && worse_than_ok() == 1);
	f = first("pair.pfc");
	CHECK(fix_starts(f, "dcb pfc set dev ens19f0np0 prio-pfc 3:on 4:off   # on b (node-b)\n"
				     "mlnx_qos -i ens19f0np0 --pfc 0,0,0,1,0,0,0,0"));
	/* the lossless side is a even where its value is the larger: a on 4 with NCCL_IB_TC=130 (DSCP 32) */
	setup("130");
	qports[0][1].dcb.pfc_enabled = 1 << 4;
	qports[1][1].dcb.pfc_enabled = 1 << 3;
	run();
	CHECK(world_count(&out, "pair.pfc", SEVERITY_WARN, 'b') == 1);
	f = first("pair.pfc");
	CHECK(fix_starts(f, "dcb pfc set dev ens19f1np1 prio-pfc 3:off 4:on   # on b"));
	/* and a, when a is the one that is not lossless */
	setup("106");
	qports[0][0].dcb.pfc_enabled = 1 << 4;
	run();
	CHECK(world_count(&out, "pair.pfc", SEVERITY_WARN, 'a') == 1 && world_count(&out, "pair.pfc", -1, 'b') == 0);
}

static void lossless_both_ways_anyway_is_info(void)
{
	setup("106");
	qports[1][0].dcb.pfc_enabled = 1 << 3 | 1 << 4;
	run();
	CHECK(world_count(&out, "pair.pfc", SEVERITY_INFO, 'b') == 1 && worse_than_ok() == 1);
}

static void neither_lossless_aligns_b_on_a(void)
{
	const struct finding *f;

	setup(NULL);   /* NCCL_IB_TC unset: DSCP 0, priority 0, no PFC on either node */
	qports[1][0].dcb.pfc_enabled = 1 << 4;
	run();
	CHECK(world_count(&out, "pair.pfc", SEVERITY_WARN, 'b') == 1);
	f = first("pair.pfc");
	CHECK(f && strstr(f->message, "neither node's own chain is lossless"));
}

static void dscp_map_and_trust_and_class(void)
{
	const struct finding *f;

	setup("106");
	qports[1][0].dcb.app_known = true;
	qports[1][0].dcb.dscp_mapped = UINT64_C(1) << 26;
	qports[1][0].dcb.dscp_prio[26] = 5;
	qports[1][1].dcb.trust = QOS_TRUST_PCP;
	run();
	CHECK(world_count(&out, "pair.dscp_map", SEVERITY_WARN, 'b') == 1);
	f = first("pair.dscp_map");
	CHECK(fix_starts(f, "dcb app replace dev ens19f0np0 dscp-prio 26:3   # on b"));
	CHECK(world_count(&out, "pair.trust", SEVERITY_WARN, 'b') == 1);
	setup("106");
	conf[1].count = 0;   /* b: NCCL_IB_TC unset */
	run();
	CHECK(world_count(&out, "pair.traffic_class", SEVERITY_WARN, 'b') == 2);
	f = first("pair.traffic_class");
	CHECK(fix_starts(f, "export NCCL_IB_TC=106   # on b"));
}

static void nothing_without_dcb_settings(void)
{
	setup("106");
	for (size_t i = 0; i < WORLD_PORTS; i++)
		qports[0][i].dcb.known = qports[1][i].dcb.known = false;
	run();
	CHECK(out.list.count == 0);
	a.in.qos = b.in.qos = NULL;
	run();
	CHECK(out.list.count == 0);
}

/* rdma_cm's default ToS: set on a only, 106 lands on lossless 3 there while b's 0 lands on lossy 0: warn on b with
 * cma_roce_tos; the same on both: ok. */
static void roce_tos_differs_fix_on_the_lossy_end(void)
{
	const struct finding *f;

	setup("106");
	for (size_t i = 0; i < WORLD_PORTS; i++)
		qports[0][i].default_roce_tos = 106;
	run();
	CHECK(world_count(&out, "pair.roce_tos", SEVERITY_WARN, 'b') == 2);
	f = first("pair.roce_tos");
	CHECK(fix_starts(f, "cma_roce_tos -d mlx5_0 -p 1 -t 106   # on b (node-b)\nmkdir -p /sys/kernel/config/rdma_cm/mlx5_0"));
	CHECK(f && strstr(f->message, "rdma_cm's default ToS (perftest -R, rping, UCX) is 106 on a (node-a)'s mlx5_0/1, 0 on b"));
	for (size_t i = 0; i < WORLD_PORTS; i++)
		qports[1][i].default_roce_tos = 106;
	run();
	CHECK(world_count(&out, "pair.roce_tos", SEVERITY_OK, 0) == 2 && !first("pair.roce_tos"));
}

/* A class forced on one end only: both still land on 3 (106 either way): info, b aligns on a. */
static void forced_class_differs(void)
{
	const struct finding *f;

	setup("106");
	qports[1][0].forced_tc = 96;
	run();
	f = first("pair.forced_tc");
	CHECK(world_count(&out, "pair.forced_tc", SEVERITY_INFO, 'b') == 1 && f);
	CHECK(fix_starts(f, "echo -1 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class   # on b (node-b)"));
	CHECK(f && strstr(f->message, "the forced traffic class (tc/N/traffic_class) is none on a (node-a)'s mlx5_0/1, 96 on"));
	/* forced to 0 on b: its packets ride lossy 0, so b aligns on a's none... and the other way round */
	qports[1][0].forced_tc = -1;
	qports[0][0].forced_tc = 0;
	run();
	f = first("pair.forced_tc");
	CHECK(world_count(&out, "pair.forced_tc", SEVERITY_WARN, 'a') == 1 &&
	      fix_starts(f, "echo -1 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class   # on a (node-a)"));
}

static struct nccl_setting two[2][2];

/* NCCL_IB_FIFO_TC=0 on a only: a's CTS messages ride lossy priority 0, b's go with its data on 3: warn on a, per
 * rail, unset it there. */
static void fifo_tc_differs(void)
{
	const struct finding *f;

	setup("106");
	for (int s = 0; s < 2; s++) {
		two[s][0] = tc[s];
		memset(&two[s][1], 0, sizeof(two[s][1]));
		snprintf(two[s][1].name, sizeof(two[s][1].name), "NCCL_IB_FIFO_TC");
		snprintf(two[s][1].value, sizeof(two[s][1].value), "%s", s == 0 ? "0" : "");
		snprintf(two[s][1].source, sizeof(two[s][1].source), "environment");
		two[s][1].effective = true;
		conf[s] = (struct nccl_conf){ .items = two[s], .count = s == 0 ? 2 : 1 };
	}
	run();
	f = first("pair.fifo_tc");
	CHECK(world_count(&out, "pair.fifo_tc", SEVERITY_WARN, 'a') == 2);
	CHECK(f && strstr(f->message, "NCCL_IB_FIFO_TC (the class of NCCL's CTS messages) is 0 on a (node-a), unset on b"));
	CHECK(f && strstr(f->message, "b (node-b)'s CTS messages land on a PFC priority, a (node-a)'s do not"));
	CHECK(fix_starts(f, "unset NCCL_IB_FIFO_TC   # on a (node-a)"));
}

int main(void)
{
	RUN(the_same_chain_is_ok_on_every_rail);
	RUN(the_node_that_is_not_lossless_carries_the_fix);
	RUN(lossless_both_ways_anyway_is_info);
	RUN(neither_lossless_aligns_b_on_a);
	RUN(dscp_map_and_trust_and_class);
	RUN(nothing_without_dcb_settings);
	RUN(roce_tos_differs_fix_on_the_lossy_end);
	RUN(forced_class_differs);
	RUN(fifo_tc_differs);
	findings_free(&out.list);
	TAP_DONE();
}
