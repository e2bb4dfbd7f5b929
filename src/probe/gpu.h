/* NVIDIA GPUs on the PCI bus: whether GPUDirect RDMA (nvidia_peermem, see probe/modules.h) matters here. */
#ifndef ROCE_DOCTOR_GPU_H
#define ROCE_DOCTOR_GPU_H

#include <stddef.h>

#include "util/notes.h"
#include "util/rootfs.h"

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

/* <root>/sys/bus/pci/devices/ADDR with vendor 0x10de and class 0x0300xx or 0x0302xx. 0 or -errno. */
int gpu_list_read(const struct rootfs *root, struct gpu_list *out, struct notes *notes);
void gpu_list_free(struct gpu_list *list);

#endif
