// SPDX-License-Identifier: GPL-2.0-only
/* /proc/modules lists loadable modules; built-in ones appear only as /sys/module directories. */
#include "probe/modules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define MODULES_MAX 4096
#define PROC_MODULES_MAX (1u << 20)

static void add(struct module_list *list, const char *name, bool builtin, bool *full)
{
	if (strlen(name) >= sizeof(list->items[0].name) || module_loaded(list, name))
		return;
	if (list->count >= MODULES_MAX) {
		*full = true;
		return;
	}
	snprintf(list->items[list->count].name, sizeof(list->items[0].name), "%s", name);
	list->items[list->count++].builtin = builtin;
}

static void read_proc_modules(const struct rootfs *root, struct module_list *list, bool *full, struct notes *notes)
{
	struct text_file f;
	char *line, shown[4200];
	int ret = text_file_read(root, "proc/modules", PROC_MODULES_MAX, &f);

	if (ret < 0) {
		if (ret != -ENOENT)
			notes_add(notes, "cannot read %s: %s", rootfs_display(root, shown, sizeof(shown), "proc/modules"),
				  strerror(-ret));
		return;
	}
	list->proc_known = true;
	while ((line = text_file_next(&f))) {
		line[strcspn(line, " \t")] = '\0';
		if (*line)
			add(list, line, false, full);
	}
	text_file_free(&f);
}

int module_list_read(const struct rootfs *root, struct module_list *out, struct notes *notes)
{
	struct dirent *de;
	bool full = false;
	DIR *dir;

	memset(out, 0, sizeof(*out));
	out->items = calloc(MODULES_MAX, sizeof(*out->items));
	if (!out->items)
		return -ENOMEM;
	read_proc_modules(root, out, &full, notes);
	dir = rootfs_opendir(root, "sys/module");
	while (dir && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			add(out, de->d_name, true, &full);
	if (dir)
		closedir(dir);
	if (full)
		notes_add(notes, "more than %d kernel modules: the rest not looked at", MODULES_MAX);
	return 0;
}

void module_list_free(struct module_list *list)
{
	free(list->items);
	memset(list, 0, sizeof(*list));
}
