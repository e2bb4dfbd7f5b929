// SPDX-License-Identifier: GPL-2.0-only
/* Where the GPUs and RDMA NICs sit on PCIe: sysfs paths, NUMA, links, and the bridges' ACS. */
#include "probe/pci_topology.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/gpu.h"
#include "probe/pci_config.h"
#include "probe/text_file.h"

#define RDMA_DEVICES_MAX 1024

bool pci_is_address(const char *s, size_t len)
{
	size_t i = 0, domain = 0;

	while (i < len && isxdigit((unsigned char)s[i]))
		i++, domain++;
	/* domain:bus:dev.fn; domains past 0xffff exist (Intel VMD: 10000:01:00.0) */
	if (domain < 4 || domain > 8 || len != domain + 8 || s[domain] != ':' || s[domain + 3] != ':' ||
	    s[domain + 6] != '.')
		return false;
	return isxdigit((unsigned char)s[domain + 1]) && isxdigit((unsigned char)s[domain + 2]) &&
	       isxdigit((unsigned char)s[domain + 4]) && isxdigit((unsigned char)s[domain + 5]) &&
	       s[domain + 7] >= '0' && s[domain + 7] <= '7';
}

/* From a sysfs link target ("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0[/infiniband/mlx5_0]") to
 * the function's directory under the root ("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"), its host
 * bridge and its chain of bridges. The last non-address component before the function is the host bridge: a
 * VMD domain (pci10000:00 under a root-port-like device) starts a tree of its own, as NCCL also sees it. */
static int parse_path(const char *target, const char *address, struct pci_function *f, char *dir, size_t size)
{
	const char *p = strstr(target, "devices/");
	size_t len, count = 0;
	char names[PCI_CHAIN_MAX + 1][PCI_ADDRESS_LEN];

	if (!p || (p != target && p[-1] != '/'))
		return -EINVAL;
	f->host_bridge[0] = '\0';
	for (const char *c = p + strlen("devices/"); *c; c += len + (c[len] == '/')) {
		len = strcspn(c, "/");
		if (len == 0)
			continue;
		if (!pci_is_address(c, len)) {
			if (len >= PCI_ADDRESS_LEN || strncmp(c, "pci", 3) != 0)
				return -EINVAL;
			memcpy(f->host_bridge, c, len);
			f->host_bridge[len] = '\0';
			count = 0;
			continue;
		}
		if (!f->host_bridge[0])
			return -EINVAL;
		if (count > PCI_CHAIN_MAX)
			return -E2BIG;
		memcpy(names[count], c, len);
		names[count++][len] = '\0';
		if (strcmp(names[count - 1], address) == 0) {
			len = (size_t)(c + len - p);
			if (len + 5 > size)
				return -ENAMETOOLONG;
			snprintf(dir, size, "sys/%.*s", (int)len, p);
			f->chain_len = count - 1;
			for (size_t i = 0; i + 1 < count; i++)
				memcpy(f->chain[i], names[i], PCI_ADDRESS_LEN);
			return 0;
		}
	}
	return -ENOENT;
}

static int read_link_target(const struct rootfs *root, const char *parent, const char *name, char *buf, size_t size)
{
	DIR *d = rootfs_opendir(root, "%s", parent);
	ssize_t n;
	int ret = 0;

	if (!d)
		return -errno;
	n = readlinkat(dirfd(d), name, buf, size - 1);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n >= size - 1)
		ret = -ENAMETOOLONG;
	else
		buf[n] = '\0';
	closedir(d);
	return ret;
}

static unsigned read_hex(const struct rootfs *root, const char *dir, const char *attr)
{
	char text[32], *end;
	unsigned long v;

	if (rootfs_read(root, text, sizeof(text), "%s/%s", dir, attr) < 0)
		return 0;
	v = strtoul(text, &end, 16);
	return end != text && !*end && v <= 0xffffffUL ? (unsigned)v : 0;
}

static int read_int(const struct rootfs *root, const char *dir, const char *attr, int unknown)
{
	char text[32], *end;
	long v;

	if (rootfs_read(root, text, sizeof(text), "%s/%s", dir, attr) <= 0)
		return unknown;
	v = strtol(text, &end, 10);
	return end != text && !*end && v >= -1 && v < 65536 ? (int)v : unknown;
}

static void read_link(const struct rootfs *root, const char *dir, struct pci_link *l)
{
	if (rootfs_read(root, l->cur_speed, sizeof(l->cur_speed), "%s/current_link_speed", dir) < 0)
		l->cur_speed[0] = '\0';
	if (rootfs_read(root, l->max_speed, sizeof(l->max_speed), "%s/max_link_speed", dir) < 0)
		l->max_speed[0] = '\0';
	/* "Unknown" is what the kernel writes for a link it cannot read; keep the model's "empty = unknown". */
	if (strcmp(l->cur_speed, "Unknown") == 0)
		l->cur_speed[0] = '\0';
	if (strcmp(l->max_speed, "Unknown") == 0)
		l->max_speed[0] = '\0';
	l->cur_width = read_int(root, dir, "current_link_width", 0);
	l->max_width = read_int(root, dir, "max_link_width", 0);
	if (l->cur_width < 0)
		l->cur_width = 0;
	if (l->max_width < 0)
		l->max_width = 0;
}

