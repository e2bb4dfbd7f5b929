// SPDX-License-Identifier: GPL-2.0-only
/* The GID choice on every fixture host, and on small hand-built ports for the corner cases. */
#include <arpa/inet.h>

#include "core/gid_suggest.h"
#include "fixture_host.h"
#include "tap.h"
#include "util/gidaddr.h"

static int suggested_index(const char *fixture, const char *dev, int family, struct gid_choice *c)
{
	struct host host;
	const struct rdma_port *p;
	int index = -1;

	memset(c, 0, sizeof(*c));
	if (probe_fixture(fixture, &host) != 0)
		return -2;
	p = fixture_port(&host, dev, 1);
	if (p) {
		gid_suggest_port(p, host_find_netdev(&host, p->netdev), family, NULL, c);
		index = c->found ? (int)c->entry->index : -1;
	}
	c->entry = NULL;   /* points into host, freed below */
	c->other_count = 0;
	host_free(&host);
	return index;
}

static void gid_suggest_prefers_v2_ipv4_over_link_local_and_v1(void)
{
	struct gid_choice c;

	CHECK(suggested_index("cx6lx-2port", "mlx5_0", AF_INET, &c) == 5);
	CHECK(strstr(c.reason, "192.168.88.1") != NULL);
	CHECK(strstr(c.reason, "0-3 are fe80:: link-local") != NULL);
	CHECK(strstr(c.reason, "4 is RoCE v1") != NULL);
	CHECK(suggested_index("cx6lx-2port", "mlx5_1", AF_INET, &c) == 5);
}

static void gid_suggest_is_3_on_every_hca_of_the_eight_hca_host(void)
{
	struct host host;

	CHECK(probe_fixture("eight-hca", &host) == 0);
	for (size_t d = 0; d < host.device_count; d++) {
		struct gid_choice c;

		gid_suggest_port(&host.devices[d].ports[0], NULL, AF_INET, NULL, &c);
		CHECK(c.found && c.entry->index == 3);
	}
	host_free(&host);
}

static void gid_suggest_on_soft_roce_skips_link_local_v2(void)
{
	struct gid_choice c;

	CHECK(suggested_index("softroce", "rxe0", AF_INET, &c) == 1);
	CHECK(strstr(c.reason, "10.88.0.1") != NULL);
}

static void gid_suggest_refuses_infiniband_with_the_reason(void)
{
	struct gid_choice c;

	CHECK(suggested_index("infiniband", "mlx5_0", AF_INET, &c) == -1);
	CHECK(strstr(c.reason, "InfiniBand") != NULL);
}

static void gid_suggest_ipv6_only_port_needs_family_ipv6(void)
{
	struct gid_choice c;

	CHECK(suggested_index("ipv6-only", "mlx5_0", AF_INET, &c) == -1);
	CHECK(strstr(c.reason, "no IPv4 address") != NULL);
	CHECK(suggested_index("ipv6-only", "mlx5_0", AF_INET6, &c) == 3);
	CHECK(strstr(c.reason, "2001:db8:42::10") != NULL);
}

static void gid_suggest_survives_malformed_table(void)
{
	struct gid_choice c;

	CHECK(suggested_index("malformed", "mlx5_0", AF_INET, &c) == 3);
}

/* ---- hand-built ports ---- */

static void add_gid(struct rdma_port *p, unsigned index, const char *ip, enum gid_type type)
{
	struct gid_entry *e = &p->gids[p->gid_count++];

	memset(e, 0, sizeof(*e));
	e->index = index;
	e->type = type;
	strcpy(e->netdev, "eth1");
	if (ip_parse_as_gid(ip, &e->gid) != 0)
		abort();
}

static void two_ipv4_port(struct rdma_port *p, struct gid_entry *storage)
{
	memset(p, 0, sizeof(*p));
	p->num = 1;
	p->state = 4;
	p->link_layer = LINK_LAYER_ETHERNET;
	strcpy(p->netdev, "eth1");
	p->gids = storage;
	add_gid(p, 0, "fe80::1", GID_TYPE_ROCE_V2);
	add_gid(p, 1, "10.1.0.5", GID_TYPE_ROCE_V2);
	add_gid(p, 2, "10.2.0.5", GID_TYPE_ROCE_V2);
}

