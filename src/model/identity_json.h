// SPDX-License-Identifier: GPL-2.0-only
/* The identity part of a snapshot (model/identity.h) to JSON and back: its one writer and one reader. */
#ifndef ROCE_DOCTOR_MODEL_IDENTITY_JSON_H
#define ROCE_DOCTOR_MODEL_IDENTITY_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "model/identity.h"
#include "model/json_tree.h"

/* Every member, unknowns as null. NULL when out of memory or when a text is not UTF-8. */
json_t *identity_to_json(const struct identity *id);

/* Validates every member (type, bounds, no member missing or unknown), then fills *id. 0, or -EINVAL with
 * one line in why naming the member's JSON path under path_prefix ("identity.devices[0].board_id: ..."). */
int identity_from_tree(const struct jnode *obj, const char *path_prefix, struct identity *id, char *why, size_t why_size);

#endif
