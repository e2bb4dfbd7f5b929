// SPDX-License-Identifier: GPL-2.0-only
/* Probing a fixture tree the way the binary does under --root. */
#ifndef ROCE_DOCTOR_FIXTURE_HOST_H
#define ROCE_DOCTOR_FIXTURE_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/host.h"

static const char *fixtures_dir = "tests/fixtures";

static inline int probe_fixture(const char *name, struct host *host)
{
	struct rootfs root;
	char path[1024];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	ret = rootfs_open(&root, path);
	if (ret < 0) {
		printf("# cannot open fixture %s\n", path);
		memset(host, 0, sizeof(*host));
		return ret;
	}
	ret = host_probe(host, &root);
	rootfs_close(&root);
	return ret;
}

static inline const struct rdma_port *fixture_port(const struct host *host, const char *dev, unsigned num)
{
	const struct rdma_device *d = host_find_device(host, dev);

	for (size_t i = 0; d && i < d->port_count; i++)
		if (d->ports[i].num == num)
			return &d->ports[i];
	return NULL;
}

static inline int warnings_mention(const struct host *host, const char *needle)
{
	for (size_t i = 0; i < host->warnings.count; i++)
		if (strstr(host->warnings.items[i], needle))
			return 1;
	return 0;
}

#endif
