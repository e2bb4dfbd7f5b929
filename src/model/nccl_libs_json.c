// SPDX-License-Identifier: GPL-2.0-only
/* Writer and reader of the NCCL libraries model, side by side, member by member in the same order. */
#include "model/nccl_libs_json.h"

#include <stdlib.h>
#include <string.h>

#include "model/json_io.h"

static const char *const kinds[] = { "nccl", "net_plugin" };   /* enum nccl_lib_kind */
static const char *const package_managers[] = { "dpkg", "pip" };
/* enum nccl_load_by from NCCL_LOAD_PRELOAD on (NCCL_LOAD_NONE is null) */
static const char *const load_bys[] = { "LD_PRELOAD", "DT_RPATH", "LD_LIBRARY_PATH", "DT_RUNPATH", "ld.so.cache",
					"system_dir" };

const char *nccl_load_by_name(enum nccl_load_by by)
{
	return by == NCCL_LOAD_NONE ? NULL : load_bys[by - 1];
}

void nccl_libs_free(struct nccl_libs *libs)
{
	free(libs->items);
	memset(libs, 0, sizeof(*libs));
}

static json_t *package_to_json(const struct nccl_lib *l)
{
	json_t *o;

	if (!l->package_manager[0])
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "manager", json_string(l->package_manager)) &&
			     put(o, "name", json_string(l->package_name)) &&
			     put(o, "version", string_or_null(l->package_version)));
}

static json_t *lib_to_json(const struct nccl_lib *l)
{
	json_t *o = json_object(), *found = json_array();
	bool ok = o && found;

	for (size_t i = 0; ok && i < l->place_count; i++) {
		json_t *p = json_object();

		ok = append(found, finished(p, p && put(p, "path", json_string(l->places[i].path)) &&
						  put(p, "where", json_string(l->places[i].where))));
	}
	if (!ok)
		json_decref(found);
	return finished(o, ok && put(o, "kind", json_string(kinds[l->kind])) &&
			       put(o, "real_path", json_string(l->real_path)) && put(o, "found", found) &&
			       put(o, "version", string_or_null(l->version)) && put(o, "cuda", string_or_null(l->cuda)) &&
			       put(o, "elf_version", string_or_null(l->elf_version)) &&
			       put(o, "name_version", string_or_null(l->name_version)) &&
			       put(o, "package", package_to_json(l)));
}

json_t *nccl_loads_to_json(const struct nccl_libs *libs)
{
	json_t *list = json_array();
	bool ok = list != NULL;

	for (size_t i = 0; ok && i < libs->load_count; i++) {
		const struct nccl_load *l = &libs->loads[i];
		const char *by = nccl_load_by_name(l->by);
		json_t *o = json_object();

		ok = append(list, finished(o, o && put(o, "program", string_or_null(l->program)) &&
						  put(o, "where", string_or_null(l->where)) &&
						  put(o, "needed", json_string(l->needed)) &&
						  put(o, "by", by ? json_string(by) : json_null()) &&
						  put(o, "path", string_or_null(l->path)) &&
						  put(o, "real_path", string_or_null(l->real_path))));
	}
	if (!ok) {
		json_decref(list);
		return NULL;
	}
	return list;
}

json_t *nccl_libs_to_json(const struct nccl_libs *libs, bool read)
{
	json_t *o, *list;
	bool ok;

	if (!read)
		return json_null();
	o = json_object();
	list = json_array();
	ok = o && list;
	for (size_t i = 0; ok && i < libs->count; i++)
		ok = append(list, lib_to_json(&libs->items[i]));
	if (!ok)
		json_decref(list);
	return finished(o, ok && put(o, "libraries", list) && put(o, "truncated", json_boolean(libs->truncated)) &&
			       put(o, "net_plugin", libs->net_plugin_set ? json_string(libs->net_plugin) : json_null()) &&
			       put(o, "loads", nccl_loads_to_json(libs)));
}

/* ---- reader ---- */

static const char *const top_members[] = { "libraries", "truncated", "net_plugin", "loads" };
static const char *const load_members[] = { "program", "where", "needed", "by", "path", "real_path" };
static const char *const lib_members[] = { "kind", "real_path", "found", "version", "cuda", "elf_version",
					   "name_version", "package" };
static const char *const place_members[] = { "path", "where" };
static const char *const package_members[] = { "manager", "name", "version" };

/* A host path: absolute, as the probe writes it. */
static int read_path(struct reader *r, const struct jnode *obj, const char *key, char *dst, size_t size)
{
	int ret = read_string(r, obj, key, false, dst, size);

	if (ret == 0 && dst[0] != '/') {
		size_t mark = path_member(r, key);

		ret = invalid(r, "expected an absolute path, got \"%.64s\"", dst);
		path_leave(r, mark);
	}
	return ret;
}

