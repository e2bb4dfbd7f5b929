// SPDX-License-Identifier: GPL-2.0-only
/* ibv_query_port on every device the provider libraries can open. */
#include "verbs/port_attr.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <string.h>

int verbs_mtu_bytes(int mtu_enum)
{
	if (mtu_enum < IBV_MTU_256 || mtu_enum > IBV_MTU_4096)
		return 0;
	return 128 << mtu_enum;
}

static struct rdma_port *find_port(struct host *host, const char *dev, unsigned num)
{
	for (size_t d = 0; d < host->device_count; d++) {
		if (strcmp(host->devices[d].name, dev) != 0)
			continue;
		for (size_t p = 0; p < host->devices[d].port_count; p++)
			if (host->devices[d].ports[p].num == num)
				return &host->devices[d].ports[p];
	}
	return NULL;
}

static void query_device_ports(struct host *host, struct ibv_device *dev)
{
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_device_attr attr;

	if (!ctx) {
		notes_add(&host->warnings, "cannot open RDMA device %s through verbs: %s", ibv_get_device_name(dev),
			  strerror(errno));
		return;
	}
	if (ibv_query_device(ctx, &attr) == 0) {
		for (unsigned p = 1; p <= attr.phys_port_cnt; p++) {
			struct ibv_port_attr pattr;
			struct rdma_port *port = find_port(host, ibv_get_device_name(dev), p);

			if (port && ibv_query_port(ctx, (uint8_t)p, &pattr) == 0) {
				port->active_mtu = verbs_mtu_bytes(pattr.active_mtu);
				port->max_mtu = verbs_mtu_bytes(pattr.max_mtu);
			}
		}
	}
	ibv_close_device(ctx);
}

int verbs_fill_port_mtus(struct host *host)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	for (int i = 0; i < n; i++)
		query_device_ports(host, list[i]);
	ibv_free_device_list(list);
	return 0;
}
