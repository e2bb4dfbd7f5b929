// SPDX-License-Identifier: GPL-2.0-only
/* Cutting snapshot text into documents: the one reader behind compare's inputs and --from (snapshot_stream.c). */
#ifndef ROCE_DOCTOR_CMD_SNAPSHOT_STREAM_H
#define ROCE_DOCTOR_CMD_SNAPSHOT_STREAM_H

#include <stddef.h>
#include <stdio.h>

/* Where the documents go. take gets each whole document in *doc (len bytes, NUL-terminated, in a buffer of
 * *size): it may keep the buffer and leave another (or NULL and 0) in its place. name, the lines the document
 * starts and ends on and its pdsh prefix ("" none) name it. flush (may be NULL) runs once the source ends or a
 * line stops it, before the end is judged: its error comes first. bytes counts what was read against max; past
 * it, over writes the message. take and flush return 0, or -EINVAL/-errno with why written. */
struct snapshot_sink {
	int (*take)(void *ctx, char **doc, size_t len, size_t *size, const char *name, unsigned long start_line,
		    unsigned long end_line, const char *prefix, char *why, size_t why_size);
	int (*flush)(void *ctx, char *why, size_t why_size);
	void (*over)(void *ctx, const char *name, unsigned long line, char *why, size_t why_size);
	void *ctx;
	unsigned long long *bytes, max;
};

/* Reads f to its end, or to the first bad document. 0; -EINVAL (why: "snapshot NAME line L: ..." or "NAME: no
 * snapshot in it (empty)"), -E2BIG past max, -errno, or what take or flush returned. */
int snapshot_stream_read(FILE *f, const char *name, const struct snapshot_sink *sink, char *why, size_t why_size);

#endif
