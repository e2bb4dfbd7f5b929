// SPDX-License-Identifier: GPL-2.0-only
/* What a failed probe usually means, from both nodes' data: each cause (pinned GID index, no route, udp 4791
 * filtered on the side that drops it, path MTU, ARP flux) blamed on the right node with its fix; bootstrap TCP
 * that never arrived blamed on b's firewall; bw judged against 90% of the link on a NIC, only reported on rxe. */
#include <errno.h>
#include <stdlib.h>

#include "pair_world.h"
#include "tap.h"

static struct world_node a, b;
static struct pair_rails rails;
static struct pair_probes probes;
static struct pair_findings out;

static void probes_ok(void)
{
	memset(&probes, 0, sizeof(probes));
	probes.rdma_run = probes.bw_run = true;
	for (size_t i = 0; i < PAIR_RAILS_MAX; i++) {
		probes.rdma[i].outcome = RAIL_RDMA_OK;
		probes.rdma[i].path_mtu_bytes = 4096;
		probes.rdma[i].round_trip_us = 12;
		probes.bw[i].run = probes.bw[i].ok = true;
		probes.bw[i].gbps = 23.5;
	}
	probes.reach_count = 2;
	snprintf(probes.reach[0].purpose, sizeof(probes.reach[0].purpose), "ephemeral");
	probes.reach[0].port = 41234;
	snprintf(probes.reach[1].purpose, sizeof(probes.reach[1].purpose), "master_port");
	probes.reach[1].port = 29500;
	for (size_t i = 0; i < 2; i++) {
		probes.reach[i].outcome = TCP_REACH_ARRIVED;
		snprintf(probes.reach[i].local_address, sizeof(probes.reach[i].local_address), "192.168.88.1");
		snprintf(probes.reach[i].remote_address, sizeof(probes.reach[i].remote_address), "192.168.88.2");
	}
}

static void classify(void)
{
	findings_free(&out.list);
	memset(&out, 0, sizeof(out));
	CHECK(pair_rails_build(&a.side, &b.side, AF_INET, &rails) == 0);
	pair_classify(&a.side, &b.side, &rails, &probes, PAIR_MASTER_PORT_DEFAULT, &out);
}

/* Soft-RoCE on both nodes: rxe0/rxe1 on their netdevs, no PCI function. */
static void make_soft(struct world_node *w)
{
	for (size_t i = 0; i < WORLD_PORTS; i++) {
		snprintf(w->dev[i].name, sizeof(w->dev[i].name), "rxe%zu", i);
		w->dev[i].pci_address[0] = 0;
		snprintf(w->dev[i].parent, sizeof(w->dev[i].parent), "%s", w->nd[i].name);
	}
}

static void fail_rail(size_t i)
{
	probes.rdma[i].outcome = RAIL_RDMA_TIMEOUT;
	probes.bw[i].run = false;
}

static void clean_pair_is_ok_everywhere(void)
{
	world_pair(&a, &b);
	probes_ok();
	classify();
	CHECK(world_count(&out, "pair.rdma", SEVERITY_OK, 0) == 2);
	CHECK(world_count(&out, "pair.bootstrap", SEVERITY_OK, 0) == 2);
	CHECK(world_count(&out, "pair.bw", SEVERITY_OK, 0) == 2);
	CHECK(findings_worst(&out.list) == SEVERITY_OK);
}

static void bw_below_90_percent_warns_on_a_nic_and_is_info_on_rxe(void)
{
	world_pair(&a, &b);
	probes_ok();
	probes.bw[1].gbps = 20;   /* 80% of 25 */
	classify();
	CHECK(world_count(&out, "pair.bw", SEVERITY_WARN, 0) == 1);
	CHECK(world_count(&out, "pair.bw", SEVERITY_OK, 0) == 1);
	make_soft(&a);
	make_soft(&b);
	classify();
	CHECK(world_count(&out, "pair.bw", SEVERITY_INFO, 0) == 2);
	CHECK(world_count(&out, "pair.bw", SEVERITY_WARN, '*') == 0);
}

static void udp_4791_dropped_on_b_soft_roce_blames_b(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	make_soft(&a);
	make_soft(&b);
	world_drop(&b, 17, 4791, true);   /* iifname "ens19f1np1" udp dport 4791 drop */
	probes_ok();
	fail_rail(1);
	classify();
	CHECK(world_count(&out, "pair.rdma", SEVERITY_OK, 0) == 1);
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'b') == 1);
	f = world_find(&out, "pair.rdma", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "udp 4791"));
	CHECK(f && f->fix && strstr(f->fix, "nft insert rule inet filter input udp dport 4791 accept   # on b (node-b)"));
	/* a NIC's RoCE bypasses netfilter: the same rule is not the cause there */
	world_pair(&a, &b);
	world_drop(&b, 17, 4791, true);
	classify();
	f = world_find(&out, "pair.rdma", SEVERITY_FAIL);
	CHECK(f && !strstr(f->message, "udp 4791") && strstr(f->message, "neither node's data explains it"));
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 0) == 1);
}

static void pinned_index_on_b_is_the_cause_before_anything_else(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	world_address_first(&b, 0, "10.9.9.2", 24);
	world_address_first(&b, 1, "10.9.8.2", 24);
	a.in.gid_index_value = b.in.gid_index_value = "5";
	probes_ok();
	fail_rail(0);
	fail_rail(1);
	classify();
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'b') == 2);
	f = world_find(&out, "pair.rdma", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "pins NCCL_IB_GID_INDEX=5") && strstr(f->message, "10.9.9.2 (RoCE v2)"));
	CHECK(f && strstr(f->message, "192.168.88.2 (GID 5) failed"));   /* the index the probe used, as NCCL would */
	CHECK(f && f->fix && strstr(f->fix, "export NCCL_IB_GID_INDEX=7   # on b (node-b)"));
}

