// SPDX-License-Identifier: GPL-2.0-only
/* Port selections: every spelling of a port parsed alike, netdev names resolved, one message listing what exists. */
#include <errno.h>

#include "core/port_selection.h"
#include "fixture_host.h"
#include "tap.h"

static void selection_parses_dev_dev_port_both_separators_and_netdev(void)
{
	struct port_selection s;

	CHECK(port_selection_parse("mlx5_0", &s) == 0 && strcmp(s.name, "mlx5_0") == 0 && s.port == 0);
	CHECK(port_selection_parse("mlx5_0/1", &s) == 0 && strcmp(s.name, "mlx5_0") == 0 && s.port == 1);
	CHECK(port_selection_parse("mlx5_0:2", &s) == 0 && strcmp(s.name, "mlx5_0") == 0 && s.port == 2);
	CHECK(port_selection_parse("ens19f0np0", &s) == 0 && strcmp(s.name, "ens19f0np0") == 0 && s.port == 0);
	CHECK(port_selection_parse("mlx5_0/255", &s) == 0 && s.port == 255);
}

static void selection_refuses_empty_and_malformed(void)
{
	static const char *const bad[] = {
		"", "/1", ":1", "mlx5_0:", "mlx5_0/", "mlx5_0:x", "mlx5_0:0", "mlx5_0:01", "mlx5_0:256", "mlx5_0:1:2",
		"mlx5_0/1/2", "mlx5 0", "mlx5_0:-1", "mlx5_0:99999",
		"a-name-longer-than-sixty-three-characters-is-no-device-name-at-all-x",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct port_selection s;
		int ret = port_selection_parse(bad[i], &s);

		if (ret != -EINVAL)
			printf("# '%s' parsed (%d)\n", bad[i], ret);
		CHECK(ret == -EINVAL);
	}
}

static size_t count_matches(const struct host *host, const char *text)
{
	struct port_selection s;
	size_t n = 0;

	if (port_selection_parse(text, &s) < 0)
		return (size_t)-1;
	for (size_t i = 0; i < host->device_count; i++)
		for (size_t j = 0; j < host->devices[i].port_count; j++)
			n += port_selection_matches(&s, &host->devices[i], &host->devices[i].ports[j]);
	return n;
}

static void selection_netdev_name_selects_its_port(void)
{
	struct host host;
	struct port_selection s;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	CHECK(count_matches(&host, "ens19f1np1") == 1);
	CHECK(port_selection_parse("ens19f1np1", &s) == 0);
	CHECK(port_selection_matches(&s, host_find_device(&host, "mlx5_1"), fixture_port(&host, "mlx5_1", 1)));
	CHECK(!port_selection_matches(&s, host_find_device(&host, "mlx5_0"), fixture_port(&host, "mlx5_0", 1)));
	CHECK(count_matches(&host, "mlx5_0") == 1 && count_matches(&host, "mlx5_0/1") == 1);
	CHECK(count_matches(&host, "mlx5_0:1") == 1 && count_matches(&host, "ens19f0np0/1") == 1);
	CHECK(count_matches(&host, "mlx5_0/2") == 0 && count_matches(&host, "eth9") == 0);
	host_free(&host);
}

static void selection_check_lists_devices_and_netdevs(void)
{
	struct host host;
	struct port_selection s;
	char why[512];

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	CHECK(port_selection_parse("eth9", &s) == 0);
	CHECK(port_selection_check(&host, &s, why, sizeof(why)) == -ENOENT);
	CHECK_STR(why, "no RDMA device or netdev eth9 (devices: mlx5_0, mlx5_1; netdevs: ens19f0np0, ens19f1np1)");
	CHECK(port_selection_parse("ens19f0np0:2", &s) == 0);
	CHECK(port_selection_check(&host, &s, why, sizeof(why)) == -ENOENT);
	CHECK_STR(why, "ens19f0np0 has no port 2 (ports: mlx5_0/1)");
	CHECK(port_selection_parse("ens19f0np0", &s) == 0);
	CHECK(port_selection_check(&host, &s, why, sizeof(why)) == 0);
	CHECK(port_selection_check(&host, NULL, why, sizeof(why)) == 0);
	host_free(&host);

	CHECK(probe_fixture("no-rdma", &host) == 0);
	CHECK(port_selection_parse("mlx5_0", &s) == 0);
	CHECK(port_selection_check(&host, &s, why, sizeof(why)) == -ENOENT);
	CHECK_STR(why, "no RDMA device or netdev mlx5_0 (devices: none)");
	host_free(&host);
}

/* A message cut by a small buffer stays a terminated string. */
static void selection_check_message_is_bounded(void)
{
	struct host host;
	struct port_selection s;
	char why[24];

	CHECK(probe_fixture("eight-hca", &host) == 0);
	CHECK(port_selection_parse("nothing-here", &s) == 0);
	CHECK(port_selection_check(&host, &s, why, sizeof(why)) == -ENOENT);
	CHECK(strlen(why) == sizeof(why) - 1);
	host_free(&host);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(selection_parses_dev_dev_port_both_separators_and_netdev);
	RUN(selection_refuses_empty_and_malformed);
	RUN(selection_netdev_name_selects_its_port);
	RUN(selection_check_lists_devices_and_netdevs);
	RUN(selection_check_message_is_bounded);
	TAP_DONE();
}
