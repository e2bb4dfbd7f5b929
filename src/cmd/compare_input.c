// SPDX-License-Identifier: GPL-2.0-only
/* Gathering compare's snapshots: files, directories and stdin, each cut into documents by the reader --from
 * uses too (snapshot_stream.c), every document queued for the batch that turns it into a node. */
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
#include "cmd/snapshot_stream.h"
#include "model/snapshot_json.h"

static int take_document(void *ctx, char **doc, size_t len, size_t *size, const char *name, unsigned long start_line,
			 unsigned long end_line, const char *prefix, char *why, size_t why_size)
{
	(void)end_line;
	return compare_batch_add(ctx, doc, len, size, name, start_line, prefix, why, why_size);
}

static int flush_documents(void *ctx, char *why, size_t why_size)
{
	return compare_batch_flush(ctx, why, why_size);
}

static void over_cap(void *ctx, const char *name, unsigned long line, char *why, size_t why_size)
{
	(void)ctx;
	snprintf(why, why_size, "%s line %lu: input larger than %llu GiB in all", name, line, COMPARE_INPUT_MAX >> 30);
}

static int read_stream(struct compare_inputs *in, FILE *f, const char *name, char *why, size_t why_size)
{
	const struct snapshot_sink sink = { take_document, flush_documents, over_cap, in, &in->bytes,
					    COMPARE_INPUT_MAX };

	return snapshot_stream_read(f, name, &sink, why, why_size);
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
