// SPDX-License-Identifier: GPL-2.0-only
/* compare.nccl_version: every NCCL library (and net plugin) a job could load, compared by the path it is
 * loaded by and its version. A node whose library at a path is another release, or that lacks a library the
 * others have (or has one they lack), is named: NCCL refuses to connect ranks of different versions, or worse,
 * mixes protocols. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compare_group.h"

#define PATHS_SHOWN 16
#define ABSENT "not installed"
#define VERSION_UNKNOWN "version unknown"

struct lib_item {
	const char *path;
	size_t node;
	const struct compare_nccl_lib *lib;
};

static int lib_order(const void *a, const void *b)
{
	const struct lib_item *x = a, *y = b;
	int d = strcmp(x->path, y->path);

	if (d)
		return d;
	return (x->node > y->node) - (x->node < y->node);
}

static const char *version_key(const struct compare_nccl_lib *lib)
{
	return lib->version && *lib->version ? lib->version : VERSION_UNKNOWN;
}

static const struct compare_nccl_lib *lib_at(const struct compare_node *node, const char *path)
{
	for (size_t i = 0; node->nccl_libs_known && i < node->nccl_lib_count; i++)
		if (node->nccl_libs[i].path && strcmp(node->nccl_libs[i].path, path) == 0)
			return &node->nccl_libs[i];
	return NULL;
}

/* A node's library at path whose version is want: the majority's, for its package. */
static const struct compare_nccl_lib *lib_with(const struct compare_ctx *c, const char *path, const char *want)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct compare_nccl_lib *lib = lib_at(&c->nodes[i], path);

		if (lib && strcmp(version_key(lib), want) == 0)
			return lib;
	}
	return NULL;
}

static bool has(const char *s)
{
	return s && *s;
}

/* "/opt/torch/.venv" of "venv /opt/torch/.venv"; "/opt/conda/envs/train" of "conda env train (/opt/...)". */
static bool env_prefix(const char *where, const char *kind, char *buf, size_t size)
{
	const char *p;

	if (!has(where) || strncmp(where, kind, strlen(kind)) != 0)
		return false;
	if (strcmp(kind, "venv ") == 0) {
		snprintf(buf, size, "%s", where + strlen(kind));
		return true;
	}
	p = strchr(where, '(');
	if (!p)
		return false;
	snprintf(buf, size, "%.*s", (int)strcspn(p + 1, ")"), p + 1);
	return true;
}

/* The command that installs version want of lib (the majority's library) where lib was installed from. */
static void install_command(const struct compare_nccl_lib *lib, const char *want, char *buf, size_t size)
{
	char prefix[512];

	if (lib && strcmp(lib->package_manager ? lib->package_manager : "", "dpkg") == 0 && has(lib->package_name))
		snprintf(buf, size, "`apt install %s=%s`", lib->package_name,
			 has(lib->package_version) ? lib->package_version : want);
	else if (lib && strcmp(lib->package_manager ? lib->package_manager : "", "pip") == 0 &&
		 has(lib->package_name) && env_prefix(lib->where, "venv ", prefix, sizeof(prefix)))
		snprintf(buf, size, "`%s/bin/pip install %s==%s`", prefix, lib->package_name, want);
	else if (lib && strcmp(lib->package_manager ? lib->package_manager : "", "pip") == 0 && has(lib->package_name))
		snprintf(buf, size, "`pip install %s==%s` with the pip of %s", lib->package_name, want,
			 has(lib->where) ? lib->where : "that environment");
	else if (lib && env_prefix(lib->where, "conda env ", prefix, sizeof(prefix)))
		snprintf(buf, size, "`conda install -p %s nccl=%s`", prefix, want);
	else
		snprintf(buf, size, "install NCCL %s the way the others have it (%s), e.g. from the same container "
			 "image", want, lib && has(lib->where) ? lib->where : "same path");
}

static void remove_command(const struct compare_nccl_lib *lib, const char *path, char *buf, size_t size)
{
	char prefix[512];

	if (lib && strcmp(lib->package_manager ? lib->package_manager : "", "dpkg") == 0 && has(lib->package_name))
		snprintf(buf, size, "`apt remove %s`", lib->package_name);
	else if (lib && strcmp(lib->package_manager ? lib->package_manager : "", "pip") == 0 &&
		 has(lib->package_name) && env_prefix(lib->where, "venv ", prefix, sizeof(prefix)))
		snprintf(buf, size, "`%s/bin/pip uninstall %s`", prefix, lib->package_name);
	else if (lib && env_prefix(lib->where, "conda env ", prefix, sizeof(prefix)))
		snprintf(buf, size, "`conda remove -p %s nccl`", prefix);
	else
		snprintf(buf, size, "`rm %s` and the file it links to", path);
}

