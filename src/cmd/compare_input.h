// SPDX-License-Identifier: GPL-2.0-only
/* compare's input: snapshots gathered from files, directories (*.json, *.jsonl) and stdin ("-": JSON lines,
 * pdsh's "host: " prefix accepted, or concatenated documents), each turned into one compare node as it is read
 * (so 10,000 snapshots never sit in memory as text). Everything is read and validated before anything is
 * compared: a bad input yields one line naming the file, line and member, and no report. */
#ifndef ROCE_DOCTOR_CMD_COMPARE_INPUT_H
#define ROCE_DOCTOR_CMD_COMPARE_INPUT_H

#include <stddef.h>

#include "core/compare.h"
#include "core/findings.h"
#include "model/host.h"
#include "model/qos.h"

#define COMPARE_NODES_MAX 100000u            /* snapshots in one compare */
#define COMPARE_INPUT_MAX (4ull << 30)       /* bytes of input, all sources together */

/* The data one node owns; node points into it. */
struct compare_owned {
	struct host *host;           /* its own allocation: the owned array moves as it grows, nodes point here */
	struct qos_host *qos;        /* a copy of the snapshot's, its own allocation too; NULL when not recorded */
	char *hostname, *file, *kernel, *rdma_core, *firewall, *gid_pinned, *gid_source;
	struct compare_setting *providers;
	struct compare_board *boards;
	struct compare_setting *nccl;
	struct compare_check *checks;
	struct compare_nccl_lib *nccl_libs;
	size_t provider_count, board_count, nccl_count, check_count, nccl_lib_count;   /* how many were filled */
};

struct compare_batch;
struct compare_file_seen;

struct compare_inputs {
	struct compare_node *nodes;
	struct compare_owned *owned;
	size_t count, capacity;
	unsigned long long bytes;    /* read so far, against COMPARE_INPUT_MAX */
	struct compare_batch *batch; /* the documents cut but not yet read (compare_batch.h) */
	struct compare_file_seen *seen;   /* the files read, by device and inode: one given twice is read once */
	size_t seen_count, seen_capacity;
};

/* Adds every snapshot of one argument: a file, a directory or "-". A file already read (the same one named twice,
 * or in a directory also given) is skipped with one line on stderr. 0; -EINVAL (bad snapshot: why names the file,
 * line and member), -errno when it cannot be read, -E2BIG past a cap, -ENOMEM. */
int compare_inputs_add(struct compare_inputs *in, const char *arg, char *why, size_t why_size);
void compare_inputs_free(struct compare_inputs *in);

#endif
