/* A JSON document parsed into one arena: jansson's many small allocations become bump allocations, and the
 * whole tree is dropped at once instead of walked and freed value by value. For a reader that parses a
 * document, reads it and drops it (a snapshot: compare parses 10,000 of them, where malloc, free and
 * json_decref were a third of the time). Not for documents that are changed or kept: nothing in the tree
 * may be decref'd. One document at a time per process (jansson's allocator is global). */
#ifndef ROCE_DOCTOR_MODEL_JSON_ARENA_H
#define ROCE_DOCTOR_MODEL_JSON_ARENA_H

#include <jansson.h>
#include <stddef.h>

struct json_arena_chunk;

struct json_arena {
	struct json_arena_chunk *chunks;   /* newest first */
};

/* json_loadb with every allocation of the tree in a; NULL as json_loadb (error filled), the arena then empty.
 * The document lives until json_arena_free(a). */
json_t *json_arena_loadb(struct json_arena *a, const char *text, size_t len, size_t flags, json_error_t *error);

/* Drops the document and every allocation of it. */
void json_arena_free(struct json_arena *a);

#endif
