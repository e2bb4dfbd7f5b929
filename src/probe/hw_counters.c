// SPDX-License-Identifier: GPL-2.0-only
/* sysfs hw_counters of an RDMA port and its device. */
#include "probe/hw_counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 'lifespan' is the refresh period mlx5 lets one set, in milliseconds: a setting, not a count. */
static bool is_setting(const char *name)
{
	return strcmp(name, "lifespan") == 0;
}

static int read_dir(const struct rootfs *root, struct hw_counter_set *out, const char *prefix, const char *dir_path)
{
	struct dirent *de;
	DIR *dir = rootfs_opendir(root, "%s", dir_path);

	if (!dir)
		return -errno;
	while ((de = readdir(dir)) && out->count < HW_COUNTERS_MAX) {
		char text[32], *end;
		unsigned long long v;
		struct hw_counter *c;

		if (de->d_name[0] == '.' || is_setting(de->d_name))
			continue;
		if (rootfs_read(root, text, sizeof(text), "%s/%s", dir_path, de->d_name) <= 0)
			continue;
		errno = 0;
		v = strtoull(text, &end, 10);
		if (end == text || *end || errno || text[0] == '-')
			continue;
		c = &out->items[out->count];
		if (snprintf(c->name, sizeof(c->name), "%s%s", prefix, de->d_name) >= (int)sizeof(c->name))
			continue;
		c->value = v;
		out->count++;
	}
	closedir(dir);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct hw_counter *)a)->name, ((const struct hw_counter *)b)->name);
}

int hw_counters_read(const struct rootfs *root, const char *dev, unsigned port, struct hw_counter_set *out)
{
	char path[256];
	int port_rc, dev_rc;

	out->count = 0;
	snprintf(path, sizeof(path), "sys/class/infiniband/%s/ports/%u/hw_counters", dev, port);
	port_rc = read_dir(root, out, "", path);
	snprintf(path, sizeof(path), "sys/class/infiniband/%s/hw_counters", dev);
	dev_rc = read_dir(root, out, "device/", path);
	qsort(out->items, out->count, sizeof(out->items[0]), by_name);
	if (port_rc == 0 || dev_rc == 0)
		return 0;
	return port_rc == -ENOENT ? dev_rc : port_rc;
}

int port_counters_read(const struct rootfs *root, const char *dev, unsigned port, struct hw_counter_set *out)
{
	char path[256];
	int rc;

	out->count = 0;
	snprintf(path, sizeof(path), "sys/class/infiniband/%s/ports/%u/counters", dev, port);
	rc = read_dir(root, out, "", path);
	if (rc < 0)
		return rc;
	qsort(out->items, out->count, sizeof(out->items[0]), by_name);
	return 0;
}
