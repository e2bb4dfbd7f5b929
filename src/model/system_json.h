// SPDX-License-Identifier: GPL-2.0-only
/* The system model (model/system.h) as a portable JSON document (schema roce-doctor/system/v1): its one writer
 * and one reader, with the conventions of host_json: unknown and unread are null, the reader validates the
 * whole document before it builds anything, and names the JSON path of what it refuses. */
#ifndef ROCE_DOCTOR_MODEL_SYSTEM_JSON_H
#define ROCE_DOCTOR_MODEL_SYSTEM_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "model/system.h"
#include "model/json_tree.h"

#define SYSTEM_JSON_SCHEMA "roce-doctor/system/v1"

/* Every member of the state, unread sources and unknowns as null. NULL when out of memory, or when the state
 * holds what JSON cannot carry (a string that is not UTF-8, an
 * empty name the reader would refuse, a family or step it has no spelling for, a handle above 2^63). */
json_t *system_to_json(const struct system_state *s);

/* Validates the whole document, then builds *s from it (*s is overwritten, not freed). 0, or -EINVAL with one
 * line in why naming the JSON path and what was expected ("nftables.ruleset.rules[2].chain: expected ..."),
 * or -ENOMEM; on error *s is left empty. */
int system_from_tree(const struct jnode *doc, struct system_state *s, char *why, size_t why_size);

/* The same over jansson's tree (a copy of it is read): for documents that are already jansson's. */
int system_from_json(const json_t *doc, struct system_state *s, char *why, size_t why_size);

#endif
