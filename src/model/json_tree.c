// SPDX-License-Identifier: GPL-2.0-only
/* json_tree_parse: one pass over the text, no recursion, the finished containers copied into one arena.
 * Conservative by design: anything it is not sure jansson would read the same way (see json_tree.h) is
 * -EINVAL, and the caller asks jansson. Its only claim is that what it accepts, jansson accepts as the same
 * tree. */
#include "model/json_tree.h"

#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

#define CHUNK_MIN (64u << 10)
#define DEPTH_MAX 64            /* the schemas nest 7 deep; deeper documents go to jansson (limit 2048) */
#define MEMBERS_MAX 64          /* duplicate keys are checked pairwise: larger objects go to jansson */
#define INTEGER_DIGITS_MAX 18   /* never past long long; longer ones go to jansson (its "too big integer") */
#define REAL_TEXT_MAX 64

struct json_tree_chunk {
	struct json_tree_chunk *next;
	size_t used, size;
	alignas(max_align_t) unsigned char data[];
};

static void *arena_alloc(struct json_tree *t, size_t size)
{
	struct json_tree_chunk *c = t->chunks;
	size_t need = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);

	if (need < size)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t data = need > CHUNK_MIN ? need : CHUNK_MIN;

		if (data > SIZE_MAX - sizeof(*c) || !(c = malloc(sizeof(*c) + data)))
			return NULL;
		c->used = 0;
		c->size = data;
		c->next = t->chunks;
		t->chunks = c;
	}
	c->used += need;
	return c->data + c->used - need;
}

static void free_chunks(struct json_tree *t)
{
	while (t->chunks) {
		struct json_tree_chunk *next = t->chunks->next;

		free(t->chunks);
		t->chunks = next;
	}
}

void json_tree_free(struct json_tree *t)
{
	free_chunks(t);
	free(t->pending);
	*t = (struct json_tree){ 0 };
}

/* The memory of the last document for the next: one chunk as large as all of it was, so that a run of
 * similar documents allocates nothing (malloc, page faults and trimming were a fifth of the parse). */
static void reuse(struct json_tree *t)
{
	size_t total = 0;

	t->root = NULL;
	if (t->chunks && !t->chunks->next) {
		t->chunks->used = 0;
		return;
	}
	for (const struct json_tree_chunk *c = t->chunks; c; c = c->next)
		total += c->size;
	free_chunks(t);
	if (total > CHUNK_MIN && (t->chunks = malloc(sizeof(*t->chunks) + total))) {
		t->chunks->next = NULL;
		t->chunks->used = 0;
		t->chunks->size = total;
	}
}

/* ---- the parser ---- */

struct open_container {
	size_t first;               /* its first child in parser.pending */
	const char *key;            /* its own name in the enclosing object */
	unsigned key_hash;
	json_type type;
};

struct parser {
	struct json_tree *tree;     /* its pending: the children of the open containers, innermost last */
	const char *p, *end;
	size_t count;
	struct open_container open[DEPTH_MAX];
	size_t depth;
	const char *key;            /* the member name read for the next value */
	unsigned key_hash;
};

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\t' || *ps->p == '\r'))
		ps->p++;
}

static struct jnode *push(struct parser *ps)
{
	struct json_tree *t = ps->tree;

