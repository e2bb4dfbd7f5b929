// SPDX-License-Identifier: GPL-2.0-only
/* A scan of PCI functions for NVIDIA display and 3D controllers. */
#include "probe/gpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCI_DEVICES_MAX 8192
#define GPUS_MAX 256
#define PCI_VENDOR_NVIDIA 0x10de

static int read_hex(const struct rootfs *root, const char *addr, const char *attr, unsigned *out)
{
	char text[32], *end;
	unsigned long v;
	int ret = rootfs_read(root, text, sizeof(text), "sys/bus/pci/devices/%s/%s", addr, attr);

	if (ret < 0)
		return ret;
	v = strtoul(text, &end, 16);
	if (end == text || *end || v > 0xffffffUL)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static bool is_gpu_class(unsigned class_code)
{
	return (class_code >> 8) == 0x0300 || (class_code >> 8) == 0x0302;
}

static void fill(const struct rootfs *root, const char *addr, unsigned class_code, struct nvidia_gpu *g)
{
	char text[16];

	memset(g, 0, sizeof(*g));
	snprintf(g->pci_address, sizeof(g->pci_address), "%s", addr);
	g->class_code = class_code;
	if (read_hex(root, addr, "device", &g->device_id) < 0)
		g->device_id = 0;
	if (rootfs_link_name(root, g->driver, sizeof(g->driver), "sys/bus/pci/devices/%s/driver", addr) < 0)
		g->driver[0] = '\0';
	g->numa_node = rootfs_read(root, text, sizeof(text), "sys/bus/pci/devices/%s/numa_node", addr) >= 0 ?
		atoi(text) : -1;
}

static int compare_gpus(const void *a, const void *b)
{
	return strcmp(((const struct nvidia_gpu *)a)->pci_address, ((const struct nvidia_gpu *)b)->pci_address);
}

int gpu_list_read(const struct rootfs *root, struct gpu_list *out, struct notes *notes)
{
	struct dirent *de;
	size_t scanned = 0;
	DIR *dir;

	memset(out, 0, sizeof(*out));
	dir = rootfs_opendir(root, "sys/bus/pci/devices");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	out->items = calloc(GPUS_MAX, sizeof(*out->items));
	if (!out->items) {
		closedir(dir);
		return -ENOMEM;
	}
	while ((de = readdir(dir))) {
		unsigned vendor, class_code;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(out->items[0].pci_address))
			continue;
		if (++scanned > PCI_DEVICES_MAX || out->count >= GPUS_MAX) {
			notes_add(notes, "more than %d PCI functions or %d GPUs: the rest not looked at", PCI_DEVICES_MAX,
				  GPUS_MAX);
			break;
		}
		if (read_hex(root, de->d_name, "vendor", &vendor) < 0 || vendor != PCI_VENDOR_NVIDIA ||
		    read_hex(root, de->d_name, "class", &class_code) < 0 || !is_gpu_class(class_code))
			continue;
		fill(root, de->d_name, class_code, &out->items[out->count++]);
	}
	closedir(dir);
	qsort(out->items, out->count, sizeof(*out->items), compare_gpus);
	return 0;
}

void gpu_list_free(struct gpu_list *list)
{
	free(list->items);
	memset(list, 0, sizeof(*list));
}
