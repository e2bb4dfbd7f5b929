// SPDX-License-Identifier: GPL-2.0-only
/* The host model as a portable JSON document (schema roce-doctor/host/v1): its one writer and one reader. */
#ifndef ROCE_DOCTOR_MODEL_HOST_JSON_H
#define ROCE_DOCTOR_MODEL_HOST_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "model/host.h"
#include "model/json_tree.h"

#define HOST_JSON_SCHEMA "roce-doctor/host/v1"

/* Every member of the model, unknowns as null. NULL when out of memory, or when the model holds what JSON
 * cannot carry (a string that is not UTF-8, an address family other than IPv4 or IPv6). */
json_t *host_to_json(const struct host *host);

/* Validates the whole document (schema and version first, then the type, bounds and spelling of every
 * member), then builds *host from it (*host is overwritten, not freed). 0, or -EINVAL with one line in why
 * naming the JSON path and what was expected ("devices[3].ports[0].gids[7].gid: expected ..."), or -ENOMEM;
 * on error *host is left empty. */
int host_from_tree(const struct jnode *doc, struct host *host, char *why, size_t why_size);

/* The same over jansson's tree (a copy of it is read): for documents that are already jansson's. */
int host_from_json(const json_t *doc, struct host *host, char *why, size_t why_size);

#endif
