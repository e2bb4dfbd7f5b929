// SPDX-License-Identifier: GPL-2.0-only
/* uverbsN ↔ RDMA device from sysfs, and whether the matching /dev nodes exist and open for us. */
#include "probe/uverbs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define UVERBS_MAX 256

static void check_node(const struct rootfs *root, const char *name, struct dev_node *node)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "dev/infiniband/%s", name);
	node->exists = rootfs_exists(root, "%s", rel);
	if (!root->live || !node->exists)
		return;
	node->access_known = true;
	node->read_write = faccessat(root->fd, rel, R_OK | W_OK, 0) == 0;
}

static int uverbs_number(const char *name, unsigned *n)
{
	char *end;
	unsigned long v;

	if (strncmp(name, "uverbs", 6) != 0 || name[6] < '0' || name[6] > '9')
		return -EINVAL;
	v = strtoul(name + 6, &end, 10);
	if (*end || v > 1000000)
		return -EINVAL;
	*n = (unsigned)v;
	return 0;
}

static int compare_devs(const void *a, const void *b)
{
	unsigned x = 0, y = 0;

	uverbs_number(((const struct uverbs_dev *)a)->name, &x);
	uverbs_number(((const struct uverbs_dev *)b)->name, &y);
	return x < y ? -1 : x > y;
}

int uverbs_probe(const struct rootfs *root, struct uverbs_probe *out, struct notes *notes)
{
	struct dirent *de;
	DIR *dir;

	memset(out, 0, sizeof(*out));
	check_node(root, "rdma_cm", &out->rdma_cm);
	dir = rootfs_opendir(root, "sys/class/infiniband_verbs");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	out->devs = calloc(UVERBS_MAX, sizeof(*out->devs));
	if (!out->devs) {
		closedir(dir);
		return -ENOMEM;
	}
	while ((de = readdir(dir))) {
		struct uverbs_dev *d;
		unsigned n;
		int ret;

		if (uverbs_number(de->d_name, &n) < 0 || strlen(de->d_name) >= sizeof(out->devs[0].name))
			continue;   /* abi_version */
		if (out->count >= UVERBS_MAX) {
			notes_add(notes, "more than %d uverbs devices: the rest not looked at", UVERBS_MAX);
			break;
		}
		d = &out->devs[out->count++];
		strcpy(d->name, de->d_name);
		ret = rootfs_read(root, d->ibdev, sizeof(d->ibdev), "sys/class/infiniband_verbs/%s/ibdev", d->name);
		if (ret < 0) {
			char shown[4200], rel[128];

			snprintf(rel, sizeof(rel), "sys/class/infiniband_verbs/%s/ibdev", d->name);
			notes_add(notes, "cannot read %s: %s", rootfs_display(root, shown, sizeof(shown), rel),
				  strerror(-ret));
			d->ibdev[0] = '\0';
		}
		check_node(root, d->name, &d->node);
	}
	closedir(dir);
	qsort(out->devs, out->count, sizeof(*out->devs), compare_devs);
	return 0;
}

void uverbs_probe_free(struct uverbs_probe *p)
{
	free(p->devs);
	memset(p, 0, sizeof(*p));
}
