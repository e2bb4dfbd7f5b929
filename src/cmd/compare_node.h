// SPDX-License-Identifier: GPL-2.0-only
/* The glue from a snapshot to compare's node model: identity and host always; the system-derived members
 * (pinned NCCL_IB_GID_INDEX, NCCL settings, memlock, firewall, the node's own check findings) only when the
 * snapshot recorded its system sources, unknown otherwise. */
#ifndef ROCE_DOCTOR_CMD_COMPARE_NODE_H
#define ROCE_DOCTOR_CMD_COMPARE_NODE_H

#include "cmd/compare_input.h"
#include "model/snapshot_json.h"

/* Takes the host out of *s (the caller still snapshot_free()s it); file names the node when hostnames collide,
 * prefix_host (pdsh's, may be NULL) when the snapshot has no hostname. 0 or -ENOMEM (*own freed). */
int compare_node_from_snapshot(struct snapshot *s, const char *file, const char *prefix_host,
			       struct compare_owned *own, struct compare_node *node);

/* The same, the node's own check run into scratch (emptied first, its memory kept for the next node;
 * findings_free it after the last): for a caller of 10,000 nodes, where growing a findings array per node
 * was a tenth of the time. */
int compare_node_from_snapshot_in(struct snapshot *s, const char *file, const char *prefix_host,
				  struct findings *scratch, struct compare_owned *own, struct compare_node *node);
void compare_owned_free(struct compare_owned *own);

#endif
