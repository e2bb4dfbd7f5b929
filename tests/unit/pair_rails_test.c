// SPDX-License-Identifier: GPL-2.0-only
/* The rails between two hand-built nodes: pairing by subnet (one /24 for both rails, or one per rail), crossed,
 * routed and missing rails, down ends, MTU and speed mismatches, the GID index each end uses against a pinned
 * NCCL_IB_GID_INDEX, and ARP flux with both rails in one subnet. */
#include <stdlib.h>

#include "pair_world.h"
#include "tap.h"

static struct world_node a, b;
static struct pair_rails rails;
static struct pair_findings out;

static void run_rules(void)
{
	findings_free(&out.list);
	memset(&out, 0, sizeof(out));
	CHECK(pair_rails_build(&a.side, &b.side, AF_INET, &rails) == 0);
	pair_rails_check(&a.side, &b.side, &rails, &out);
}

static void clean_pair_one_subnet_pairs_rank_with_rank(void)
{
	world_pair(&a, &b);
	run_rules();
	CHECK(rails.count == 2);
	CHECK_STR(rails.items[0].a.end.device, "mlx5_0");
	CHECK_STR(rails.items[0].b.end.device, "mlx5_0");
	CHECK_STR(rails.items[1].b.end.address, "192.168.88.22");
	CHECK_STR(rails.items[0].subnet, "192.168.88.0/24");
	CHECK(rails.items[0].link == RAIL_LINK_SAME_SUBNET && !rails.items[0].crossed);
	CHECK(rails.one_subnet);
	CHECK(rails.items[0].a.end.gid_index == 5 && rails.items[0].b.end.gid_index == 5);
	CHECK(findings_worst(&out.list) == SEVERITY_OK);
	CHECK(world_count(&out, "pair.rail", SEVERITY_OK, 0) == 2);
	CHECK(world_count(&out, "pair.same_subnet", SEVERITY_OK, '*') == 2);
	CHECK(world_count(&out, "pair.gid_index", SEVERITY_OK, 0) == 1);
	if (findings_worst(&out.list) != SEVERITY_OK)
		world_dump(&out);
}

static void per_rail_subnets_cross_when_b_swapped_its_addresses(void)
{
	const struct finding *f;

	world_pair_per_rail(&a, &b);
	run_rules();
	CHECK(rails.count == 2 && !rails.one_subnet);
	CHECK_STR(rails.items[0].subnet, "10.0.1.0/24");
	CHECK(world_count(&out, "pair.same_subnet", -1, '*') == 0);
	/* b's addresses swapped: a's mlx5_0 (10.0.1.1) now meets b's mlx5_1 */
	world_node_init(&b, "b", "node-b", "10.0.2.2", "10.0.1.2", 24);
	run_rules();
	CHECK(rails.count == 2);
	CHECK_STR(rails.items[0].b.end.device, "mlx5_1");
	CHECK(rails.items[0].crossed && rails.items[1].crossed);
	f = world_find(&out, "pair.rail", SEVERITY_WARN);
	CHECK(f && strstr(f->message, "crossed"));
	CHECK(world_count(&out, "pair.rail", SEVERITY_WARN, 'b') == 2);
}

static void different_subnets_make_a_routed_rail_with_b_renumbered(void)
{
	const struct finding *f;

	world_pair_per_rail(&a, &b);
	world_node_init(&b, "b", "node-b", "10.0.1.2", "10.0.3.2", 24);
	run_rules();
	CHECK(rails.items[1].link == RAIL_LINK_ROUTED);
	f = world_find(&out, "pair.rail", SEVERITY_WARN);
	CHECK(f && strstr(f->message, "different subnets"));
	CHECK(f && f->fix && strstr(f->fix, "ip addr del 10.0.3.2/24 dev ens19f1np1 && ip addr add 10.0.2.2/24 dev "
					    "ens19f1np1"));
	CHECK(world_count(&out, "pair.rail", SEVERITY_WARN, 'b') == 1);
}

