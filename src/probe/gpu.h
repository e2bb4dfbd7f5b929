// SPDX-License-Identifier: GPL-2.0-only
/* NVIDIA GPUs on the PCI bus: whether GPUDirect RDMA (nvidia_peermem, see probe/modules.h) matters here. */
#ifndef ROCE_DOCTOR_GPU_H
#define ROCE_DOCTOR_GPU_H

#include "model/gpu.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* <root>/sys/bus/pci/devices/ADDR with vendor 0x10de and class 0x0300xx or 0x0302xx. 0 or -errno. */
int gpu_list_read(const struct rootfs *root, struct gpu_list *out, struct notes *notes);
void gpu_list_free(struct gpu_list *list);

#endif
