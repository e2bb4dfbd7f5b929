// SPDX-License-Identifier: GPL-2.0-only
/* The host side of GPUDirect over dma-buf that a file can tell: the NVIDIA module's flavour and version, the
 * kernel release. */
#ifndef ROCE_DOCTOR_PROBE_GPUDIRECT_H
#define ROCE_DOCTOR_PROBE_GPUDIRECT_H

#include "model/gpudirect.h"
#include "util/rootfs.h"

/* Fills flavor, driver_version and kernel_release from /proc/driver/nvidia/version, /sys/module/nvidia/version
 * and /proc/sys/kernel/osrelease; what is absent stays unknown. The NIC test is not run here. */
void gpudirect_read(const struct rootfs *root, struct gpudirect_info *out);

/* The first line of /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64
 * 580.159.04  Release Build ...") into its flavour and version (size >= 1). 0, or -EINVAL for another text. */
int nvidia_version_line_parse(const char *line, enum nvidia_flavor *flavor, char *version, size_t size);

#endif