static void fix_lib(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		    const char *nodes, char *buf, size_t size)
{
	const char *path = arg;
	const struct compare_nccl_lib *mine = lib_at(&c->nodes[odd->items[0].node], path);
	char cmd[1024];

	if (strcmp(want, ABSENT) == 0) {
		remove_command(mine, path, cmd, sizeof(cmd));
		snprintf(buf, size, "on %s: %s (NCCL %s) is on none of the others: remove it (%s), or install it on "
			 "every node", nodes, path, odd->value, cmd);
		return;
	}
	install_command(lib_with(c, path, want), want, cmd, sizeof(cmd));
	if (strcmp(odd->value, ABSENT) == 0)
		snprintf(buf, size, "on %s: install NCCL %s at %s as the others have it: %s", nodes, want, path, cmd);
	else
		snprintf(buf, size, "on %s: NCCL at %s is %s, the others %s: %s", nodes, path, odd->value, want, cmd);
}

/* Whether the nodes that have the library at items[start..end) are all known nodes, on one version. */
static bool path_agrees(const struct lib_item *items, size_t start, size_t end, size_t known)
{
	size_t k = 0;

	for (size_t i = start; i < end; i++) {
		if (i > start && items[i].node == items[i - 1].node)
			continue;
		if (strcmp(version_key(items[i].lib), version_key(items[start].lib)) != 0)
			return false;
		k++;
	}
	return k == known;
}

static int compare_path(const struct compare_ctx *c, const struct lib_item *items, size_t start, size_t end,
			const char **keys)
{
	char what[NCCL_WHAT_MAX];
	struct attribute_rule rule = { "compare.nccl_version", what, "nccl", SEVERITY_WARN, fix_lib,
				       items[start].path, false };

	snprintf(what, sizeof(what), "%s at %s", items[start].lib->net_plugin ? "NCCL net plugin" : "NCCL",
		 items[start].path);
	for (size_t i = 0; i < c->n; i++)
		keys[i] = c->nodes[i].nccl_libs_known ? ABSENT : NULL;
	for (size_t i = start; i < end; i++)
		keys[items[i].node] = version_key(items[i].lib);
	return compare_keys(c, &rule, keys, false);
}

int compare_nccl_libs(const struct compare_ctx *c)
{
	struct lib_item *items;
	const char **keys;
	size_t total = 0, count = 0, known = 0, paths = 0, differing = 0;
	int ret = 0;

	for (size_t i = 0; i < c->n; i++) {
		known += c->nodes[i].nccl_libs_known;
		total += c->nodes[i].nccl_libs_known ? c->nodes[i].nccl_lib_count : 0;
	}
	items = malloc((total ? total : 1) * sizeof(*items));
	keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	if (!items || !keys) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++)
		for (size_t j = 0; c->nodes[i].nccl_libs_known && j < c->nodes[i].nccl_lib_count; j++)
			if (c->nodes[i].nccl_libs[j].path)
				items[count++] = (struct lib_item){ c->nodes[i].nccl_libs[j].path, i, &c->nodes[i].nccl_libs[j] };
	qsort(items, count, sizeof(*items), lib_order);
	for (size_t start = 0, end; ret >= 0 && start < count; start = end) {
		for (end = start + 1; end < count && strcmp(items[end].path, items[start].path) == 0; end++)
			;
		paths++;
		if (path_agrees(items, start, end, known))
			continue;
		if (differing++ < PATHS_SHOWN)
			ret = compare_path(c, items, start, end, keys);
	}
	if (ret < 0)
		goto out;
	if (differing > PATHS_SHOWN)
		finding_add(c->out, "compare.nccl_version", SEVERITY_WARN, "nccl",
			    "give every node the same NCCL libraries (one container image, or the same packages)",
			    "%zu more NCCL library paths differ between the nodes than the %d shown",
			    differing - PATHS_SHOWN, PATHS_SHOWN);
	else if (!differing && known == 0)
		finding_add(c->out, "compare.nccl_version", SEVERITY_INFO, "nccl", NULL,
			    "no snapshot records its NCCL libraries: NCCL versions not compared");
	else if (!differing && paths == 0)
		finding_add(c->out, "compare.nccl_version", SEVERITY_OK, "nccl", NULL,
			    "no NCCL library on any of the %zu %s whose libraries are known", known, PLURAL_NODES(known));
	else if (!differing)
		finding_add(c->out, "compare.nccl_version", SEVERITY_OK, "nccl", NULL,
			    "the same %zu NCCL %s (path and version) on every node whose libraries are known (%zu of %zu)",
			    paths, paths == 1 ? "library" : "libraries", known, c->n);
out:
	free(items);
	free(keys);
	return ret;
}
