// SPDX-License-Identifier: GPL-2.0-only
/* systemd's DefaultLimitMEMLOCK: system.conf and its drop-ins in systemd's own order, parsed as
 * systemd parses rlimit sizes. */
#include "probe/memlock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define CONF_FILE_MAX (1u << 20)
#define DROPINS_MAX 256
#define WHITESPACE " \t\n\r"

static const char *const conf_dirs[] = { "/etc/systemd", "/run/systemd", "/usr/local/lib/systemd", "/usr/lib/systemd" };

/* systemd's parse_size() with base 1024: components like "1G 512M" add up, each suffix smaller than the last. */
static int parse_size(const char *t, uint64_t *out)
{
	static const struct { const char *suffix; unsigned shift; } units[] = {
		{ "E", 60 }, { "P", 50 }, { "T", 40 }, { "G", 30 }, { "M", 20 }, { "K", 10 }, { "B", 0 }, { "", 0 },
	};
	const size_t n_units = sizeof(units) / sizeof(units[0]);
	const char *p = t;
	size_t start = 0;
	uint64_t total = 0;

	do {
		unsigned long long l, factor, part;
		double frac = 0;
		char *e;
		size_t i;

		p += strspn(p, WHITESPACE);
		if (*p == '-')
			return -ERANGE;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		l = strtoull(p, &e, 10);
		if (errno)
			return -errno;
		if (*e == '.') {
			e++;
			if (*e >= '0' && *e <= '9') {
				char *e2;
				unsigned long long digits = strtoull(e, &e2, 10);

				frac = (double)digits;
				for (; e < e2; e++)
					frac /= 10;
			}
		}
		e += strspn(e, WHITESPACE);
		for (i = start; i < n_units; i++)
			if (strncmp(e, units[i].suffix, strlen(units[i].suffix)) == 0)
				break;
		if (i >= n_units)
			return -EINVAL;
		factor = 1ULL << units[i].shift;
		if (l + (frac > 0) > UINT64_MAX / factor)
			return -ERANGE;
		part = l * factor + (unsigned long long)(frac * (double)factor);
		if (part > UINT64_MAX - total)
			return -ERANGE;
		total += part;
		p = e + strlen(units[i].suffix);
		start = i + 1;
	} while (*p);
	*out = total;
	return 0;
}

static int parse_one(const char *text, struct memlock_value *v)
{
	uint64_t bytes = 0;
	int ret;

	memset(v, 0, sizeof(*v));
	if (strcmp(text, "infinity") == 0) {
		v->unlimited = true;
		return 0;
	}
	ret = parse_size(text, &bytes);
	if (ret < 0)
		return ret;
	if (bytes == UINT64_MAX)   /* RLIM_INFINITY itself is not a size */
		return -ERANGE;
	v->bytes = bytes;
	return 0;
}

static bool above(const struct memlock_value *a, const struct memlock_value *b)
{
	return !b->unlimited && (a->unlimited || a->bytes > b->bytes);
}

int systemd_limit_parse(const char *text, struct memlock_value *soft, struct memlock_value *hard)
{
	char part[128];
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	int ret;

	if (len == 0 || len >= sizeof(part))
		return -EINVAL;
	memcpy(part, text, len);
	part[len] = '\0';
	ret = parse_one(part, soft);
	if (ret < 0)
		return ret;
	if (!colon || colon[1] == '\0') {
		*hard = *soft;
		return 0;
	}
	if (strchr(colon + 1, ':'))
		return -EINVAL;
	ret = parse_one(colon + 1, hard);
	if (ret < 0)
		return ret;
	return above(soft, hard) ? -EILSEQ : 0;
}

static char *strip(char *s)
{
	char *e;

	s += strspn(s, WHITESPACE);
	e = s + strlen(s);
	while (e > s && strchr(WHITESPACE, e[-1]))
		*--e = '\0';
	return s;
}

