// SPDX-License-Identifier: GPL-2.0-only
/* The round-trip tests' comparison: two JSON documents as text, and where they part when they differ. */
#ifndef ROCE_DOCTOR_TEST_JSON_TEXT_H
#define ROCE_DOCTOR_TEST_JSON_TEXT_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *dump(const json_t *doc)
{
	return doc ? json_dumps(doc, JSON_PRESERVE_ORDER | JSON_INDENT(1)) : NULL;
}

/* 1 when second's text is first's (key order kept); else says on a TAP comment line where they differ. */
static inline int json_texts_same(const json_t *first, const json_t *second, const char *name)
{
	char *a = dump(first), *b = dump(second);
	int same = a && b && strcmp(a, b) == 0;

	if (a && !same) {
		size_t at = 0;

		while (b && a[at] && a[at] == b[at])
			at++;
		at = at > 40 ? at - 40 : 0;
		printf("# %s: the JSON read back differs at byte %zu:\n#   wrote: %.120s\n#   again: %.120s\n", name, at,
		       a + at, b ? b + at : "(null)");
	}
	free(a);
	free(b);
	return same;
}

#endif
