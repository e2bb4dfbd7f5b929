// SPDX-License-Identifier: GPL-2.0-only
/* Levenshtein distance, one column at a time over b, so that the distance to every prefix of b comes out of
 * the same pass (NCCL_IB_HCA entries are prefixes). */
#include "util/edit_distance.h"

#include <string.h>

static size_t bounded_len(const char *s)
{
	size_t n = strlen(s);

	return n > EDIT_NAME_MAX ? EDIT_NAME_MAX : n;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

size_t edit_distance_to_prefixes(const char *a, const char *b, unsigned out[EDIT_NAME_MAX + 1])
{
	size_t m = bounded_len(a), n = bounded_len(b);
	unsigned col[EDIT_NAME_MAX + 1];   /* col[i]: edits from a's first i bytes to b's first k bytes */

	for (size_t i = 0; i <= m; i++)
		col[i] = (unsigned)i;
	out[0] = col[m];
	for (size_t k = 1; k <= n; k++) {
		unsigned diag = col[0];   /* the previous column's col[i - 1] */

		col[0] = (unsigned)k;
		for (size_t i = 1; i <= m; i++) {
			unsigned up = col[i];

			col[i] = min3(col[i] + 1, col[i - 1] + 1, diag + (a[i - 1] != b[k - 1]));
			diag = up;
		}
		out[k] = col[m];
	}
	return n;
}

unsigned edit_distance(const char *a, const char *b)
{
	unsigned d[EDIT_NAME_MAX + 1];

	return d[edit_distance_to_prefixes(a, b, d)];
}
