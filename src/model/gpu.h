// SPDX-License-Identifier: GPL-2.0-only
/* NVIDIA GPUs on the PCI bus, as data (probe/gpu.h lists them). */
#ifndef ROCE_DOCTOR_MODEL_GPU_H
#define ROCE_DOCTOR_MODEL_GPU_H

#include <stddef.h>

struct nvidia_gpu {
	char pci_address[16];        /* "0000:3b:00.0" */
	unsigned device_id;          /* PCI device id: 0x2330 (H100 SXM) */
	unsigned class_code;         /* 0x030000 VGA or 0x030200 3D controller */
	char driver[32];             /* bound driver ("nvidia", "nouveau", "vfio-pci"); empty when none */
	int numa_node;               /* -1 unknown */
};

struct gpu_list {
	struct nvidia_gpu *items;    /* sorted by PCI address */
	size_t count;
};

#endif
