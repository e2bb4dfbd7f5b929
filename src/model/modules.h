// SPDX-License-Identifier: GPL-2.0-only
/* Loaded kernel modules as data (probe/modules.h reads them): ib_uverbs, mlx5_ib, nvidia_peermem... */
#ifndef ROCE_DOCTOR_MODEL_MODULES_H
#define ROCE_DOCTOR_MODEL_MODULES_H

#include <stdbool.h>
#include <stddef.h>

struct kernel_module {
	char name[64];               /* as the kernel spells it (underscores) */
	bool builtin;                /* only in /sys/module: compiled into the kernel, or a module whose
	                                /proc/modules line was not there */
};

struct module_list {
	struct kernel_module *items;
	size_t count;
	bool proc_known;             /* /proc/modules was readable */
};

/* name may use '-' or '_' ("rdma-rxe" and "rdma_rxe" are the same module). */
bool module_loaded(const struct module_list *list, const char *name);

#endif
