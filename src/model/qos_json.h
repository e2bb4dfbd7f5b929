// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain's model (model/qos.h) to JSON and back: the system document's `qos` member, so check
 * --from, compare and check --peer judge a node's PFC, trust and DSCP map as check does live. */
#ifndef ROCE_DOCTOR_MODEL_QOS_JSON_H
#define ROCE_DOCTOR_MODEL_QOS_JSON_H

#include <jansson.h>

#include "model/json_io.h"
#include "model/json_tree.h"
#include "model/qos.h"

/* A new object, or NULL when out of memory. */
json_t *qos_host_to_json(const struct qos_host *q);

/* v: the member's value (an object). Fills q (its array allocated: qos_host_free). 0 or -EINVAL / -ENOMEM with
 * the reader's message naming the member. */
int qos_host_from_json(struct reader *r, const struct jnode *v, struct qos_host *q);

#endif
