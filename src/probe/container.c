// SPDX-License-Identifier: GPL-2.0-only
/* Container detection from what a runtime sets up when it starts a container, not from files an image can
 * carry: a VM booted from a root file system exported out of a docker image keeps its /.dockerenv. */
#include "probe/container.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/text_file.h"

#define CGROUP_FILE_MAX 65536
#define ENVIRON_MAX 65536
#define MOUNTINFO_MAX (1u << 20)

/* The first evidence that names a kind sets it; every piece is listed in evidence. */
static void found(struct container_info *out, const char *kind, const char *fmt, const char *detail)
{
	size_t len = strlen(out->evidence);

	if (kind && !out->kind[0])
		snprintf(out->kind, sizeof(out->kind), "%s", kind);
	if (len < sizeof(out->evidence))
		len += (size_t)snprintf(out->evidence + len, sizeof(out->evidence) - len, "%s", len ? ", " : "");
	if (len < sizeof(out->evidence))
		snprintf(out->evidence + len, sizeof(out->evidence) - len, fmt, detail);
}

/* container=VALUE among NUL-separated variables (podman, systemd-nspawn, lxc set it). */
static void from_environ(const struct rootfs *root, struct container_info *out)
{
	static const char key[] = "container=";
	struct text_file f;

	if (text_file_read(root, "proc/1/environ", ENVIRON_MAX, &f) < 0)
		return;   /* only root may read pid 1's environment */
	for (size_t pos = 0; pos < f.len;) {
		const char *var = f.data + pos;
		size_t len = strnlen(var, f.len - pos);

		if (len > sizeof(key) - 1 && strncmp(var, key, sizeof(key) - 1) == 0) {
			char kind[32];

			snprintf(kind, sizeof(kind), "%.*s", (int)(len - (sizeof(key) - 1)), var + sizeof(key) - 1);
			found(out, kind, "/proc/1/environ (container=%s)", kind);
			break;
		}
		pos += len + 1;
	}
	text_file_free(&f);
}

/* Runtime names in cgroup paths, most specific first: a pod's containers also mention their runtime. Only with
 * cgroup v1, or v2 without a cgroup namespace (a namespaced v2 container sees "0::/"). */
static bool from_cgroup(const struct rootfs *root, const char *rel, struct container_info *out)
{
	static const struct { const char *needle, *kind; } runtimes[] = {
		{ "kubepods", "kubernetes" }, { "libpod", "podman" }, { "docker", "docker" }, { "containerd", "containerd" },
	};
	struct text_file f;
	bool ok = false;

	if (text_file_read(root, rel, CGROUP_FILE_MAX, &f) < 0)
		return false;
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]) && !ok; i++) {
		if (memmem(f.data, f.len, runtimes[i].needle, strlen(runtimes[i].needle))) {
			char fmt[64];

			snprintf(fmt, sizeof(fmt), "/%s (%%s)", rel);
			found(out, runtimes[i].kind, fmt, runtimes[i].needle);
			ok = true;
		}
	}
	text_file_free(&f);
	return ok;
}

/* The root mount of PID 1 (the last line mounting "/": later mounts hide earlier ones): an overlay whose layers
 * are in a runtime's storage. An overlay elsewhere (a live image) says nothing. */
static void from_mountinfo(const struct rootfs *root, struct container_info *out)
{
	static const struct { const char *needle, *kind; } stores[] = {
		{ "/var/lib/docker/", "docker" }, { "/containerd/", "containerd" },
		{ "/containers/storage/", "podman" },
	};
	struct text_file f;
	char *line, last[4096] = "";

	if (text_file_read(root, "proc/1/mountinfo", MOUNTINFO_MAX, &f) < 0)
		return;
	while ((line = text_file_next(&f))) {
		char mount_point[8];

		/* ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS */
		if (sscanf(line, "%*s %*s %*s %*s %7s", mount_point) == 1 && strcmp(mount_point, "/") == 0)
			snprintf(last, sizeof(last), "%s", line);
	}
	text_file_free(&f);
	if (!strstr(last, " - overlay "))
		return;
	for (size_t i = 0; i < sizeof(stores) / sizeof(stores[0]); i++)
		if (strstr(last, stores[i].needle)) {
			found(out, stores[i].kind, "/proc/1/mountinfo (overlay root in %s)", stores[i].needle);
			return;
		}
}

/* The small inits runtimes put as PID 1 (docker run --init, podman's catatonit, tini, dumb-init). */
static void from_pid1_name(const struct rootfs *root, struct container_info *out)
{
	static const struct { const char *name, *kind; } inits[] = {
		{ "docker-init", "docker" }, { "catatonit", "podman" }, { "tini", NULL }, { "dumb-init", NULL },
	};
	char comm[32];

	if (rootfs_read(root, comm, sizeof(comm), "proc/1/comm") < 0)
		return;
	for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++)
		if (strcmp(comm, inits[i].name) == 0) {
			found(out, inits[i].kind, "/proc/1/comm (%s)", comm);
			return;
		}
}

int container_detect(const struct rootfs *root, struct container_info *out)
{
	bool dockerenv;

	memset(out, 0, sizeof(*out));
	from_environ(root, out);
	if (rootfs_exists(root, "run/.containerenv"))
		found(out, "podman", "%s", "/run/.containerenv");   /* in /run: made at start, not in the image */
	if (!from_cgroup(root, "proc/1/cgroup", out))
		from_cgroup(root, "proc/self/cgroup", out);
	from_mountinfo(root, out);
	from_pid1_name(root, out);
	dockerenv = rootfs_exists(root, ".dockerenv");
	if (out->evidence[0] && dockerenv)
		found(out, "docker", "%s", "/.dockerenv");
	else if (dockerenv)
		snprintf(out->evidence, sizeof(out->evidence), "/.dockerenv alone (a file an image carries; no runtime "
			 "set this system up)");
	/* Evidence without a kind (tini as PID 1): a container of a runtime we cannot name. */
	if (out->evidence[0] && !out->kind[0] && !dockerenv)
		snprintf(out->kind, sizeof(out->kind), "container");
	return 0;
}
