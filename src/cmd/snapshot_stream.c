// SPDX-License-Identifier: GPL-2.0-only
/* The one reader of snapshot text, for compare and --from alike: a source is read line by line and a small
 * scanner (braces outside strings) cuts it into documents, so JSON lines, pretty documents one after another,
 * and `}{` on one line all work. pdsh writes "host: " before every line: at the start of a document such a
 * prefix is stripped and remembered (it names the node when the snapshot has no hostname); inside a document a
 * line's same prefix is stripped. An empty source, text that is not JSON, binary or compressed data, and a
 * document cut off each get one message naming the source and line. */
#include "cmd/snapshot_stream.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/snapshot_json.h"

#define PREFIX_MAX 256

struct scan {
	const struct snapshot_sink *sink;
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

/* What a line that should start a document starts with instead, for the message: the text, or what binary data
 * it is (never raw bytes on the terminal). */
static void describe_start(const char *name, const char *text, size_t len, char *buf, size_t size)
{
	const unsigned char *u = (const unsigned char *)text;
	size_t n = len < 20 ? len : 20;

	if (len >= 2 && u[0] == 0x1f && u[1] == 0x8b) {
		snprintf(buf, size, "gzip-compressed data: decompress it first (`zcat %s`)", name);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (u[i] < 0x20 || u[i] >= 0x7f) {
			if (u[i] != '\t')
				snprintf(buf, size, "binary data (byte 0x%02x)", u[i]);
			else
				continue;
			return;
		}
	snprintf(buf, size, "'%.*s'", (int)n, text);
}

static int scan_line(struct scan *sc, const char *line, size_t len, unsigned long lineno, char *why, size_t why_size)
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
				char found[PATH_MAX + 96];

				describe_start(sc->name, line + i, len - i, found, sizeof(found));
				snprintf(why, why_size, "snapshot %s line %lu: not a JSON document: expected '{', found %s",
					 sc->name, lineno, found);
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
			ret = sc->sink->take(sc->sink->ctx, &sc->doc, sc->len, &sc->size, sc->name, sc->start_line,
					     lineno, sc->prefix, why, why_size);
			if (ret < 0)
				return ret;
			sc->docs++;
		}
	}
	if (sc->depth > 0 && (ret = doc_append(sc, "\n", 1)) < 0)
		return ret == -EFBIG ? -EINVAL : ret;
	return 0;
}

int snapshot_stream_read(FILE *f, const char *name, const struct snapshot_sink *sink, char *why, size_t why_size)
{
	struct scan sc = { .sink = sink, .name = name };
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	while (ret == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		*sink->bytes += (unsigned long long)len;
		if (*sink->bytes > sink->max) {
			sink->over(sink->ctx, name, lineno, why, why_size);
			ret = -E2BIG;
			break;
		}
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		ret = scan_line(&sc, line, (size_t)len, lineno, why, why_size);
	}
	/* the documents taken come before whatever stopped the scan: a bad one among them is the answer */
	if (sink->flush) {
		char first[1024];
		int queued = sink->flush(sink->ctx, first, sizeof(first));

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
