// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env on a GPU node: the rails (each GPU's nearest NICs, core/topo.h) go into NCCL_IB_HCA; a front-end NIC
 * that is slower than the rails or on a NUMA node no rail is on is left out, with why. Pure. */
#ifndef ROCE_DOCTOR_NCCL_RAILS_H
#define ROCE_DOCTOR_NCCL_RAILS_H

#include "core/nccl_env.h"
#include "model/pci.h"
#include "model/host.h"

/* view: host without the RDMA devices to leave out (a shallow copy: free only view->devices); lo/count: the
 * ports left out and why. With no GPU, no NIC or no rail, view is host as it is and count 0. 0 or -ENOMEM. */
int nccl_rails_view(const struct host *host, const struct pci_topology *t, struct host *view,
		    struct nccl_left_out *lo, size_t max, size_t *count);

/* After nccl_env_build on the view: NCCL_IB_HCA spelt against the whole host (NCCL matches names as prefixes
 * of every device there), and the rails' left-out ports added to env's. */
void nccl_rails_finish(const struct host *host, const struct nccl_left_out *lo, size_t count, struct nccl_env *env);

#endif
