// SPDX-License-Identifier: GPL-2.0-only
/* What the model's JSON writers and readers share: the writer's small builders, and the reader that walks a
 * document once (validating as it builds) keeping the JSON path of the member it reads for its one-line
 * messages. Inline, so each writer/reader stays one translation unit and an unused helper costs nothing. */
#ifndef ROCE_DOCTOR_MODEL_JSON_IO_H
#define ROCE_DOCTOR_MODEL_JSON_IO_H

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json_tree.h"
#include "util/notes.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- writer ---- */

static inline json_t *string_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/* The model says "unknown" with zero or below for these (ifindex, MTU, speed). */
static inline json_t *positive_or_null(long long v)
{
	return v > 0 ? json_integer(v) : json_null();
}

/* Takes value (NULL included: then false); false when it could not be stored. */
static inline bool put(json_t *obj, const char *key, json_t *value)
{
	return value && json_object_set_new(obj, key, value) == 0;
}

static inline bool append(json_t *list, json_t *value)
{
	return value && json_array_append_new(list, value) == 0;
}

static inline json_t *finished(json_t *obj, bool ok)
{
	if (ok)
		return obj;
	json_decref(obj);
	return NULL;
}

/* One step of the JSON path: a member name, or (name NULL) an array index. Names point into the document or
 * are literals, alive for the read. */
struct reader_frame {
	const char *name;
	size_t index;
};

#define READER_DEPTH_MAX 32   /* the schemas nest 7 deep; deeper steps are counted, not kept */
#define READER_PATH_MAX 192   /* the longest path a message shows: longer ones are cut */

struct reader {
	/* The path of the member being read ("devices[3].ports[0].gids[7].gid") as steps, spelt out only when a
	 * message needs it: formatting it for every member read was most of a snapshot's reading time. */
	struct reader_frame frames[READER_DEPTH_MAX];
	size_t depth;
	char *why;
	size_t why_size;
};

/* The path as text, cut to READER_PATH_MAX - 1 bytes; "" at the top. */
static inline void path_text(const struct reader *r, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->depth && i < READER_DEPTH_MAX && len + 1 < size; i++) {
		const struct reader_frame *f = &r->frames[i];
		int n = f->name ? snprintf(buf + len, size - len, "%s%s", len ? "." : "", f->name)
				: snprintf(buf + len, size - len, "[%zu]", f->index);

		if (n > 0)
			len = len + (size_t)n < size ? len + (size_t)n : size - 1;
	}
}