static int read_package(struct reader *r, const struct jnode *j, struct nccl_lib *l)
{
	size_t mark = path_member(r, "package");
	const struct jnode *p;
	int manager = -1;
	int ret = member(r, j, "package", "an object or null", &p);

	if (ret == 0 && !jnode_is_null(p) && !jnode_is_object(p))
		ret = invalid(r, "expected an object or null, got %s", type_name(p));
	if (ret == 0 && jnode_is_object(p)) {
		ret = check_object(r, p, package_members, COUNT(package_members));
		if (ret == 0)
			ret = read_name(r, p, "manager", package_managers, COUNT(package_managers), "\"dpkg\" or \"pip\"",
					&manager);
		if (ret == 0 && manager < 0)
			ret = invalid(r, "manager: expected \"dpkg\" or \"pip\", got null");
		if (ret == 0) {
			snprintf(l->package_manager, sizeof(l->package_manager), "%s", package_managers[manager]);
			ret = read_string(r, p, "name", false, l->package_name, sizeof(l->package_name));
		}
		if (ret == 0)
			ret = read_string(r, p, "version", true, l->package_version, sizeof(l->package_version));
	}
	path_leave(r, mark);
	return ret;
}

static int read_place(struct reader *r, const struct jnode *j, struct nccl_lib_place *p)
{
	int ret = check_object(r, j, place_members, COUNT(place_members));

	if (ret == 0)
		ret = read_path(r, j, "path", p->path, sizeof(p->path));
	if (ret == 0)
		ret = read_string(r, j, "where", false, p->where, sizeof(p->where));
	return ret;
}

static int read_lib(struct reader *r, const struct jnode *j, struct nccl_lib *l)
{
	const struct jnode *found = NULL;
	int kind = -1;
	int ret = check_object(r, j, lib_members, COUNT(lib_members));

	if (ret == 0)
		ret = read_name(r, j, "kind", kinds, COUNT(kinds), "\"nccl\" or \"net_plugin\"", &kind);
	if (ret == 0 && kind < 0)
		ret = invalid(r, "kind: expected \"nccl\" or \"net_plugin\", got null");
	l->kind = kind == 1 ? NCCL_LIB_NET_PLUGIN : NCCL_LIB_CORE;
	if (ret == 0)
		ret = read_path(r, j, "real_path", l->real_path, sizeof(l->real_path));
	if (ret == 0)
		ret = read_array(r, j, "found", false, NCCL_LIB_FOUND_MAX, &found);
	if (ret == 0 && jnode_array_size(found) == 0) {
		size_t mark = path_member(r, "found");

		ret = invalid(r, "expected at least one place the library was found");
		path_leave(r, mark);
	}
	for (size_t i = 0; ret == 0 && i < jnode_array_size(found); i++) {
		size_t mark = path_member(r, "found"), at = path_index(r, i);

		ret = read_place(r, jnode_array_get(found, i), &l->places[i]);
		path_leave(r, at);
		path_leave(r, mark);
	}
	l->place_count = jnode_array_size(found);
	if (ret == 0)
		ret = read_string(r, j, "version", true, l->version, sizeof(l->version));
	if (ret == 0)
		ret = read_string(r, j, "cuda", true, l->cuda, sizeof(l->cuda));
	if (ret == 0)
		ret = read_string(r, j, "elf_version", true, l->elf_version, sizeof(l->elf_version));
	if (ret == 0)
		ret = read_string(r, j, "name_version", true, l->name_version, sizeof(l->name_version));
	if (ret == 0)
		ret = read_package(r, j, l);
	return ret;
}

