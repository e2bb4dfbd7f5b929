/* Run inside a network namespace prepared by tests/netns/netns_test.sh: the live probe must see the veth
 * there with the MTU and addresses (and prefix lengths) that were configured, through real rtnetlink. */
#include "fixture_host.h"
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

int main(int argc, char **argv)
{
	if (argc > 1)
		ifname = argv[1];
	RUN(live_probe_reads_mtu_state_and_addresses);
	TAP_DONE();
}
