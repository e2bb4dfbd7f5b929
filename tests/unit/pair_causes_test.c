// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's findings grouped by cause, on hand-made lists as the rules write them: b's MTU of 1500 seen by
 * eight rules is one cause led by its worst finding; the same command on the other node, a different command,
 * ok findings and compare's summaries of another id stay apart; compare's lines are told apart by node name. */
#include <stdlib.h>
#include <string.h>

#include "core/pair_causes.h"
#include "tap.h"

static struct findings own_a, own_b, cmp, pair;
static char pair_node[FINDINGS_MAX];
static struct pair_causes causes;

static void reset(void)
{
	findings_free(&own_a);
	findings_free(&own_b);
	findings_free(&cmp);
	findings_free(&pair);
	memset(pair_node, 0, sizeof(pair_node));
}

static void add_pair(char node, const char *id, enum severity s, const char *fix)
{
	pair_node[pair.count] = node;
	finding_add(&pair, id, s, "mlx5_1/1<->mlx5_1/1", fix, "%s", id);
}

static void group(const char *host_a, const char *host_b)
{
	pair_causes_group(&(const struct pair_causes_input){ .list = { &own_a, &own_b, &cmp, &pair },
							     .pair_node = pair_node, .hostname = { host_a, host_b } },
			  &causes);
}

static bool covered_by(enum pair_list l, size_t i, enum pair_list by, size_t by_index)
{
	return causes.by[l][i].list == by && causes.by[l][i].index == by_index;
}

static bool shown(enum pair_list l, size_t i)
{
	return causes.by[l][i].list == PAIR_LISTS;
}

/* tests/cli/pair_fixtures.py's b-mtu-1500, as the rules word it */
static void mtu_world(void)
{
	reset();
	finding_add(&own_a, "gid.env", SEVERITY_INFO, "NCCL_IB_GID_INDEX", "export NCCL_IB_GID_INDEX=5", "unset");
	finding_add(&own_b, "port.active_mtu", SEVERITY_WARN, "mlx5_1/1", "ip link set ens19f1np1 mtu 9000   # the "
		    "RoCE MTU follows the netdev MTU", "1024");
	finding_add(&own_b, "netdev.mtu", SEVERITY_WARN, "ens19f1np1", "ip link set ens19f1np1 mtu 9000\nnmcli "
		    "connection modify ens19f1np1 802-3-ethernet.mtu 9000", "1500");
	finding_add(&own_b, "gid.env", SEVERITY_INFO, "NCCL_IB_GID_INDEX", "export NCCL_IB_GID_INDEX=5", "unset");
	finding_add(&cmp, "compare.mtu", SEVERITY_WARN, "mlx5_1/1", "to align on 9000:\n     on node-b (MTU 1500): "
		    "`ip link set dev ens19f1np1 mtu 9000`, and the same MTU in the node's network configuration", "mtu");
	finding_add(&cmp, "compare.active_mtu", SEVERITY_WARN, "mlx5_1/1", "to align on 4096:\n     on node-b "
		    "(active MTU 1024): the active MTU follows the netdev's; `ip link set dev ens19f1np1 mtu 9000` as on "
		    "the others", "active");
	finding_add(&cmp, "compare.check_summary", SEVERITY_WARN, "netdev.mtu", "on node-b: `roce-doctor check "
		    "--only netdev.mtu` and apply the fix it prints", "summary");
	finding_add(&cmp, "compare.check_summary", SEVERITY_WARN, "port.active_mtu", "on node-b: `roce-doctor check "
		    "--only port.active_mtu` and apply the fix it prints", "summary");
	finding_add(&cmp, "compare.kernel", SEVERITY_INFO, "kernel", NULL, "unknown");
	add_pair(0, "pair.rail", SEVERITY_OK, NULL);
	add_pair('b', "pair.mtu", SEVERITY_WARN, "ip link set dev ens19f1np1 mtu 9000   # on b (node-b)\n# to keep it: "
		 "nmcli connection modify ens19f1np1 802-3-ethernet.mtu 9000");
	add_pair('b', "pair.rdma", SEVERITY_FAIL, "ip link set dev ens19f1np1 mtu 9000   # on b (node-b)");
	add_pair(0, "pair.rdma", SEVERITY_OK, NULL);
}

