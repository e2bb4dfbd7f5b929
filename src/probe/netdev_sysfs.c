// SPDX-License-Identifier: GPL-2.0-only
/* /sys/class/net: the netdevs RDMA ports sit on, and the rest for NCCL_SOCKET_IFNAME. */
#include "probe/sysfs_probes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NETDEVS_MAX HOST_NETDEVS_MAX

static int compare_netdevs(const void *a, const void *b)
{
	return strverscmp(((const struct netdev *)a)->name, ((const struct netdev *)b)->name);
}

static void read_netdev(const struct rootfs *root, struct netdev *nd)
{
	char text[64];
	int ret;

	if (rootfs_read(root, text, sizeof(text), "sys/class/net/%s/ifindex", nd->name) >= 0)
		nd->ifindex = atoi(text);
	nd->speed_mbps = rootfs_read(root, text, sizeof(text), "sys/class/net/%s/speed", nd->name) >= 0 ? atoi(text) : -1;
	if (nd->speed_mbps <= 0)
		nd->speed_mbps = -1;
	if (rootfs_read(root, text, sizeof(text), "sys/class/net/%s/mtu", nd->name) >= 0)
		nd->mtu = atoi(text);
	ret = rootfs_read(root, text, sizeof(text), "sys/class/net/%s/carrier", nd->name);
	nd->carrier = ret >= 0 ? atoi(text) == 1 : ret == -ENOENT ? -1 : 0;   /* down links fail with EINVAL */
	if (rootfs_read(root, nd->operstate, sizeof(nd->operstate), "sys/class/net/%s/operstate", nd->name) < 0)
		nd->operstate[0] = '\0';
}

int netdev_sysfs_probe(struct host *host, const struct rootfs *root)
{
	struct dirent *de;
	DIR *dir;

	dir = rootfs_opendir(root, "sys/class/net");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	host->netdevs = calloc(NETDEVS_MAX, sizeof(*host->netdevs));
	if (!host->netdevs) {
		closedir(dir);
		return -ENOMEM;
	}
	while ((de = readdir(dir)) && host->netdev_count < NETDEVS_MAX) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= IF_NAMESIZE)
			continue;
		if (!rootfs_exists(root, "sys/class/net/%s/ifindex", de->d_name))
			continue;   /* bonding_masters and other plain files */
		snprintf(host->netdevs[host->netdev_count++].name, IF_NAMESIZE, "%s", de->d_name);
	}
	closedir(dir);
	qsort(host->netdevs, host->netdev_count, sizeof(*host->netdevs), compare_netdevs);
	for (size_t i = 0; i < host->netdev_count; i++)
		read_netdev(root, &host->netdevs[i]);
	return 0;
}
