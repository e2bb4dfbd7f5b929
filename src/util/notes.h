// SPDX-License-Identifier: GPL-2.0-only
/* Warnings gathered while probing: probes never print, commands decide where the notes go. */
#ifndef ROCE_DOCTOR_NOTES_H
#define ROCE_DOCTOR_NOTES_H

#include <stddef.h>

#define NOTES_MAX 256

struct notes {
	char *items[NOTES_MAX];
	unsigned char tag[NOTES_MAX];   /* which source a line came from, the caller's numbering; 0: not said */
	size_t count;
	size_t dropped;   /* past NOTES_MAX, only counted: input must not drive unbounded allocation */
};

void notes_add(struct notes *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void notes_free(struct notes *notes);
/* Tags the lines added since count `from` (a source read between the two counts) */
void notes_tag_since(struct notes *notes, size_t from, unsigned char tag);

#endif
