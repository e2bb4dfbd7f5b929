// SPDX-License-Identifier: GPL-2.0-only
/* The snapshot document (schema roce-doctor/snapshot/v1): everything the read-only commands decide from, as
 * one JSON document — the root it was taken under, identity and versions, the host model, and a place for the
 * system sources check reads (null: a snapshot of an older roce-doctor). Its one writer and one reader. */
#ifndef ROCE_DOCTOR_MODEL_SNAPSHOT_JSON_H
#define ROCE_DOCTOR_MODEL_SNAPSHOT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/host.h"
#include "model/identity.h"
#include "model/json_tree.h"
#include "model/system.h"
#include "util/notes.h"

#define SNAPSHOT_JSON_SCHEMA "roce-doctor/snapshot/v1"
#define SNAPSHOT_ROOT_MAX 4096            /* a --root path, as given */
#define SNAPSHOT_TEXT_MAX (64u << 20)     /* the most --from reads: real snapshots are kilobytes to a few MiB */

struct snapshot {
	bool has_root;
	char root[SNAPSHOT_ROOT_MAX];     /* the --root DIR it was taken under, as given; live: has_root false */
	struct identity identity;
	struct host host;
	bool system_known;                /* the `system` member was recorded (null: not recorded) */
	struct system_state system;       /* what check reads besides the host, when system_known */
	struct notes warnings;            /* the identity probe's */
};

/* Frees the host, the system sources and the warnings; the rest is inline. */
void snapshot_free(struct snapshot *s);

/* The whole document, members in the README's order. NULL when out of memory or not representable. */
json_t *snapshot_to_json(const struct snapshot *s);

/* Parses the text of one snapshot (pretty or one line) and validates it whole (schema and version first,
 * then every member) before anything is kept. 0, or -EINVAL with one line in why: "line L column C: ..."
 * for text that is not one JSON document, else the JSON path of the first bad member ("host.devices[0]...");
 * -ENOMEM. On error *s is left empty. */
int snapshot_parse(const char *text, size_t len, struct snapshot *s, char *why, size_t why_size);

/* The same, parsing into tree's memory, which the next call reuses: for a caller that reads many snapshots
 * (compare). tree zeroed before the first call; json_tree_free(tree) after the last. */
int snapshot_parse_in(struct json_tree *tree, const char *text, size_t len, struct snapshot *s, char *why,
		      size_t why_size);

#endif
