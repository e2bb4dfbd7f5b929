// SPDX-License-Identifier: GPL-2.0-only
/* net.ipv4.ip_local_port_range, and the captured environment of check --root: two small procfs readers. */
#include "probe/local_ports.h"
#include "probe/proc_environ.h"
#include "probe_tree.h"
#include "tap.h"

#include <errno.h>

static void port_range_from_the_seed_tree(void)
{
	struct probe_root r;
	unsigned lo = 0, hi = 0;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(local_port_range_read(&r.root, &lo, &hi) == 0 && lo == 49152 && hi == 65535);
	probe_root_done(&r);
}

static void port_range_refuses_what_is_not_two_ports(void)
{
	static const char *bad[] = { "60999 32768\n", "32768\n", "32768 70000\n", "32768 60999 1\n", "a b\n", "" };
	struct probe_root r;
	unsigned lo, hi;

	if (!probe_root_tree(&r))
		return;
	CHECK(local_port_range_read(&r.root, &lo, &hi) == -ENOENT);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tree_put(&r.tree, "proc/sys/net/ipv4/ip_local_port_range", bad[i], strlen(bad[i]));
		CHECK(local_port_range_read(&r.root, &lo, &hi) == -EINVAL);
	}
	TREE_PUT(&r.tree, "proc/sys/net/ipv4/ip_local_port_range", "1024\t65535\n");
	CHECK(local_port_range_read(&r.root, &lo, &hi) == 0 && lo == 1024 && hi == 65535);
	probe_root_done(&r);
}

static void environ_skips_empty_strings_and_stops_at_max(void)
{
	static const char env[] = "HOME=/home/tutu\0\0NCCL_IB_HCA=mlx5_0\0NCCL_DEBUG=INFO";   /* last one unterminated */
	struct probe_root r;
	char buf[256], *envp[4];

	if (!probe_root_tree(&r))
		return;
	CHECK(proc_environ_read(&r.root, "proc/self/environ", buf, sizeof(buf), envp, 3) == -ENOENT && !envp[0]);
	tree_put(&r.tree, "proc/self/environ", env, sizeof(env) - 1);
	CHECK(proc_environ_read(&r.root, "proc/self/environ", buf, sizeof(buf), envp, 3) == 3);
	CHECK_STR(envp[0], "HOME=/home/tutu");
	CHECK_STR(envp[1], "NCCL_IB_HCA=mlx5_0");
	CHECK_STR(envp[2], "NCCL_DEBUG=INFO");
	CHECK(envp[3] == NULL);
	CHECK(proc_environ_read(&r.root, "proc/self/environ", buf, sizeof(buf), envp, 1) == 1 && envp[1] == NULL);
	probe_root_done(&r);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(port_range_from_the_seed_tree);
	RUN(port_range_refuses_what_is_not_two_ports);
	RUN(environ_skips_empty_strings_and_stops_at_max);
	TAP_DONE();
}