static inline int invalid(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line: the path, then what was expected and what came. -EINVAL. */
static inline int invalid(struct reader *r, const char *fmt, ...)
{
	char msg[384], path[READER_PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	path_text(r, path, sizeof(path));
	if (r->why && r->why_size)
		snprintf(r->why, r->why_size, "%s: %s", path[0] ? path : "document", msg);
	return -EINVAL;
}

static inline int out_of_memory(struct reader *r)
{
	if (r->why && r->why_size)
		snprintf(r->why, r->why_size, "out of memory");
	return -ENOMEM;
}

/* Each returns the mark path_leave() goes back to. */
static inline size_t path_member(struct reader *r, const char *key)
{
	if (r->depth < READER_DEPTH_MAX)
		r->frames[r->depth] = (struct reader_frame){ .name = key };
	return r->depth++;
}

static inline size_t path_index(struct reader *r, size_t i)
{
	if (r->depth < READER_DEPTH_MAX)
		r->frames[r->depth] = (struct reader_frame){ .index = i };
	return r->depth++;
}

static inline void path_leave(struct reader *r, size_t mark)
{
	r->depth = mark;
}

static inline const char *type_name(const struct jnode *v)
{
	switch (v ? jnode_typeof(v) : JSON_NULL) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

/* An object with no member outside names (a misspelt member would otherwise be dropped in silence). */
static inline int check_object(struct reader *r, const struct jnode *v, const char *const names[], size_t count)
{
	const char *key;
	struct jnode *value;

	size_t next = 0;   /* members come in names' order: the next name is tried first, then all */

	if (!jnode_is_object(v))
		return invalid(r, "expected an object, got %s", type_name(v));
	jnode_object_foreach((struct jnode *)v, key, value) {
		size_t i = 0, mark;
		int ret;

		if (next < count && strcmp(key, names[next]) == 0) {
			next++;
			continue;
		}
		while (i < count && strcmp(key, names[i]) != 0)
			i++;
		next = i + 1;
		if (i < count)
			continue;
		mark = path_member(r, key);
		ret = invalid(r, "unknown member");
		path_leave(r, mark);
		return ret;
	}
	return 0;
}

/* The member key of obj, or an error naming it. The caller has entered key into the path. */
static inline int member(struct reader *r, const struct jnode *obj, const char *key, const char *expected, const struct jnode **out)
{
	*out = jnode_object_get(obj, key);
	return *out ? 0 : invalid(r, "missing (expected %s)", expected);
}

static inline int string_value(struct reader *r, const struct jnode *v, bool nullable, char *dst, size_t size)
{
	const char *s = jnode_string_value(v);
	size_t len = jnode_string_length(v);

	if (nullable && jnode_is_null(v)) {
		dst[0] = '\0';
		return 0;
	}
	if (!jnode_is_string(v))
		return invalid(r, "expected %s, got %s", nullable ? "a string or null" : "a string", type_name(v));
	if (len == 0)   /* the writer spells an empty field null: "" is not what it wrote */
		return invalid(r, "expected a non-empty string%s, got \"\"", nullable ? " or null" : "");
	if (memchr(s, '\0', len))
		return invalid(r, "expected a string without NUL characters");
	if (len >= size)
		return invalid(r, "expected a string of at most %zu bytes, got %zu bytes", size - 1, len);
	memcpy(dst, s, len + 1);
	return 0;
}

static inline int read_string(struct reader *r, const struct jnode *obj, const char *key, bool nullable, char *dst, size_t size)
{
	size_t mark = path_member(r, key);
	const struct jnode *v;
	int ret = member(r, obj, key, nullable ? "a string or null" : "a string", &v);

	if (ret == 0)
		ret = string_value(r, v, nullable, dst, size);
	path_leave(r, mark);
	return ret;
}

/* An integer in [min, max]; with nullable, null stores null_value. */
static inline int read_integer(struct reader *r, const struct jnode *obj, const char *key, json_int_t min, json_int_t max,
			bool nullable, json_int_t null_value, json_int_t *out)
{
	const struct jnode *v = jnode_object_get(obj, key);
	size_t mark;
	char expected[96];
	int ret;

	if (v && nullable && jnode_is_null(v)) {
		*out = null_value;
		return 0;
	}
	if (jnode_is_integer(v) && jnode_integer_value(v) >= min && jnode_integer_value(v) <= max) {
		*out = jnode_integer_value(v);
		return 0;
	}
	/* the message, spelt out only now */
	mark = path_member(r, key);
	snprintf(expected, sizeof(expected), "an integer from %lld to %lld%s", (long long)min, (long long)max,
		 nullable ? " or null" : "");
	ret = member(r, obj, key, expected, &v);
	if (ret == 0 && !jnode_is_integer(v))
		ret = invalid(r, "expected %s, got %s", expected, type_name(v));
	else if (ret == 0)
		ret = invalid(r, "expected %s, got %lld", expected, (long long)jnode_integer_value(v));
	path_leave(r, mark);
	return ret;
}

/* true/false, or -1 for null when nullable. */
static inline int read_bool(struct reader *r, const struct jnode *obj, const char *key, bool nullable, int *out)
{
	size_t mark = path_member(r, key);
	const char *expected = nullable ? "true, false or null" : "true or false";
	const struct jnode *v;
	int ret = member(r, obj, key, expected, &v);

	if (ret == 0) {
		if (nullable && jnode_is_null(v))
			*out = -1;
		else if (jnode_is_boolean(v))
			*out = jnode_is_true(v);
		else
			ret = invalid(r, "expected %s, got %s", expected, type_name(v));
	}
	path_leave(r, mark);
	return ret;
}

/* A closed set of names: *index into names, or -1 for null. */
static inline int read_name(struct reader *r, const struct jnode *obj, const char *key, const char *const names[], size_t count,
		     const char *expected, int *index)
{
	size_t mark = path_member(r, key);
	const struct jnode *v;
	int ret = member(r, obj, key, expected, &v);

	if (ret == 0 && jnode_is_null(v)) {
		*index = -1;
	} else if (ret == 0 && !jnode_is_string(v)) {
		ret = invalid(r, "expected %s, got %s", expected, type_name(v));
	} else if (ret == 0) {
		size_t i = 0;

		while (i < count && strcmp(jnode_string_value(v), names[i]) != 0)
			i++;
		if (i < count && strlen(names[i]) == jnode_string_length(v))
			*index = (int)i;
		else
			ret = invalid(r, "expected %s, got \"%.64s\"", expected, jnode_string_value(v));
	}
	path_leave(r, mark);
	return ret;
}

/* An array of at most max entries; with nullable, null stores *out = NULL. */
static inline int read_array(struct reader *r, const struct jnode *obj, const char *key, bool nullable, size_t max,
		      const struct jnode **out)
{
	size_t mark;
	char expected[64];
	int ret;

	*out = jnode_object_get(obj, key);
	if (*out && nullable && jnode_is_null(*out)) {
		*out = NULL;
		return 0;
	}
	if (jnode_is_array(*out) && jnode_array_size(*out) <= max)
		return 0;
	/* the message, spelt out only now */
	mark = path_member(r, key);
	snprintf(expected, sizeof(expected), "an array of at most %zu entries%s", max, nullable ? " or null" : "");
	ret = member(r, obj, key, expected, out);
	if (ret == 0 && !jnode_is_array(*out))
		ret = invalid(r, "expected %s, got %s", expected, type_name(*out));
	else if (ret == 0)
		ret = invalid(r, "expected %s, got %zu", expected, jnode_array_size(*out));
	path_leave(r, mark);
	return ret;
}

/* count zeroed entries (NULL for none). */
static inline void *entries(struct reader *r, size_t count, size_t size, int *ret)
{
	void *list;

	if (count == 0)
		return NULL;
	list = calloc(count, size);
	if (!list)
		*ret = out_of_memory(r);
	return list;
}

/* Names are keys (host_find_device, host_find_netdev): a second entry of one name would never be found. */
static inline int check_unique(struct reader *r, const struct jnode *list, size_t i, const char *key)
{
	const char *name = jnode_string_value(jnode_object_get(jnode_array_get(list, i), key));

	for (size_t k = 0; k < i; k++) {
		if (strcmp(name, jnode_string_value(jnode_object_get(jnode_array_get(list, k), key))) == 0) {
			size_t mark = path_member(r, key);
			int ret = invalid(r, "expected a name no other entry has, got \"%s\" again (entry %zu has it)", name, k);

			path_leave(r, mark);
			return ret;
		}
	}
	return 0;
}

/* Schema name and version before anything else: a newer document gets its own answer, not a list of members. */
static inline int read_schema(struct reader *r, const struct jnode *doc, const char *schema)
{
	size_t mark = path_member(r, "schema");
	size_t prefix = strlen(schema) - 1;   /* "roce-doctor/host/v1" without its version "1" */
	char expected[64];
	const struct jnode *v;
	const char *s;
	int ret;

	snprintf(expected, sizeof(expected), "\"%s\"", schema);
	ret = member(r, doc, "schema", expected, &v);
	if (ret == 0 && !jnode_is_string(v)) {
		ret = invalid(r, "expected \"%s\", got %s", schema, type_name(v));
	} else if (ret == 0 && memchr(jnode_string_value(v), '\0', jnode_string_length(v))) {
		ret = invalid(r, "expected \"%s\", got a string with a NUL character", schema);
	} else if (ret == 0 && (strcmp((s = jnode_string_value(v)), schema) != 0 ||
				jnode_string_length(v) != strlen(schema))) {
		const char *version = s + prefix;
		size_t digits = strncmp(s, schema, prefix) == 0 ? strspn(version, "0123456789") : 0;

		if (digits && !version[digits] && version[0] != '0' && (digits > 1 || version[0] > '1'))
			ret = invalid(r, "\"%.64s\" is newer than this roce-doctor reads (%s)", s, schema);
		else
			ret = invalid(r, "expected \"%s\", got \"%.64s\"", schema, s);
	}
	path_leave(r, mark);
	return ret;
}

#define JSON_WARNING_MAX_LEN 8192   /* the probes' longest warning is a 4 KiB path and a sentence */

/* The `warnings` member (strings, at most NOTES_MAX) into n, which has room for them. */
static inline int read_notes(struct reader *r, const struct jnode *doc, struct notes *n)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, doc, "warnings", false, NOTES_MAX, &list);

	mark = path_member(r, "warnings");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		const struct jnode *v = jnode_array_get(list, i);
		size_t at = path_index(r, i);

		if (!jnode_is_string(v))
			ret = invalid(r, "expected a string, got %s", type_name(v));
		else if (jnode_string_length(v) > JSON_WARNING_MAX_LEN)
			ret = invalid(r, "expected a string of at most %d bytes, got %zu bytes", JSON_WARNING_MAX_LEN,
				      jnode_string_length(v));
		else if (memchr(jnode_string_value(v), '\0', jnode_string_length(v)))
			ret = invalid(r, "expected a string without NUL characters");
		else if ((n->tag[n->count] = 0), !(n->items[n->count++] = strdup(jnode_string_value(v))))
			ret = out_of_memory(r);   /* count counted the NULL slot: notes_free frees NULL harmlessly */
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

#endif
