/* The arena behind json_arena_loadb: chunks of at least 64 KiB, bumped, freed together. */
#include "model/json_arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

#define CHUNK_MIN (64u << 10)

struct json_arena_chunk {
	struct json_arena_chunk *next;
	size_t used, size;
	alignas(max_align_t) unsigned char data[];
};

static struct json_arena *current;   /* the arena jansson allocates from while json_arena_loadb runs */

static void *arena_malloc(size_t size)
{
	struct json_arena_chunk *c = current->chunks;
	size_t need = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);

	if (need < size)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t data = need > CHUNK_MIN ? need : CHUNK_MIN;

		if (data > SIZE_MAX - sizeof(*c) || !(c = malloc(sizeof(*c) + data)))
			return NULL;
		c->used = 0;
		c->size = data;
		c->next = current->chunks;
		current->chunks = c;
	}
	c->used += need;
	return c->data + c->used - need;
}

/* Freed with the arena: jansson frees its lexer's buffers as it grows them, a few KiB per document. */
static void arena_free(void *p)
{
	(void)p;
}

json_t *json_arena_loadb(struct json_arena *a, const char *text, size_t len, size_t flags, json_error_t *error)
{
	json_malloc_t saved_malloc;
	json_free_t saved_free;
	json_t *doc;

	json_get_alloc_funcs(&saved_malloc, &saved_free);
	current = a;
	json_set_alloc_funcs(arena_malloc, arena_free);
	doc = json_loadb(text, len, flags, error);
	json_set_alloc_funcs(saved_malloc, saved_free);
	current = NULL;
	if (!doc)
		json_arena_free(a);
	return doc;
}

void json_arena_free(struct json_arena *a)
{
	while (a->chunks) {
		struct json_arena_chunk *next = a->chunks->next;

		free(a->chunks);
		a->chunks = next;
	}
}