	if (ps->count == t->pending_size) {
		size_t size = t->pending_size ? t->pending_size * 2 : 1024;
		struct jnode *bigger = realloc(t->pending, size * sizeof(*bigger));

		if (!bigger)
			return NULL;
		t->pending = bigger;
		t->pending_size = size;
	}
	t->pending[ps->count] = (struct jnode){ .key = ps->key, .key_hash = ps->key_hash };
	ps->key = NULL;
	return &t->pending[ps->count++];
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* The high bit of every byte of w (8 bytes as read from memory) that ends a plain run: a control character
 * or non-ASCII (w - 0x20 borrows, or the high bit is set), '"' or '\\' (w ^ c has a zero byte). A borrow
 * can also flag a byte above (in arithmetic order) a truly flagged one, never below it, so the lowest flag
 * is the first stop. */
static inline uint64_t plain_stops(uint64_t w)
{
	uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');

	return (((w - ONES * 0x20) | w) | ((q - ONES) & ~q) | ((b - ONES) & ~b)) & HIGHS;
}

/* The first byte from s on (before end) that ends a plain run (printable ASCII but " and \), or end. Eight
 * bytes at a time: a snapshot's strings are mostly keys and short values, and testing them byte by byte was
 * a twentieth of compare's instructions. */
static const char *plain_end(const char *s, const char *end)
{
	for (uint64_t w, stops; end - s >= 8; s += 8) {
		memcpy(&w, s, 8);
		stops = plain_stops(w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (stops)
			return s + __builtin_ctzll(stops) / 8;   /* the lowest address is the lowest byte */
#else
		if (stops)
			break;   /* found below, byte by byte */
#endif
	}
	while (s < end && (unsigned char)(*s - 0x20) < 0x60 && *s != '"' && *s != '\\')
		s++;
	return s;
}

/* A hash of a key for the duplicate check (equal keys, equal hashes): its length and its first and last
 * eight bytes, mixed. FNV over every byte was a fortieth of compare's instructions. */
static unsigned key_hash(const char *key, size_t len)
{
	uint64_t head = 0, tail = 0;

	memcpy(&head, key, len < 8 ? len : 8);
	if (len > 8)
		memcpy(&tail, key + len - 8, 8);
	return (unsigned)(((head * 0x9e3779b97f4a7c15ull) ^ (tail * 0xc2b2ae3d27d4eb4full) ^ len) >> 32);
}

/* At the opening quote; *out NUL-terminated in the arena. ASCII only, \u escapes of 0x01..0x7f only. hash
 * (key_hash of the decoded bytes, which keys are compared by first) only for keys: NULL for values, which are
 * most of the text. */
static int parse_string(struct parser *ps, const char **out, size_t *out_len, unsigned *hash)
{
	const char *start = ++ps->p, *s = start;
	size_t escaped = 0;         /* bytes the escapes take beyond what they decode to */
	size_t len;
	char *dst;

	for (;;) {
		s = plain_end(s, ps->end);
		if (s >= ps->end)
			return -EINVAL;
		if (*s == '"')
			break;
		if (*s != '\\')
			return -EINVAL;   /* a control character or non-ASCII: jansson's */
		if (++s >= ps->end)
			return -EINVAL;
		if (*s == 'u') {
			int v = 0;

			for (int k = 0; k < 4; k++) {
				int d = ++s < ps->end ? hex_digit(*s) : -1;

				if (d < 0)
					return -EINVAL;
				v = v * 16 + d;
			}
			if (v == 0 || v >= 0x80)
				return -EINVAL;
			escaped += 5;
		} else if (!strchr("\"\\/bfnrt", *s) || *s == '\0') {
			return -EINVAL;
		} else {
			escaped += 1;
		}
		s++;
	}
	len = (size_t)(s - start) - escaped;
	dst = arena_alloc(ps->tree, len + 1);
	if (!dst)
		return -ENOMEM;
	if (!escaped) {
		memcpy(dst, start, len);
	} else {
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		size_t n = 0;

		for (const char *q = start; q < s; q++) {
			if (*q != '\\') {
				dst[n++] = *q;
			} else if (*++q == 'u') {
				dst[n++] = (char)(hex_digit(q[1]) * 4096 + hex_digit(q[2]) * 256 + hex_digit(q[3]) * 16 +
						  hex_digit(q[4]));
				q += 4;
			} else {
				dst[n++] = to[strchr(from, *q) - from];
			}
		}
	}
	dst[len] = '\0';
	if (hash)
		*hash = key_hash(dst, len);
	*out = dst;
	*out_len = len;
	ps->p = s + 1;
	return 0;
}

/* jansson's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; an integer without . or exponent. */
static int parse_number(struct parser *ps, struct jnode *n)
{
	const char *s = ps->p, *digits;
	bool real = false;

	if (s < ps->end && *s == '-')
		s++;
	digits = s;
	if (s < ps->end && *s == '0')
		s++;
	else
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	if (s == digits || (s < ps->end && *s >= '0' && *s <= '9'))
		return -EINVAL;
	if (s < ps->end && *s == '.') {
		const char *frac = ++s;

		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
		if (s == frac)
			return -EINVAL;
		real = true;
	}
	if (s < ps->end && (*s == 'e' || *s == 'E')) {
		const char *exp;

		if (++s < ps->end && (*s == '+' || *s == '-'))
			s++;
		exp = s;
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
		if (s == exp)
			return -EINVAL;
		real = true;
	}
	if (!real) {
		long long v = 0;

		if (s - digits > INTEGER_DIGITS_MAX)
			return -EINVAL;
		for (const char *q = digits; q < s; q++)
			v = v * 10 + (*q - '0');
		n->type = JSON_INTEGER;
		n->u.integer = *ps->p == '-' ? -v : v;
	} else {
		char text[REAL_TEXT_MAX + 1], *stop;
		size_t len = (size_t)(s - ps->p);

		if (len > REAL_TEXT_MAX)
			return -EINVAL;
		memcpy(text, ps->p, len);
		text[len] = '\0';
		errno = 0;
		n->u.real = strtod(text, &stop);
		if (errno || stop != text + len)   /* out of range, or a locale's other decimal point: jansson decides */
			return -EINVAL;
		n->type = JSON_REAL;
	}
	ps->p = s;
	return 0;
}

static int parse_literal(struct parser *ps, struct jnode *n)
{
	static const struct {
		const char *text;
		size_t len;
		json_type type;
	} literals[] = { { "true", 4, JSON_TRUE }, { "false", 5, JSON_FALSE }, { "null", 4, JSON_NULL } };

	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
		if ((size_t)(ps->end - ps->p) >= literals[i].len && memcmp(ps->p, literals[i].text, literals[i].len) == 0) {
			n->type = literals[i].type;
			ps->p += literals[i].len;
			return 0;
		}
	}
	return -EINVAL;
}

static int open_container(struct parser *ps, json_type type)
{
	if (ps->depth == DEPTH_MAX)
		return -EINVAL;
	ps->open[ps->depth++] = (struct open_container){
		.first = ps->count, .key = ps->key, .key_hash = ps->key_hash, .type = type
	};
	ps->key = NULL;
	ps->p++;
	return 0;
}

/* The innermost container's children move to the arena; it becomes one pending child of its parent. */
static int close_container(struct parser *ps)
{
	struct open_container *c = &ps->open[--ps->depth];
	size_t count = ps->count - c->first;
	struct jnode *items = NULL, *n;

	if (c->type == JSON_OBJECT && count > MEMBERS_MAX)
		return -EINVAL;
	if (c->type == JSON_OBJECT)   /* jansson is asked to refuse duplicate keys */
		for (size_t i = c->first + 1; i < ps->count; i++)
			for (size_t k = c->first; k < i; k++)
				if (ps->tree->pending[i].key_hash == ps->tree->pending[k].key_hash &&
				    strcmp(ps->tree->pending[i].key, ps->tree->pending[k].key) == 0)
					return -EINVAL;
	if (count) {
		if (count > SIZE_MAX / sizeof(*items) || !(items = arena_alloc(ps->tree, count * sizeof(*items))))
			return -ENOMEM;
		memcpy(items, ps->tree->pending + c->first, count * sizeof(*items));
	}
	ps->count = c->first;
	ps->key = c->key;
	ps->key_hash = c->key_hash;
	n = push(ps);
	if (!n)
		return -ENOMEM;
	n->type = c->type;
	n->u.items = items;
	n->count = count;
	ps->p++;
	return 0;
}

/* At an object's '"': the member name and its ':'. */
static int parse_key(struct parser *ps)
{
	size_t len;
	int ret;

	if (ps->p >= ps->end || *ps->p != '"')
		return -EINVAL;
	ret = parse_string(ps, &ps->key, &len, &ps->key_hash);
	if (ret < 0)
		return ret;
	skip_space(ps);
	if (ps->p >= ps->end || *ps->p != ':')
		return -EINVAL;
	ps->p++;
	return 0;
}

/* One value at ps->p: a scalar pushed, or a container opened (with its first key read, or closed if empty).
 * *more: whether a value must follow directly (an opened container with content). */
static int parse_value(struct parser *ps, bool *more)
{
	struct jnode *n;
	int ret;

	*more = false;
	skip_space(ps);
	if (ps->p >= ps->end)
		return -EINVAL;
	switch (*ps->p) {
	case '{':
	case '[': {
		json_type type = *ps->p == '{' ? JSON_OBJECT : JSON_ARRAY;

		ret = open_container(ps, type);
		if (ret < 0)
			return ret;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == (type == JSON_OBJECT ? '}' : ']'))
			return close_container(ps);
		*more = true;
		return type == JSON_OBJECT ? parse_key(ps) : 0;
	}
	case '"':
		if (!(n = push(ps)))
			return -ENOMEM;
		n->type = JSON_STRING;
		return parse_string(ps, &n->u.string, &n->count, NULL);
	case 't':
	case 'f':
	case 'n':
		return (n = push(ps)) ? parse_literal(ps, n) : -ENOMEM;
	default:
		return (n = push(ps)) ? parse_number(ps, n) : -ENOMEM;
	}
}

