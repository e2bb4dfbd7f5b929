// SPDX-License-Identifier: GPL-2.0-only
/* bw's view of the local port's hardware counters: read before and after each size, what moved kept as
 * that size's 'counters' member. */
#ifndef ROCE_DOCTOR_CMD_BW_COUNTERS_H
#define ROCE_DOCTOR_CMD_BW_COUNTERS_H

#include <jansson.h>
#include <stdbool.h>

#include "model/hw_counters.h"
#include "util/rootfs.h"

struct bw_counters {
	struct rootfs root;
	bool root_open;
	char device[64];
	unsigned port;
	struct hw_counter_set *before, *after;
	bool have_before;
	unsigned lifespan_ms;    /* how old a counter the kernel may answer with (hw_counters/lifespan) */
	json_t *sizes;           /* one member a size: the moved counters, or null when unreadable */
};

/* Nothing is read yet; 0, or -ENOMEM. */
int bw_counters_init(struct bw_counters *c, const char *device, unsigned port);
void bw_counters_before(struct bw_counters *c);
void bw_counters_after(struct bw_counters *c);
/* The counters of size index: {"name": delta, ...} in name order, or null (a new reference). */
json_t *bw_counters_json(const struct bw_counters *c, size_t index);
void bw_counters_free(struct bw_counters *c);

#endif