static void fill_function(const struct rootfs *root, const char *dir, struct pci_function *f)
{
	f->vendor = read_hex(root, dir, "vendor");
	f->device_id = read_hex(root, dir, "device");
	f->class_code = read_hex(root, dir, "class");
	f->numa_node = read_int(root, dir, "numa_node", -1);
	if (rootfs_read(root, f->cpulist, sizeof(f->cpulist), "%s/local_cpulist", dir) < 0)
		f->cpulist[0] = '\0';
	read_link(root, dir, &f->link);
}

static struct pci_bridge *find_bridge(struct pci_topology *t, const char *address)
{
	for (size_t i = 0; i < t->bridge_count; i++)
		if (strcmp(t->bridges[i].address, address) == 0)
			return &t->bridges[i];
	return NULL;
}

static void read_acs(const struct rootfs *root, const char *dir, struct pci_bridge *b, struct notes *notes)
{
	unsigned char *cfg = malloc(PCI_CONFIG_SIZE);
	char shown[PATH_MAX + 8], rel[PATH_MAX];
	int len, ret;

	b->acs = ACS_UNKNOWN;
	if (!cfg)
		return;
	if (snprintf(rel, sizeof(rel), "%s/config", dir) >= (int)sizeof(rel))
		rel[0] = '\0';
	rootfs_display(root, shown, sizeof(shown), rel);
	len = pci_config_read(root, dir, cfg, PCI_CONFIG_SIZE);
	ret = len < 0 ? len : pci_acs_parse(cfg, (size_t)len, &b->acs_offset, &b->acs_ctrl);
	if (ret == 1)
		b->acs = ACS_PRESENT;
	else if (ret == 0)
		b->acs = ACS_ABSENT;
	else if (len < 0)
		notes_add(notes, "cannot read %s: %s; ACS on bridge %s unknown", shown, strerror(-len), b->address);
	else if (ret == -ENODATA)
		notes_add(notes, "%s is %d bytes, not 4096: the extended config space is readable only by root, or the file is cut; "
			  "ACS on bridge %s unknown", shown, len, b->address);
	else
		notes_add(notes, "%s: malformed extended capability list; ACS on bridge %s unknown", shown, b->address);
	free(cfg);
}

/* Every bridge of f's chain, once: its directory is a prefix of f's own. */
static int add_bridges(const struct rootfs *root, struct pci_topology *t, const struct pci_function *f,
		       const char *dir, struct notes *notes)
{
	char bridge_dir[PATH_MAX];

	for (size_t i = 0; i < f->chain_len; i++) {
		const char *at = strstr(dir, f->chain[i]);
		struct pci_bridge *b;

		if (find_bridge(t, f->chain[i]))
			continue;
		if (!at || t->bridge_count >= PCI_BRIDGES_MAX)
			return -E2BIG;
		snprintf(bridge_dir, sizeof(bridge_dir), "%.*s", (int)(at - dir + strlen(f->chain[i])), dir);
		b = &t->bridges[t->bridge_count++];
		memset(b, 0, sizeof(*b));
		snprintf(b->address, sizeof(b->address), "%s", f->chain[i]);
		read_link(root, bridge_dir, &b->link);
		read_acs(root, bridge_dir, b, notes);
	}
	return 0;
}

static int add_function(const struct rootfs *root, struct pci_topology *t, char **dirs, const char *link_parent,
			const char *link_name, const char *address, enum pci_role role, const char *rdma_device,
			struct notes *notes)
{
	struct pci_function *f;
	char target[PATH_MAX], dir[PATH_MAX], shown[PATH_MAX + 8], rel[PATH_MAX];
	int ret;