static void a_port_b_lacks_is_a_missing_rail_on_b(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	b.host.device_count = 1;
	b.host.netdev_count = 1;
	run_rules();
	CHECK(rails.count == 2 && rails.items[1].link == RAIL_LINK_MISSING);
	f = world_find(&out, "pair.rail", SEVERITY_FAIL);
	CHECK(f && strstr(f->message, "has no port on b (node-b)"));
	CHECK(world_count(&out, "pair.rail", SEVERITY_FAIL, 'b') == 1);
	/* and the other way round: b's extra port is missing on a */
	world_pair(&a, &b);
	a.host.device_count = 1;
	run_rules();
	CHECK(world_count(&out, "pair.rail", SEVERITY_FAIL, 'a') == 1);
}

static void b_nic_down_fails_the_rail_on_b_with_ip_link_up(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	b.port[1].state = 1;
	snprintf(b.port[1].state_name, sizeof(b.port[1].state_name), "DOWN");
	b.nd[1].carrier = 0;
	snprintf(b.nd[1].operstate, sizeof(b.nd[1].operstate), "down");
	run_rules();
	CHECK(rails.count == 2 && rails.items[1].b.down && !rails.items[1].b.usable);
	f = world_find(&out, "pair.rail", SEVERITY_FAIL);
	CHECK(f && f->fix && strstr(f->fix, "ip link set dev ens19f1np1 up   # on b (node-b)"));
	CHECK(world_count(&out, "pair.rail", SEVERITY_FAIL, 'b') == 1);
}

static void b_mtu_1500_on_one_rail_warns_b_with_its_netdev(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	b.nd[1].mtu = 1500;
	b.port[1].active_mtu = 1024;
	run_rules();
	f = world_find(&out, "pair.mtu", SEVERITY_WARN);
	CHECK(f && f->fix && strstr(f->fix, "ip link set dev ens19f1np1 mtu 9000   # on b (node-b)"));
	/* for two nodes, each said plainly: a has X, b has Y */
	CHECK(f && strstr(f->message, "a (node-a) has netdev MTU 9000 on ens19f1np1, b (node-b) has 1500 on "
			  "ens19f1np1"));
	CHECK(world_count(&out, "pair.mtu", SEVERITY_WARN, 'b') == 1);
	CHECK(world_count(&out, "pair.mtu", SEVERITY_OK, 0) == 1);
	/* only the active MTU differs */
	world_pair(&a, &b);
	a.port[0].active_mtu = 1024;
	run_rules();
	CHECK(world_count(&out, "pair.mtu", SEVERITY_WARN, 'a') == 1);
	f = world_find(&out, "pair.mtu", SEVERITY_WARN);
	CHECK(f && strstr(f->message, "a (node-a) has active RoCE MTU 1024 on mlx5_0/1, b (node-b) has 4096 on "
			  "mlx5_0/1"));
}

static void slower_end_warns_its_node(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	a.port[0].rate_gbps = 10;
	run_rules();
	CHECK(world_count(&out, "pair.speed", SEVERITY_WARN, 'a') == 1);
	CHECK(world_count(&out, "pair.speed", SEVERITY_OK, 0) == 1);
	f = world_find(&out, "pair.speed", SEVERITY_WARN);
	CHECK(f && strstr(f->message, "a (node-a)'s mlx5_0/1 runs at 10 Gb/s, b (node-b)'s mlx5_0/1 at 25 Gb/s"));
}

static void end_without_ipv4_gid_fails_pair_gid(void)
{
	world_pair(&a, &b);
	b.port[0].gid_count = 2;   /* fe80 only */
	b.nd[0].addr_count = 0;
	run_rules();
	CHECK(world_count(&out, "pair.gid", SEVERITY_FAIL, 'b') == 1);
}

