// SPDX-License-Identifier: GPL-2.0-only
/* pam_limits' memlock lines: read as pam_limits reads limits.conf and limits.d, evaluated with its
 * precedence for one user (rules in probe/memlock.h). */
#include "probe/memlock.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define LIMITS_FILE_MAX (1u << 20)
#define LIMITS_D_FILES_MAX 256
#define LIMITS_LINES_MAX 1024


struct reader {
	const struct rootfs *root;
	struct pam_limits *conf;
	struct notes *notes;
	const char *file;            /* host path */
	char shown[4400];            /* display path for notes */
};

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static int parse_id(const char *s, const char **end, unsigned *out)
{
	char *e;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &e, 10);
	if (errno || v > 0xffffffffUL)
		return -EINVAL;
	*out = (unsigned)v;
	*end = e;
	return 0;
}

/* "min:max", ":id", "min:" after an optional '@' or '%'; no colon is no range. */
static int parse_range(const char *domain, struct limits_line *l)
{
	const char *p = domain, *end;

	l->range = ID_RANGE_NONE;
	if (!strchr(domain, ':'))
		return 0;
	if (*p == '@' || *p == '%')
		p++;
	if (*p == ':') {
		if (parse_id(p + 1, &end, &l->range_max) < 0 || *end)
			return -EINVAL;
		l->range = ID_RANGE_ONE;
		l->range_min = l->range_max;
		return 0;
	}
	if (parse_id(p, &end, &l->range_min) < 0 || *end != ':')
		return -EINVAL;
	if (end[1] == '\0') {
		l->range = ID_RANGE_MIN;
		return 0;
	}
	if (parse_id(end + 1, &end, &l->range_max) < 0 || *end)
		return -EINVAL;
	l->range = ID_RANGE_MIN_MAX;
	return 0;
}

