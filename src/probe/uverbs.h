/* The verbs character devices: /dev/infiniband/uverbsN per RDMA device (libibverbs opens it for every
 * ibv_open_device) and rdma_cm (librdmacm). Missing nodes mean no ib_uverbs, or a container started without
 * --device=/dev/infiniband. */
#ifndef ROCE_DOCTOR_UVERBS_H
#define ROCE_DOCTOR_UVERBS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/notes.h"
#include "util/rootfs.h"

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

int uverbs_probe(const struct rootfs *root, struct uverbs_probe *out, struct notes *notes);
void uverbs_probe_free(struct uverbs_probe *p);

#endif
