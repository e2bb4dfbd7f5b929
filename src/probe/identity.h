// SPDX-License-Identifier: GPL-2.0-only
/* The identity prober: host name, time, versions (kernel, rdma-core and its providers) and per RDMA device its
 * firmware, board and PCI function, for the snapshot document. */
#ifndef ROCE_DOCTOR_PROBE_IDENTITY_H
#define ROCE_DOCTOR_PROBE_IDENTITY_H

#include <time.h>

#include "model/identity.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* Fills *id; what the source cannot tell stays unknown (empty), never guessed. Live: uname, gethostname, the
 * loaded libibverbs' real file name and the providers beside it. Under --root: what the tree holds
 * (proc/sys/kernel/hostname or etc/hostname, proc/sys/kernel/osrelease, the sysfs files), nothing of this
 * process's libraries. Devices are host's (their fw_ver, driver and PCI address too), board_id and hca_type
 * read from sysfs. Warnings go to notes. 0 or -errno. */
int identity_probe(struct identity *id, const struct rootfs *root, const struct host *host, time_t now,
		   struct notes *notes);

/* "libibverbs.so.1.14.44.0" -> "44.0": rdma-core names the library's file after its own version (the part
 * after the ABI's major and minor). 0, or -EINVAL when the name has no such version. */
int identity_rdma_core_version(const char *file_name, char *buf, size_t size);

#endif
