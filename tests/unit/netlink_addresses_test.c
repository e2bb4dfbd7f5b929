// SPDX-License-Identifier: GPL-2.0-only
/* Run inside a network namespace prepared by tests/netns/netns_test.sh: the live probe must see the veth
 * there with the MTU and addresses (and prefix lengths) that were configured, through real rtnetlink. */
#include <errno.h>

#include "core/qos/checks_qos.h"
#include "fixture_host.h"
#include "netcfg/dcb.h"
#include "netcfg/ethtool_linkmodes.h"
#include "netcfg/ethtool_stats.h"
#include "probe/qos.h"
#include "tap.h"
#include "util/gidaddr.h"

static const char *ifname = "rdv0";

static const struct ip_address *find_address(const struct netdev *nd, const char *ip)
{
	struct in6_addr want;

	if (ip_parse_as_gid(ip, &want) != 0)
		return NULL;
	for (size_t i = 0; i < nd->addr_count; i++)
		if (memcmp(&nd->addrs[i].addr, &want, sizeof(want)) == 0)
			return &nd->addrs[i];
	return NULL;
}

static void live_probe_reads_mtu_state_and_addresses(void)
{
	struct rootfs root;
	struct host host;
	const struct netdev *nd;
	const struct ip_address *a;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(host_probe(&host, &root) == 0);
	rootfs_close(&root);
	CHECK(host.live);
	nd = host_find_netdev(&host, ifname);
	CHECK(nd != NULL);
	if (nd) {
		CHECK(nd->mtu == 9000);
		CHECK(nd->addrs_known);
		a = find_address(nd, "10.99.0.1");
		CHECK(a && a->family == AF_INET && a->prefix_len == 24);
		a = find_address(nd, "10.98.0.1");
		CHECK(a && a->family == AF_INET && a->prefix_len == 16);
		a = find_address(nd, "2001:db8:99::1");
		CHECK(a && a->family == AF_INET6 && a->prefix_len == 64);
		CHECK(find_address(nd, "10.99.0.2") == NULL);   /* the peer's address is not ours */
	}
	nd = host_find_netdev(&host, "lo");
	CHECK(nd && nd->addrs_known && find_address(nd, "127.0.0.1"));
	host_free(&host);
}

static void ethtool_netlink_reads_the_veth_speed(void)
{
	struct link_modes modes;

	CHECK(ethtool_link_modes(ifname, &modes) == 0);
	CHECK(modes.speed_mbps == 10000);      /* veth reports 10 Gb/s */
	CHECK(modes.max_supported_mbps == 0);  /* and lists no link modes */
	CHECK(ethtool_link_modes("rdv-missing", &modes) < 0);
}

/* veth has no dcbnl: the kernel answers EOPNOTSUPP, which is "no DCB on this netdev", not an error, and the
 * audit says so as ok; its driver statistics read, and hold no PFC counter to judge. */
static void dcbnl_on_a_veth_is_no_dcb_not_an_error(void)
{
	struct qos_port port = { .device = "rxe0", .port = 1, .forced_tc = -1, .default_roce_tos = -1 };
	struct qos_host q = { &port, 1 };
	struct qos_job job = { .tc = NULL };
	struct findings f = { 0 };
	struct rootfs root;

	snprintf(port.netdev, sizeof(port.netdev), "%s", ifname);
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		port.ecn[p] = QOS_UNKNOWN;
	CHECK(dcb_query(ifname, &port.dcb) == -EOPNOTSUPP);
	CHECK(!port.dcb.known && port.dcb.error == -EOPNOTSUPP);
	CHECK(dcb_query("rdv-missing", &port.dcb) == -ENODEV);
	CHECK(dcb_query(ifname, &port.dcb) == -EOPNOTSUPP);
	CHECK(rootfs_open(&root, NULL) == 0);
	qos_counters_read(&root, ifname, &port.counters);
	rootfs_close(&root);
	CHECK(port.counters.known && port.counters.present == 0);
	check_qos(&q, &job, &f);
	CHECK(f.count == 1 && !strcmp(f.items[0].id, "qos.lossless") && f.items[0].severity == SEVERITY_OK &&
	      strstr(f.items[0].message, "no DCB, the driver has no dcbnl"));
	findings_free(&f);
}

static void link_mode_names_carry_their_speed(void)
{
	CHECK(link_mode_speed("100000baseCR4/Full") == 100000);
	CHECK(link_mode_speed("25000baseSR/Full") == 25000);
	CHECK(link_mode_speed("10baseT/Half") == 10);
	CHECK(link_mode_speed("Autoneg") == 0);
	CHECK(link_mode_speed("FIBRE") == 0);
	CHECK(link_mode_speed("1000x") == 0);
	CHECK(link_mode_speed(NULL) == 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		ifname = argv[1];
	RUN(live_probe_reads_mtu_state_and_addresses);
	RUN(ethtool_netlink_reads_the_veth_speed);
	RUN(dcbnl_on_a_veth_is_no_dcb_not_an_error);
	RUN(link_mode_names_carry_their_speed);
	TAP_DONE();
}
