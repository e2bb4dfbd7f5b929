// SPDX-License-Identifier: GPL-2.0-only
/* The snapshot document to JSON and back. The host and identity parts have their own writers and readers;
 * this file puts them under one schema and adds the root the snapshot was taken under. */
#include "model/snapshot_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/host_json.h"
#include "model/identity_json.h"
#include "model/json_tree.h"
#include "model/system_json.h"

#define SCHEMA_PREFIX "roce-doctor/snapshot/v"
#define WARNING_MAX_LEN 8192

void snapshot_free(struct snapshot *s)
{
	host_free(&s->host);
	if (s->system_known)
		system_free(&s->system);
	s->system_known = false;
	notes_free(&s->warnings);
}

static bool put(json_t *obj, const char *key, json_t *value)
{
	return value && json_object_set_new(obj, key, value) == 0;
}

json_t *snapshot_to_json(const struct snapshot *s)
{
	json_t *doc = json_object(), *warnings = NULL;
	bool ok = doc && put(doc, "schema", json_string(SNAPSHOT_JSON_SCHEMA)) &&
		  put(doc, "root", s->has_root ? json_string(s->root) : json_null()) &&
		  put(doc, "identity", identity_to_json(&s->identity)) && put(doc, "host", host_to_json(&s->host)) &&
		  /* null: taken without the system sources (an older roce-doctor); check --from refuses it. */
		  put(doc, "system", s->system_known ? system_to_json(&s->system) : json_null()) &&
		  put(doc, "warnings", warnings = json_array());

	for (size_t i = 0; ok && i < s->warnings.count; i++)
		ok = json_array_append_new(warnings, json_string(s->warnings.items[i])) == 0;
	if (ok)
		return doc;
	json_decref(doc);
	return NULL;
}

static const char *type_name(const struct jnode *v)
{
	static const char *const names[] = { "an object", "an array", "a string", "an integer", "a number",
					      "a boolean", "a boolean", "null" };

	return names[jnode_typeof(v)];
}

static int invalid(char *why, size_t why_size, const char *member, const char *what, const char *got)
{
	snprintf(why, why_size, "%s: %s%s", member, what, got ? got : "");
	return -EINVAL;
}

/* Schema name and version before anything else: a newer document gets its own answer. */
static int read_schema(const struct jnode *doc, char *why, size_t why_size)
{
	const struct jnode *v = jnode_object_get(doc, "schema");
	const char *s, *version;
	size_t digits;

	if (!v)
		return invalid(why, why_size, "schema", "missing: expected \"" SNAPSHOT_JSON_SCHEMA "\"", NULL);
	if (!jnode_is_string(v))
		return invalid(why, why_size, "schema", "expected \"" SNAPSHOT_JSON_SCHEMA "\", got ", type_name(v));
	s = jnode_string_value(v);
	if (strcmp(s, SNAPSHOT_JSON_SCHEMA) == 0 && jnode_string_length(v) == strlen(s))
		return 0;
	version = s + strlen(SCHEMA_PREFIX);
	digits = strncmp(s, SCHEMA_PREFIX, strlen(SCHEMA_PREFIX)) == 0 ? strspn(version, "0123456789") : 0;
	if (digits && !version[digits] && version[0] != '0' && (digits > 1 || version[0] > '1'))
		snprintf(why, why_size, "schema: \"%.64s\" is newer than this roce-doctor reads (%s)", s,
			 SNAPSHOT_JSON_SCHEMA);
	else
		snprintf(why, why_size, "schema: expected \"%s\", got \"%.64s\"", SNAPSHOT_JSON_SCHEMA, s);
	return -EINVAL;
}

static int read_members(const struct jnode *doc, char *why, size_t why_size)
{
	static const char *const names[] = { "schema", "root", "identity", "host", "system", "warnings" };
	const size_t count = sizeof(names) / sizeof(names[0]);
	const char *key;
	struct jnode *v;

	for (size_t i = 0; i < count; i++)
		if (!jnode_object_get(doc, names[i]))
			return invalid(why, why_size, names[i], "missing", NULL);
	jnode_object_foreach((struct jnode *)doc, key, v) {
		size_t i = 0;

		while (i < count && strcmp(names[i], key) != 0)
			i++;
		if (i == count) {
			snprintf(why, why_size, "%.64s: unknown member", key);
			return -EINVAL;
		}
	}
	return 0;
}

static int read_root(const struct jnode *doc, struct snapshot *s, char *why, size_t why_size)
{
	const struct jnode *v = jnode_object_get(doc, "root");
	size_t len;

	if (jnode_is_null(v))
		return 0;
	if (!jnode_is_string(v))
		return invalid(why, why_size, "root", "expected a directory name or null, got ", type_name(v));
	len = jnode_string_length(v);
	if (len == 0 || len >= SNAPSHOT_ROOT_MAX || strlen(jnode_string_value(v)) != len) {
		snprintf(why, why_size, "root: expected a directory name of 1 to %d bytes (no NUL), got %zu bytes",
			 SNAPSHOT_ROOT_MAX - 1, len);
		return -EINVAL;
	}
	memcpy(s->root, jnode_string_value(v), len + 1);
	s->has_root = true;
	return 0;
}

