// SPDX-License-Identifier: GPL-2.0-only
/* The pipeline behind compare_batch_add/flush. The scanner (the calling thread) fills a batch of BATCH_DOCS
 * documents and hands it to a ring of RING_BATCHES; workers (one per further core, THREADS_MAX in all) parse
 * and convert the handed batches, oldest first, while the scanner cuts the next one: on two cores the
 * scanning no longer leaves the second core idle. When the ring is full, or at a flush, the scanner converts
 * documents itself until the oldest batch is done. Batches are taken into the inputs in input order, so the
 * nodes, and the one message of the first bad document, are exactly what a single thread would give. */
#include "cmd/compare_batch.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/compare_node.h"
#include "model/snapshot_json.h"

#define BATCH_DOCS 128     /* 2 MiB of eight-HCA text: small enough that the workers start early */
#define RING_BATCHES 4     /* handed and not yet taken in; the scanner waits (converting) beyond */
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
	struct compare_node node;   /* the result, moved into the inputs when its batch is taken */
	struct compare_owned owned;
};

struct batch {
	struct doc docs[BATCH_DOCS];
	size_t count;
	size_t next;       /* the next document to convert; under the lock */
	size_t done;       /* converted; under the lock */
	bool handed;       /* in the ring: workers may take its documents */
};

/* What one thread reuses from document to document. */
struct worker_memory {
	struct json_tree tree;
	struct findings checks;
};

struct compare_batch;

struct worker {
	struct compare_batch *b;
	struct worker_memory *memory;
};

struct compare_batch {
	struct batch ring[RING_BATCHES];
	size_t oldest, handed;     /* ring[oldest] is taken in next; handed batches follow it */
	size_t queued;             /* documents in the ring and the batch being filled */
	pthread_mutex_t lock;
	pthread_cond_t work, finished;
	bool stop;
	pthread_t ids[THREADS_MAX - 1];
	struct worker workers[THREADS_MAX - 1];
	unsigned started, threads;
	struct worker_memory memory[THREADS_MAX];   /* [0] the scanner's, [1 + t] worker t's */
};

static void convert(struct doc *d, struct worker_memory *m)
{
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
						    &d->owned, &d->node);
		snapshot_free(&snap);
	}
	d->ret = ret;
}

/* The oldest handed batch with a document nobody took yet, that document claimed; NULL when none. Under the
 * lock. */
static struct doc *claim(struct compare_batch *b, struct batch **from)
{
	for (size_t k = 0; k < b->handed; k++) {
		struct batch *it = &b->ring[(b->oldest + k) % RING_BATCHES];

		if (it->next < it->count) {
			*from = it;
			return &it->docs[it->next++];
		}
	}
	return NULL;
}

