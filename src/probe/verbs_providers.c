// SPDX-License-Identifier: GPL-2.0-only
/* The providers named in /etc/libibverbs.d, as rdma-core's libibverbs/init.c (read_config) finds them. */
#include "probe/verbs_providers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define CONFIG_DIR "etc/libibverbs.d"
#define CONFIG_FILES_MAX 256
#define CONFIG_FILE_MAX 4096   /* Debian's are 12 bytes ("driver mlx5\n") */

static int compare_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* "mlx5", or for a path the library's name: "/opt/lib/libmlx5" -> "mlx5" (libibverbs appends "-rdmav*.so"). */
static void provider_name(const char *field, char *name, size_t size)
{
	const char *base = strrchr(field, '/');

	base = base ? base + 1 : field;
	if (field[0] == '/' && strncmp(base, "lib", 3) == 0)
		base += 3;
	snprintf(name, size, "%s", base);
}

static void add_name(struct verbs_providers *out, const char *name, const char *file, unsigned line,
		     struct notes *notes)
{
	if (verbs_provider_listed(out, name))
		return;
	if (out->count == VERBS_PROVIDERS_MAX || strlen(name) >= VERBS_PROVIDER_NAME_MAX) {
		notes_add(notes, "/%s:%u: provider '%.64s' not kept (at most %d names of %d bytes)", file, line, name,
			  VERBS_PROVIDERS_MAX, VERBS_PROVIDER_NAME_MAX - 1);
		return;
	}
	snprintf(out->names[out->count++], VERBS_PROVIDER_NAME_MAX, "%s", name);
}

/* One file: as read_config_file() does, a line is "driver NAME" after any blanks; blank and # lines skipped. */
static int read_config_file(const struct rootfs *root, const char *file, struct verbs_providers *out,
			    struct notes *notes)
{
	struct text_file f;
	char *line;
	int ret = text_file_read(root, file, CONFIG_FILE_MAX, &f);

	if (ret == -ENOMEM)
		return ret;
	if (ret == -EISDIR)
		return 0;   /* libibverbs reads regular files only */
	if (ret < 0) {
		notes_add(notes, "cannot read /%s: %s", file, strerror(-ret));
		return 0;
	}
	while ((line = text_file_next(&f))) {
		char *directive, *name, *save = NULL, nm[VERBS_PROVIDER_NAME_MAX + 32];

		line += strspn(line, "\t ");
		if (line[0] == '\0' || line[0] == '#')
			continue;
		directive = strtok_r(line, "\t ", &save);
		name = strtok_r(NULL, "\t ", &save);
		if (!directive || strcmp(directive, "driver") != 0 || !name) {
			notes_add(notes, "/%s:%u: '%.64s' is not 'driver NAME': libibverbs ignores the line", file,
				  f.lineno, line);
			continue;
		}
		provider_name(name, nm, sizeof(nm));
		add_name(out, nm, file, f.lineno, notes);
	}
	text_file_free(&f);
	return 0;
}

int verbs_providers_read(const struct rootfs *root, struct verbs_providers *out, struct notes *notes)
{
	char **names = NULL, file[512];
	size_t count = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = dir_names(root, CONFIG_DIR, "", CONFIG_FILES_MAX, &names, &count);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0 && ret != -E2BIG) {
		if (ret != -ENOENT && ret != -ENOTDIR)
			notes_add(notes, "cannot list /%s: %s", CONFIG_DIR, strerror(-ret));
		return 0;
	}
	out->dir_exists = true;
	for (size_t i = 0; i < count && ret != -ENOMEM; i++) {
		snprintf(file, sizeof(file), "%s/%s", CONFIG_DIR, names[i]);
		ret = read_config_file(root, file, out, notes);
	}
	names_free(names, count);
	if (ret == -ENOMEM)
		return ret;
	qsort(out->names, out->count, sizeof(out->names[0]), compare_names);
	return 0;
}
