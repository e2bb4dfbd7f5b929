/* arp_ignore / arp_announce in effect: the larger of "all" and the device's own. */
#include "probe/sysctl_arp.h"
#include "probe_tree.h"
#include "tap.h"

static void device_setting_wins_when_larger(void)
{
	struct arp_sysctl a;
	struct rootfs root;

	if (open_fixture(&root, "check-seed000") < 0) {
		CHECK(0);
		return;
	}
	CHECK(arp_sysctl_read(&root, "ens19f0np0", &a) == 0);
	CHECK(a.all_ignore == 0 && a.dev_ignore == 1 && a.ignore == 1);
	CHECK(a.all_announce == 1 && a.dev_announce == 2 && a.announce == 2);
	rootfs_close(&root);
}

static void all_setting_wins_when_larger(void)
{
	struct arp_sysctl a;
	struct rootfs root;

	if (open_fixture(&root, "check-seed000") < 0) {
		CHECK(0);
		return;
	}
	CHECK(arp_sysctl_read(&root, "ens19f1np1", &a) == 0);
	CHECK(a.ignore == 0 && a.dev_announce == 0 && a.announce == 1);
	rootfs_close(&root);
}

static void unknown_device_and_bad_names_fail(void)
{
	struct arp_sysctl a;
	struct rootfs root;

	if (open_fixture(&root, "check-seed000") < 0) {
		CHECK(0);
		return;
	}
	CHECK(arp_sysctl_read(&root, "eth9", &a) == -ENOENT);
	CHECK(arp_sysctl_read(&root, "../conf/all", &a) == -EINVAL);
	CHECK(arp_sysctl_read(&root, "..", &a) == -EINVAL);
	rootfs_close(&root);
}

static void garbage_value_is_invalid(void)
{
	struct arp_sysctl a;
	struct rootfs root;
	struct tree t;

	CHECK(tree_make(&t) == 0);
	TREE_PUT(&t, "proc/sys/net/ipv4/conf/all/arp_ignore", "0\n");
	TREE_PUT(&t, "proc/sys/net/ipv4/conf/all/arp_announce", "two\n");
	TREE_PUT(&t, "proc/sys/net/ipv4/conf/eth0/arp_ignore", "1\n");
	TREE_PUT(&t, "proc/sys/net/ipv4/conf/eth0/arp_announce", "2\n");
	CHECK(rootfs_open(&root, t.dir) == 0);
	CHECK(arp_sysctl_read(&root, "eth0", &a) == -EINVAL);
	rootfs_close(&root);
	tree_remove(&t);
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
