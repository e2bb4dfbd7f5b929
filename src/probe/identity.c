// SPDX-License-Identifier: GPL-2.0-only
/* identity_probe(): who the snapshot is of. rdma-core exposes no version through an API, so the version is
 * read where rdma-core writes it: the real file name of the libibverbs this process loaded
 * (libibverbs.so.1.14.44.0: ABI 1.14, rdma-core 44.0), and the providers are the lib<name>-rdmav<ABI>.so files
 * in the libibverbs/ directory beside it, which is where that libibverbs loads them from. */
#include "probe/identity.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/time_text.h"

#define VERBS_LIB "libibverbs.so."

static int copy_text(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len == 0 || len >= size) {
		dst[0] = '\0';
		return -EOVERFLOW;
	}
	memcpy(dst, src, len + 1);
	return 0;
}

int identity_rdma_core_version(const char *file_name, char *buf, size_t size)
{
	const char *base = strrchr(file_name, '/');
	const char *v;
	size_t dots = 0;

	base = base ? base + 1 : file_name;
	if (strncmp(base, VERBS_LIB, strlen(VERBS_LIB)) != 0)
		return -EINVAL;
	v = base + strlen(VERBS_LIB);
	/* Skip the ABI's major and minor ("1.14."); the rest is rdma-core's version, digits and dots. */
	while (*v && dots < 2)
		if (*v++ == '.')
			dots++;
	if (dots < 2 || !*v || strspn(v, "0123456789.") != strlen(v) || *v == '.')
		return -EINVAL;
	return copy_text(buf, size, v) == 0 ? 0 : -EINVAL;
}

static int find_verbs_library(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
	char *path = data;

	(void)size;
	if (!base || strncmp(base + 1, VERBS_LIB, strlen(VERBS_LIB)) != 0)
		return 0;
	/* The loader names the file it opened, the soname's link: the version is in the link's target. */
	if (!realpath(info->dlpi_name, path))
		path[0] = '\0';
	return 1;
}

/* lib<name>-rdmav<N>.so -> name */
static bool provider_name(const char *file, char *name, size_t size)
{
	const char *dash = strstr(file, "-rdmav");
	size_t len = dash ? (size_t)(dash - file) - 3 : 0;

	if (strncmp(file, "lib", 3) != 0 || !dash || dash < file + 4 || len >= size)
		return false;
	if (strspn(dash + 6, "0123456789") == 0 || strcmp(dash + 6 + strspn(dash + 6, "0123456789"), ".so") != 0)
		return false;
	memcpy(name, file + 3, len);
	name[len] = '\0';
	return true;
}

static int compare_providers(const void *a, const void *b)
{
	return strcmp(((const struct identity_provider *)a)->name, ((const struct identity_provider *)b)->name);
}

static void probe_providers(struct identity *id, struct notes *notes)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(id->libibverbs_file, '/');
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s/libibverbs", (int)(slash - id->libibverbs_file), id->libibverbs_file);
	d = opendir(dir);
	if (!d) {
		notes_add(notes, "cannot list the verbs providers in %s: %s", dir, strerror(errno));
		return;
	}
	id->providers_known = true;
	while ((e = readdir(d)) != NULL) {
		struct identity_provider *p = &id->providers[id->provider_count];

		if (!provider_name(e->d_name, p->name, sizeof(p->name)))
			continue;
		if (id->provider_count == IDENTITY_PROVIDERS_MAX) {
			notes_add(notes, "more than %d verbs providers in %s: the rest are not recorded",
				  IDENTITY_PROVIDERS_MAX, dir);
			break;
		}
		if (snprintf(p->file, sizeof(p->file), "%s/%s", dir, e->d_name) < (int)sizeof(p->file))
			id->provider_count++;
	}
	closedir(d);
	/* readdir's order is the filesystem's: sorted, two snapshots of one host compare equal. */
	qsort(id->providers, id->provider_count, sizeof(id->providers[0]), compare_providers);
}

static void probe_live(struct identity *id, struct notes *notes)
{
	struct utsname u;
	char path[PATH_MAX] = "";
	char host[sizeof(id->hostname)];

	/* Into a local first: gcc 12's -Wnonnull, under -fsanitize=undefined at -O2, cannot prove id is not NULL. */
	if (gethostname(host, sizeof(host)) == 0 && memchr(host, '\0', sizeof(host)))
		copy_text(id->hostname, sizeof(id->hostname), host);
	else
		id->hostname[0] = '\0';
	if (uname(&u) == 0)
		copy_text(id->kernel_release, sizeof(id->kernel_release), u.release);
	dl_iterate_phdr(find_verbs_library, path);
	if (!path[0]) {
		notes_add(notes, "libibverbs is not loaded in this process: rdma-core's version unknown");
		return;
	}
	copy_text(id->libibverbs_file, sizeof(id->libibverbs_file), path);
	if (identity_rdma_core_version(path, id->rdma_core_version, sizeof(id->rdma_core_version)) < 0)
		notes_add(notes, "libibverbs' file %s names no rdma-core version", path);
	if (id->libibverbs_file[0])
		probe_providers(id, notes);
}

/* A tree holds what the host's files said; this process's own libraries say nothing about that host. */
static void probe_tree(struct identity *id, const struct rootfs *root)
{
	if (rootfs_read(root, id->hostname, sizeof(id->hostname), "proc/sys/kernel/hostname") <= 0 &&
	    rootfs_read(root, id->hostname, sizeof(id->hostname), "etc/hostname") <= 0)
		id->hostname[0] = '\0';
	if (rootfs_read(root, id->kernel_release, sizeof(id->kernel_release), "proc/sys/kernel/osrelease") <= 0)
		id->kernel_release[0] = '\0';
}

int identity_probe(struct identity *id, const struct rootfs *root, const struct host *host, time_t now,
		   struct notes *notes)
{
	memset(id, 0, sizeof(*id));
	time_text(now, id->time, sizeof(id->time));
	copy_text(id->version, sizeof(id->version), ROCE_DOCTOR_VERSION);
	if (root->live)
		probe_live(id, notes);
	else
		probe_tree(id, root);
	for (size_t i = 0; i < host->device_count && i < HOST_DEVICES_MAX; i++) {
		const struct rdma_device *d = &host->devices[i];
		struct identity_device *out = &id->devices[id->device_count++];

		memcpy(out->device, d->name, sizeof(out->device));
		memcpy(out->fw_ver, d->fw_ver, sizeof(out->fw_ver));
		memcpy(out->driver, d->driver, sizeof(out->driver));
		memcpy(out->pci_address, d->pci_address, sizeof(out->pci_address));
		if (rootfs_read(root, out->board_id, sizeof(out->board_id), "sys/class/infiniband/%s/board_id", d->name) <= 0)
			out->board_id[0] = '\0';
		if (rootfs_read(root, out->hca_type, sizeof(out->hca_type), "sys/class/infiniband/%s/hca_type", d->name) <= 0)
			out->hca_type[0] = '\0';
	}
	return 0;
}
