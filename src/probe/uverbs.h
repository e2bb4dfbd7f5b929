// SPDX-License-Identifier: GPL-2.0-only
/* The verbs character devices: /dev/infiniband/uverbsN per RDMA device (libibverbs opens it for every
 * ibv_open_device) and rdma_cm (librdmacm). Missing nodes mean no ib_uverbs, or a container started without
 * --device=/dev/infiniband. */
#ifndef ROCE_DOCTOR_UVERBS_H
#define ROCE_DOCTOR_UVERBS_H

#include "model/uverbs.h"
#include "util/notes.h"
#include "util/rootfs.h"

int uverbs_probe(const struct rootfs *root, struct uverbs_probe *out, struct notes *notes);
void uverbs_probe_free(struct uverbs_probe *p);

#endif
