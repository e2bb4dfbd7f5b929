// SPDX-License-Identifier: GPL-2.0-only
/* host_probe(): sysfs first (works under --root), then what only the live kernel can tell. */
#include "probe/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netcfg/addresses.h"
#include "netcfg/ethtool_linkmodes.h"
#include "netcfg/rdma_netlink.h"
#include "probe/sysfs_probes.h"
#include "verbs/port_attr.h"

static struct rdma_port *find_port(struct host *host, const char *dev, unsigned num)
{
	const struct rdma_device *d = host_find_device(host, dev);

	for (size_t p = 0; d && p < d->port_count; p++)
		if (d->ports[p].num == num)
			return &d->ports[p];
	return NULL;
}

/* The kernel's own port->netdev binding; a disagreement with sysfs is worth a warning. */
static void merge_rdma_netlink(struct host *host)
{
	struct rdma_nl_port *ports;
	size_t count;
	int ret = rdma_netlink_ports(&ports, &count);

	if (ret < 0) {
		if (host->device_count)
			notes_add(&host->warnings, "RDMA netlink unavailable (%s): port-to-netdev map from sysfs only",
				  strerror(-ret));
		return;
	}
	for (size_t i = 0; i < count; i++) {
		struct rdma_port *port = find_port(host, ports[i].dev, ports[i].port);

		if (!port)
			continue;
		port->netlink_known = true;
		if (ports[i].has_netdev) {
			strcpy(port->netdev_netlink, ports[i].netdev_name);
			port->netdev_netlink_index = ports[i].netdev_index;
		}
		if (strcmp(port->netdev, port->netdev_netlink) != 0)
			notes_add(&host->warnings, "%s port %u: sysfs says netdev \"%s\", RDMA netlink says \"%s\"",
				  ports[i].dev, ports[i].port, port->netdev, port->netdev_netlink);
		if (!port->netdev[0] && port->netdev_netlink[0]) {
			strcpy(port->netdev, port->netdev_netlink);
			strcpy(port->netdev_source, "netlink");
		}
	}
	free(ports);
}

/* Link modes only for the netdevs under Ethernet RDMA ports: one genetlink round trip each. */
static void fill_link_modes(struct host *host)
{
	for (size_t d = 0; d < host->device_count; d++) {
		for (size_t p = 0; p < host->devices[d].port_count; p++) {
			const struct rdma_port *port = &host->devices[d].ports[p];
			struct netdev *nd = (struct netdev *)host_find_netdev(host, port->netdev);
			struct link_modes modes;

			if (!nd || nd->modes_known || port->link_layer != LINK_LAYER_ETHERNET)
				continue;
			if (ethtool_link_modes(nd->name, &modes) < 0)
				continue;
			nd->modes_known = true;
			nd->max_supported_mbps = modes.max_supported_mbps;
			snprintf(nd->max_supported_mode, sizeof(nd->max_supported_mode), "%s", modes.max_supported_mode);
			if (modes.speed_mbps)
				nd->speed_mbps = (int)modes.speed_mbps;
		}
	}
}

int host_probe(struct host *host, const struct rootfs *root)
{
	int ret;

	memset(host, 0, sizeof(*host));
	host->live = root->live;
	ret = netdev_sysfs_probe(host, root);
	if (ret == 0)
		ret = rdma_sysfs_probe(host, root);
	if (ret < 0)
		return ret;
	if (!host->live)
		return 0;
	merge_rdma_netlink(host);
	ret = netlink_fill_addresses(host);
	if (ret < 0)
		notes_add(&host->warnings, "cannot read interface addresses through rtnetlink: %s", strerror(-ret));
	fill_link_modes(host);
	if (host->device_count && verbs_fill_port_mtus(host) < 0)
		notes_add(&host->warnings, "cannot list RDMA devices through verbs: port MTUs unknown");
	return 0;
}
