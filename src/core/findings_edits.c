// SPDX-License-Identifier: GPL-2.0-only
/* One edit per line: two rules that both rewrite NCCL_IB_HCA's line of /etc/nccl.conf (a typo fix and the rails)
 * must not leave the user to guess which paste wins. */
#include "core/findings_edits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/findings_merge.h"

/* "NAME" up to the first character that cannot be in a shell variable name. */
static size_t name_length(const char *s)
{
	size_t n = 0;

	while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
	       s[n] == '_')
		n++;
	return n;
}

static bool sed_edit(const char *line, char *key, size_t key_size, char *value, size_t value_size)
{
	const char *p = line + strlen("sed -i '"), *end, *file;
	char *stop;
	unsigned long n = strtoul(p, &stop, 10);

	if (stop == p || n == 0)
		return false;
	if (strncmp(stop, "d' ", 3) == 0) {
		file = stop + 3;
		value[0] = '\0';
	} else if (strncmp(stop, "s|.*|", 5) == 0 && (end = strstr(stop + 5, "|' "))) {
		snprintf(value, value_size, "%.*s", (int)(end - stop - 5), stop + 5);
		file = end + 3;
	} else {
		return false;
	}
	if (!*file || strchr(file, ' '))
		return false;
	snprintf(key, key_size, "%s:%lu", file, n);
	return true;
}

bool fix_line_edit(const char *line, char *key, size_t key_size, char *value, size_t value_size)
{
	char cmd[1600];
	size_t n;

	fix_first_command(line, cmd, sizeof(cmd));
	if (strncmp(cmd, "sed -i '", 8) == 0)
		return sed_edit(cmd, key, key_size, value, value_size);
	if (strncmp(cmd, "export ", 7) == 0 && (n = name_length(cmd + 7)) && cmd[7 + n] == '=' &&
	    !strchr(cmd + 7 + n, ' ')) {
		snprintf(key, key_size, "%.*s", (int)n, cmd + 7);
		snprintf(value, value_size, "%s", cmd + 8 + n);
		return true;
	}
	if (strncmp(cmd, "unset ", 6) == 0 && (n = name_length(cmd + 6)) && !cmd[6 + n]) {
		snprintf(key, key_size, "%.*s", (int)n, cmd + 6);
		value[0] = '\0';
		return true;
	}
	return false;
}

/* The finding whose edit of key stands: the worst, the earliest of equals, among the non-ok findings. value gets
 * its edit. NULL when no finding edits key. */
static const struct finding *owner_of(const struct findings *f, const char *key, char *value, size_t value_size)
{
	const struct finding *best = NULL;

	for (size_t i = 0; i < f->count; i++) {
		const struct finding *it = &f->items[i];
		const char *line = it->fix;

		if (it->severity == SEVERITY_OK || !line || (best && it->severity <= best->severity))
			continue;
		for (; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			char k[512], v[1200];

			if (fix_line_edit(line, k, sizeof(k), v, sizeof(v)) && strcmp(k, key) == 0) {
				best = it;
				snprintf(value, value_size, "%s", v);
				break;
			}
		}
	}
	return best;
}

/* "sed -i ..." -> "# /etc/nccl.conf:2: nccl.ib_hca's fix sets it, run roce-doctor check again after that fix;
 * this finding's own edit: sed -i ...". */
static int comment_out(struct finding *it, size_t at, size_t len, const struct finding *owner, const char *key)
{
	char *fix;

	if (asprintf(&fix, "%.*s# %s: %s's fix sets it, run roce-doctor check again after that fix; this finding's own "
		     "edit: %.*s%s", (int)at, it->fix, key, owner->id, (int)len, it->fix + at, it->fix + at + len) < 0)
		return -ENOMEM;
	free(it->fix);
	it->fix = fix;
	return 0;
}

int findings_unify_edits(struct findings *f)
{
	int err = 0;

	for (size_t i = 0; i < f->count; i++) {
		struct finding *it = &f->items[i];
		size_t at = 0;

		while (it->severity != SEVERITY_OK && it->fix && it->fix[at]) {
			size_t len = strcspn(it->fix + at, "\n");
			char line[1600], key[512], value[1200], owned[1200];
			const struct finding *owner;

			snprintf(line, sizeof(line), "%.*s", (int)len, it->fix + at);
			if (fix_line_edit(line, key, sizeof(key), value, sizeof(value)) &&
			    (owner = owner_of(f, key, owned, sizeof(owned))) && owner != it && strcmp(owned, value) != 0) {
				if (comment_out(it, at, len, owner, key) < 0) {
					err = -ENOMEM;
					break;
				}
				len = strcspn(it->fix + at, "\n");
			}
			at += len + (it->fix[at + len] == '\n');
		}
	}
	return err;
}