	if (t->count >= PCI_FUNCTIONS_MAX) {
		notes_add(notes, "more than %d GPUs and RDMA NICs: the rest not placed", PCI_FUNCTIONS_MAX);
		return 0;
	}
	f = &t->functions[t->count];
	memset(f, 0, sizeof(*f));
	if (snprintf(rel, sizeof(rel), "%s/%s", link_parent, link_name) >= (int)sizeof(rel))
		rel[0] = '\0';
	ret = read_link_target(root, link_parent, link_name, target, sizeof(target));
	if (ret == 0)
		ret = parse_path(target, address, f, dir, sizeof(dir));
	if (ret < 0) {
		notes_add(notes, "cannot place %s on PCIe: %s: %s", address, rootfs_display(root, shown, sizeof(shown), rel),
			  ret == -ENOENT || ret == -EINVAL ? "not a link into /sys/devices/pci..." : strerror(-ret));
		return 0;
	}
	snprintf(f->address, sizeof(f->address), "%s", address);
	f->role = role;
	snprintf(f->rdma_device, sizeof(f->rdma_device), "%s", rdma_device ? rdma_device : "");
	fill_function(root, dir, f);
	if (!(dirs[t->count] = strdup(dir)))
		return -ENOMEM;
	t->count++;
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int compare_bridges(const void *a, const void *b)
{
	return strcmp(((const struct pci_bridge *)a)->address, ((const struct pci_bridge *)b)->address);
}

/* The RDMA devices with a PCI function, by name: virtual ones (rxe, siw) have no device link and no place. */
static int add_nics(const struct rootfs *root, struct pci_topology *t, char **dirs, struct notes *notes)
{
	DIR *d = rootfs_opendir(root, "sys/class/infiniband");
	char *names[RDMA_DEVICES_MAX];
	size_t count = 0;
	struct dirent *de;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)) && count < RDMA_DEVICES_MAX) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= 64)
			continue;
		if (!(names[count] = strdup(de->d_name))) {
			ret = -ENOMEM;
			break;
		}
		count++;
	}
	closedir(d);
	qsort(names, count, sizeof(names[0]), compare_names);
	for (size_t i = 0; i < count; i++) {
		char address[PCI_ADDRESS_LEN], parent[128];

		if (ret == 0 && rootfs_link_name(root, address, sizeof(address), "sys/class/infiniband/%s/device",
						 names[i]) > 0 && pci_is_address(address, strlen(address))) {
			snprintf(parent, sizeof(parent), "sys/class/infiniband");
			ret = add_function(root, t, dirs, parent, names[i], address, PCI_ROLE_NIC, names[i], notes);
		}
		free(names[i]);
	}
	return ret;
}

/* The kernel writes numa_node -1 (NUMA_NO_NODE) when the firmware gives no proximity for a device, which is the
 * rule on one-node machines and VMs without an SRAT; with exactly one node online every device is on it, as
 * nvidia-smi and numactl say. With several nodes (or none listed: a tree that did not capture them) -1 stays
 * unknown. */
static void one_node_numa(const struct rootfs *root, struct pci_topology *t)
{
	char **names = NULL, *end;
	size_t count = 0, nodes = 0;
	long only = -1;

	if (dir_names(root, "sys/devices/system/node", "", 4096, &names, &count) < 0) {
		names_free(names, count);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		long n;

		if (strncmp(names[i], "node", 4) != 0 || !isdigit((unsigned char)names[i][4]))
			continue;
		n = strtol(names[i] + 4, &end, 10);
		if (*end || n < 0 || n >= 65536)
			continue;
		nodes++;
		only = n;
	}
	names_free(names, count);
	for (size_t i = 0; nodes == 1 && i < t->count; i++)
		if (t->functions[i].numa_node < 0)
			t->functions[i].numa_node = (int)only;
}

int pci_topology_read(const struct rootfs *root, struct pci_topology *out, struct notes *notes)
{
	char **dirs = calloc(PCI_FUNCTIONS_MAX, sizeof(*dirs));   /* each function's sysfs directory */
	struct gpu_list gpus;
	bool gpu = false, nic = false;
	int ret;

	memset(out, 0, sizeof(*out));
	out->functions = calloc(PCI_FUNCTIONS_MAX, sizeof(*out->functions));
	out->bridges = calloc(PCI_BRIDGES_MAX, sizeof(*out->bridges));
	if (!out->functions || !out->bridges || !dirs) {
		pci_topology_free(out);
		free(dirs);
		return -ENOMEM;
	}
	ret = gpu_list_read(root, &gpus, notes);
	for (size_t i = 0; ret == 0 && i < gpus.count; i++)
		ret = add_function(root, out, dirs, "sys/bus/pci/devices", gpus.items[i].pci_address, gpus.items[i].pci_address,
				   PCI_ROLE_GPU, NULL, notes);
	gpu_list_free(&gpus);
	if (ret == 0)
		ret = add_nics(root, out, dirs, notes);
	for (size_t i = 0; i < out->count; i++) {
		gpu = gpu || out->functions[i].role == PCI_ROLE_GPU;
		nic = nic || out->functions[i].role == PCI_ROLE_NIC;
	}
	/* Bridges matter only between a GPU and a NIC (GPUDirect): without both there is nothing to read, and no
	 * warning about config files nobody needs. */
	for (size_t i = 0; ret == 0 && gpu && nic && i < out->count; i++)
		ret = add_bridges(root, out, &out->functions[i], dirs[i], notes);
	for (size_t i = 0; i < PCI_FUNCTIONS_MAX; i++)
		free(dirs[i]);
	free(dirs);
	if (ret < 0) {
		pci_topology_free(out);
		return ret;
	}
	qsort(out->bridges, out->bridge_count, sizeof(*out->bridges), compare_bridges);
	one_node_numa(root, out);
	return 0;
}

void pci_topology_free(struct pci_topology *t)
{
	free(t->functions);
	free(t->bridges);
	memset(t, 0, sizeof(*t));
}
