// SPDX-License-Identifier: GPL-2.0-only
/* memlock.register: open a device, allocate a PD, register a buffer, release all in reverse order. */
#include "verbs/mr_probe.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What backs the probe's address range: one shared memory file of this size, mapped over and over. */
#define BACKING_BYTES (2u << 20)

/* A read-write range of `bytes` whose pages are the same BACKING_BYTES of a memfd, repeated. Pinning it costs
 * what pinning `bytes` of a real buffer costs against RLIMIT_MEMLOCK (ib_umem_get adds the range's page count
 * to the process's pinned_vm before it pins anything, one per virtual page), so the verdict is the same as
 * with a private buffer; but the probe neither zeroes nor holds 256 MiB of memory (an RSS spike on a busy
 * node, and seconds of page clearing under emulation). MAP_FAILED with errno set on failure. */
static void *map_repeated(size_t bytes)
{
	int fd = memfd_create("roce-doctor-mr-probe", MFD_CLOEXEC), err;
	char *base;

	if (fd < 0)
		return MAP_FAILED;
	if (ftruncate(fd, BACKING_BYTES) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return MAP_FAILED;
	}
	/* reserve the whole range first, then lay the file over it piece by piece */
	base = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	for (size_t off = 0; base != MAP_FAILED && off < bytes; off += BACKING_BYTES) {
		size_t len = bytes - off < BACKING_BYTES ? bytes - off : BACKING_BYTES;

		if (mmap(base + off, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
			err = errno;
			munmap(base, bytes);
			errno = err;
			base = MAP_FAILED;
		}
	}
	err = errno;
	close(fd);
	errno = err;
	return base;
}

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
	buf = map_repeated(bytes);
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
