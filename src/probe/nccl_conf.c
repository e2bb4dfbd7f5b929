// SPDX-License-Identifier: GPL-2.0-only
/* NCCL settings from the environment and the two config files NCCL reads, with NCCL's precedence. */
#include "probe/nccl_conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define NCCL_FILE_MAX (1u << 20)
#define NCCL_LINE_CHUNK 4095   /* fgets into char[4096] */
#define NCCL_FIELD_MAX 1023

struct reader {
	const struct rootfs *root;
	struct nccl_conf *conf;
	struct notes *notes;
	const char *file;
	char shown[4400];
};

static bool is_var_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (c >= 'a' && c <= 'z');
}

static bool shadowed(const struct nccl_conf *conf, const char *name)
{
	for (size_t i = 0; i < conf->count; i++)
		if (strcmp(conf->items[i].name, name) == 0)
			return true;
	return false;
}

static struct nccl_setting *add(struct nccl_conf *conf, const char *name, size_t name_len, const char *value,
				size_t value_len)
{
	struct nccl_setting *s;
	char key[sizeof(s->name)];

	if (conf->count >= NCCL_SETTINGS_MAX || name_len >= sizeof(key))
		return NULL;
	memcpy(key, name, name_len);
	key[name_len] = '\0';
	s = &conf->items[conf->count];
	memset(s, 0, sizeof(*s));
	s->effective = !shadowed(conf, key);
	strcpy(s->name, key);
	if (value_len > NCCL_FIELD_MAX)
		value_len = NCCL_FIELD_MAX;
	memcpy(s->value, value, value_len);
	s->value[value_len] = '\0';
	conf->count++;
	return s;
}

/* Lines NCCL will take literally though they were meant for it. */
static void check_line(struct reader *r, unsigned lineno, const char *name, size_t name_len, const char *value)
{
	size_t vlen = strlen(value);
	bool bad_name = false;

	for (size_t i = 0; i < name_len; i++)
		bad_name |= !is_var_char(name[i]);
	if (bad_name && memmem(name, name_len, "NCCL_", 5))
		notes_add(r->notes, "%s:%u: \"%.*s\" is not a variable name: NCCL takes everything before '=' "
			  "literally (no blanks, no \"export\")", r->shown, lineno, (int)name_len, name);
	else if (!bad_name && vlen >= 2 && (value[0] == '"' || value[0] == '\'') && value[vlen - 1] == value[0])
		notes_add(r->notes, "%s:%u: the value of %.*s is quoted: NCCL keeps the quotes as part of it",
			  r->shown, lineno, (int)name_len, name);
	else if (!bad_name && vlen && (value[0] == ' ' || value[0] == '\t' || value[vlen - 1] == ' ' ||
				       value[vlen - 1] == '\t'))
		notes_add(r->notes, "%s:%u: the value of %.*s has leading or trailing blanks: NCCL keeps them",
			  r->shown, lineno, (int)name_len, name);
}

static void file_line(struct reader *r, unsigned lineno, char *line)
{
	size_t len = strlen(line), name_len;
	struct nccl_setting *s;
	char *eq;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (line[0] == '#')
		return;
	eq = strchr(line, '=');
	if (!eq)
		return;
	name_len = (size_t)(eq - line);
	if (name_len > NCCL_FIELD_MAX)
		name_len = NCCL_FIELD_MAX;
	check_line(r, lineno, line, name_len, eq + 1);
	if (name_len < 5 || strncmp(line, "NCCL_", 5) != 0)
		return;
	s = add(r->conf, line, name_len, eq + 1, strlen(eq + 1));
	if (!s) {
		notes_add(r->notes, "%s:%u: too many NCCL settings or too long a name, line ignored", r->shown, lineno);
		return;
	}
	s->origin = NCCL_FROM_FILE;
	snprintf(s->file, sizeof(s->file), "%s", r->file);
	s->line = lineno;
	snprintf(s->source, sizeof(s->source), "%s:%u", r->file, lineno);
}

/* NCCL reads with fgets(4096): a longer line arrives as several pieces, each handled as a line. */
static bool read_file(struct reader *r, const char *path)
{
	char piece[NCCL_LINE_CHUNK + 1];
	struct text_file f;
	unsigned lineno = 1;
	int ret;

	r->file = path;
	rootfs_display(r->root, r->shown, sizeof(r->shown), path);
	ret = text_file_read(r->root, path, NCCL_FILE_MAX, &f);
	if (ret < 0) {
		if (ret != -ENOENT && ret != -ENOTDIR)
			notes_add(r->notes, "cannot read %s: %s", r->shown, strerror(-ret));
		return false;
	}
	for (size_t pos = 0; pos < f.len;) {
		const char *nl = memchr(f.data + pos, '\n', f.len - pos);
		size_t len = nl ? (size_t)(nl - (f.data + pos)) + 1 : f.len - pos;

		if (len > NCCL_LINE_CHUNK)
			len = NCCL_LINE_CHUNK;
		memcpy(piece, f.data + pos, len);
		piece[len] = '\0';
		pos += len;
		file_line(r, lineno, piece);
		if (f.data[pos - 1] == '\n')
			lineno++;
	}
	text_file_free(&f);
	return true;
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

static void read_env(struct nccl_conf *conf, char *const *envp, struct notes *notes)
{
	for (size_t i = 0; envp && envp[i]; i++) {
		const char *eq = strchr(envp[i], '=');
		struct nccl_setting *s;

		if (!eq || strncmp(envp[i], "NCCL_", 5) != 0)
			continue;
		if (strlen(eq + 1) > NCCL_FIELD_MAX)
			notes_add(notes, "environment: %.*s is longer than %d bytes; only its start is shown",
				  (int)(eq - envp[i]), envp[i], NCCL_FIELD_MAX);
		s = add(conf, envp[i], (size_t)(eq - envp[i]), eq + 1, strlen(eq + 1));
		if (!s)
			continue;
		s->origin = NCCL_FROM_ENV;
		snprintf(s->source, sizeof(s->source), "environment");
	}
}

int nccl_conf_read(const struct rootfs *root, char *const *envp, const char *home, bool home_wins,
		   struct nccl_conf *out, struct notes *notes)
{
	struct reader r = { .root = root, .conf = out, .notes = notes };
	const char *user_file = env_get(envp, "NCCL_CONF_FILE"), *env_home = env_get(envp, "HOME");

	memset(out, 0, sizeof(*out));
	out->items = calloc(NCCL_SETTINGS_MAX, sizeof(*out->items));
	if (!out->items)
		return -ENOMEM;
	read_env(out, envp, notes);
	if (env_home && !(home_wins && home))
		home = env_home;
	if (user_file && *user_file)
		snprintf(out->user_file, sizeof(out->user_file), "%s", user_file);
	else if (home && *home)
		snprintf(out->user_file, sizeof(out->user_file), "%s/.nccl.conf", home);
	if (out->user_file[0] == '/')
		out->user_file_read = read_file(&r, out->user_file);
	else if (out->user_file[0])
		notes_add(notes, "NCCL_CONF_FILE=%s is a relative path: NCCL opens it from the job's working "
			  "directory; not read", out->user_file);
	out->system_file_read = read_file(&r, "/etc/nccl.conf");
	return 0;
}

void nccl_conf_free(struct nccl_conf *conf)
{
	free(conf->items);
	free(conf->not_read);
	memset(conf, 0, sizeof(*conf));
}
