// SPDX-License-Identifier: GPL-2.0-only
/* The order check reports its areas in. */
#include "core/checks.h"

void checks_run(const struct check_input *in, struct findings *out)
{
	check_rdma_devices(in, out);
	check_system(in, out);
	check_gpu_topology(in, out);
	check_memlock(in, out);
	check_firewall(in, out);
	if (in->host->device_count == 0) {
		check_nccl(in, out);   /* its rules that need no RDMA device: interfaces, plugin, names */
		return;
	}
	check_ports(in, out);
	check_netdevs(in, out);
	check_gids(in, out);
	check_same_subnet(in, out);
	check_nccl(in, out);
	check_lossless(in, out);
}
