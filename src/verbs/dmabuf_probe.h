// SPDX-License-Identifier: GPL-2.0-only
/* NCCL's own test of the RDMA side of GPUDirect over dma-buf (net_ib ncclIbDmaBufSupport). */
#ifndef ROCE_DOCTOR_DMABUF_PROBE_H
#define ROCE_DOCTOR_DMABUF_PROBE_H

#include "model/gpudirect.h"

/* On each RDMA device the provider libraries list (at most GPUDIRECT_NICS_MAX): open it, allocate a PD and call
 * ibv_reg_dmabuf_mr(pd, 0, 0, 0, fd -1, 0) as NCCL does, recording the errno it leaves. Sets nics_tested.
 * 0, or -errno when the device list itself cannot be had. */
int verbs_test_dmabuf(struct gpudirect_info *out);

#endif
