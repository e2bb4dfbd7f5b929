// SPDX-License-Identifier: GPL-2.0-only
/* uverbsN devices: their RDMA device, their /dev node, and access only asked when live. */
#include <unistd.h>

#include "probe/uverbs.h"
#include "probe_tree.h"
#include "tap.h"

static void seed000_maps_uverbs_to_mlx5_with_nodes(void)
{
	struct probe_root r;
	struct uverbs_probe p;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(uverbs_probe(&r.root, &p, &r.notes) == 0);
	CHECK(p.count == 2);
	if (p.count == 2) {
		CHECK_STR(p.devs[0].name, "uverbs0");
		CHECK_STR(p.devs[0].ibdev, "mlx5_0");
		CHECK_STR(p.devs[1].ibdev, "mlx5_1");
		CHECK(p.devs[0].node.exists && p.devs[1].node.exists);
		CHECK(!p.devs[0].node.access_known);   /* a replayed tree says nothing about our permissions */
	}
	CHECK(p.rdma_cm.exists && !p.rdma_cm.access_known);
	uverbs_probe_free(&p);
	probe_root_done(&r);
}

static void container_without_dev_infiniband_has_no_nodes(void)
{
	struct probe_root r;
	struct uverbs_probe p;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	CHECK(uverbs_probe(&r.root, &p, &r.notes) == 0);
	CHECK(p.count == 1 && strcmp(p.devs[0].ibdev, "rxe0") == 0 && !p.devs[0].node.exists);
	CHECK(!p.rdma_cm.exists);
	uverbs_probe_free(&p);
	probe_root_done(&r);
}

static void sorted_numerically_and_unreadable_ibdev_noted(void)
{
	struct probe_root r;
	struct uverbs_probe p;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "sys/class/infiniband_verbs/uverbs10/ibdev", "mlx5_10\n");
	TREE_PUT(&r.tree, "sys/class/infiniband_verbs/uverbs2/ibdev", "mlx5_2\n");
	TREE_PUT(&r.tree, "sys/class/infiniband_verbs/uverbs3/dev", "231:195\n");
	TREE_PUT(&r.tree, "sys/class/infiniband_verbs/abi_version", "6\n");
	CHECK(uverbs_probe(&r.root, &p, &r.notes) == 0);
	CHECK(p.count == 3);
	if (p.count == 3) {
		CHECK_STR(p.devs[0].name, "uverbs2");
		CHECK_STR(p.devs[1].name, "uverbs3");
		CHECK_STR(p.devs[1].ibdev, "");
		CHECK_STR(p.devs[2].name, "uverbs10");
	}
	CHECK(notes_mention(&r.notes, "uverbs3/ibdev"));
	uverbs_probe_free(&p);
	probe_root_done(&r);
}

static void live_asks_access_for_existing_nodes(void)
{
	struct notes notes = { 0 };
	struct uverbs_probe p;
	struct rootfs root;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(uverbs_probe(&root, &p, &notes) == 0);
	CHECK(p.rdma_cm.access_known == p.rdma_cm.exists);
	if (p.rdma_cm.exists)
		CHECK(p.rdma_cm.read_write == (access("/dev/infiniband/rdma_cm", R_OK | W_OK) == 0));
	for (size_t i = 0; i < p.count; i++)
		CHECK(p.devs[i].node.access_known == p.devs[i].node.exists);
	uverbs_probe_free(&p);
	rootfs_close(&root);
	notes_free(&notes);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(seed000_maps_uverbs_to_mlx5_with_nodes);
	RUN(container_without_dev_infiniband_has_no_nodes);
	RUN(sorted_numerically_and_unreadable_ibdev_noted);
	RUN(live_asks_access_for_existing_nodes);
	TAP_DONE();
}
