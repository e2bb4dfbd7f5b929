// SPDX-License-Identifier: GPL-2.0-only
/* The identity to JSON and back, writer and reader side by side, member for member in the same order. The
 * reader fills a scratch copy and hands it over only when every member passed: never a partial identity. */
#include "model/identity_json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writer ---- */

static json_t *text_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/* Takes value (NULL included: then false); false when it could not be stored. */
static bool put(json_t *obj, const char *key, json_t *value)
{
	return value && json_object_set_new(obj, key, value) == 0;
}

static json_t *finished(json_t *v, bool ok)
{
	if (ok)
		return v;
	json_decref(v);
	return NULL;
}

static json_t *device_to_json(const struct identity_device *d)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "device", json_string(d->device)) && put(o, "fw_ver", text_or_null(d->fw_ver)) &&
			   put(o, "board_id", text_or_null(d->board_id)) && put(o, "hca_type", text_or_null(d->hca_type)) &&
			   put(o, "driver", text_or_null(d->driver)) &&
			   put(o, "pci_address", text_or_null(d->pci_address)));
}

static json_t *providers_to_json(const struct identity *id)
{
	json_t *list;
	bool ok;

	if (!id->providers_known)
		return json_null();
	list = json_array();
	ok = list != NULL;
	for (size_t i = 0; ok && i < id->provider_count; i++) {
		json_t *o = json_object();

		ok = finished(o, o && put(o, "name", json_string(id->providers[i].name)) &&
				     put(o, "file", json_string(id->providers[i].file))) &&
		     json_array_append_new(list, o) == 0;
	}
	return finished(list, ok);
}

json_t *identity_to_json(const struct identity *id)
{
	json_t *o = json_object(), *devices = NULL;
	bool ok = o && put(o, "hostname", text_or_null(id->hostname)) && put(o, "time", text_or_null(id->time)) &&
		  put(o, "version", text_or_null(id->version)) &&
		  put(o, "kernel_release", text_or_null(id->kernel_release)) &&
		  put(o, "libibverbs_file", text_or_null(id->libibverbs_file)) &&
		  put(o, "rdma_core_version", text_or_null(id->rdma_core_version)) &&
		  put(o, "providers", providers_to_json(id)) && put(o, "devices", devices = json_array());

	for (size_t i = 0; ok && i < id->device_count; i++) {
		json_t *d = device_to_json(&id->devices[i]);

		ok = d && json_array_append_new(devices, d) == 0;
	}
	return finished(o, ok);
}

/* ---- reader ---- */

struct reader {
	char path[160];     /* "identity.devices[2]" */
	char *why;
	size_t why_size;
};

