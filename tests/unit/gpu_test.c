// SPDX-License-Identifier: GPL-2.0-only
/* NVIDIA GPUs from PCI vendor and class: display and 3D controllers, not their audio functions. */
#include "probe/gpu.h"
#include "probe_tree.h"
#include "tap.h"

static void seed000_has_two_nvidia_gpus(void)
{
	struct probe_root r;
	struct gpu_list g;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(gpu_list_read(&r.root, &g, &r.notes) == 0);
	CHECK(g.count == 2);
	if (g.count == 2) {
		CHECK_STR(g.items[0].pci_address, "0000:3b:00.0");
		CHECK(g.items[0].device_id == 0x2330 && g.items[0].class_code == 0x030200);
		CHECK_STR(g.items[0].driver, "nvidia");
		CHECK(g.items[0].numa_node == 0);
		CHECK_STR(g.items[1].pci_address, "0000:b1:00.0");
		CHECK(g.items[1].class_code == 0x030000 && g.items[1].numa_node == 1);
		CHECK_STR(g.items[1].driver, "");
	}
	gpu_list_free(&g);
	probe_root_done(&r);
}

static void virtio_vm_has_none(void)
{
	struct probe_root r;
	struct gpu_list g;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	CHECK(gpu_list_read(&r.root, &g, &r.notes) == 0);
	CHECK(g.count == 0);
	gpu_list_free(&g);
	probe_root_done(&r);
}

static void no_pci_bus_is_empty_not_an_error(void)
{
	struct probe_root r;
	struct gpu_list g;

	if (!probe_root_fixture(&r, "no-rdma"))
		return;
	CHECK(gpu_list_read(&r.root, &g, &r.notes) == 0);
	CHECK(g.count == 0);
	gpu_list_free(&g);
	probe_root_done(&r);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(seed000_has_two_nvidia_gpus);
	RUN(virtio_vm_has_none);
	RUN(no_pci_bus_is_empty_not_an_error);
	TAP_DONE();
}
