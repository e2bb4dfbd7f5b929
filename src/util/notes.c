// SPDX-License-Identifier: GPL-2.0-only
/* A bounded list of formatted warning lines. */
#include "util/notes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void notes_add(struct notes *notes, const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;
	int n;

	if (notes->count >= NOTES_MAX) {
		notes->dropped++;
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		notes->dropped++;
		return;
	}
	notes->tag[notes->count] = 0;
	notes->items[notes->count++] = line;
}

void notes_tag_since(struct notes *notes, size_t from, unsigned char tag)
{
	for (size_t i = from; i < notes->count; i++)
		notes->tag[i] = tag;
}

void notes_free(struct notes *notes)
{
	for (size_t i = 0; i < notes->count; i++)
		free(notes->items[i]);
	notes->count = 0;
	notes->dropped = 0;
}