/* Converts one claimed document outside the lock. Under the lock on entry and return. */
static void convert_claimed(struct compare_batch *b, struct batch *from, struct doc *d, struct worker_memory *m)
{
	pthread_mutex_unlock(&b->lock);
	convert(d, m);
	pthread_mutex_lock(&b->lock);
	if (++from->done == from->count)
		pthread_cond_broadcast(&b->finished);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct compare_batch *b = w->b;

	pthread_mutex_lock(&b->lock);
	while (!b->stop) {
		struct batch *from;
		struct doc *d = claim(b, &from);

		if (d)
			convert_claimed(b, from, d, w->memory);
		else
			pthread_cond_wait(&b->work, &b->lock);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static struct compare_batch *batch_of(struct compare_inputs *in)
{
	struct compare_batch *b = in->batch;
	long cores;

	if (b || !(b = calloc(1, sizeof(*b))))
		return b;
	if (pthread_mutex_init(&b->lock, NULL) != 0) {
		free(b);
		return NULL;
	}
	pthread_cond_init(&b->work, NULL);
	pthread_cond_init(&b->finished, NULL);
	cores = sysconf(_SC_NPROCESSORS_ONLN);
	b->threads = cores < 1 ? 1 : cores > THREADS_MAX ? THREADS_MAX : (unsigned)cores;
	/* jansson (the reader's fallback) seeds its hashes on first use: not from two threads at once */
	json_object_seed(0);
	in->batch = b;
	return b;
}

/* The workers, at the first handed batch: a single snapshot never starts a thread. One that cannot start
 * leaves its share to the others and the scanner. */
static void start_workers(struct compare_batch *b)
{
	if (b->started || b->threads < 2)
		return;
	for (unsigned t = 0; t + 1 < b->threads; t++) {
		b->workers[t] = (struct worker){ .b = b, .memory = &b->memory[1 + t] };
		if (pthread_create(&b->ids[b->started], NULL, work, &b->workers[t]) == 0)
			b->started++;
	}
	if (!b->started)
		b->threads = 1;   /* tried once */
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

/* Waits, converting documents of the ring meanwhile, until the oldest handed batch is done. Under the lock. */
static void finish_oldest(struct compare_batch *b)
{
	struct batch *oldest = &b->ring[b->oldest];

	while (oldest->done < oldest->count) {
		struct batch *from;
		struct doc *d = claim(b, &from);

		if (d)
			convert_claimed(b, from, d, &b->memory[0]);
		else
			pthread_cond_wait(&b->finished, &b->lock);
	}
}

/* The oldest handed batch (done) into the inputs, in input order, up to its first failure; *ret keeps the
 * first failure of all, after which every node is dropped. Under the lock (no worker touches a done batch). */
static void take_oldest(struct compare_inputs *in, struct compare_batch *b, int *ret, char *why, size_t why_size)
{
	struct batch *t = &b->ring[b->oldest];

	if (*ret == 0)
		*ret = reserve(in, in->count + t->count);
	for (size_t i = 0; i < t->count; i++) {
		struct doc *d = &t->docs[i];

		if (*ret == 0 && d->ret == 0) {
			in->nodes[in->count] = d->node;
			in->owned[in->count] = d->owned;
			in->count++;
			continue;
		}
		if (*ret == 0) {
			*ret = d->ret;
			if (*ret == -EINVAL)
				snprintf(why, why_size, "snapshot %s line %lu: %s", d->name, d->start_line, d->detail);
		}
		if (d->ret == 0)
			compare_owned_free(&d->owned);
	}
	b->queued -= t->count;
	t->count = t->next = t->done = 0;
	t->handed = false;
	b->oldest = (b->oldest + 1) % RING_BATCHES;
	b->handed--;
}

/* Hands the batch being filled (ring[oldest + handed]) to the workers. Under the lock. */
static void hand(struct compare_batch *b)
{
	struct batch *fill = &b->ring[(b->oldest + b->handed) % RING_BATCHES];

	if (fill->count == 0)
		return;
	fill->handed = true;
	b->handed++;
	start_workers(b);
	pthread_cond_broadcast(&b->work);
}

/* Takes in the done batches at the front of the ring; with wait, every handed batch (finishing them). The
 * first failure stops the taking in: the rest is converted and dropped. */
static int take_in(struct compare_inputs *in, struct compare_batch *b, bool wait, char *why, size_t why_size)
{
	int ret = 0;

	while (b->handed && (wait || ret < 0 || b->ring[b->oldest].done == b->ring[b->oldest].count)) {
		finish_oldest(b);
		take_oldest(in, b, &ret, why, why_size);
	}
	return ret;
}

int compare_batch_flush(struct compare_inputs *in, char *why, size_t why_size)
{
	struct compare_batch *b = in->batch;
	int ret;

	if (!b)
		return 0;
	pthread_mutex_lock(&b->lock);
	hand(b);
	ret = take_in(in, b, true, why, why_size);
	pthread_mutex_unlock(&b->lock);
	return ret;
}

int compare_batch_add(struct compare_inputs *in, char **doc, size_t len, size_t *size, const char *name,
		      unsigned long start_line, const char *prefix, char *why, size_t why_size)
{
	struct compare_batch *b = batch_of(in);
	struct batch *fill;
	struct doc *d;
	char *spare;
	size_t spare_size;
	int ret = 0;

	if (!b)
		return -ENOMEM;
	if (in->count + b->queued >= COMPARE_NODES_MAX) {
		/* the documents before this one are read first: a bad one among them is the answer */
		ret = compare_batch_flush(in, why, why_size);
		if (ret < 0)
			return ret;
		snprintf(why, why_size, "%s line %lu: more than %u snapshots", name, start_line, COMPARE_NODES_MAX);
		return -E2BIG;
	}
	/* the batch being filled is not handed: no worker reads it, no lock needed */
	fill = &b->ring[(b->oldest + b->handed) % RING_BATCHES];
	d = &fill->docs[fill->count++];
	b->queued++;
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
	if (fill->count < BATCH_DOCS)
		return 0;
	pthread_mutex_lock(&b->lock);
	hand(b);
	/* what is done is taken in now (a bad document stops the scan early); a full ring frees its oldest slot */
	ret = take_in(in, b, false, why, why_size);
	if (ret == 0 && b->handed == RING_BATCHES) {
		finish_oldest(b);
		take_oldest(in, b, &ret, why, why_size);
	}
	if (ret < 0)
		(void)take_in(in, b, true, why, why_size);   /* drops the later batches; why keeps the first */
	pthread_mutex_unlock(&b->lock);
	return ret;
}

void compare_batch_free(struct compare_inputs *in)
{
	struct compare_batch *b = in->batch;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	b->stop = true;
	pthread_cond_broadcast(&b->work);
	pthread_mutex_unlock(&b->lock);
	for (unsigned t = 0; t < b->started; t++)
		pthread_join(b->ids[t], NULL);
	for (size_t k = 0; k < RING_BATCHES; k++)
		for (size_t i = 0; i < BATCH_DOCS; i++)
			free(b->ring[k].docs[i].text);
	for (unsigned t = 0; t < THREADS_MAX; t++) {
		json_tree_free(&b->memory[t].tree);
		findings_free(&b->memory[t].checks);
	}
	pthread_cond_destroy(&b->work);
	pthread_cond_destroy(&b->finished);
	pthread_mutex_destroy(&b->lock);
	free(b);
	in->batch = NULL;
}
