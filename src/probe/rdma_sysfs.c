// SPDX-License-Identifier: GPL-2.0-only
/* /sys/class/infiniband: one rdma_device per entry, its ports, and the netdev each port sits on. */
#include "probe/sysfs_probes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEVICES_MAX HOST_DEVICES_MAX
#define PORTS_MAX HOST_PORTS_MAX

static int compare_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int numeric_entries(const struct rootfs *root, unsigned **out, size_t *count, size_t max, const char *dirpath)
{
	struct dirent *de;
	unsigned *list;
	DIR *dir;

	*out = NULL;
	*count = 0;
	dir = rootfs_opendir(root, "%s", dirpath);
	if (!dir)
		return -errno;
	list = calloc(max, sizeof(*list));
	if (!list) {
		closedir(dir);
		return -ENOMEM;
	}
	while ((de = readdir(dir)) && *count < max) {
		char *end;
		unsigned long v;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		errno = 0;
		v = strtoul(de->d_name, &end, 10);
		if (*end || errno || v > 0xffffffffUL)
			continue;
		list[(*count)++] = (unsigned)v;
	}
	closedir(dir);
	qsort(list, *count, sizeof(*list), compare_unsigned);
	*out = list;
	return 0;
}

/* "4: ACTIVE" -> 4, "ACTIVE" */
static void parse_numbered_state(const char *text, int *num, char *name, size_t size)
{
	char *end;
	long v = strtol(text, &end, 10);

	*num = -1;
	name[0] = '\0';
	if (end == text || *end != ':')
		return;
	*num = (int)v;
	end++;
	while (*end == ' ')
		end++;
	snprintf(name, size, "%s", end);
}

/* "0x5" (the kernel prints LIDs in hex): false when unreadable or not a 16-bit number. */
static bool read_lid(const struct rootfs *root, const char *dev, unsigned port, const char *file, unsigned *lid)
{
	char text[32], *end;
	unsigned long v;

	if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/ports/%u/%s", dev, port, file) < 0)
		return false;
	errno = 0;
	v = strtoul(text, &end, 16);
	if (end == text || *end || errno || v > 0xffff)
		return false;
	*lid = (unsigned)v;
	return true;
}

static void read_port_attrs(const struct rootfs *root, const char *dev, struct rdma_port *port)
{
	char text[128];

	if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/ports/%u/state", dev, port->num) >= 0)
		parse_numbered_state(text, &port->state, port->state_name, sizeof(port->state_name));
	else
		port->state = -1;
	if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/ports/%u/phys_state", dev, port->num) >= 0)
		parse_numbered_state(text, &port->phys_state, port->phys_state_name, sizeof(port->phys_state_name));
	else
		port->phys_state = -1;
	if (rootfs_read(root, port->rate, sizeof(port->rate), "sys/class/infiniband/%s/ports/%u/rate", dev,
			port->num) >= 0)
		port->rate_gbps = strtod(port->rate, NULL);
	else
		port->rate[0] = '\0';
	if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/ports/%u/link_layer", dev, port->num) >= 0) {
		if (strcmp(text, "Ethernet") == 0)
			port->link_layer = LINK_LAYER_ETHERNET;
		else if (strcmp(text, "InfiniBand") == 0)
			port->link_layer = LINK_LAYER_INFINIBAND;
	}
	if (port->link_layer == LINK_LAYER_INFINIBAND) {
		port->lid_known = read_lid(root, dev, port->num, "lid", &port->lid);
		port->sm_lid_known = read_lid(root, dev, port->num, "sm_lid", &port->sm_lid);
	}
}

/* A multi-port PCI function lists all its netdevs under device/net; dev_port tells which is which. */
static void netdev_from_pci_function(const struct rootfs *root, const char *dev, struct rdma_port *port)
{
	char text[32], match[IF_NAMESIZE] = "";
	struct dirent *de;
	int found = 0;
	DIR *dir;

	dir = rootfs_opendir(root, "sys/class/infiniband/%s/device/net", dev);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= IF_NAMESIZE)
			continue;
		if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/device/net/%s/dev_port", dev,
				de->d_name) >= 0 &&
		    strtoul(text, NULL, 0) == port->num - 1) {
			snprintf(match, sizeof(match), "%s", de->d_name);
			found++;
		}
	}
	closedir(dir);
	if (found == 1) {
		snprintf(port->netdev, sizeof(port->netdev), "%s", match);
		snprintf(port->netdev_source, sizeof(port->netdev_source), "dev_port");
	}
}