static void gid_suggest_two_ipv4_takes_lowest_and_says_so(void)
{
	struct gid_entry storage[8];
	struct rdma_port p;
	struct gid_choice c;

	two_ipv4_port(&p, storage);
	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(c.found && c.entry->index == 1);
	CHECK(c.other_count == 1 && c.others[0]->index == 2);
	CHECK(strstr(c.reason, "--peer") != NULL);
}

static void gid_suggest_peer_picks_the_subnet_that_holds_it(void)
{
	struct gid_entry storage[8];
	struct ip_address addrs[2];
	struct netdev nd = { .name = "eth1", .addrs_known = true, .addrs = addrs, .addr_count = 2 };
	struct rdma_port p;
	struct gid_choice c;
	struct in6_addr peer;

	two_ipv4_port(&p, storage);
	addrs[0] = (struct ip_address){ .family = AF_INET, .addr = storage[1].gid, .prefix_len = 16 };
	addrs[1] = (struct ip_address){ .family = AF_INET, .addr = storage[2].gid, .prefix_len = 24 };
	CHECK(ip_parse_as_gid("10.2.0.9", &peer) == 0);
	gid_suggest_port(&p, &nd, AF_INET, &peer, &c);
	CHECK(c.found && c.entry->index == 2);
	CHECK(strstr(c.reason, "holds the peer 10.2.0.9") != NULL);
	/* 10.1.255.1 is inside 10.1.0.0/16 only */
	CHECK(ip_parse_as_gid("10.1.255.1", &peer) == 0);
	gid_suggest_port(&p, &nd, AF_INET, &peer, &c);
	CHECK(c.found && c.entry->index == 1);
	/* no subnet holds it: lowest index, said so */
	CHECK(ip_parse_as_gid("172.16.0.1", &peer) == 0);
	gid_suggest_port(&p, &nd, AF_INET, &peer, &c);
	CHECK(c.found && c.entry->index == 1);
	CHECK(strstr(c.reason, "no candidate's subnet") != NULL);
}

static void gid_suggest_peer_without_subnets_uses_closest_address(void)
{
	struct gid_entry storage[8];
	struct rdma_port p;
	struct gid_choice c;
	struct in6_addr peer;

	two_ipv4_port(&p, storage);
	CHECK(ip_parse_as_gid("10.2.0.9", &peer) == 0);
	gid_suggest_port(&p, NULL, AF_INET, &peer, &c);
	CHECK(c.found && c.entry->index == 2);
	CHECK(strstr(c.reason, "subnets unknown") != NULL);
}

static void gid_suggest_only_v1_says_v2_is_missing(void)
{
	struct gid_entry storage[4];
	struct rdma_port p = { .num = 1, .state = 4, .link_layer = LINK_LAYER_ETHERNET, .netdev = "eth1",
			       .gids = storage };
	struct gid_choice c;

	add_gid(&p, 0, "fe80::1", GID_TYPE_IB_ROCE_V1);
	add_gid(&p, 1, "10.1.0.5", GID_TYPE_IB_ROCE_V1);
	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(!c.found);
	CHECK(strstr(c.reason, "only RoCE v1") != NULL);
}

static void gid_suggest_empty_table_and_down_port(void)
{
	struct gid_entry storage[4];
	struct rdma_port p = { .num = 1, .state = 1, .link_layer = LINK_LAYER_ETHERNET, .netdev = "eth1",
			       .state_name = "DOWN", .gids = storage };
	struct gid_choice c;

	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(!c.found && strstr(c.reason, "empty") != NULL);
	add_gid(&p, 0, "10.1.0.5", GID_TYPE_ROCE_V2);
	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(c.found && strstr(c.reason, "port is DOWN") != NULL);
}

