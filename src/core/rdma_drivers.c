// SPDX-License-Identifier: GPL-2.0-only
/* The table behind rdma_drivers.h. Module names as the kernel spells them (drivers/infiniband/hw); provider
 * names as rdma-core installs them (/etc/libibverbs.d/NAME.driver, whose VERBS_PCI_MATCH/VERBS_DRIVER_ID
 * tables match the device these PCI drivers bind). */
#include "core/rdma_drivers.h"

#include <string.h>

const struct rdma_driver rdma_drivers[] = {
	{ "mlx5_core", "mlx5_ib", "mlx5", "ConnectX", true },
	{ "mlx4_core", "mlx4_ib", "mlx4", "ConnectX-3", true },
	{ "bnxt_en", "bnxt_re", "bnxt_re", "Broadcom NetXtreme", false },
	{ "ice", "irdma", "irdma", "Intel E810", true },
	{ "i40e", "irdma", "irdma", "Intel X722", false },
	{ "qede", "qedr", "qedr", "QLogic FastLinQ", false },
	{ "hns3", "hns_roce_hw_v2", "hns", "HiSilicon", false },
	{ "erdma", "erdma", "erdma", "Alibaba elastic RDMA", false },
	{ "ionic", "ionic_rdma", "ionic", "AMD Pensando", false },
	{ "efa", "efa", "efa", "AWS EFA", false },
	{ "mana", "mana_ib", "mana", "Microsoft MANA", false },
	{ "be2net", "ocrdma", "ocrdma", "Emulex OneConnect", false },
	{ "vmw_pvrdma", "vmw_pvrdma", "vmw_pvrdma", "VMware paravirtual RDMA", false },
	{ "cxgb4", "iw_cxgb4", "cxgb4", "Chelsio T4-T6", false },
	{ NULL, "rdma_rxe", "rxe", "Soft-RoCE", false },
	{ NULL, "siw", "siw", "Soft-iWARP", false },
};

const size_t rdma_driver_count = sizeof(rdma_drivers) / sizeof(rdma_drivers[0]);

static const struct rdma_driver *software(const char *module)
{
	for (size_t i = 0; i < rdma_driver_count; i++)
		if (!rdma_drivers[i].pci_driver && strcmp(rdma_drivers[i].module, module) == 0)
			return &rdma_drivers[i];
	return NULL;
}

const struct rdma_driver *rdma_driver_of(const struct rdma_device *d)
{
	for (size_t i = 0; d->driver[0] && i < rdma_driver_count; i++)
		if (rdma_drivers[i].pci_driver && strcmp(d->driver, rdma_drivers[i].pci_driver) == 0)
			return &rdma_drivers[i];
	/* rdma_rxe names its devices as `rdma link add` is told; only rxe devices show a parent netdev in sysfs */
	if (strncmp(d->name, "rxe", 3) == 0 || (!d->pci_address[0] && d->parent[0] && strncmp(d->name, "siw", 3)))
		return software("rdma_rxe");
	if (strncmp(d->name, "siw", 3) == 0)
		return software("siw");
	return NULL;
}
