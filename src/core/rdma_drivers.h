// SPDX-License-Identifier: GPL-2.0-only
/* What each kind of RDMA device needs beside the NIC driver: the kernel module that makes the RDMA device and
 * the libibverbs provider (rdma-core's providers/NAME, listed in /etc/libibverbs.d/NAME.driver) that opens it.
 * kernel.modules, verbs.provider and rdma.devices read the same table. */
#ifndef ROCE_DOCTOR_RDMA_DRIVERS_H
#define ROCE_DOCTOR_RDMA_DRIVERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/host.h"

struct rdma_driver {
	const char *pci_driver;   /* the NIC's driver (/sys/class/infiniband/DEV/device/driver); NULL: software */
	const char *module;       /* the kernel module that makes the RDMA device: "mlx5_ib" */
	const char *provider;     /* the libibverbs provider: "mlx5" */
	const char *nic;          /* for messages: "ConnectX" */
	/* Every NIC of pci_driver has an RDMA function (ConnectX-3 and later, E810), so the driver loaded means an
	 * RDMA NIC is here; not so for i40e, whose X710 has none, or bnxt_en, whose older parts have none. */
	bool every_nic;
};

extern const struct rdma_driver rdma_drivers[];
extern const size_t rdma_driver_count;

/* The entry for d: by its PCI function's driver, else Soft-RoCE (rxe: named rxe*, or a virtual device with a
 * parent netdev) or Soft-iWARP (siw*); NULL when the kind is unknown. */
const struct rdma_driver *rdma_driver_of(const struct rdma_device *d);

#endif
