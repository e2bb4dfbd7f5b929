// SPDX-License-Identifier: GPL-2.0-only
/* Which of the pattern table's needles a line holds, found in one pass over the line instead of one memmem
 * per row: the filter that decides which rows' regexes run. The answer is exactly memmem's for each needle. */
#ifndef ROCE_DOCTOR_LOG_NEEDLES_H
#define ROCE_DOCTOR_LOG_NEEDLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/log/log_patterns.h"

#define LOG_NEEDLE_HASH 4096   /* buckets of a needle's first four bytes */

struct log_needles {
	size_t count;                  /* distinct needles */
	const char **text;             /* each needle once */
	size_t *len;
	uint32_t *head;                /* its first four bytes, for needles of four or more */
	int *next;                     /* the next needle in its bucket, -1 at the end */
	int bucket[LOG_NEEDLE_HASH];   /* the first needle whose first four bytes hash here, -1 when none */
	int *short_ones;               /* needles under four bytes: memmem each (none in today's table) */
	size_t short_count;
	size_t *of_row;                /* rows' needle: log_patterns[i].needle is text[of_row[i]] */
	unsigned long *seen;           /* per needle: the line generation that last held it */
	unsigned long generation;
	bool any;                      /* the last line looked at held a needle */
};

/* Collects the distinct needles of rows[0..count). 0 or -ENOMEM. */
int log_needles_init(struct log_needles *n, const struct log_pattern *rows, size_t count);
void log_needles_free(struct log_needles *n);
/* Looks for every needle in text[0..len); log_needles_row_found then answers per row. */
void log_needles_find(struct log_needles *n, const char *text, size_t len);

static inline bool log_needles_row_found(const struct log_needles *n, size_t row)
{
	return n->seen[n->of_row[row]] == n->generation;
}

static inline bool log_needles_any(const struct log_needles *n)
{
	return n->any;
}

#endif
