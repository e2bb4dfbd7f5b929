// SPDX-License-Identifier: GPL-2.0-only
/* Which hardware counters moved during a test, and which of them say something went wrong. Pure. */
#include "model/hw_counters.h"
#include "model/counter_meaning.h"

#include <string.h>

/* Trouble is whatever the counter catalogue does not call plain traffic: one interpretation for bw and
 * counters. */
bool hw_counter_is_trouble(const char *name)
{
	return counter_meaning_of(name)->group != COUNTER_TRAFFIC;
}

size_t hw_counters_moved(const struct hw_counter_set *before, const struct hw_counter_set *after,
			 struct hw_counter_move *out, size_t max)
{
	size_t n = 0, i = 0, j = 0;

	/* Both sets are sorted by name: one merge walk. */
	while (i < before->count && j < after->count && n < max) {
		int c = strcmp(before->items[i].name, after->items[j].name);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if (after->items[j].value > before->items[i].value)
				out[n++] = (struct hw_counter_move){
					.name = after->items[j].name,
					.delta = after->items[j].value - before->items[i].value,
					.trouble = hw_counter_is_trouble(after->items[j].name),
				};
			i++;
			j++;
		}
	}
	return n;
}
