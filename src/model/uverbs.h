// SPDX-License-Identifier: GPL-2.0-only
/* The verbs character device nodes as data (probe/uverbs.h looks them up). */
#ifndef ROCE_DOCTOR_MODEL_UVERBS_H
#define ROCE_DOCTOR_MODEL_UVERBS_H

#include <stdbool.h>
#include <stddef.h>

struct dev_node {
	bool exists;                 /* <root>/dev/infiniband/NAME */
	bool access_known;           /* live only: access(2) was asked */
	bool read_write;             /* this user may open it read-write */
};

struct uverbs_dev {
	char name[16];               /* "uverbs0" */
	char ibdev[64];              /* sys/class/infiniband_verbs/uverbsN/ibdev: "mlx5_0"; empty if unreadable */
	struct dev_node node;
};

struct uverbs_probe {
	struct uverbs_dev *devs;     /* ascending N */
	size_t count;
	struct dev_node rdma_cm;     /* /dev/infiniband/rdma_cm */
};

#endif
