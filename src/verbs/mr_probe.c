// SPDX-License-Identifier: GPL-2.0-only
/* memlock.register: open a device, allocate a PD, register a buffer, release all in reverse order. */
#include "verbs/mr_probe.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int verbs_try_register(const char *dev, size_t bytes, char *device, size_t device_size, const char **step)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	void *buf = MAP_FAILED;
	int n = 0, ret;

	device[0] = '\0';
	*step = "ibv_get_device_list";
	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	ret = -ENODEV;
	for (int i = 0; i < n && !ctx; i++) {
		if (dev && strcmp(ibv_get_device_name(list[i]), dev) != 0)
			continue;
		snprintf(device, device_size, "%s", ibv_get_device_name(list[i]));
		*step = "ibv_open_device";
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			ret = -errno;
	}
	if (!ctx)
		goto out_list;
	*step = "ibv_alloc_pd";
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		ret = errno ? -errno : -ENOMEM;
		goto out_ctx;
	}
	*step = "mmap";
	buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		ret = -errno;
		goto out_pd;
	}
	*step = "ibv_reg_mr";
	mr = ibv_reg_mr(pd, buf, bytes, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	ret = mr ? 0 : errno ? -errno : -ENOMEM;
	if (mr)
		ibv_dereg_mr(mr);
	munmap(buf, bytes);
out_pd:
	ibv_dealloc_pd(pd);
out_ctx:
	ibv_close_device(ctx);
out_list:
	ibv_free_device_list(list);
	return ret;
}