static int read_warnings(const struct jnode *doc, struct snapshot *s, char *why, size_t why_size)
{
	const struct jnode *list = jnode_object_get(doc, "warnings");

	if (!jnode_is_array(list))
		return invalid(why, why_size, "warnings", "expected an array of strings, got ", type_name(list));
	if (jnode_array_size(list) > NOTES_MAX) {
		snprintf(why, why_size, "warnings: expected at most %d entries, got %zu", NOTES_MAX, jnode_array_size(list));
		return -EINVAL;
	}
	for (size_t i = 0; i < jnode_array_size(list); i++) {
		const struct jnode *v = jnode_array_get(list, i);

		if (!jnode_is_string(v) || jnode_string_length(v) > WARNING_MAX_LEN ||
		    strlen(jnode_string_value(v)) != jnode_string_length(v)) {
			snprintf(why, why_size, "warnings[%zu]: expected a string of at most %d bytes (no NUL), got %s", i,
				 WARNING_MAX_LEN, jnode_is_string(v) ? "a longer one" : type_name(v));
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < jnode_array_size(list); i++)
		notes_add(&s->warnings, "%s", jnode_string_value(jnode_array_get(list, i)));
	return 0;
}

/* The host reader names paths from its own top ("devices[0]..."; "document" for the whole): put them under host. */
static int read_host(const struct jnode *doc, struct snapshot *s, char *why, size_t why_size)
{
	char host_why[512];
	int ret = host_from_tree(jnode_object_get(doc, "host"), &s->host, host_why, sizeof(host_why));

	if (ret == -EINVAL && strncmp(host_why, "document: ", 10) == 0)
		snprintf(why, why_size, "host: %s", host_why + 10);
	else if (ret == -EINVAL)
		snprintf(why, why_size, "host.%s", host_why);
	else if (ret < 0)
		snprintf(why, why_size, "%s", strerror(-ret));
	return ret;
}

/* The system reader names paths from its own top too: under system. null: taken without them. */
static int read_system(const struct jnode *doc, struct snapshot *s, char *why, size_t why_size)
{
	const struct jnode *v = jnode_object_get(doc, "system");
	char system_why[512];
	int ret;

	if (jnode_is_null(v))
		return 0;
	ret = system_from_tree(v, &s->system, system_why, sizeof(system_why));
	if (ret == -EINVAL && strncmp(system_why, "document: ", 10) == 0)
		snprintf(why, why_size, "system: %s", system_why + 10);
	else if (ret == -EINVAL)
		snprintf(why, why_size, "system.%s", system_why);
	else if (ret < 0)
		snprintf(why, why_size, "%s", strerror(-ret));
	s->system_known = ret == 0;
	return ret;
}

static int read_snapshot(const struct jnode *doc, struct snapshot *s, char *why, size_t why_size)
{
	int ret;

	if (!jnode_is_object(doc))
		return invalid(why, why_size, "document", "expected an object, got ", type_name(doc));
	ret = read_schema(doc, why, why_size);
	if (ret == 0)
		ret = read_members(doc, why, why_size);
	if (ret == 0)
		ret = read_root(doc, s, why, why_size);
	if (ret == 0)
		ret = identity_from_tree(jnode_object_get(doc, "identity"), "identity", &s->identity, why, why_size);
	if (ret == 0)
		ret = read_warnings(doc, s, why, why_size);
	/* Last, as they are the parts that allocate. */
	if (ret == 0)
		ret = read_host(doc, s, why, why_size);
	if (ret == 0)
		ret = read_system(doc, s, why, why_size);
	return ret;
}

/* The document's tree: ours in one pass, or jansson's copied when ours declines (see json_tree.h), which also
 * words the error for text that is not JSON. */
static int parse_tree(const char *text, size_t len, struct json_tree *tree, char *why, size_t why_size)
{
	json_error_t error;
	json_t *doc;
	int ret = json_tree_parse(tree, text, len);

	if (ret != -EINVAL)
		return ret;
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &error);
	if (doc) {
		ret = json_tree_from_jansson(tree, doc);
		json_decref(doc);
		return ret;
	}
	/* A --json-lines stream of several snapshots reads as one document followed by more text. */
	if (strstr(error.text, "end of file expected"))
		snprintf(why, why_size, "line %d column %d: a second document after the first: --from reads one "
			 "snapshot; of a --json-lines stream take one line (sed -n %dp FILE > node.json)", error.line,
			 error.column, error.line);
	else
		snprintf(why, why_size, "line %d column %d: not a JSON document: %s", error.line, error.column,
			 error.text);
	return -EINVAL;
}

int snapshot_parse_in(struct json_tree *tree, const char *text, size_t len, struct snapshot *s, char *why,
		      size_t why_size)
{
	int ret;

	/* everything but the fixed arrays of root and identity, which their readers write (140 KiB per snapshot) */
	s->has_root = false;
	s->root[0] = '\0';
	s->identity.provider_count = s->identity.device_count = 0;
	memset(&s->host, 0, sizeof(s->host));
	s->system_known = false;
	memset(&s->system, 0, sizeof(s->system));
	memset(&s->warnings, 0, sizeof(s->warnings));
	ret = parse_tree(text, len, tree, why, why_size);
	if (ret == -ENOMEM)
		snprintf(why, why_size, "out of memory");
	if (ret == 0)
		ret = read_snapshot(tree->root, s, why, why_size);   /* copies what it keeps */
	if (ret < 0) {
		snapshot_free(s);
		memset(s, 0, sizeof(*s));
	}
	return ret;
}

int snapshot_parse(const char *text, size_t len, struct snapshot *s, char *why, size_t why_size)
{
	struct json_tree tree = { 0 };
	int ret = snapshot_parse_in(&tree, text, len, s, why, why_size);

	json_tree_free(&tree);
	return ret;
}
