// SPDX-License-Identifier: GPL-2.0-only
/* Gathering compare's snapshots. A source is read line by line; a small scanner (braces outside strings) cuts
 * it into documents, so JSON lines, pretty documents one after another, and `}{` on one line all work. pdsh
 * writes "host: " before every line: at the start of a document such a prefix is stripped and remembered (it
 * names the node when the snapshot has no hostname); inside a document a line's same prefix is stripped. */
#include "cmd/compare_input.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/compare_batch.h"
#include "cmd/compare_node.h"
#include "model/snapshot_json.h"

#define PREFIX_MAX 256

struct scan {
	const char *name;            /* for messages: the path, or "(stdin)" */
	char *doc;                   /* the document being cut */
	size_t len, size;
	unsigned depth;
	bool in_string, escaped;
	unsigned long start_line;    /* where the document began */
	char prefix[PREFIX_MAX];     /* its pdsh prefix ("n01"), empty: none */
	unsigned docs;
};

/* "n01: {" -> "n01"; 0 when the line has no pdsh prefix. */
static size_t pdsh_prefix(const char *line, size_t len)
{
	size_t n = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_");

	if (n == 0 || n >= PREFIX_MAX || n + 2 > len || line[n] != ':' || line[n + 1] != ' ')
		return 0;
	return n;
}

/* Room for n more bytes and the terminator. Appending byte by byte was a tenth of compare's time. */
static int doc_reserve(struct scan *sc, size_t n)
{
	size_t size = sc->size ? sc->size : 16384;
	char *bigger;

	if (sc->len + n < sc->size)
		return 0;
	while (size < sc->len + n + 1) {
		size *= 2;
		if (size > (size_t)SNAPSHOT_TEXT_MAX + 2)
			return -EFBIG;
	}
	bigger = realloc(sc->doc, size);
	if (!bigger)
		return -ENOMEM;
	sc->doc = bigger;
	sc->size = size;
	return 0;
}

static int doc_append(struct scan *sc, const char *text, size_t n)
{
	int ret = doc_reserve(sc, n);

	if (ret < 0)
		return ret;
	memcpy(sc->doc + sc->len, text, n);
	sc->len += n;
	return 0;
}

/* From line[i] on, to just past the brace that closes the document (*closed) or to the end of the line. */
static size_t scan_document(struct scan *sc, const char *line, size_t len, size_t i, bool *closed)
{
	*closed = false;
	while (i < len) {
		if (sc->in_string) {
			/* the bulk of a snapshot is string contents: skip them with strcspn (vectorised; getline ends the
			 * line with a NUL), then byte by byte past a NUL inside the line */
			if (!sc->escaped)
				i += strcspn(line + i, "\"\\");
			while (i < len && !sc->escaped && line[i] != '"' && line[i] != '\\')
				i++;
			if (i == len)
				break;
			if (sc->escaped)
				sc->escaped = false;
			else if (line[i] == '\\')
				sc->escaped = true;
			else
				sc->in_string = false;
			i++;
			continue;
		}
		switch (line[i++]) {
		case '"':
			sc->in_string = true;
			break;
		case '{':
		case '[':
			sc->depth++;
			break;
		case '}':
		case ']':
			if (--sc->depth == 0) {
				*closed = true;
				return i;
			}
			break;
		}
	}
	return i;
}

/* A document that does not end: the parser names where the text stops being JSON. */
static int truncated(struct scan *sc, unsigned long next_line, char *why, size_t why_size)
{
	struct snapshot snap;
	char detail[768];

	sc->doc[sc->len] = '\0';
	if (snapshot_parse(sc->doc, sc->len, &snap, detail, sizeof(detail)) == 0) {
		snapshot_free(&snap);
		snprintf(detail, sizeof(detail), "unbalanced braces");
	}
	if (next_line)
		snprintf(why, why_size, "snapshot %s line %lu: truncated (line %lu starts the next document): %s",
			 sc->name, sc->start_line, next_line, detail);
	else
		snprintf(why, why_size, "snapshot %s line %lu: truncated at the end of the input: %s", sc->name,
			 sc->start_line, detail);
	return -EINVAL;
}

static int scan_line(struct compare_inputs *in, struct scan *sc, const char *line, size_t len, unsigned long lineno,
		     char *why, size_t why_size)
{
	size_t p = pdsh_prefix(line, len);
	int ret;

	if (p && (sc->depth == 0 ? line[p + 2 + strspn(line + p + 2, " \t")] == '{'
				 : strncmp(line, sc->prefix, p) == 0 && sc->prefix[p] == '\0')) {
		if (sc->depth == 0)
			snprintf(sc->prefix, sizeof(sc->prefix), "%.*s", (int)p, line);
		line += p + 2;
		len -= p + 2;
	} else if (sc->depth == 0) {
		*sc->prefix = '\0';
	}
	/* '{' in column 0 inside a document: no pretty printer indents so little, so the line before was cut off
	 * (a JSON lines stream with a broken line) */
	if (sc->depth > 0 && len > 0 && line[0] == '{' && !sc->in_string)
		return truncated(sc, lineno, why, why_size);
	for (size_t i = 0; i < len;) {
		size_t start;
		bool closed;

		if (sc->depth == 0) {
			char c = line[i];

			if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
				i++;
				continue;
			}
			if (c != '{') {
				snprintf(why, why_size, "snapshot %s line %lu: not a JSON document: expected '{', found "
					 "'%.20s'", sc->name, lineno, line + i);
				return -EINVAL;
			}
			sc->len = 0;
			sc->start_line = lineno;
		}
		start = i;
		i = scan_document(sc, line, len, i, &closed);
		ret = doc_append(sc, line + start, i - start);
		if (ret == -EFBIG) {
			snprintf(why, why_size, "snapshot %s line %lu: one document larger than %u MiB", sc->name,
				 sc->start_line, SNAPSHOT_TEXT_MAX >> 20);
			return -EINVAL;
		}
		if (ret < 0)
			return ret;
		if (closed) {
			sc->doc[sc->len] = '\0';
			ret = compare_batch_add(in, &sc->doc, sc->len, &sc->size, sc->name, sc->start_line, sc->prefix,
						why, why_size);
			if (ret < 0)
				return ret;
			sc->docs++;
		}
	}
	if (sc->depth > 0 && (ret = doc_append(sc, "\n", 1)) < 0)
		return ret == -EFBIG ? -EINVAL : ret;
	return 0;
}

