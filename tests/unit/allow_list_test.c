// SPDX-License-Identifier: GPL-2.0-only
/* serve --allow: parsing, matching both families (and IPv4 clients seen as ::ffff:a.b.c.d), the default. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "core/allow_list.h"
#include "tap.h"

static struct sockaddr_storage v4(const char *text)
{
	struct sockaddr_storage ss = { .ss_family = AF_INET };

	inet_pton(AF_INET, text, &((struct sockaddr_in *)&ss)->sin_addr);
	return ss;
}

static struct sockaddr_storage v6(const char *text)
{
	struct sockaddr_storage ss = { .ss_family = AF_INET6 };

	inet_pton(AF_INET6, text, &((struct sockaddr_in6 *)&ss)->sin6_addr);
	return ss;
}

static void add(struct allow_list *l, const char *text)
{
	struct allow_net net;
	char why[256];
	bool any;

	CHECK(allow_parse(text, &net, &any, why, sizeof(why)) == 0);
	l->any = l->any || any;
	if (!any)
		CHECK(allow_add(l, &net) == 0);
}

static void matches_ipv4_subnet_also_as_mapped_ipv6(void)
{
	struct allow_list l = { 0 };
	struct sockaddr_storage a = v4("10.88.0.7"), b = v6("::ffff:10.88.0.200"), c = v4("10.88.1.1");

	add(&l, "10.88.0.99/24");
	CHECK(allow_match(&l, &a));
	CHECK(allow_match(&l, &b));
	CHECK(!allow_match(&l, &c));
}

static void matches_ipv6_prefix_and_single_host(void)
{
	struct allow_list l = { 0 };
	struct sockaddr_storage in = v6("fd00:88::5"), out = v6("fd00:89::5"), host = v4("192.168.1.9"),
				near = v4("192.168.1.10");

	add(&l, "fd00:88::/64");
	add(&l, "192.168.1.9");
	CHECK(allow_match(&l, &in));
	CHECK(!allow_match(&l, &out));
	CHECK(allow_match(&l, &host));
	CHECK(!allow_match(&l, &near));
}

static void any_and_zero_prefix_open_it_up(void)
{
	struct allow_list a = { 0 }, b = { 0 }, c = { 0 };
	struct sockaddr_storage x = v6("2001:db8::1");

	add(&a, "any");
	add(&b, "0.0.0.0/0");
	add(&c, "::/0");
	CHECK(a.any && b.any && c.any);
	CHECK(allow_match(&a, &x));
}

static void refuses_bad_text(void)
{
	const char *bad[] = { "", "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8",
			      "10.0.0/8", "host.example", "::ffff:10.0.0.1/120", "10.0.0.0/8x" };
	struct allow_net net;
	char why[256];
	bool any;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		CHECK(allow_parse(bad[i], &net, &any, why, sizeof(why)) == -EINVAL);
		CHECK(strstr(why, "--allow") != NULL);
	}
}

static void default_is_loopback_and_rdma_netdev_subnets(void)
{
	struct ip_address addrs[2] = { { .family = AF_INET, .prefix_len = 24 },
				       { .family = AF_INET6, .prefix_len = 64 } };
	struct ip_address other_addr = { .family = AF_INET, .prefix_len = 16 };
	struct netdev nds[2] = { { .name = "eth1", .addrs = addrs, .addr_count = 2 },
				 { .name = "eth0", .addrs = &other_addr, .addr_count = 1 } };
	struct rdma_port port = { .num = 1, .netdev = "eth1" };
	struct rdma_device dev = { .name = "rxe0", .ports = &port, .port_count = 1 };
	struct host host = { .devices = &dev, .device_count = 1, .netdevs = nds, .netdev_count = 2 };
	struct sockaddr_storage lo = v4("127.0.0.1"), lo6 = v6("::1"), rail = v4("10.88.0.2"),
				rail6 = v6("fd00:88::2"), mgmt = v4("172.16.3.4");
	struct allow_list l;
	char text[512];

	inet_pton(AF_INET6, "::ffff:10.88.0.1", &addrs[0].addr);
	inet_pton(AF_INET6, "fd00:88::1", &addrs[1].addr);
	inet_pton(AF_INET6, "::ffff:172.16.0.1", &other_addr.addr);
	allow_default(&l, &host);
	CHECK(allow_match(&l, &lo) && allow_match(&l, &lo6));
	CHECK(allow_match(&l, &rail) && allow_match(&l, &rail6));
	CHECK(!allow_match(&l, &mgmt));   /* eth0 carries no RDMA port */
	allow_list_text(&l, text, sizeof(text));
	CHECK_STR(text, "127.0.0.0/8, ::1/128, 10.88.0.0/24, fd00:88::/64");
}

int main(void)
{
	RUN(matches_ipv4_subnet_also_as_mapped_ipv6);
	RUN(matches_ipv6_prefix_and_single_host);
	RUN(any_and_zero_prefix_open_it_up);
	RUN(refuses_bad_text);
	RUN(default_is_loopback_and_rdma_netdev_subnets);
	TAP_DONE();
}
