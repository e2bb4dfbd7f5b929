// SPDX-License-Identifier: GPL-2.0-only
/* Bounded whole-file reads and sorted directory listings for the config-file probes. */
#include "probe/text_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int text_file_read(const struct rootfs *root, const char *rel, size_t max, struct text_file *out)
{
	int n;

	memset(out, 0, sizeof(*out));
	out->data = malloc(max + 1);
	if (!out->data)
		return -ENOMEM;
	n = rootfs_read(root, out->data, max + 1, "%s", rel);
	if (n < 0) {
		free(out->data);
		out->data = NULL;
		return n == -EOVERFLOW ? -EFBIG : n;
	}
	out->len = (size_t)n;
	return 0;
}

char *text_file_next(struct text_file *f)
{
	char *line, *nl;

	if (!f->data || f->pos >= f->len)
		return NULL;
	line = f->data + f->pos;
	nl = memchr(line, '\n', f->len - f->pos);
	if (nl) {
		*nl = '\0';
		f->pos = (size_t)(nl - f->data) + 1;
	} else {
		f->pos = f->len;   /* rootfs_read left a NUL after the last byte */
	}
	f->lineno++;
	return line;
}

void text_file_free(struct text_file *f)
{
	free(f->data);
	memset(f, 0, sizeof(*f));
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n >= s && strcmp(name + n - s, suffix) == 0;
}

int dir_names(const struct rootfs *root, const char *dir, const char *suffix, size_t max, char ***names,
	      size_t *count)
{
	struct dirent *de;
	int ret = 0;
	DIR *d;

	*names = NULL;
	*count = 0;
	d = rootfs_opendir(root, "%s", dir);
	if (!d)
		return -errno;
	*names = calloc(max ? max : 1, sizeof(char *));
	if (!*names) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !has_suffix(de->d_name, suffix))
			continue;
		if (*count >= max) {
			ret = -E2BIG;
			break;
		}
		(*names)[*count] = strdup(de->d_name);
		if (!(*names)[*count]) {
			ret = -ENOMEM;
			break;
		}
		(*count)++;
	}
	closedir(d);
	if (ret == -ENOMEM) {
		names_free(*names, *count);
		*names = NULL;
		*count = 0;
		return ret;
	}
	qsort(*names, *count, sizeof(char *), compare_names);
	return ret;
}

void names_free(char **names, size_t count)
{
	for (size_t i = 0; names && i < count; i++)
		free(names[i]);
	free(names);
}