static int parse_document(struct parser *ps)
{
	bool more;
	int ret;

	skip_space(ps);
	if (ps->p >= ps->end || (*ps->p != '{' && *ps->p != '['))
		return -EINVAL;   /* jansson reads objects and arrays only (no JSON_DECODE_ANY) */
	do {
		ret = parse_value(ps, &more);
		if (ret < 0)
			return ret;
		if (more)
			continue;
		/* after a value: separators and closing brackets, until a value is due or the document ends */
		while (ps->depth > 0) {
			const struct open_container *c = &ps->open[ps->depth - 1];

			skip_space(ps);
			if (ps->p >= ps->end)
				return -EINVAL;
			if (*ps->p == ',') {
				ps->p++;
				if (c->type == JSON_OBJECT) {
					skip_space(ps);
					ret = parse_key(ps);
					if (ret < 0)
						return ret;
				}
				break;
			}
			if (*ps->p != (c->type == JSON_OBJECT ? '}' : ']'))
				return -EINVAL;
			ret = close_container(ps);
			if (ret < 0)
				return ret;
		}
	} while (ps->depth > 0);
	skip_space(ps);
	return ps->p == ps->end ? 0 : -EINVAL;
}

int json_tree_parse(struct json_tree *t, const char *text, size_t len)
{
	struct parser ps = { .tree = t, .p = text, .end = text + len };
	struct jnode *root;
	int ret;

	reuse(t);
	ret = parse_document(&ps);
	if (ret == 0 && (root = arena_alloc(t, sizeof(*root)))) {
		*root = t->pending[0];
		t->root = root;
	} else if (ret == 0) {
		ret = -ENOMEM;
	}
	return ret;
}

