// SPDX-License-Identifier: GPL-2.0-only
/* The host model's pure accessors: freeing, lookup by name, and the names of its enums. */
#include "model/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void host_free(struct host *host)
{
	for (size_t d = 0; d < host->device_count; d++) {
		for (size_t p = 0; p < host->devices[d].port_count; p++)
			free(host->devices[d].ports[p].gids);
		free(host->devices[d].ports);
	}
	free(host->devices);
	for (size_t i = 0; i < host->netdev_count; i++)
		free(host->netdevs[i].addrs);
	free(host->netdevs);
	notes_free(&host->warnings);
	memset(host, 0, sizeof(*host));
}

const struct rdma_device *host_find_device(const struct host *host, const char *name)
{
	for (size_t i = 0; i < host->device_count; i++)
		if (strcmp(host->devices[i].name, name) == 0)
			return &host->devices[i];
	return NULL;
}

const struct netdev *host_find_netdev(const struct host *host, const char *name)
{
	for (size_t i = 0; i < host->netdev_count; i++)
		if (strcmp(host->netdevs[i].name, name) == 0)
			return &host->netdevs[i];
	return NULL;
}

const char *gid_type_name(enum gid_type type, enum link_layer ll)
{
	switch (type) {
	case GID_TYPE_IB_ROCE_V1:
		return ll == LINK_LAYER_INFINIBAND ? "IB" : "v1";
	case GID_TYPE_ROCE_V2:
		return "v2";
	default:
		return "unknown";
	}
}

const char *link_layer_name(enum link_layer ll)
{
	switch (ll) {
	case LINK_LAYER_ETHERNET:
		return "Ethernet";
	case LINK_LAYER_INFINIBAND:
		return "InfiniBand";
	default:
		return "unknown";
	}
}

void port_rate_text(const struct rdma_port *p, char *buf, size_t size)
{
	const char *open = strchr(p->rate, '('), *close = open ? strchr(open, ')') : NULL;

	if (p->rate_gbps <= 0) {
		snprintf(buf, size, "%s", p->rate);
		return;
	}
	if (open && close && close > open + 1)
		snprintf(buf, size, "%g Gb/s %.*s", p->rate_gbps, (int)(close - open + 1), open);
	else
		snprintf(buf, size, "%g Gb/s", p->rate_gbps);
}