static void parse_conf(const struct rootfs *root, const char *path, struct systemd_memlock *out, struct notes *notes)
{
	struct text_file f;
	char shown[4400], *line;
	bool manager = false;
	int ret;

	rootfs_display(root, shown, sizeof(shown), path);
	ret = text_file_read(root, path, CONF_FILE_MAX, &f);
	if (ret < 0) {
		if (ret != -ENOENT)   /* a drop-in linked to /dev/null masks the name: absent under --root */
			notes_add(notes, "cannot read %s: %s", shown, strerror(-ret));
		return;
	}
	while ((line = text_file_next(&f))) {
		struct memlock_value soft, hard;
		char *eq, *key, *value;

		line = strip(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			manager = strcmp(line, "[Manager]") == 0;
			continue;
		}
		eq = strchr(line, '=');
		if (!manager || !eq)
			continue;
		*eq = '\0';
		key = strip(line);
		value = strip(eq + 1);
		if (strcmp(key, "DefaultLimitMEMLOCK") != 0)
			continue;
		ret = systemd_limit_parse(value, &soft, &hard);
		if (ret < 0) {
			notes_add(notes, "%s:%u: DefaultLimitMEMLOCK=%s is not valid (%s): systemd ignores it", shown,
				  f.lineno, value, ret == -EILSEQ ? "soft limit above hard" : "expected infinity, a size "
				  "such as 64M, or SOFT:HARD");
			continue;
		}
		out->set = true;
		out->soft = soft;
		out->hard = hard;
		out->line = f.lineno;
		snprintf(out->file, sizeof(out->file), "%s", path);
	}
	text_file_free(&f);
}

struct dropin {
	char *name;
	const char *dir;
};

static int compare_dropins(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name, ((const struct dropin *)b)->name);
}

/* Every drop-in name (system.conf.d/NAME.conf) once, from the first directory that has it, sorted by name. */
static size_t collect_dropins(const struct rootfs *root, struct dropin *list, char ***owned, size_t *owned_count,
			      struct notes *notes)
{
	size_t n = 0;

	for (size_t d = 0; d < sizeof(conf_dirs) / sizeof(conf_dirs[0]); d++) {
		char dir[64];

		snprintf(dir, sizeof(dir), "%s/system.conf.d", conf_dirs[d]);
		owned_count[d] = 0;
		if (dir_names(root, dir, ".conf", DROPINS_MAX, &owned[d], &owned_count[d]) == -E2BIG)
			notes_add(notes, "%s: more than %d drop-ins, only some read", dir, DROPINS_MAX);
		for (size_t i = 0; i < owned_count[d] && n < DROPINS_MAX; i++) {
			bool seen = false;

			for (size_t j = 0; j < n && !seen; j++)
				seen = strcmp(list[j].name, owned[d][i]) == 0;
			if (!seen)
				list[n++] = (struct dropin){ owned[d][i], conf_dirs[d] };
		}
	}
	qsort(list, n, sizeof(*list), compare_dropins);
	return n;
}

int systemd_memlock_read(const struct rootfs *root, struct systemd_memlock *out, struct notes *notes)
{
	enum { DIRS = sizeof(conf_dirs) / sizeof(conf_dirs[0]) };
	char **owned[DIRS] = { 0 };
	size_t owned_count[DIRS] = { 0 }, n;
	struct dropin *list;
	char path[600];

	memset(out, 0, sizeof(*out));
	if (rootfs_exists(root, "run/systemd/system"))
		out->manager = SYSTEMD_MANAGER_RUNNING;
	else if (root->live || rootfs_exists(root, "run"))
		out->manager = SYSTEMD_MANAGER_ABSENT;
	for (size_t d = 0; d < DIRS; d++) {
		snprintf(path, sizeof(path), "%s/system.conf", conf_dirs[d]);
		if (rootfs_exists(root, "%s", path)) {
			parse_conf(root, path, out, notes);
			break;
		}
	}
	list = calloc(DROPINS_MAX, sizeof(*list));
	if (!list)
		return -ENOMEM;
	n = collect_dropins(root, list, owned, owned_count, notes);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/system.conf.d/%s", list[i].dir, list[i].name);
		parse_conf(root, path, out, notes);
	}
	for (size_t d = 0; d < DIRS; d++)
		names_free(owned[d], owned_count[d]);
	free(list);
	return 0;
}
