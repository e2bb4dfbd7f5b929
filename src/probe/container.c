// SPDX-License-Identifier: GPL-2.0-only
/* Container detection from the files runtimes leave behind; no single one is always there. */
#include "probe/container.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/text_file.h"

#define CGROUP_FILE_MAX 65536
#define ENVIRON_MAX 65536

static void found(struct container_info *out, const char *kind, const char *evidence)
{
	snprintf(out->kind, sizeof(out->kind), "%s", kind);
	snprintf(out->evidence, sizeof(out->evidence), "%s", evidence);
}

/* container=VALUE among NUL-separated variables. */
static bool from_environ(const struct rootfs *root, struct container_info *out)
{
	static const char key[] = "container=";
	struct text_file f;
	bool ok = false;

	if (text_file_read(root, "proc/1/environ", ENVIRON_MAX, &f) < 0)
		return false;   /* only root may read pid 1's environment */
	for (size_t pos = 0; pos < f.len && !ok;) {
		const char *var = f.data + pos;
		size_t len = strnlen(var, f.len - pos);

		if (len > sizeof(key) - 1 && strncmp(var, key, sizeof(key) - 1) == 0) {
			char kind[32];

			snprintf(kind, sizeof(kind), "%.*s", (int)(len - (sizeof(key) - 1)), var + sizeof(key) - 1);
			found(out, kind, "/proc/1/environ");
			ok = true;
		}
		pos += len + 1;
	}
	text_file_free(&f);
	return ok;
}

/* Runtime names in cgroup paths, most specific first: a pod's containers also mention their runtime. */
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
			char evidence[32];

			snprintf(evidence, sizeof(evidence), "/%s", rel);
			found(out, runtimes[i].kind, evidence);
			ok = true;
		}
	}
	text_file_free(&f);
	return ok;
}

int container_detect(const struct rootfs *root, struct container_info *out)
{
	memset(out, 0, sizeof(*out));
	if (from_environ(root, out))
		return 0;
	if (rootfs_exists(root, "run/.containerenv")) {
		found(out, "podman", "/run/.containerenv");
		return 0;
	}
	if (rootfs_exists(root, ".dockerenv")) {
		found(out, "docker", "/.dockerenv");
		return 0;
	}
	if (!from_cgroup(root, "proc/1/cgroup", out))
		from_cgroup(root, "proc/self/cgroup", out);
	return 0;
}