static void find_port_netdev(const struct rootfs *root, const struct rdma_device *device, struct rdma_port *port)
{
	for (size_t i = 0; i < port->gid_count; i++) {
		if (port->gids[i].netdev[0]) {
			snprintf(port->netdev, sizeof(port->netdev), "%s", port->gids[i].netdev);
			snprintf(port->netdev_source, sizeof(port->netdev_source), "gid_attrs");
			return;
		}
	}
	if (device->parent[0]) {
		snprintf(port->netdev, sizeof(port->netdev), "%s", device->parent);
		snprintf(port->netdev_source, sizeof(port->netdev_source), "parent");
		return;
	}
	netdev_from_pci_function(root, device->name, port);
}

static int probe_ports(const struct rootfs *root, struct rdma_device *device, struct notes *warnings)
{
	unsigned *nums = NULL;
	size_t count = 0;
	char dir[512];
	int ret;

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s/ports", device->name);
	ret = numeric_entries(root, &nums, &count, PORTS_MAX, dir);
	if (ret < 0) {
		char shown[4608];
		notes_add(warnings, "cannot list %s: %s", rootfs_display(root, shown, sizeof(shown), dir), strerror(-ret));
		return 0;
	}
	device->ports = count ? calloc(count, sizeof(*device->ports)) : NULL;
	if (count && !device->ports) {
		free(nums);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count && ret == 0; i++) {
		struct rdma_port *port = &device->ports[i];

		port->num = nums[i];
		device->port_count++;
		read_port_attrs(root, device->name, port);
		ret = gid_table_read(root, device->name, port, warnings);
		if (ret == 0)
			find_port_netdev(root, device, port);
	}
	free(nums);
	return ret;
}

static void read_device_attrs(const struct rootfs *root, struct rdma_device *device)
{
	char text[32];
	const char *d = device->name;

	if (rootfs_read(root, device->fw_ver, sizeof(device->fw_ver), "sys/class/infiniband/%s/fw_ver", d) < 0)
		device->fw_ver[0] = '\0';
	if (rootfs_read(root, device->node_guid, sizeof(device->node_guid), "sys/class/infiniband/%s/node_guid", d) < 0)
		device->node_guid[0] = '\0';
	if (rootfs_link_name(root, device->pci_address, sizeof(device->pci_address), "sys/class/infiniband/%s/device",
			     d) < 0)
		device->pci_address[0] = '\0';
	if (rootfs_link_name(root, device->driver, sizeof(device->driver), "sys/class/infiniband/%s/device/driver",
			     d) < 0)
		device->driver[0] = '\0';
	if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/device/numa_node", d) >= 0) {
		char *end;
		long v = strtol(text, &end, 10);
		if (end != text && *end == '\0') {
			device->numa_known = true;
			device->numa_node = (int)v;
		}
	}
	if (rootfs_read(root, device->parent, sizeof(device->parent), "sys/class/infiniband/%s/parent", d) < 0)
		device->parent[0] = '\0';
}

static int compare_devices(const void *a, const void *b)
{
	return strverscmp(((const struct rdma_device *)a)->name, ((const struct rdma_device *)b)->name);
}

int rdma_sysfs_probe(struct host *host, const struct rootfs *root)
{
	struct dirent *de;
	DIR *dir;
	int ret = 0;

	dir = rootfs_opendir(root, "sys/class/infiniband");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	host->devices = calloc(DEVICES_MAX, sizeof(*host->devices));
	if (!host->devices) {
		closedir(dir);
		return -ENOMEM;
	}
	while ((de = readdir(dir)) && host->device_count < DEVICES_MAX) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(host->devices[0].name))
			continue;
		snprintf(host->devices[host->device_count++].name, sizeof(host->devices[0].name), "%s", de->d_name);
	}
	closedir(dir);
	qsort(host->devices, host->device_count, sizeof(*host->devices), compare_devices);
	for (size_t i = 0; i < host->device_count && ret == 0; i++) {
		read_device_attrs(root, &host->devices[i]);
		ret = probe_ports(root, &host->devices[i], &host->warnings);
	}
	return ret;
}
