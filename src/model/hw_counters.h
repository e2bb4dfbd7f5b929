// SPDX-License-Identifier: GPL-2.0-only
/* An RDMA port's hardware counters (sysfs hw_counters): what the NIC, or rxe, counted while a test ran:
 * packets, retransmits, sequence errors, RNR NAKs, congestion notifications. */
#ifndef ROCE_DOCTOR_MODEL_HW_COUNTERS_H
#define ROCE_DOCTOR_MODEL_HW_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* mlx5 has about 60 per port and a few per device; rxe 15. */
#define HW_COUNTERS_MAX 160

struct hw_counter {
	char name[64];           /* the file name; device-wide ones (DEV/hw_counters) as "device/NAME" */
	uint64_t value;
};

struct hw_counter_set {
	struct hw_counter items[HW_COUNTERS_MAX];
	size_t count;            /* sorted by name */
};

/* A counter that moved between two readings. */
struct hw_counter_move {
	const char *name;        /* points into the 'after' set */
	uint64_t delta;
	bool trouble;            /* a retransmit, error, NAK, drop or congestion counter, not plain traffic */
};

/* The counters of after that moved since before (present in both, value larger), in name order, at most
 * max; the number written. A counter that went backwards (reset, wrapped) is left out. */
size_t hw_counters_moved(const struct hw_counter_set *before, const struct hw_counter_set *after,
			 struct hw_counter_move *out, size_t max);

/* Whether a counter's name says trouble (retransmits, sequence errors, RNR, timeouts, drops, discards,
 * congestion notifications) rather than traffic (packets, sends, receives). */
bool hw_counter_is_trouble(const char *name);

#endif
