// SPDX-License-Identifier: GPL-2.0-only
/* Loaded kernel modules: ib_uverbs, rdma_ucm, mlx5_ib, rdma_rxe, nvidia_peermem and friends. */
#ifndef ROCE_DOCTOR_MODULES_H
#define ROCE_DOCTOR_MODULES_H

#include "model/modules.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* <root>/proc/modules, then <root>/sys/module/NAME for what is built in. 0 or -errno. */
int module_list_read(const struct rootfs *root, struct module_list *out, struct notes *notes);
void module_list_free(struct module_list *list);

#endif