static int invalid(struct reader *r, const char *member, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int invalid(struct reader *r, const char *member, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(r->why, r->why_size, "%s%s%s: %s", r->path, member[0] ? "." : "", member, text);
	return -EINVAL;
}

static const char *type_name(const struct jnode *v)
{
	switch (jnode_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* Exactly these members, no other: a member this version does not know is refused, not ignored. */
static int check_members(struct reader *r, const struct jnode *obj, const char *const names[], size_t count)
{
	const char *key;
	struct jnode *v;
	size_t next = 0;

	if (!jnode_is_object(obj))
		return invalid(r, "", "expected an object, got %s", type_name(obj));
	for (size_t i = 0; i < count; i++)
		if (!jnode_object_get(obj, names[i]))
			return invalid(r, names[i], "missing");
	jnode_object_foreach((struct jnode *)obj, key, v) {
		size_t i = 0;

		if (next < count && strcmp(names[next], key) == 0) {   /* in names' order: the next name first */
			next++;
			continue;
		}
		while (i < count && strcmp(names[i], key) != 0)
			i++;
		next = i + 1;
		if (i == count)
			return invalid(r, key, "unknown member");
	}
	return 0;
}

/* A non-empty string that fits dst whole (never cut), or null when nullable (dst then empty). */
static int read_text(struct reader *r, const struct jnode *obj, const char *key, bool nullable, char *dst, size_t size)
{
	const struct jnode *v = jnode_object_get(obj, key);

	if (jnode_is_null(v) && nullable) {
		dst[0] = '\0';
		return 0;
	}
	if (!jnode_is_string(v))
		return invalid(r, key, "expected a string%s, got %s", nullable ? " or null" : "", type_name(v));
	if (jnode_string_length(v) == 0 || jnode_string_length(v) >= size || strlen(jnode_string_value(v)) != jnode_string_length(v))
		return invalid(r, key, "expected a non-empty string of at most %zu bytes (no NUL), got one of %zu", size - 1,
			       jnode_string_length(v));
	memcpy(dst, jnode_string_value(v), jnode_string_length(v) + 1);
	return 0;
}

static size_t path_push(struct reader *r, const char *fmt, const char *member, size_t index)
{
	size_t mark = strlen(r->path);

	snprintf(r->path + mark, sizeof(r->path) - mark, fmt, member, index);
	return mark;
}

static int read_provider(struct reader *r, const struct jnode *j, struct identity_provider *p)
{
	static const char *const names[] = { "name", "file" };
	int ret = check_members(r, j, names, 2);

	if (ret == 0)
		ret = read_text(r, j, "name", false, p->name, sizeof(p->name));
	if (ret == 0)
		ret = read_text(r, j, "file", false, p->file, sizeof(p->file));
	return ret;
}

static int read_device(struct reader *r, const struct jnode *j, struct identity_device *d)
{
	static const char *const names[] = { "device", "fw_ver", "board_id", "hca_type", "driver", "pci_address" };
	int ret = check_members(r, j, names, 6);

	if (ret == 0)
		ret = read_text(r, j, "device", false, d->device, sizeof(d->device));
	if (ret == 0)
		ret = read_text(r, j, "fw_ver", true, d->fw_ver, sizeof(d->fw_ver));
	if (ret == 0)
		ret = read_text(r, j, "board_id", true, d->board_id, sizeof(d->board_id));
	if (ret == 0)
		ret = read_text(r, j, "hca_type", true, d->hca_type, sizeof(d->hca_type));
	if (ret == 0)
		ret = read_text(r, j, "driver", true, d->driver, sizeof(d->driver));
	if (ret == 0)
		ret = read_text(r, j, "pci_address", true, d->pci_address, sizeof(d->pci_address));
	return ret;
}

/* An array of at most max objects, each read by one of the two readers above. */
static int read_list(struct reader *r, const struct jnode *obj, const char *key, bool nullable, size_t max, size_t *count,
		     int (*read_one)(struct reader *, const struct jnode *, void *), void *base, size_t size)
{
	const struct jnode *list = jnode_object_get(obj, key);
	int ret = 0;

	*count = 0;
	if (jnode_is_null(list) && nullable)
		return 0;
	if (!jnode_is_array(list))
		return invalid(r, key, "expected an array%s, got %s", nullable ? " or null" : "", type_name(list));
	if (jnode_array_size(list) > max)
		return invalid(r, key, "expected at most %zu entries, got %zu", max, jnode_array_size(list));
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		size_t mark = path_push(r, ".%s[%zu]", key, i);

		ret = read_one(r, jnode_array_get(list, i), (char *)base + i * size);
		r->path[mark] = '\0';
	}
	if (ret == 0)
		*count = jnode_array_size(list);
	return ret;
}

static int read_provider_entry(struct reader *r, const struct jnode *j, void *p)
{
	return read_provider(r, j, p);
}

static int read_device_entry(struct reader *r, const struct jnode *j, void *d)
{
	return read_device(r, j, d);
}

static int read_identity(struct reader *r, const struct jnode *obj, struct identity *id)
{
	static const char *const names[] = { "hostname", "time", "version", "kernel_release", "libibverbs_file",
					     "rdma_core_version", "providers", "devices" };
	int ret = check_members(r, obj, names, sizeof(names) / sizeof(names[0]));

	if (ret == 0)
		ret = read_text(r, obj, "hostname", true, id->hostname, sizeof(id->hostname));
	if (ret == 0)
		ret = read_text(r, obj, "time", true, id->time, sizeof(id->time));
	if (ret == 0)
		ret = read_text(r, obj, "version", true, id->version, sizeof(id->version));
	if (ret == 0)
		ret = read_text(r, obj, "kernel_release", true, id->kernel_release, sizeof(id->kernel_release));
	if (ret == 0)
		ret = read_text(r, obj, "libibverbs_file", true, id->libibverbs_file, sizeof(id->libibverbs_file));
	if (ret == 0)
		ret = read_text(r, obj, "rdma_core_version", true, id->rdma_core_version, sizeof(id->rdma_core_version));
	if (ret == 0)
		ret = read_list(r, obj, "providers", true, IDENTITY_PROVIDERS_MAX, &id->provider_count,
				read_provider_entry, id->providers, sizeof(id->providers[0]));
	id->providers_known = ret == 0 && !jnode_is_null(jnode_object_get(obj, "providers"));
	if (ret == 0)
		ret = read_list(r, obj, "devices", false, HOST_DEVICES_MAX, &id->device_count, read_device_entry,
				id->devices, sizeof(id->devices[0]));
	return ret;
}

int identity_from_tree(const struct jnode *obj, const char *path_prefix, struct identity *id, char *why, size_t why_size)
{
	struct reader r = { .why = why, .why_size = why_size };
	int ret;

	/* Read in place, no scratch copy: every member is written on success (the lists up to their counts), and a
	 * failure clears the whole, so no partial identity is left. 120 KiB of fixed arrays copied and cleared
	 * twice per snapshot was a tenth of compare's time at 10,000 nodes. */
	id->provider_count = id->device_count = 0;
	id->providers_known = false;
	snprintf(r.path, sizeof(r.path), "%s", path_prefix);
	ret = read_identity(&r, obj, id);
	if (ret < 0)
		memset(id, 0, sizeof(*id));
	return ret;
}
