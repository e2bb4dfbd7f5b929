// SPDX-License-Identifier: GPL-2.0-only
/* Small text files (config files, /proc tables) read whole through the root, then walked line by line. */
#ifndef ROCE_DOCTOR_TEXT_FILE_H
#define ROCE_DOCTOR_TEXT_FILE_H

#include <stddef.h>

#include "util/rootfs.h"

struct text_file {
	char *data;
	size_t len;
	size_t pos;
	unsigned lineno;   /* number of the line text_file_next() returned last, from 1 */
};

/* Reads rel (relative to the root) whole; -EFBIG when it is longer than max bytes. 0 or -errno. */
int text_file_read(const struct rootfs *root, const char *rel, size_t max, struct text_file *out);

/* The next line, newline removed, NUL-terminated in place; NULL at the end. */
char *text_file_next(struct text_file *f);

void text_file_free(struct text_file *f);

/* Names in dir ending in suffix, no dot-files, sorted with strcmp (as glob(3) does in the C locale).
 * At most max names: -E2BIG when there were more (max of them, in directory order, are kept and sorted).
 * Free with names_free(). */
int dir_names(const struct rootfs *root, const char *dir, const char *suffix, size_t max, char ***names,
	      size_t *count);
void names_free(char **names, size_t count);

#endif