static int read_stream(struct compare_inputs *in, FILE *f, const char *name, char *why, size_t why_size)
{
	struct scan sc = { .name = name };
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	while (ret == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		in->bytes += (unsigned long long)len;
		if (in->bytes > COMPARE_INPUT_MAX) {
			snprintf(why, why_size, "%s line %lu: input larger than %llu GiB in all", name, lineno,
				 COMPARE_INPUT_MAX >> 30);
			ret = -E2BIG;
			break;
		}
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		ret = scan_line(in, &sc, line, (size_t)len, lineno, why, why_size);
	}
	/* the queued documents come before whatever stopped the scan: a bad one among them is the answer */
	{
		char first[1024];
		int queued = compare_batch_flush(in, first, sizeof(first));

		if (queued < 0) {
			ret = queued;
			snprintf(why, why_size, "%s", first);
		}
	}
	if (ret == 0 && ferror(f)) {
		ret = -errno ? -errno : -EIO;
		snprintf(why, why_size, "cannot read %s: %s", name, strerror(-ret));
	} else if (ret == 0 && sc.depth > 0) {
		ret = truncated(&sc, 0, why, why_size);
	} else if (ret == 0 && sc.docs == 0) {
		snprintf(why, why_size, "%s: no snapshot in it (empty)", name);
		ret = -EINVAL;
	}
	free(line);
	free(sc.doc);
	return ret;
}

struct compare_file_seen {
	dev_t dev;
	ino_t ino;
	char *name;
};

/* Whether the file open as f was read before (said once on stderr: it is one node, not two with one name);
 * else it is remembered. 1, 0 or -ENOMEM. */
static int seen_before(struct compare_inputs *in, FILE *f, const char *path)
{
	struct stat st;

	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode))
		return 0;   /* a pipe or a device is read as it comes */
	for (size_t i = 0; i < in->seen_count; i++)
		if (in->seen[i].dev == st.st_dev && in->seen[i].ino == st.st_ino) {
			if (strcmp(in->seen[i].name, path) == 0)
				fprintf(stderr, "roce-doctor: %s is given more than once: compared once\n", path);
			else
				fprintf(stderr, "roce-doctor: %s is the same file as %s: compared once\n", path,
					in->seen[i].name);
			return 1;
		}
	if (in->seen_count == in->seen_capacity) {
		size_t cap = in->seen_capacity ? in->seen_capacity * 2 : 16;
		struct compare_file_seen *more = realloc(in->seen, cap * sizeof(*more));

		if (!more)
			return -ENOMEM;
		in->seen = more;
		in->seen_capacity = cap;
	}
	in->seen[in->seen_count].name = strdup(path);
	if (!in->seen[in->seen_count].name)
		return -ENOMEM;
	in->seen[in->seen_count].dev = st.st_dev;
	in->seen[in->seen_count++].ino = st.st_ino;
	return 0;
}

static int read_path(struct compare_inputs *in, const char *path, char *why, size_t why_size)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(why, why_size, "cannot read snapshot %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = seen_before(in, f, path);
	if (ret != 0) {
		fclose(f);
		return ret < 0 ? ret : 0;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);   /* 4 KiB reads were a tenth of compare's time at 10,000 nodes */
	ret = read_stream(in, f, path, why, why_size);
	fclose(f);
	return ret;
}

static int snapshot_name(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return e->d_name[0] != '.' && ((len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) ||
				       (len > 6 && strcmp(e->d_name + len - 6, ".jsonl") == 0));
}

static int read_dir(struct compare_inputs *in, const char *dir, char *why, size_t why_size)
{
	struct dirent **list;
	int n = scandir(dir, &list, snapshot_name, alphasort), ret = 0;

	if (n < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot read directory %s: %s", dir, strerror(-ret));
		return ret;
	}
	if (n == 0) {
		snprintf(why, why_size, "directory %s has no *.json or *.jsonl file", dir);
		ret = -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		if (ret == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
			ret = read_path(in, path, why, why_size);
		}
		free(list[i]);
	}
	free(list);
	return ret;
}

int compare_inputs_add(struct compare_inputs *in, const char *arg, char *why, size_t why_size)
{
	struct stat st;

	if (strcmp(arg, "-") == 0)
		return read_stream(in, stdin, "(stdin)", why, why_size);
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return read_dir(in, arg, why, why_size);
	return read_path(in, arg, why, why_size);
}

void compare_inputs_free(struct compare_inputs *in)
{
	for (size_t i = 0; i < in->count; i++)
		compare_owned_free(&in->owned[i]);
	free(in->nodes);
	free(in->owned);
	compare_batch_free(in);
	for (size_t i = 0; i < in->seen_count; i++)
		free(in->seen[i].name);
	free(in->seen);
	memset(in, 0, sizeof(*in));
}
