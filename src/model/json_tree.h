// SPDX-License-Identifier: GPL-2.0-only
/* A JSON document as the model's readers see it: a read-only tree in one arena, with accessors named and
 * behaving as jansson's (jnode_object_get ~ json_object_get, NULL-safe the same way), so a reader reads either.
 * Why not jansson's tree: parsing 10,000 snapshots into it (a hashtable per object, a lexer that copies every
 * byte through a buffer) was most of compare's time. json_tree_parse reads the plain JSON our writers produce
 * in one pass; whatever it does not take on (a parse error, non-ASCII text, \u escapes above 0x7f, more than
 * 64 levels or 64 members per object, numbers at the edge of their range) it leaves to jansson, whose tree is
 * then copied (json_tree_from_jansson): so exactly the documents jansson accepts are accepted, with jansson's
 * error text for the others. Not thread-bound: no global state. */
#ifndef ROCE_DOCTOR_MODEL_JSON_TREE_H
#define ROCE_DOCTOR_MODEL_JSON_TREE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct jnode {
	const char *key;            /* the member's name in its object; NULL in an array or at the top */
	union {
		struct jnode *items;    /* object members or array entries, in document order */
		const char *string;     /* NUL-terminated (jansson refuses \u0000 in a document) */
		long long integer;
		double real;
	} u;
	size_t count;               /* members, entries, or the string's bytes */
	json_type type;
	unsigned key_hash;          /* the parser's, for its duplicate check */
	/* Objects: where jnode_object_get starts its next scan, one past its last match. The readers ask for the
	 * members in document order (writer and reader list them alike), so the next one is usually right there:
	 * scanning from the first member each time was a tenth of compare's reading. A cache that only changes
	 * where the scan starts, never what it finds; a tree is read by one thread at a time. */
	size_t cursor;
};

struct json_tree_chunk;

/* Zeroed before first use; json_tree_free when done. A tree parses one document after another, each
 * replacing the last in the same memory. */
struct json_tree {
	const struct jnode *root;       /* the document; NULL after an error */
	struct json_tree_chunk *chunks;
	struct jnode *pending;          /* the parser's stack of unfinished containers' children */
	size_t pending_size;
};

/* 0 with t->root set; -EINVAL when the text is beyond this parser (not necessarily bad JSON: ask jansson),
 * -ENOMEM. */
int json_tree_parse(struct json_tree *t, const char *text, size_t len);

/* A copy of jansson's tree. 0 or -ENOMEM. */
int json_tree_from_jansson(struct json_tree *t, const json_t *doc);

void json_tree_free(struct json_tree *t);

/* ---- jansson's read accessors, for struct jnode ---- */

static inline json_type jnode_typeof(const struct jnode *v)
{
	return v->type;
}

#define jnode_is_object(v) jnode_is_type((v), JSON_OBJECT)
#define jnode_is_array(v) jnode_is_type((v), JSON_ARRAY)
#define jnode_is_string(v) jnode_is_type((v), JSON_STRING)
#define jnode_is_integer(v) jnode_is_type((v), JSON_INTEGER)
#define jnode_is_real(v) jnode_is_type((v), JSON_REAL)
#define jnode_is_true(v) jnode_is_type((v), JSON_TRUE)
#define jnode_is_null(v) jnode_is_type((v), JSON_NULL)
#define jnode_is_number(v) (jnode_is_integer(v) || jnode_is_real(v))
#define jnode_is_boolean(v) (jnode_is_true(v) || jnode_is_type((v), JSON_FALSE))

static inline bool jnode_is_type(const struct jnode *v, json_type type)
{
	return v && v->type == type;
}

static inline const char *jnode_string_value(const struct jnode *v)
{
	return jnode_is_string(v) ? v->u.string : NULL;
}

static inline size_t jnode_string_length(const struct jnode *v)
{
	return jnode_is_string(v) ? v->count : 0;
}

static inline long long jnode_integer_value(const struct jnode *v)
{
	return jnode_is_integer(v) ? v->u.integer : 0;
}

static inline double jnode_number_value(const struct jnode *v)
{
	return jnode_is_integer(v) ? (double)v->u.integer : jnode_is_real(v) ? v->u.real : 0.0;
}

static inline size_t jnode_array_size(const struct jnode *v)
{
	return jnode_is_array(v) ? v->count : 0;
}

static inline const struct jnode *jnode_array_get(const struct jnode *v, size_t i)
{
	return jnode_is_array(v) && i < v->count ? &v->u.items[i] : NULL;
}

/* Linear from the cursor (see struct jnode), wrapping round: the parser keeps objects to 64 members (a larger
 * one comes from jansson, as rare as hostile). */
static inline const struct jnode *jnode_object_get(const struct jnode *v, const char *key)
{
	size_t i;

	if (!jnode_is_object(v) || !key || v->count == 0)
		return NULL;
	i = v->cursor < v->count ? v->cursor : 0;
	for (size_t n = 0; n < v->count; n++, i = i + 1 < v->count ? i + 1 : 0)
		if (v->u.items[i].key[0] == key[0] && strcmp(v->u.items[i].key, key) == 0) {
			((struct jnode *)v)->cursor = i + 1;   /* the arena's, never const memory */
			return &v->u.items[i];
		}
	return NULL;
}

/* As json_object_foreach: key and value of each member in document order. */
#define jnode_object_foreach(obj, k, value)                                                                      \
	for (size_t jnode_at_ = 0; jnode_is_object(obj) && jnode_at_ < (obj)->count &&                            \
				   ((value) = &(obj)->u.items[jnode_at_], (k) = (value)->key, 1);   \
	     jnode_at_++)

#endif
