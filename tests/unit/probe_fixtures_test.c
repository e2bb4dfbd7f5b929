// SPDX-License-Identifier: GPL-2.0-only
/* The sysfs probes on every fixture host: devices, ports, netdev map, GID tables, warnings. */
#include "fixture_host.h"
#include "tap.h"
#include "util/gidaddr.h"

static void cx6lx_two_ports_map_to_their_netdevs(void)
{
	struct host host;
	const struct rdma_port *p;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	CHECK(!host.live);
	CHECK(host.device_count == 2);
	if (host.device_count != 2)
		goto out;
	CHECK_STR(host.devices[0].name, "mlx5_0");
	CHECK_STR(host.devices[0].pci_address, "0000:39:00.0");
	CHECK_STR(host.devices[0].driver, "mlx5_core");
	CHECK(host.devices[0].numa_known && host.devices[0].numa_node == 0);
	CHECK(host.devices[0].fw_ver[0] != '\0');
	p = fixture_port(&host, "mlx5_0", 1);
	CHECK(p != NULL);
	if (p) {
		CHECK_STR(p->netdev, "ens19f0np0");
		CHECK_STR(p->netdev_source, "gid_attrs");
		CHECK(p->state == 4);
		CHECK_STR(p->state_name, "ACTIVE");
		CHECK(p->phys_state == 5);
		CHECK(p->link_layer == LINK_LAYER_ETHERNET);
		CHECK(p->rate_gbps == 25.0);
		CHECK(p->gid_count == 6);
		CHECK(p->gids[4].type == GID_TYPE_IB_ROCE_V1 && p->gids[5].type == GID_TYPE_ROCE_V2);
		CHECK(p->active_mtu == 0 && !p->netlink_known);   /* verbs and netlink data unknown under --root */
	}
	p = fixture_port(&host, "mlx5_1", 1);
	CHECK(p && strcmp(p->netdev, "ens19f1np1") == 0);
	CHECK(host_find_netdev(&host, "ens19f0np0") && host_find_netdev(&host, "ens19f0np0")->mtu == 9000);
	CHECK(!host_find_netdev(&host, "ens19f0np0")->addrs_known);
	CHECK(host.warnings.count == 0);
out:
	host_free(&host);
}

static void eight_hca_host_sorts_devices_naturally(void)
{
	struct host host;

	CHECK(probe_fixture("eight-hca", &host) == 0);
	CHECK(host.device_count >= 8);
	for (size_t i = 1; i < host.device_count; i++)
		CHECK(strverscmp(host.devices[i - 1].name, host.devices[i].name) < 0);
	for (size_t i = 0; i < host.device_count; i++) {
		CHECK(host.devices[i].port_count == 1);
		CHECK(host.devices[i].ports[0].netdev[0] != '\0');
	}
	CHECK(host.warnings.count == 0);
	host_free(&host);
}

static void soft_roce_has_no_pci_but_a_parent(void)
{
	struct host host;
	const struct rdma_port *p;

	CHECK(probe_fixture("softroce", &host) == 0);
	CHECK(host.device_count == 1);
	if (host.device_count != 1)
		goto out;
	CHECK_STR(host.devices[0].name, "rxe0");
	CHECK_STR(host.devices[0].pci_address, "");
	CHECK(!host.devices[0].numa_known);
	CHECK_STR(host.devices[0].parent, "eth0");
	p = fixture_port(&host, "rxe0", 1);
	CHECK(p && strcmp(p->netdev, "eth0") == 0);
	CHECK(p && p->gid_count == 2);   /* only v2 entries; the zero slots are not entries */
	CHECK(p && p->gids[0].type == GID_TYPE_ROCE_V2 && gid_is_link_local(&p->gids[0].gid));
	CHECK(host.warnings.count == 0);
out:
	host_free(&host);
}

static void infiniband_port_has_gids_without_netdev(void)
{
	struct host host;
	const struct rdma_port *p;

	CHECK(probe_fixture("infiniband", &host) == 0);
	p = fixture_port(&host, "mlx5_0", 1);
	CHECK(p && p->link_layer == LINK_LAYER_INFINIBAND);
	CHECK(p && p->gid_count >= 1 && p->gids[0].netdev[0] == '\0');
	CHECK(p && strcmp(gid_type_name(p->gids[0].type, p->link_layer), "IB") == 0);
	CHECK(host.warnings.count == 0);
	host_free(&host);
}

static void host_without_rdma_has_no_devices(void)
{
	struct host host;

	CHECK(probe_fixture("no-rdma", &host) == 0);
	CHECK(host.device_count == 0);
	CHECK(host.netdev_count >= 2);
	CHECK(host_find_netdev(&host, "lo") != NULL);
	host_free(&host);
}

static void malformed_slots_warn_with_the_file_name(void)
{
	struct host host;
	const struct rdma_port *p;

	CHECK(probe_fixture("malformed", &host) == 0);
	CHECK(warnings_mention(&host, "ports/1/gids/4"));
	CHECK(warnings_mention(&host, "gid_attrs/types/5"));
	CHECK(warnings_mention(&host, "RoCE v9"));
	CHECK(warnings_mention(&host, "gid_attrs/ndevs/6"));
	CHECK(warnings_mention(&host, "tests/fixtures/malformed/sys/class/infiniband"));
	p = fixture_port(&host, "mlx5_0", 1);
	CHECK(p && p->gid_count == 4);   /* 0-3 good; 4, 5, 6 skipped */
	for (size_t i = 0; p && i < p->gid_count; i++)
		CHECK(p->gids[i].index <= 3);
	host_free(&host);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(cx6lx_two_ports_map_to_their_netdevs);
	RUN(eight_hca_host_sorts_devices_naturally);
	RUN(soft_roce_has_no_pci_but_a_parent);
	RUN(infiniband_port_has_gids_without_netdev);
	RUN(host_without_rdma_has_no_devices);
	RUN(malformed_slots_warn_with_the_file_name);
	TAP_DONE();
}
