// SPDX-License-Identifier: GPL-2.0-only
/* The pasted counters' table. A counter pasted twice (before and after a run, as people paste to show what
 * moved) keeps both values, so its line says how much it moved rather than its total since boot. */
#include "core/log/paste_counters.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model/counter_meaning.h"

void paste_counter_add(struct paste_counters *c, int port, const char *name, size_t len, uint64_t value,
		       unsigned long line)
{
	struct paste_counter *e;

	if (len == 0 || len >= PASTE_COUNTER_NAME)
		return;
	for (size_t i = 0; i < c->count; i++) {
		e = &c->items[i];
		if (e->port == port && strlen(e->name) == len && strncmp(e->name, name, len) == 0) {
			e->last = value;
			e->seen++;
			return;
		}
	}
	if (c->count == PASTE_COUNTERS_MAX) {
		c->dropped++;
		return;
	}
	e = &c->items[c->count++];
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->port = port;
	e->first = e->last = value;
	e->seen = 1;
	e->line = line;
}

bool paste_counter_name_likely(const char *name, size_t len)
{
	static const char *const words[] = { "prio", "pause", "discard", "drop", "out_of", "cnp", "ecn", "seq",
					     "retr", "nak", "rnr", "_err", "buffer", "timeout", "_packets", "_bytes",
					     "_pkts", "duplicate_request", "icrc" };
	char copy[PASTE_COUNTER_NAME];

	if (len == 0 || len >= sizeof(copy))
		return false;
	memcpy(copy, name, len);
	copy[len] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(copy, words[i]))
			return true;
	return false;
}

bool paste_counter_worth(const struct paste_counter *c)
{
	bool moved = c->seen > 1 ? c->last != c->first : c->last != 0;

	return moved && counter_meaning_of(c->name)->group != COUNTER_TRAFFIC;
}

int paste_counter_traffic_priority(const char *name)
{
	unsigned prio;
	char kind[16];
	int n = 0;

	if ((strncmp(name, "rx_prio", 7) != 0 && strncmp(name, "tx_prio", 7) != 0) ||
	    sscanf(name + 7, "%1u_%15[a-z]%n", &prio, kind, &n) != 2 || name[7 + n] != '\0' || prio > 7)
		return -1;
	return strcmp(kind, "packets") == 0 || strcmp(kind, "bytes") == 0 ? (int)prio : -1;
}
