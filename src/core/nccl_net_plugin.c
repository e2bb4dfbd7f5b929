// SPDX-License-Identifier: GPL-2.0-only
/* Whether the net plugin NCCL_NET_PLUGIN names is on the node (see nccl_net_plugin.h for NCCL's rules). */
#include "core/nccl_net_plugin.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A name dlopen() would resolve to one of libs: a path as found (or the file it leads to), or a bare name as the
 * file name it was found under. */
static const char *lib_named(const struct nccl_libs *libs, const char *name)
{
	bool path = strchr(name, '/') != NULL;

	for (size_t i = 0; i < libs->count; i++) {
		const struct nccl_lib *l = &libs->items[i];

		if (path && strcmp(l->real_path, name) == 0)
			return l->real_path;
		for (size_t j = 0; j < l->place_count; j++)
			if (strcmp(path ? l->places[j].path : base_name(l->places[j].path), name) == 0)
				return l->real_path;
	}
	return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

size_t nccl_net_plugin_missing(const char *value, const struct nccl_libs *libs, char *entry, size_t entry_size,
			       char *tried, size_t tried_size, char *found, size_t found_size)
{
	size_t missing = 0;
	char name[256], prefixed[300];

	entry[0] = tried[0] = found[0] = '\0';
	if (strcasecmp(value, "none") == 0)
		return 0;
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ",");
		const char *hit;
		bool other_name;

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		p += len + (p[len] == ',');
		if (!name[0] || strncasecmp(name, "STATIC_PLUGIN", strlen(name)) == 0)
			continue;
		other_name = !strchr(name, '/') && !(strncmp(name, "lib", 3) == 0 && ends_with(name, ".so"));
		snprintf(prefixed, sizeof(prefixed), "libnccl-net-%s.so", name);
		hit = lib_named(libs, name);
		if (!hit && other_name)
			hit = lib_named(libs, prefixed);
		if (hit) {
			if (!found[0])
				snprintf(found, found_size, "%s", hit);
			continue;
		}
		if (missing++ == 0) {
			snprintf(entry, entry_size, "%s", name);
			snprintf(tried, tried_size, other_name ? "%s %s" : "%s", name, prefixed);
		}
	}
	return missing;
}