/* One load: a path or null for each name; null by (nothing found) goes with null paths. */
static int read_load(struct reader *r, const struct jnode *j, const struct nccl_libs *libs, struct nccl_load *l)
{
	int by = -1;
	int ret = check_object(r, j, load_members, COUNT(load_members));

	if (ret == 0)
		ret = read_string(r, j, "program", true, l->program, sizeof(l->program));
	if (ret == 0 && l->program[0] && l->program[0] != '/')
		ret = invalid(r, "program: expected an absolute path or null, got \"%.64s\"", l->program);
	if (ret == 0)
		ret = read_string(r, j, "where", true, l->where, sizeof(l->where));
	if (ret == 0)
		ret = read_string(r, j, "needed", false, l->needed, sizeof(l->needed));
	if (ret == 0)
		ret = read_name(r, j, "by", load_bys, COUNT(load_bys), "a loader step or null", &by);
	l->by = by < 0 ? NCCL_LOAD_NONE : (enum nccl_load_by)(by + 1);
	if (ret == 0)
		ret = read_string(r, j, "path", true, l->path, sizeof(l->path));
	if (ret == 0)
		ret = read_string(r, j, "real_path", true, l->real_path, sizeof(l->real_path));
	if (ret == 0 && (!l->path[0] || !l->real_path[0]) != (l->by == NCCL_LOAD_NONE))
		ret = invalid(r, "expected path and real_path with a step in by, and null all three when nothing loads");
	if (ret == 0 && l->path[0] && (l->path[0] != '/' || l->real_path[0] != '/'))
		ret = invalid(r, "expected absolute paths in path and real_path");
	for (size_t i = 0; ret == 0 && l->real_path[0] && i <= libs->count; i++) {
		if (i == libs->count)
			ret = invalid(r, "real_path: \"%.64s\" is none of the libraries", l->real_path);
		else if (strcmp(libs->items[i].real_path, l->real_path) == 0)
			break;
	}
	return ret;
}

int nccl_libs_read_member(struct reader *r, const struct jnode *doc, struct nccl_libs *libs, bool *read)
{
	size_t mark = path_member(r, "nccl_libs");
	const struct jnode *o = jnode_object_get(doc, "nccl_libs"), *list = NULL, *plugin;
	int truncated = 0;
	int ret = 0;

	*read = false;
	/* Absent: a snapshot of a roce-doctor that did not look for NCCL yet; read as not looked for. */
	if (!o || jnode_is_null(o)) {
		path_leave(r, mark);
		return 0;
	}
	if (ret == 0 && !jnode_is_object(o))
		ret = invalid(r, "expected an object or null, got %s", type_name(o));
	if (ret == 0)
		ret = check_object(r, o, top_members, COUNT(top_members));
	if (ret == 0)
		ret = read_array(r, o, "libraries", false, NCCL_LIBS_MAX, &list);
	if (ret == 0) {
		libs->items = entries(r, jnode_array_size(list), sizeof(*libs->items), &ret);
		libs->count = jnode_array_size(list);
	}
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		size_t in = path_member(r, "libraries"), at = path_index(r, i);

		memset(&libs->items[i], 0, sizeof(libs->items[i]));
		ret = read_lib(r, jnode_array_get(list, i), &libs->items[i]);
		if (ret == 0)
			ret = check_unique(r, list, i, "real_path");
		path_leave(r, at);
		path_leave(r, in);
	}
	if (ret == 0)
		ret = read_bool(r, o, "truncated", false, &truncated);
	libs->truncated = truncated == 1;
	if (ret == 0) {
		size_t at = path_member(r, "net_plugin");

		plugin = jnode_object_get(o, "net_plugin");
		if (!plugin)
			ret = invalid(r, "missing (expected a string or null)");
		else if (!jnode_is_null(plugin) && !jnode_is_string(plugin))
			ret = invalid(r, "expected a string or null, got %s", type_name(plugin));
		else if (jnode_is_string(plugin) && jnode_string_length(plugin) >= sizeof(libs->net_plugin))
			ret = invalid(r, "expected a string of at most %zu bytes", sizeof(libs->net_plugin) - 1);
		else if (jnode_is_string(plugin) && memchr(jnode_string_value(plugin), '\0', jnode_string_length(plugin)))
			ret = invalid(r, "expected a string without NUL characters");
		else if (jnode_is_string(plugin)) {
			libs->net_plugin_set = true;
			snprintf(libs->net_plugin, sizeof(libs->net_plugin), "%s", jnode_string_value(plugin));
		}
		path_leave(r, at);
	}
	/* Absent: a snapshot of a roce-doctor that did not resolve loads yet. */
	if (ret == 0 && jnode_object_get(o, "loads")) {
		const struct jnode *loads = NULL;

		ret = read_array(r, o, "loads", false, NCCL_LOADS_MAX, &loads);
		for (size_t i = 0; ret == 0 && i < jnode_array_size(loads); i++) {
			size_t in = path_member(r, "loads"), at = path_index(r, i);

			memset(&libs->loads[i], 0, sizeof(libs->loads[i]));
			ret = read_load(r, jnode_array_get(loads, i), libs, &libs->loads[i]);
			path_leave(r, at);
			path_leave(r, in);
		}
		libs->load_count = ret == 0 ? jnode_array_size(loads) : 0;
	}
	if (ret == 0)
		*read = true;
	path_leave(r, mark);
	return ret;
}
