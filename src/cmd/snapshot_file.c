// SPDX-License-Identifier: GPL-2.0-only
/* Reading --from's file with the reader compare uses (snapshot_stream.c), so both read the same inputs the same
 * way: an empty file, pdsh's "host: " prefix, JSON lines and pretty documents. --from takes one snapshot: a file
 * of several is refused with the lines each one spans and how to take one out. Capped so a wrong file (a disk
 * image, a device) costs at most SNAPSHOT_TEXT_MAX of memory before it is refused. */
#include "cmd/snapshot_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/snapshot_stream.h"
#include "util/text_append.h"

#define SPANS_SHOWN 4

struct one_document {
	char *text;
	size_t len;
	unsigned long start_line;
	size_t count;
	unsigned long start[SPANS_SHOWN], end[SPANS_SHOWN];
};

static int take_first(void *ctx, char **doc, size_t len, size_t *size, const char *name, unsigned long start_line,
		      unsigned long end_line, const char *prefix, char *why, size_t why_size)
{
	struct one_document *one = ctx;

	(void)name, (void)prefix, (void)why, (void)why_size;
	if (one->count < SPANS_SHOWN) {
		one->start[one->count] = start_line;
		one->end[one->count] = end_line;
	}
	if (one->count++ == 0) {
		/* the first is kept: the scanner gets a fresh buffer for what may follow */
		one->text = *doc;
		one->len = len;
		one->start_line = start_line;
		*doc = NULL;
		*size = 0;
	}
	return 0;
}

static void over_cap(void *ctx, const char *name, unsigned long line, char *why, size_t why_size)
{
	(void)ctx, (void)line;
	snprintf(why, why_size, "cannot read snapshot %s: larger than %u MiB", name, SNAPSHOT_TEXT_MAX >> 20);
}

/* "snapshot all.jsonl: 3 snapshots in it (lines 1, 2, 3): ..." with the command that takes the first out. */
static void several(const struct one_document *one, const char *name, bool is_stdin, char *why, size_t why_size)
{
	char spans[256] = "", take[128];

	for (size_t i = 0; i < one->count && i < SPANS_SHOWN; i++) {
		if (one->start[i] == one->end[i])
			text_append(spans, sizeof(spans), "%s%lu", i ? ", " : "", one->start[i]);
		else
			text_append(spans, sizeof(spans), "%s%lu-%lu", i ? ", " : "", one->start[i], one->end[i]);
	}
	if (one->count > SPANS_SHOWN)
		text_append(spans, sizeof(spans), ", ...");
	if (one->start[0] == one->end[0])
		snprintf(take, sizeof(take), "%lup", one->start[0]);
	else
		snprintf(take, sizeof(take), "'%lu,%lup'", one->start[0], one->end[0]);
	snprintf(why, why_size, "snapshot %s: %zu snapshots in it (lines %s), and --from reads one: compare them with "
		 "`roce-doctor compare %s`, or take one out, the first with `sed -n %s %s > node.json`", name,
		 one->count, spans, is_stdin ? "-" : name, take, is_stdin ? "FILE" : name);
}

int snapshot_file_read(const char *path, struct snapshot *s, char *why, size_t why_size)
{
	const bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "(stdin)" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "re");
	struct one_document one = { 0 };
	unsigned long long bytes = 0;
	const struct snapshot_sink sink = { take_first, NULL, over_cap, &one, &bytes, SNAPSHOT_TEXT_MAX };
	char detail[768];
	struct stat st;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!f) {
		ret = -errno;
		snprintf(why, why_size, "cannot read snapshot %s: %s", name, strerror(-ret));
		return ret;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)SNAPSHOT_TEXT_MAX) {
		/* refused before reading: a pipe is capped while it is read */
		over_cap(NULL, name, 0, why, why_size);
		ret = -EFBIG;
	} else {
		ret = snapshot_stream_read(f, name, &sink, why, why_size);
		if (ret == -E2BIG)
			ret = -EFBIG;
	}
	if (!is_stdin)
		fclose(f);
	if (ret == 0 && one.count > 1) {
		several(&one, name, is_stdin, why, why_size);
		ret = -EINVAL;
	}
	if (ret == 0) {
		ret = snapshot_parse(one.text, one.len, s, detail, sizeof(detail));
		if (ret < 0 && one.start_line > 1)
			snprintf(why, why_size, "snapshot %s line %lu: %s", name, one.start_line,
				 ret == -EINVAL ? detail : strerror(-ret));
		else if (ret < 0)
			snprintf(why, why_size, "snapshot %s: %s", name, ret == -EINVAL ? detail : strerror(-ret));
	}
	free(one.text);
	return ret;
}
