// SPDX-License-Identifier: GPL-2.0-only
/* Counters that explain finds pasted (`ethtool -S IF` whole or grepped, `rdma statistic show`, hw_counters
 * through show_counters, cat or grep): kept per pasted port, bounded, each given its meaning from the counter
 * catalogue (model/counter_meaning.h) so a paste says what the fabric did, as `counters` says it live. */
#ifndef ROCE_DOCTOR_LOG_PASTE_COUNTERS_H
#define ROCE_DOCTOR_LOG_PASTE_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PASTE_COUNTERS_MAX 512
#define PASTE_COUNTER_NAME 64

struct paste_counter {
	char name[PASTE_COUNTER_NAME];
	int port;                    /* the pasted port it belongs to (paste_scan's index) */
	uint64_t first, last;        /* a counter pasted twice (before and after a run) moved by last - first */
	unsigned seen;
	unsigned long line;          /* where it was first pasted */
};

struct paste_counters {
	struct paste_counter items[PASTE_COUNTERS_MAX];
	size_t count;
	unsigned long dropped;       /* distinct counters past the bound */
};

/* One value of name on port. Names longer than the bound are not counters anyone prints: refused. */
void paste_counter_add(struct paste_counters *c, int port, const char *name, size_t len, uint64_t value,
		       unsigned long line);

/* Whether name is one a NIC's statistics use (a priority, pause, drop, sequence, CNP, ECN word...): a bare
 * "name: number" line outside an ethtool block is taken as a counter only then. */
bool paste_counter_name_likely(const char *name, size_t len);

/* Whether a counter is worth a line: it moved (pasted twice) or, pasted once, is not zero; and it is not
 * plain traffic. */
bool paste_counter_worth(const struct paste_counter *c);

/* The priority whose packets or bytes counter this is (rx_prio3_packets, tx_prio0_bytes): 0..7, or -1. */
int paste_counter_traffic_priority(const char *name);

#endif
