// SPDX-License-Identifier: GPL-2.0-only
/* GID tables: ports/N/gids/I with gid_attrs/types/I and gid_attrs/ndevs/I beside them. */
#include "probe/sysfs_probes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/gidaddr.h"

/* mlx5 has 255 slots, rxe 1024; a table larger than this is not a real one. */
#define GID_SLOTS_MAX HOST_GIDS_MAX

static int parse_gid_type(const char *text, enum gid_type *type)
{
	if (strcmp(text, "IB/RoCE v1") == 0)
		*type = GID_TYPE_IB_ROCE_V1;
	else if (strcmp(text, "RoCE v2") == 0)
		*type = GID_TYPE_ROCE_V2;
	else
		return -EINVAL;
	return 0;
}

/* The three files of one slot, relative to the root, for reading and for naming in warnings. */
struct slot_files {
	char gid[320], type[320], ndev[320];
};

static void slot_files_init(struct slot_files *f, const char *dev, unsigned port, unsigned index)
{
	snprintf(f->gid, sizeof(f->gid), "sys/class/infiniband/%s/ports/%u/gids/%u", dev, port, index);
	snprintf(f->type, sizeof(f->type), "sys/class/infiniband/%s/ports/%u/gid_attrs/types/%u", dev, port, index);
	snprintf(f->ndev, sizeof(f->ndev), "sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs/%u", dev, port, index);
}

static const char *shown(const struct rootfs *root, const char *rel, char buf[4608])
{
	return rootfs_display(root, buf, 4608, rel);
}

/* One slot: 1 when it holds a usable entry, 0 when empty or unusable (with a warning). */
static int read_gid_slot(const struct rootfs *root, const char *dev, const struct rdma_port *port,
			 unsigned index, struct gid_entry *entry, struct notes *warnings)
{
	struct slot_files f;
	char text[128], where[4608];
	int ret;

	memset(entry, 0, sizeof(*entry));
	entry->index = index;
	slot_files_init(&f, dev, port->num, index);
	ret = rootfs_read(root, text, sizeof(text), "%s", f.gid);
	if (ret < 0) {
		notes_add(warnings, "cannot read %s: %s", shown(root, f.gid, where), strerror(-ret));
		return 0;
	}
	if (gid_parse_sysfs(text, &entry->gid) < 0) {
		notes_add(warnings, "malformed GID \"%.64s\" in %s: entry %u skipped", text, shown(root, f.gid, where),
			  index);
		return 0;
	}
	if (gid_is_zero(&entry->gid))
		return 0;

	ret = rootfs_read(root, text, sizeof(text), "%s", f.type);
	if (ret < 0) {
		notes_add(warnings, "cannot read %s: %s: entry %u skipped", shown(root, f.type, where), strerror(-ret),
			  index);
		return 0;
	}
	if (parse_gid_type(text, &entry->type) < 0) {
		notes_add(warnings, "unknown GID type \"%.32s\" in %s: entry %u skipped", text,
			  shown(root, f.type, where), index);
		return 0;
	}

	/* InfiniBand GIDs have no netdev; on Ethernet a RoCE GID always has one, so a missing file means a
	 * broken or racing table, and the entry is not offered as a choice. */
	ret = rootfs_read(root, text, sizeof(text), "%s", f.ndev);
	if (ret < 0) {
		if (port->link_layer == LINK_LAYER_INFINIBAND)
			return 1;
		notes_add(warnings, "cannot read %s: %s: entry %u skipped", shown(root, f.ndev, where), strerror(-ret),
			  index);
		return 0;
	}
	if ((size_t)ret >= sizeof(entry->netdev)) {
		notes_add(warnings, "netdev name too long in %s: entry %u skipped", shown(root, f.ndev, where), index);
		return 0;
	}
	memcpy(entry->netdev, text, (size_t)ret + 1);
	return 1;
}

int gid_table_read(const struct rootfs *root, const char *dev, struct rdma_port *port, struct notes *warnings)
{
	unsigned *indexes = NULL;
	size_t count = 0;
	char dir[512];
	int ret;

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s/ports/%u/gids", dev, port->num);
	ret = numeric_entries(root, &indexes, &count, GID_SLOTS_MAX, dir);
	if (ret < 0) {
		char shown[4608];
		notes_add(warnings, "cannot list %s: %s", rootfs_display(root, shown, sizeof(shown), dir), strerror(-ret));
		return 0;
	}
	port->gids = count ? calloc(count, sizeof(*port->gids)) : NULL;
	if (count && !port->gids) {
		free(indexes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		if (read_gid_slot(root, dev, port, indexes[i], &port->gids[port->gid_count], warnings) == 1)
			port->gid_count++;
	}
	free(indexes);
	return 0;
}