/* Issue 10: a ULA beside the fe80:: entries is routable; the reason says so and gives the IPv6 index. */
static void gid_suggest_ula_only_port_names_what_is_there(void)
{
	struct gid_entry storage[4];
	struct rdma_port p = { .num = 1, .state = 4, .link_layer = LINK_LAYER_ETHERNET, .netdev = "eth1",
			       .gids = storage };
	struct gid_choice c;

	add_gid(&p, 0, "fe80::1", GID_TYPE_IB_ROCE_V1);
	add_gid(&p, 1, "fe80::1", GID_TYPE_ROCE_V2);
	add_gid(&p, 2, "fd12:3456::5", GID_TYPE_IB_ROCE_V1);
	add_gid(&p, 3, "fd12:3456::5", GID_TYPE_ROCE_V2);
	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(!c.found);
	CHECK(strstr(c.reason, "only fe80:: link-local") == NULL);
	CHECK(strstr(c.reason, "3 fd12:3456::5 (RoCE v2)") != NULL);
	CHECK(strstr(c.reason, "--family ipv6 would work: index 3") != NULL);
	CHECK(strstr(c.reason, "NCCL_IB_ADDR_FAMILY=AF_INET6") != NULL);
	gid_suggest_port(&p, NULL, AF_INET6, NULL, &c);
	CHECK(c.found && c.entry->index == 3);
}

static void gid_suggest_link_local_only_port_keeps_its_reason(void)
{
	struct gid_entry storage[4];
	struct rdma_port p = { .num = 1, .state = 4, .link_layer = LINK_LAYER_ETHERNET, .netdev = "eth1",
			       .gids = storage };
	struct gid_choice c;

	add_gid(&p, 0, "fe80::1", GID_TYPE_ROCE_V2);
	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(!c.found && strstr(c.reason, "only fe80:: link-local GIDs") != NULL);
	CHECK(strstr(c.reason, "would work") == NULL);
}

/* The same address on a VLAN (lower index) and on the port's own netdev. */
static void vlan_port(struct rdma_port *p, struct gid_entry *storage)
{
	two_ipv4_port(p, storage);
	p->gid_count = 1;
	add_gid(p, 1, "10.1.0.5", GID_TYPE_ROCE_V2);
	strcpy(storage[1].netdev, "eth1.100");
	add_gid(p, 2, "10.1.0.5", GID_TYPE_ROCE_V2);
}

static void gid_suggest_same_address_prefers_the_ports_netdev(void)
{
	struct gid_entry storage[8];
	struct gid_prefs prefs = { .family = AF_INET };
	struct rdma_port p;
	struct gid_choice c;

	vlan_port(&p, storage);
	gid_suggest_port(&p, NULL, AF_INET, NULL, &c);
	CHECK(c.found && c.entry->index == 2);
	CHECK(c.other_count == 1 && c.others[0]->index == 1);
	CHECK(strstr(c.reason, "index 1 holds the same address on eth1.100 and lost: not the port's own netdev eth1"));
	prefs.netdev = "eth1.100";
	gid_suggest_port_prefs(&p, NULL, &prefs, &c);
	CHECK(c.found && c.entry->index == 1);
	CHECK(strstr(c.reason, "index 2 holds the same address on eth1 and lost: --netdev eth1.100") != NULL);
	CHECK(gid_port_has_candidate_on(&p, AF_INET, "eth1.100"));
	CHECK(!gid_port_has_candidate_on(&p, AF_INET, "eth7"));
	CHECK(!gid_port_has_candidate_on(&p, AF_INET6, "eth1"));
}

static void gid_suggest_same_address_follows_the_route_to_the_peer(void)
{
	struct gid_entry storage[8];
	struct in6_addr peer;
	struct gid_prefs prefs = { .family = AF_INET, .peer = &peer, .route_netdev = "eth1.100" };
	struct rdma_port p;
	struct gid_choice c;

	vlan_port(&p, storage);
	CHECK(ip_parse_as_gid("10.1.0.9", &peer) == 0);
	gid_suggest_port_prefs(&p, NULL, &prefs, &c);
	CHECK(c.found && c.entry->index == 1);
	CHECK(strstr(c.reason, "the route to the peer leaves through eth1.100") != NULL);
	prefs.route_netdev = NULL;
	prefs.routes_unknown = true;
	gid_suggest_port_prefs(&p, NULL, &prefs, &c);
	CHECK(c.found && c.entry->index == 2);
	CHECK(strstr(c.reason, "routes are unknown under --root") != NULL);
}