/* ---- jansson's tree, copied ---- */

static int copy_value(struct json_tree *t, const json_t *v, const char *key, struct jnode *n)
{
	const char *k;
	json_t *member;
	size_t i = 0;
	int ret = 0;

	*n = (struct jnode){ .key = key, .type = json_typeof(v) };
	switch (json_typeof(v)) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		n->count = json_is_object(v) ? json_object_size(v) : json_array_size(v);
		if (n->count == 0)
			return 0;
		if (n->count > SIZE_MAX / sizeof(*n->u.items) ||
		    !(n->u.items = arena_alloc(t, n->count * sizeof(*n->u.items))))
			return -ENOMEM;
		if (json_is_array(v)) {
			for (i = 0; ret == 0 && i < n->count; i++)
				ret = copy_value(t, json_array_get(v, i), NULL, &n->u.items[i]);
			return ret;
		}
		json_object_foreach((json_t *)v, k, member) {
			char *name = arena_alloc(t, strlen(k) + 1);

			if (!name)
				return -ENOMEM;
			strcpy(name, k);
			ret = copy_value(t, member, name, &n->u.items[i++]);
			if (ret < 0)
				return ret;
		}
		return 0;
	case JSON_STRING: {
		char *s = arena_alloc(t, json_string_length(v) + 1);

		if (!s)
			return -ENOMEM;
		memcpy(s, json_string_value(v), json_string_length(v) + 1);
		n->u.string = s;
		n->count = json_string_length(v);
		return 0;
	}
	case JSON_INTEGER:
		n->u.integer = json_integer_value(v);
		return 0;
	case JSON_REAL:
		n->u.real = json_real_value(v);
		return 0;
	default:
		return 0;
	}
}

int json_tree_from_jansson(struct json_tree *t, const json_t *doc)
{
	struct jnode *root;
	int ret;

	reuse(t);
	root = arena_alloc(t, sizeof(*root));
	ret = root ? copy_value(t, doc, NULL, root) : -ENOMEM;
	if (ret == 0)
		t->root = root;
	return ret;
}
