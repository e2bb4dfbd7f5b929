// SPDX-License-Identifier: GPL-2.0-only
/* Whether this process can really pin memory for RDMA: one ibv_reg_mr of a large buffer. */
#ifndef ROCE_DOCTOR_MR_PROBE_H
#define ROCE_DOCTOR_MR_PROBE_H

#include <stddef.h>

/* Registers bytes on the first device the provider libraries can open (or on dev when not NULL).
 * 0 on success; -errno of the failing step, whose call *step names ("ibv_open_device", "ibv_alloc_pd",
 * "mmap", "ibv_reg_mr"; "ibv_get_device_list" when no device was there to open). device receives the name
 * tried (size >= 64). */
int verbs_try_register(const char *dev, size_t bytes, char *device, size_t device_size, const char **step);

#endif
