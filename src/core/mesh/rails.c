// SPDX-License-Identifier: GPL-2.0-only
/* A node's rails from its model: RoCE ports sorted by device name and port, whatever order sysfs listed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/rails.h"
#include "util/gidaddr.h"

/* The address a peer's bw reaches this rail at: IPv4 first, as RoCE v2 fabrics mostly run it. */
static void rail_address(const struct host *host, const char *netdev, char *out)
{
	const struct netdev *nd = netdev[0] ? host_find_netdev(host, netdev) : NULL;
	const struct ip_address *pick = NULL;

	out[0] = '\0';
	for (size_t i = 0; nd && i < nd->addr_count; i++)
		if (gid_is_link_local(&nd->addrs[i].addr))
			continue;   /* fe80:: needs a scope a peer cannot name */
		else if (!pick || (nd->addrs[i].family == AF_INET && pick->family != AF_INET))
			pick = &nd->addrs[i];
	if (pick)
		gid_format_ip(&pick->addr, out);
}

static int rail_order(const void *x, const void *y)
{
	const struct mesh_rail *a = x, *b = y;
	int c = strcmp(a->device, b->device);

	return c ? c : a->port < b->port ? -1 : a->port > b->port;
}

size_t mesh_rails_of_host(const struct host *host, struct mesh_rail *out, size_t max)
{
	size_t n = 0, all = 0;
	struct mesh_rail *tmp;

	for (size_t d = 0; d < host->device_count; d++)
		all += host->devices[d].port_count;
	tmp = calloc(all ? all : 1, sizeof(*tmp));
	if (!tmp)
		return 0;
	for (size_t d = 0; d < host->device_count; d++)
		for (size_t p = 0; p < host->devices[d].port_count; p++) {
			const struct rdma_port *port = &host->devices[d].ports[p];

			if (port->link_layer != LINK_LAYER_ETHERNET)
				continue;
			snprintf(tmp[n].device, sizeof(tmp[n].device), "%s", host->devices[d].name);
			tmp[n].port = port->num;
			snprintf(tmp[n].netdev, sizeof(tmp[n].netdev), "%s", port->netdev);
			rail_address(host, port->netdev, tmp[n].address);
			tmp[n].link_gbps = port->rate_gbps;
			n++;
		}
	qsort(tmp, n, sizeof(*tmp), rail_order);
	if (n > max)
		n = max;
	memcpy(out, tmp, n * sizeof(*out));
	free(tmp);
	return n;
}