static void b_address_first_with_index_pinned_fails_b_only(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	world_address_first(&b, 0, "10.9.9.2", 24);
	world_address_first(&b, 1, "10.9.8.2", 24);
	a.in.gid_index_value = "5";
	a.in.gid_index_source = "environment";
	b.in.gid_index_value = "5";
	b.in.gid_index_source = "/etc/nccl.conf:2";
	run_rules();
	CHECK(rails.items[0].b.end.gid_index == 7);            /* the GID in a's subnet, not the first */
	CHECK_STR(rails.items[0].b.end.address, "192.168.88.2");
	CHECK(world_count(&out, "pair.gid_index", SEVERITY_FAIL, 'b') == 1);
	CHECK(world_count(&out, "pair.gid_index", SEVERITY_OK, 'a') == 1);
	f = world_find(&out, "pair.gid_index", SEVERITY_FAIL);
	CHECK(f && f->fix && strstr(f->fix, "sed -i '2s|.*|NCCL_IB_GID_INDEX=7|' /etc/nccl.conf   # on b (node-b)"));
	/* nothing pinned: the differing indexes are info, with the unset advice */
	a.in.gid_index_value = b.in.gid_index_value = NULL;
	run_rules();
	CHECK(world_count(&out, "pair.gid_index", SEVERITY_INFO, 0) == 1);
	CHECK(world_count(&out, "pair.gid_index", SEVERITY_FAIL, '*') == 0);
	f = world_find(&out, "pair.gid_index", SEVERITY_INFO);
	CHECK(f && strstr(f->message, "a (node-a) uses GID index mlx5_0/1:5, mlx5_1/1:5; b (node-b) uses mlx5_0/1:7, "
			  "mlx5_1/1:7"));
}

static void one_subnet_without_arp_ignore_warns_each_node(void)
{
	const struct finding *f;

	world_pair(&a, &b);
	for (size_t i = 0; i < WORLD_PORTS; i++) {
		a.arp[i].value.ignore = b.arp[i].value.ignore = 0;
		a.arp[i].value.announce = b.arp[i].value.announce = 0;
	}
	run_rules();
	CHECK(world_count(&out, "pair.same_subnet", SEVERITY_WARN, 'a') == 1);
	CHECK(world_count(&out, "pair.same_subnet", SEVERITY_WARN, 'b') == 1);
	f = world_find(&out, "pair.same_subnet", SEVERITY_WARN);
	CHECK(f && f->fix && strstr(f->fix, "net.ipv4.conf.ens19f1np1.arp_announce=2"));
	CHECK(f && f->fix && strstr(f->fix, "sysctl --system   # on a (node-a)"));
	/* unread arp settings are unknown, never blamed */
	world_pair(&a, &b);
	a.in.arp_count = 0;
	run_rules();
	CHECK(world_count(&out, "pair.same_subnet", SEVERITY_INFO, 'a') == 1);
}

static void nccl_ib_hca_leaves_a_port_out_of_the_rails(void)
{
	world_pair(&a, &b);
	a.host.device_count = 1;
	b.host.device_count = 1;
	run_rules();
	CHECK(rails.count == 1);
	CHECK(!rails.one_subnet);
	CHECK(findings_worst(&out.list) == SEVERITY_OK);
}

int main(void)
{
	RUN(clean_pair_one_subnet_pairs_rank_with_rank);
	RUN(per_rail_subnets_cross_when_b_swapped_its_addresses);
	RUN(different_subnets_make_a_routed_rail_with_b_renumbered);
	RUN(a_port_b_lacks_is_a_missing_rail_on_b);
	RUN(b_nic_down_fails_the_rail_on_b_with_ip_link_up);
	RUN(b_mtu_1500_on_one_rail_warns_b_with_its_netdev);
	RUN(slower_end_warns_its_node);
	RUN(end_without_ipv4_gid_fails_pair_gid);
	RUN(b_address_first_with_index_pinned_fails_b_only);
	RUN(one_subnet_without_arp_ignore_warns_each_node);
	RUN(nccl_ib_hca_leaves_a_port_out_of_the_rails);
	findings_free(&out.list);
	TAP_DONE();
}
