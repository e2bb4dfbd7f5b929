// SPDX-License-Identifier: GPL-2.0-only
/* arp_ignore / arp_announce in effect: the larger of "all" and the device's own. */
#include "probe/sysctl_arp.h"
#include "probe_tree.h"
#include "tap.h"

static void device_setting_wins_when_larger(void)
{
	struct arp_sysctl a;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(arp_sysctl_read(&r.root, "ens19f0np0", &a) == 0);
	CHECK(a.all_ignore == 0 && a.dev_ignore == 1 && a.ignore == 1);
	CHECK(a.all_announce == 1 && a.dev_announce == 2 && a.announce == 2);
	probe_root_done(&r);
}

static void all_setting_wins_when_larger(void)
{
	struct arp_sysctl a;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(arp_sysctl_read(&r.root, "ens19f1np1", &a) == 0);
	CHECK(a.ignore == 0 && a.dev_announce == 0 && a.announce == 1);
	probe_root_done(&r);
}

static void unknown_device_and_bad_names_fail(void)
{
	struct arp_sysctl a;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(arp_sysctl_read(&r.root, "eth9", &a) == -ENOENT);
	CHECK(arp_sysctl_read(&r.root, "../conf/all", &a) == -EINVAL);
	CHECK(arp_sysctl_read(&r.root, "..", &a) == -EINVAL);
	probe_root_done(&r);
}

static void garbage_value_is_invalid(void)
{
	struct arp_sysctl a;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "proc/sys/net/ipv4/conf/all/arp_ignore", "0\n");
	TREE_PUT(&r.tree, "proc/sys/net/ipv4/conf/all/arp_announce", "two\n");
	TREE_PUT(&r.tree, "proc/sys/net/ipv4/conf/eth0/arp_ignore", "1\n");
	TREE_PUT(&r.tree, "proc/sys/net/ipv4/conf/eth0/arp_announce", "2\n");
	CHECK(arp_sysctl_read(&r.root, "eth0", &a) == -EINVAL);
	probe_root_done(&r);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(device_setting_wins_when_larger);
	RUN(all_setting_wins_when_larger);
	RUN(unknown_device_and_bad_names_fail);
	RUN(garbage_value_is_invalid);
	TAP_DONE();
}