static int parse_value(const char *v, struct memlock_value *out)
{
	unsigned long long kib;
	char *end;

	memset(out, 0, sizeof(*out));
	if (!strcmp(v, "-1") || !strcmp(v, "-") || !strcmp(v, "unlimited") || !strcmp(v, "infinity")) {
		out->unlimited = true;
		return 0;
	}
	kib = strtoull(v, &end, 10);
	if (kib == 0 && end == v)
		return -EINVAL;
	if (kib >= UINT64_MAX / 1024)
		out->unlimited = true;
	else
		out->bytes = (uint64_t)kib * 1024;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static struct limits_line *new_line(struct reader *r, unsigned lineno, const char *domain)
{
	struct limits_line *l;

	if (r->conf->count >= LIMITS_LINES_MAX) {
		notes_add(r->notes, "%s:%u: more than %d memlock lines, the rest ignored", r->shown, lineno,
			  LIMITS_LINES_MAX);
		return NULL;
	}
	if (strlen(domain) >= sizeof(l->domain) || strlen(r->file) >= sizeof(l->file)) {
		notes_add(r->notes, "%s:%u: domain too long, line ignored", r->shown, lineno);
		return NULL;
	}
	l = &r->conf->lines[r->conf->count++];
	memset(l, 0, sizeof(*l));
	strcpy(l->file, r->file);
	strcpy(l->domain, domain);
	l->line = lineno;
	return l;
}

static void memlock_line(struct reader *r, unsigned lineno, const char *domain, const char *type, char *value,
			 const struct limits_line *range)
{
	struct limits_line *l;
	struct memlock_value v;
	enum memlock_type t;

	if (!strcmp(type, "soft"))
		t = MEMLOCK_SOFT;
	else if (!strcmp(type, "hard"))
		t = MEMLOCK_HARD;
	else if (!strcmp(type, "-"))
		t = MEMLOCK_BOTH;
	else {
		notes_add(r->notes, "%s:%u: unknown limit type \"%s\" (soft, hard or -): pam_limits skips the line",
			  r->shown, lineno, type);
		return;
	}
	lower(value);
	if (value[0] && value[strlen(value) - 1] == '\r' && parse_value(value, &v) < 0) {
		notes_add(r->notes, "%s:%u: line ends with a carriage return (DOS line ends): pam_limits reads the "
			  "memlock value with it and skips the line", r->shown, lineno);
		return;
	}
	if (parse_value(value, &v) < 0) {
		notes_add(r->notes, "%s:%u: memlock value \"%s\" is not a number of KiB or unlimited: pam_limits "
			  "skips the line", r->shown, lineno, value);
		return;
	}
	if (domain[0] == '%') {
		notes_add(r->notes, "%s:%u: \"%s\" domains apply to maxlogins only: pam_limits ignores this memlock "
			  "line", r->shown, lineno, domain);
		return;
	}
	l = new_line(r, lineno, domain);
	if (!l)
		return;
	l->kind = LIMITS_LINE_MEMLOCK;
	l->type = t;
	l->value = v;
	l->range = range->range;
	l->range_min = range->range_min;
	l->range_max = range->range_max;
}

/* One line, split as pam_limits splits it: three blank-separated words, then the rest as the value. */
static void parse_line(struct reader *r, unsigned lineno, char *line)
{
	char *fields[4] = { 0 }, *save = NULL, *hash;
	struct limits_line range = { 0 };
	size_t n = 0;

	while (*line == ' ' || *line == '\t' || *line == '\r' || *line == '\v' || *line == '\f')
		line++;
	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	if (!*line)
		return;
	fields[0] = strtok_r(line, " \t", &save);
	fields[1] = fields[0] ? strtok_r(NULL, " \t", &save) : NULL;
	fields[2] = fields[1] ? strtok_r(NULL, " \t", &save) : NULL;
	fields[3] = fields[2] ? strtok_r(NULL, "", &save) : NULL;
	if (fields[3]) {
		fields[3] = trim(fields[3]);
		if (!*fields[3])
			fields[3] = NULL;
	}
	while (n < 4 && fields[n])
		n++;
	if (n == 0)
		return;
	if (n > 1)
		lower(fields[1]);
	if (parse_range(fields[0], &range) < 0) {
		notes_add(r->notes, "%s:%u: invalid uid/gid range \"%s\": pam_limits skips the line", r->shown,
			  lineno, fields[0]);
		return;
	}
	if (n == 4) {
		lower(fields[2]);
		if (!strcmp(fields[2], "memlock"))
			memlock_line(r, lineno, fields[0], fields[1], fields[3], &range);
	} else if (n == 2 && fields[1][0] == '-') {
		struct limits_line *l = new_line(r, lineno, fields[0]);

		if (l) {
			l->kind = LIMITS_LINE_NO_LIMITS;
			l->range = range.range;
			l->range_min = range.range_min;
			l->range_max = range.range_max;
		}
	} else {
		notes_add(r->notes, "%s:%u: malformed line (expected <domain> <type> <item> <value>): pam_limits "
			  "skips it", r->shown, lineno);
	}
}

static void read_file(struct reader *r, const char *path)
{
	struct text_file f;
	char *line;
	int ret;

	r->file = path;
	rootfs_display(r->root, r->shown, sizeof(r->shown), path);
	ret = text_file_read(r->root, path, LIMITS_FILE_MAX, &f);
	if (ret == -ENOENT || ret == -EISDIR)
		return;
	if (ret < 0) {
		notes_add(r->notes, "cannot read %s: %s (pam_limits fails the session when it cannot)", r->shown,
			  strerror(-ret));
		return;
	}
	while ((line = text_file_next(&f)))
		parse_line(r, f.lineno, line);
	text_file_free(&f);
}

int pam_limits_read(const struct rootfs *root, struct pam_limits *out, struct notes *notes)
{
	struct reader r = { .root = root, .conf = out, .notes = notes };
	char **names, path[512], shown[4400];
	size_t count;
	int ret;

	memset(out, 0, sizeof(*out));
	out->lines = calloc(LIMITS_LINES_MAX, sizeof(*out->lines));
	if (!out->lines)
		return -ENOMEM;
	read_file(&r, "/etc/security/limits.conf");
	ret = dir_names(root, "etc/security/limits.d", ".conf", LIMITS_D_FILES_MAX, &names, &count);
	rootfs_display(root, shown, sizeof(shown), "etc/security/limits.d");
	if (ret == -E2BIG)
		notes_add(notes, "%s: more than %d files, only some read", shown, LIMITS_D_FILES_MAX);
	else if (ret < 0 && ret != -ENOENT && ret != -ENOTDIR)
		notes_add(notes, "cannot list %s: %s", shown, strerror(-ret));
	for (size_t i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "/etc/security/limits.d/%s", names[i]);
		read_file(&r, path);
	}
	names_free(names, count);
	return 0;
}

void pam_limits_free(struct pam_limits *conf)
{
	free(conf->lines);
	memset(conf, 0, sizeof(*conf));
}