static void serve_refusing_a_pinned_index_is_the_pinned_index(void)
{
	const struct finding *f;

	/* the VM pair of pair_5_gid_index: b's serve refuses the probe at the pinned index (another family there) */
	world_pair(&a, &b);
	world_address_first(&b, 0, "10.9.9.2", 24);
	a.in.gid_index_value = b.in.gid_index_value = "5";
	probes_ok();
	probes.rdma[0].outcome = RAIL_RDMA_REFUSED;
	snprintf(probes.rdma[0].detail, sizeof(probes.rdma[0].detail), "GID families differ");
	classify();
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'b') == 1);
	f = world_find(&out, "pair.rdma", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "refused") && strstr(f->message, "pins NCCL_IB_GID_INDEX=5"));
	CHECK(f && f->fix && strstr(f->fix, "export NCCL_IB_GID_INDEX=7   # on b (node-b)"));
	CHECK(f && f->fix && !strstr(f->fix, "start it again"));
}

static void routed_rail_failure_is_no_route(void)
{
	world_pair_per_rail(&a, &b);
	world_node_init(&b, "b", "node-b", "10.0.1.2", "10.0.3.2", 24);
	probes_ok();
	fail_rail(1);
	classify();
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'b') == 1);
	CHECK(world_find(&out, "pair.rdma", SEVERITY_FAIL) &&
	      strstr(world_find(&out, "pair.rdma", SEVERITY_FAIL)->message, "no route"));
}

static void mtu_mismatch_failure_is_the_path_mtu_on_the_smaller_side(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	b.nd[1].mtu = 1500;
	probes_ok();
	fail_rail(1);
	classify();
	f = world_find(&out, "pair.rdma", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "path MTU: a (node-a) has netdev MTU 9000 on ens19f1np1, b (node-b) has 1500 "
			  "on ens19f1np1"));
	CHECK(f && f->fix && strstr(f->fix, "nmcli connection modify ens19f1np1 802-3-ethernet.mtu 9000"));
	CHECK(f && f->fix && strstr(f->fix, "ip link set dev ens19f1np1 mtu 9000   # on b (node-b)"));
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'b') == 1);
}

static void arp_flux_is_blamed_on_the_node_without_arp_ignore(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	a.arp[1].value.ignore = 0;
	probes_ok();
	fail_rail(1);
	classify();
	f = world_find(&out, "pair.rdma", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "ARP flux"));
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'a') == 1);
}

static void bootstrap_blocked_on_b_names_b_and_its_rule(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	world_drop(&b, 6, -1, false);
	probes_ok();
	probes.reach[0].outcome = TCP_REACH_NOT_ARRIVED;
	probes.reach[0].connect_failed = true;
	probes.reach[0].connect_errno = ETIMEDOUT;
	classify();
	CHECK(world_count(&out, "pair.bootstrap", SEVERITY_FAIL, 'b') == 1);
	CHECK(world_count(&out, "pair.bootstrap", SEVERITY_OK, 0) == 1);
	f = world_find(&out, "pair.bootstrap", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "never arrived on b (node-b)"));
	CHECK(f && f->fix && strstr(f->fix, "nft insert rule inet filter input tcp dport { 29500, 32768-60999 } accept"
					    "   # on b (node-b)"));
	/* firewalld on b: its own commands */
	b.fw.firewalld_running = true;
	classify();
	f = world_find(&out, "pair.bootstrap", SEVERITY_FAIL);
	CHECK(f && f->fix && strstr(f->fix, "firewall-cmd --permanent --add-port=29500/tcp --add-port=32768-60999/tcp"));
	/* the master port held by another process on b */
	b.fw.firewalld_running = false;
	probes_ok();
	probes.reach[1].outcome = TCP_REACH_REFUSED_BY_PEER;
	classify();
	CHECK(world_count(&out, "pair.bootstrap", SEVERITY_WARN, 'b') == 1);
}

static void serve_gone_and_not_run_are_reported_as_such(void)
{
	world_pair(&a, &b);
	probes_ok();
	probes.rdma[0].outcome = RAIL_RDMA_PEER_GONE;
	probes.rdma[1].outcome = RAIL_RDMA_NOT_RUN;
	classify();
	CHECK(world_count(&out, "pair.rdma", SEVERITY_FAIL, 'b') == 1);
	CHECK(world_count(&out, "pair.rdma", SEVERITY_INFO, 0) == 1);
	/* a rail with an end down is not probed: pair.rail already said why */
	b.port[1].state = 1;
	b.nd[1].carrier = 0;
	probes_ok();
	classify();
	CHECK(world_count(&out, "pair.rdma", -1, '*') == 1);
}

int main(void)
{
	RUN(clean_pair_is_ok_everywhere);
	RUN(bw_below_90_percent_warns_on_a_nic_and_is_info_on_rxe);
	RUN(udp_4791_dropped_on_b_soft_roce_blames_b);
	RUN(pinned_index_on_b_is_the_cause_before_anything_else);
	RUN(serve_refusing_a_pinned_index_is_the_pinned_index);
	RUN(routed_rail_failure_is_no_route);
	RUN(mtu_mismatch_failure_is_the_path_mtu_on_the_smaller_side);
	RUN(arp_flux_is_blamed_on_the_node_without_arp_ignore);
	RUN(bootstrap_blocked_on_b_names_b_and_its_rule);
	RUN(serve_gone_and_not_run_are_reported_as_such);
	findings_free(&out.list);
	TAP_DONE();
}
