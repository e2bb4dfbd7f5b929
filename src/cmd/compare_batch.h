// SPDX-License-Identifier: GPL-2.0-only
/* compare's documents, read and turned into nodes on every core: the scanner queues the documents it cuts in
 * batches, worker threads (each with its own parser memory) parse and convert the queued batches while the
 * scanner cuts the next, and the results are taken in input order, so the nodes, and the one message of the
 * first bad document, are exactly what a single thread would give. */
#ifndef ROCE_DOCTOR_CMD_COMPARE_BATCH_H
#define ROCE_DOCTOR_CMD_COMPARE_BATCH_H

#include <stddef.h>

#include "cmd/compare_input.h"

/* Queues the document in *doc (len bytes): the batch takes the buffer and leaves one of its own, of *size
 * bytes, in its place. name, start_line and prefix (pdsh's host, "" for none) name the document in
 * messages and the node; name must live until the next compare_batch_flush. A full batch goes to the
 * workers, and the batches they finished are taken in. 0, or what compare_batch_flush returns (a bad
 * document found among the finished ones; the later ones are dropped); -E2BIG past COMPARE_NODES_MAX. */
int compare_batch_add(struct compare_inputs *in, char **doc, size_t len, size_t *size, const char *name,
		      unsigned long start_line, const char *prefix, char *why, size_t why_size);

/* Turns every queued document into a node (the calling thread helping the workers), appended to in in input
 * order, up to the first that fails: -EINVAL (why: "snapshot NAME line L: ..."), or -ENOMEM. Nothing is
 * queued after. */
int compare_batch_flush(struct compare_inputs *in, char *why, size_t why_size);

void compare_batch_free(struct compare_inputs *in);

#endif
