// SPDX-License-Identifier: GPL-2.0-only
/* What GPUDirect RDMA over dma-buf depends on, as data: probe/gpudirect.c reads the NVIDIA module and the kernel
 * (live or under --root), verbs/dmabuf_probe.c runs NCCL's own RDMA-side test (live only), core/gpudirect.c
 * judges, system_json carries it (member "gpudirect"). CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, the CUDA side of
 * NCCL's test, needs CUDA: the module flavour and version stand in for it (see docs/gpu.md). */
#ifndef ROCE_DOCTOR_MODEL_GPUDIRECT_H
#define ROCE_DOCTOR_MODEL_GPUDIRECT_H

#include <stdbool.h>
#include <stddef.h>

#define GPUDIRECT_NICS_MAX 32

enum nvidia_flavor {
	NVIDIA_FLAVOR_UNKNOWN,       /* no /proc/driver/nvidia/version: driver not loaded, or not captured */
	NVIDIA_FLAVOR_OPEN,          /* "NVIDIA UNIX Open Kernel Module": exports GPU memory as dma-buf */
	NVIDIA_FLAVOR_PROPRIETARY,   /* "NVIDIA UNIX x86_64 Kernel Module": no dma-buf, nvidia_peermem only */
};

/* How far NCCL's test (ibv_reg_dmabuf_mr with fd -1) got on one RDMA device. */
enum dmabuf_step {
	DMABUF_STEP_REG,             /* the call ran: err is the errno it left */
	DMABUF_STEP_OPEN,            /* ibv_open_device failed with err: untested */
	DMABUF_STEP_PD,              /* ibv_alloc_pd failed with err: untested */
};

struct dmabuf_nic {
	char device[64];
	enum dmabuf_step step;
	int err;                     /* positive errno; 0: the call succeeded (no kernel does with fd -1) */
};

struct gpudirect_info {
	enum nvidia_flavor flavor;
	char driver_version[32];     /* "580.159.04" (/sys/module/nvidia/version, else the version line); "" unknown */
	char kernel_release[64];     /* /proc/sys/kernel/osrelease; "" unknown */
	bool nics_tested;            /* the live test ran: false under --root, without a GPU or an RDMA device */
	struct dmabuf_nic nics[GPUDIRECT_NICS_MAX];
	size_t nic_count;
};

/* NCCL's reading of the test (net_ib gdr.cc): anything but EOPNOTSUPP or EPROTONOSUPPORT means the kernel and the
 * provider take dma-buf MRs (EBADF for the fd -1 is the usual answer). false for an untested device. */
bool dmabuf_nic_supported(const struct dmabuf_nic *n);

#endif