static void b_mtu_1500_is_one_cause_led_by_the_failed_rail(void)
{
	mtu_world();
	group("node-a", "node-b");
	/* pair.rdma [b], the worst, stands for the seven others */
	CHECK(shown(PAIR_LIST_PAIR, 2));
	CHECK(covered_by(PAIR_LIST_B, 0, PAIR_LIST_PAIR, 2));          /* port.active_mtu */
	CHECK(covered_by(PAIR_LIST_B, 1, PAIR_LIST_PAIR, 2));          /* netdev.mtu */
	CHECK(covered_by(PAIR_LIST_COMPARE, 0, PAIR_LIST_PAIR, 2));    /* compare.mtu */
	CHECK(covered_by(PAIR_LIST_COMPARE, 1, PAIR_LIST_PAIR, 2));    /* compare.active_mtu */
	CHECK(covered_by(PAIR_LIST_COMPARE, 2, PAIR_LIST_PAIR, 2));    /* check_summary of netdev.mtu */
	CHECK(covered_by(PAIR_LIST_COMPARE, 3, PAIR_LIST_PAIR, 2));    /* check_summary of port.active_mtu */
	CHECK(covered_by(PAIR_LIST_PAIR, 1, PAIR_LIST_PAIR, 2));       /* pair.mtu */
	/* other causes, ok findings and findings without a fix stay */
	CHECK(shown(PAIR_LIST_A, 0) && shown(PAIR_LIST_B, 2) && shown(PAIR_LIST_COMPARE, 4));
	CHECK(shown(PAIR_LIST_PAIR, 0) && shown(PAIR_LIST_PAIR, 3));
}

static void without_the_failed_probe_the_pair_finding_leads_at_warn(void)
{
	mtu_world();
	free(pair.items[--pair.count].message);         /* no probes: pair.rdma ok gone */
	pair.items[2].severity = SEVERITY_OK;           /* the rail passed */
	group("node-a", "node-b");
	CHECK(shown(PAIR_LIST_PAIR, 1));                /* pair.mtu [b]: the pair's own finding of b, among warns */
	CHECK(covered_by(PAIR_LIST_B, 1, PAIR_LIST_PAIR, 1) && covered_by(PAIR_LIST_COMPARE, 0, PAIR_LIST_PAIR, 1));
	CHECK(shown(PAIR_LIST_PAIR, 2));
}

static void the_same_command_on_the_other_node_is_another_cause(void)
{
	mtu_world();
	free(own_a.items[0].fix);
	own_a.items[0].fix = strdup("ip link set ens19f1np1 mtu 9000");
	own_a.items[0].severity = SEVERITY_WARN;
	group("node-a", "node-b");
	CHECK(shown(PAIR_LIST_A, 0));
	/* compare's line names node-b: it goes with b's, not a's */
	CHECK(covered_by(PAIR_LIST_COMPARE, 0, PAIR_LIST_PAIR, 2));
	/* the summary of gid.env, on both nodes' lists: the first node's finding of that id stands for it */
	mtu_world();
	finding_add(&cmp, "compare.check_summary", SEVERITY_INFO, "gid.env", "on node-a,node-b: `roce-doctor check "
		    "--only gid.env` and apply the fix it prints", "summary");
	group("node-a", "node-b");
	CHECK(covered_by(PAIR_LIST_COMPARE, 5, PAIR_LIST_A, 0));
	CHECK(shown(PAIR_LIST_B, 2));                   /* b's own gid.env: its fix runs on b */
}

static void same_host_names_compare_says_a_and_b(void)
{
	mtu_world();
	finding_add(&own_a, "netdev.mtu", SEVERITY_WARN, "ens19f1np1", "ip link set ens19f1np1 mtu 9000", "1500");
	free(cmp.items[0].fix);
	cmp.items[0].fix = strdup("on b (MTU 1500): `ip link set dev ens19f1np1 mtu 9000`");
	group("(none)", "(none)");
	CHECK(covered_by(PAIR_LIST_COMPARE, 0, PAIR_LIST_PAIR, 2));
	CHECK(shown(PAIR_LIST_A, 1));
	/* a line that names neither node before the command, with the command on both: left alone */
	free(cmp.items[0].fix);
	cmp.items[0].fix = strdup("on the odd one: `ip link set dev ens19f1np1 mtu 9000` and give it a free address");
	group("(none)", "(none)");
	CHECK(shown(PAIR_LIST_COMPARE, 0));
}

static void a_different_command_is_another_cause(void)
{
	mtu_world();
	free(pair.items[2].fix);
	pair.items[2].fix = strdup("nft insert rule inet filter input udp dport 4791 accept   # on b (node-b)");
	group("node-a", "node-b");
	CHECK(shown(PAIR_LIST_PAIR, 2));
	CHECK(shown(PAIR_LIST_PAIR, 1));                /* pair.mtu leads the MTU cause now */
	CHECK(covered_by(PAIR_LIST_B, 1, PAIR_LIST_PAIR, 1));
}

int main(void)
{
	RUN(b_mtu_1500_is_one_cause_led_by_the_failed_rail);
	RUN(without_the_failed_probe_the_pair_finding_leads_at_warn);
	RUN(the_same_command_on_the_other_node_is_another_cause);
	RUN(same_host_names_compare_says_a_and_b);
	RUN(a_different_command_is_another_cause);
	reset();
	TAP_DONE();
}
