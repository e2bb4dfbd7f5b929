// SPDX-License-Identifier: GPL-2.0-only
/* Kernel modules from /proc/modules, with /sys/module for built-ins and '-'/'_' spelled either way. */
#include "probe/modules.h"
#include "probe_tree.h"
#include "tap.h"

static void seed000_has_the_rdma_and_gpudirect_modules(void)
{
	struct probe_root r;
	struct module_list m;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(module_list_read(&r.root, &m, &r.notes) == 0);
	CHECK(m.proc_known && m.count == 9);
	CHECK(module_loaded(&m, "ib_uverbs") && module_loaded(&m, "rdma_ucm") && module_loaded(&m, "mlx5_ib"));
	CHECK(module_loaded(&m, "nvidia_peermem") && module_loaded(&m, "nvidia-peermem"));
	CHECK(!module_loaded(&m, "rdma_rxe") && !module_loaded(&m, "nvidia_peer") && !module_loaded(&m, "ib"));
	module_list_free(&m);
	probe_root_done(&r);
}

static void fresh_node_has_rxe_and_a_builtin_rdma_cm_only(void)
{
	struct probe_root r;
	struct module_list m;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	CHECK(module_list_read(&r.root, &m, &r.notes) == 0);
	CHECK(module_loaded(&m, "rdma-rxe"));
	CHECK(!module_loaded(&m, "ib_uverbs") && !module_loaded(&m, "rdma_ucm") && !module_loaded(&m, "nvidia_peermem"));
	CHECK(module_loaded(&m, "rdma_cm"));   /* from /sys/module only */
	for (size_t i = 0; i < m.count; i++) {
		if (strcmp(m.items[i].name, "rdma_cm") == 0)
			CHECK(m.items[i].builtin);
		if (strcmp(m.items[i].name, "ib_core") == 0)
			CHECK(!m.items[i].builtin);   /* listed in both: it is a loadable module */
	}
	module_list_free(&m);
	probe_root_done(&r);
}

static void no_proc_modules_is_not_an_error(void)
{
	struct probe_root r;
	struct module_list m;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "sys/module/ib_uverbs/version", "1\n");
	CHECK(module_list_read(&r.root, &m, &r.notes) == 0);
	CHECK(!m.proc_known && m.count == 1 && module_loaded(&m, "ib_uverbs"));
	CHECK(r.notes.count == 0);
	module_list_free(&m);
	probe_root_done(&r);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(seed000_has_the_rdma_and_gpudirect_modules);
	RUN(fresh_node_has_rxe_and_a_builtin_rdma_cm_only);
	RUN(no_proc_modules_is_not_an_error);
	TAP_DONE();
}