static void gid_port_use_tells_down_from_no_address(void)
{
	struct gid_entry storage[4];
	struct rdma_port p = { .num = 1, .state = 1, .phys_state = 2, .link_layer = LINK_LAYER_ETHERNET,
			       .netdev = "eth1", .state_name = "DOWN", .phys_state_name = "Polling", .gids = storage };
	struct netdev nd = { .name = "eth1", .carrier = 0 };
	char why[256];

	add_gid(&p, 0, "fe80::1", GID_TYPE_ROCE_V2);
	CHECK(gid_port_use(&p, &nd, why, sizeof(why)) == PORT_DOWN);
	CHECK(strstr(why, "down: state DOWN, phys state Polling, eth1 has no carrier") != NULL);
	p.state = 4;
	strcpy(p.state_name, "ACTIVE");
	CHECK(gid_port_use(&p, &nd, why, sizeof(why)) == PORT_DOWN);   /* ACTIVE but no carrier */
	nd.carrier = 1;
	CHECK(gid_port_use(&p, &nd, why, sizeof(why)) == PORT_NO_ADDRESS);
	CHECK(strstr(why, "only fe80:: link-local") != NULL);
	add_gid(&p, 1, "10.1.0.5", GID_TYPE_IB_ROCE_V1);
	CHECK(gid_port_use(&p, &nd, why, sizeof(why)) == PORT_IN_USE && why[0] == '\0');
}

/* gid_choose_port skips only the reason: the same entry and others as gid_suggest_port, on every port of every
 * fixture and both families. */
static void gid_choose_port_chooses_as_gid_suggest_port(void)
{
	static const char *const fixtures[] = { "cx6lx-2port", "cx6lx-vlan", "dgx-h100", "eight-hca", "gb10-twin",
						"h100-vm", "infiniband", "ipv6-only", "malformed", "softroce" };
	size_t ports = 0;

	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		struct host host;

		if (probe_fixture(fixtures[f], &host) != 0) {
			CHECK(!"fixture probed");
			continue;
		}
		for (size_t d = 0; d < host.device_count; d++)
			for (size_t p = 0; p < host.devices[d].port_count; p++)
				for (int fam = 0; fam < 2; fam++) {
					const struct rdma_port *port = &host.devices[d].ports[p];
					const struct netdev *nd = host_find_netdev(&host, port->netdev);
					int family = fam ? AF_INET6 : AF_INET;
					struct gid_choice full, bare;
					bool same;

					gid_suggest_port(port, nd, family, NULL, &full);
					gid_choose_port(port, nd, family, &bare);
					same = full.found == bare.found && full.entry == bare.entry &&
					       full.other_count == bare.other_count && bare.reason[0] == '\0' &&
					       memcmp(full.others, bare.others, full.other_count * sizeof(full.others[0])) == 0;
					if (!same)
						printf("# %s %s/%u family %d: choice differs\n", fixtures[f],
						       host.devices[d].name, port->num, family);
					CHECK(same);
					ports++;
				}
		host_free(&host);
	}
	CHECK(ports > 20);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(gid_suggest_prefers_v2_ipv4_over_link_local_and_v1);
	RUN(gid_suggest_is_3_on_every_hca_of_the_eight_hca_host);
	RUN(gid_suggest_on_soft_roce_skips_link_local_v2);
	RUN(gid_suggest_refuses_infiniband_with_the_reason);
	RUN(gid_suggest_ipv6_only_port_needs_family_ipv6);
	RUN(gid_suggest_survives_malformed_table);
	RUN(gid_suggest_two_ipv4_takes_lowest_and_says_so);
	RUN(gid_suggest_peer_picks_the_subnet_that_holds_it);
	RUN(gid_suggest_peer_without_subnets_uses_closest_address);
	RUN(gid_suggest_only_v1_says_v2_is_missing);
	RUN(gid_suggest_empty_table_and_down_port);
	RUN(gid_suggest_ula_only_port_names_what_is_there);
	RUN(gid_suggest_link_local_only_port_keeps_its_reason);
	RUN(gid_suggest_same_address_prefers_the_ports_netdev);
	RUN(gid_suggest_same_address_follows_the_route_to_the_peer);
	RUN(gid_port_use_tells_down_from_no_address);
	RUN(gid_choose_port_chooses_as_gid_suggest_port);
	TAP_DONE();
}
