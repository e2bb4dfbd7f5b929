// SPDX-License-Identifier: GPL-2.0-only
/* The batch behind compare_batch_add/flush: BATCH_DOCS documents, THREADS_MAX workers (the calling thread is
 * one) taking the next document from an atomic counter, so a core slowed by other work takes fewer. */
#include "cmd/compare_batch.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/compare_node.h"
#include "model/snapshot_json.h"

#define BATCH_DOCS 256     /* 4 MiB of eight-HCA text: enough to keep the workers busy, little memory */
#define THREADS_MAX 4      /* the 2 s target is for 2 cores; more gives little past the scanner's share */
#define PREFIX_MAX 256

struct doc {
	char *text;
	size_t len, size;
	const char *name;
	unsigned long start_line;
	char prefix[PREFIX_MAX];
	int ret;
	char detail[768];
};

/* What one thread reuses from document to document. */
struct worker_memory {
	struct json_tree tree;
	struct findings checks;
};

struct compare_batch {
	struct doc docs[BATCH_DOCS];
	size_t count;
	struct worker_memory memory[THREADS_MAX];
	unsigned threads;
};

struct run {
	struct compare_inputs *in;
	struct compare_batch *b;
	size_t base;                /* in->count: docs[i] becomes node base + i */
	atomic_size_t next;
};

struct worker {
	struct run *run;
	struct worker_memory *memory;
};

static void convert(struct run *r, size_t i, struct worker_memory *m)
{
	struct doc *d = &r->b->docs[i];
	struct snapshot snap;
	char file[PATH_MAX + 32];
	int ret = snapshot_parse_in(&m->tree, d->text, d->len, &snap, d->detail, sizeof(d->detail));

	if (ret == 0) {
		/* the file names the node when hostnames collide: the pdsh host, else the file (and line past the
		 * first) */
		if (*d->prefix)
			snprintf(file, sizeof(file), "%s", d->prefix);
		else if (d->start_line == 1 && strcmp(d->name, "(stdin)") != 0)
			snprintf(file, sizeof(file), "%s", d->name);
		else
			snprintf(file, sizeof(file), "%s:%lu", strcmp(d->name, "(stdin)") ? d->name : "stdin",
				 d->start_line);
		ret = compare_node_from_snapshot_in(&snap, file, *d->prefix ? d->prefix : NULL, &m->checks,
						    &r->in->owned[r->base + i], &r->in->nodes[r->base + i]);
		snapshot_free(&snap);
	}
	d->ret = ret;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t i;

	while ((i = atomic_fetch_add(&w->run->next, 1)) < w->run->b->count)
		convert(w->run, i, w->memory);
	return NULL;
}

static struct compare_batch *batch_of(struct compare_inputs *in)
{
	if (!in->batch && (in->batch = calloc(1, sizeof(*in->batch)))) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		in->batch->threads = cores < 1 ? 1 : cores > THREADS_MAX ? THREADS_MAX : (unsigned)cores;
		/* jansson (the reader's fallback) seeds its hashes on first use: not from two threads at once */
		json_object_seed(0);
	}
	return in->batch;
}

static int reserve(struct compare_inputs *in, size_t need)
{
	size_t cap = in->capacity ? in->capacity : 64;
	struct compare_node *nodes;
	struct compare_owned *owned;

	if (need <= in->capacity)
		return 0;
	while (cap < need)
		cap *= 2;
	nodes = realloc(in->nodes, cap * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	in->nodes = nodes;
	owned = realloc(in->owned, cap * sizeof(*owned));
	if (!owned)
		return -ENOMEM;
	in->owned = owned;
	in->capacity = cap;
	return 0;
}

int compare_batch_flush(struct compare_inputs *in, char *why, size_t why_size)
{
	struct compare_batch *b = in->batch;
	struct run r = { .in = in, .b = b, .base = in->count };
	struct worker workers[THREADS_MAX];
	pthread_t ids[THREADS_MAX];
	unsigned started = 0;
	int ret = 0;

	if (!b || b->count == 0)
		return 0;
	ret = reserve(in, in->count + b->count);
	if (ret < 0) {
		b->count = 0;
		return ret;
	}
	atomic_init(&r.next, 0);
	for (unsigned t = 0; t < b->threads; t++)
		workers[t] = (struct worker){ .run = &r, .memory = &b->memory[t] };
	/* a thread that cannot start leaves its share to the others */
	for (unsigned t = 1; t < b->threads && b->count > 1; t++)
		if (pthread_create(&ids[started], NULL, work, &workers[t]) == 0)
			started++;
	work(&workers[0]);
	for (unsigned t = 0; t < started; t++)
		pthread_join(ids[t], NULL);
	/* in input order, up to the first failure; the nodes after it are dropped */
	for (size_t i = 0; i < b->count; i++) {
		struct doc *d = &b->docs[i];

		if (ret == 0 && d->ret == 0) {
			in->count++;
			continue;
		}
		if (ret == 0) {
			ret = d->ret;
			if (ret == -EINVAL)
				snprintf(why, why_size, "snapshot %s line %lu: %s", d->name, d->start_line, d->detail);
		} else if (d->ret == 0) {
			compare_owned_free(&in->owned[r.base + i]);
		}
	}
	b->count = 0;
	return ret;
}

int compare_batch_add(struct compare_inputs *in, char **doc, size_t len, size_t *size, const char *name,
		      unsigned long start_line, const char *prefix, char *why, size_t why_size)
{
	struct compare_batch *b = batch_of(in);
	struct doc *d;
	char *spare;
	size_t spare_size;
	int ret;

	if (!b)
		return -ENOMEM;
	if (in->count + b->count >= COMPARE_NODES_MAX) {
		/* the documents before this one are read first: a bad one among them is the answer */
		ret = compare_batch_flush(in, why, why_size);
		if (ret < 0)
			return ret;
		snprintf(why, why_size, "%s line %lu: more than %u snapshots", name, start_line, COMPARE_NODES_MAX);
		return -E2BIG;
	}
	d = &b->docs[b->count++];
	spare = d->text;
	spare_size = d->size;
	d->text = *doc;
	d->size = *size;
	d->len = len;
	d->name = name;
	d->start_line = start_line;
	snprintf(d->prefix, sizeof(d->prefix), "%s", prefix);
	*doc = spare;
	*size = spare_size;
	return b->count == BATCH_DOCS ? compare_batch_flush(in, why, why_size) : 0;
}

void compare_batch_free(struct compare_inputs *in)
{
	struct compare_batch *b = in->batch;

	if (!b)
		return;
	for (size_t i = 0; i < BATCH_DOCS; i++)
		free(b->docs[i].text);
	for (unsigned t = 0; t < THREADS_MAX; t++) {
		json_tree_free(&b->memory[t].tree);
		findings_free(&b->memory[t].checks);
	}
	free(b);
	in->batch = NULL;
}
