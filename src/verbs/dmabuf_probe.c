// SPDX-License-Identifier: GPL-2.0-only
/* gpu.peermem's NIC side: a dma-buf MR of fd -1 on every device. The kernel answers EBADF once it has got as far
 * as looking the fd up, that is when uverbs has the method and the provider implements it; EOPNOTSUPP (provider
 * without reg_user_mr_dmabuf, or a libibverbs without the verb) or EPROTONOSUPPORT (kernel without the ioctl
 * method) otherwise. NCCL reads the errno the same way. */
#include "verbs/dmabuf_probe.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>

static void test_one(struct ibv_device *dev, struct dmabuf_nic *n)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;

	snprintf(n->device, sizeof(n->device), "%s", ibv_get_device_name(dev));
	n->step = DMABUF_STEP_OPEN;
	ctx = ibv_open_device(dev);
	if (!ctx) {
		n->err = errno ? errno : ENODEV;
		return;
	}
	n->step = DMABUF_STEP_PD;
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		n->err = errno ? errno : ENOMEM;
		goto out_ctx;
	}
	n->step = DMABUF_STEP_REG;
	errno = 0;
	mr = ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
	n->err = mr ? 0 : errno;
	if (mr)
		ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
out_ctx:
	ibv_close_device(ctx);
}

int verbs_test_dmabuf(struct gpudirect_info *out)
{
	struct ibv_device **list;
	int n = 0;

	out->nic_count = 0;
	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	for (int i = 0; i < n && out->nic_count < GPUDIRECT_NICS_MAX; i++)
		test_one(list[i], &out->nics[out->nic_count++]);
	out->nics_tested = true;
	ibv_free_device_list(list);
	return 0;
}
