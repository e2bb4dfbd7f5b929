// SPDX-License-Identifier: GPL-2.0-only
/* Levenshtein distance for "did you mean" answers on short names (HCA names, check ids). */
#ifndef ROCE_DOCTOR_EDIT_DISTANCE_H
#define ROCE_DOCTOR_EDIT_DISTANCE_H

#include <stddef.h>

/* Names longer than this are compared on their first EDIT_NAME_MAX bytes (bounded work, no allocation). */
#define EDIT_NAME_MAX 63

/* out[k] (k = 0 .. strlen(b), at most EDIT_NAME_MAX) receives the edits that turn a into b's first k bytes:
 * the distance of a to every prefix of b at once. Returns strlen(b) as used (the last index written). */
size_t edit_distance_to_prefixes(const char *a, const char *b, unsigned out[EDIT_NAME_MAX + 1]);

/* Insertions, deletions and substitutions that turn a into b. */
unsigned edit_distance(const char *a, const char *b);

#endif
