// SPDX-License-Identifier: GPL-2.0-only
/* The needle filter. Every row of the table has a literal its lines must hold; most lines of a big log hold
 * none, and the rest one or two. Asking memmem for each row's needle read every line once per row (95
 * reads of each line, most of explain's time on a big log). Here the line is read once: at each position its
 * next four bytes are hashed into a table of the needles' first four bytes, and only a needle whose bucket
 * is hit is compared there. Why this and not a library:
 *  - PCRE2 or Hyperscan would match the regexes too, but with Perl's leftmost-first semantics where the table
 *    is POSIX ERE (leftmost-longest: the groups, and so the facts and messages, could differ), and Hyperscan
 *    is x86-only in Debian; both are a new dependency for what 100 lines do.
 *  - An Aho-Corasick automaton would do the same in one pass with a larger table; with fewer than a few
 *    hundred needles the hash of four bytes is as fast, smaller (16 KiB, in L1), and its answer is trivially
 *    memmem's: a needle is found where it is compared whole.
 * glibc's regexec then runs only on the rows whose needle the line holds, as before. */
#include "core/log/log_needles.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t load4(const char *s)
{
	uint32_t w;

	memcpy(&w, s, sizeof(w));
	return w;
}

static unsigned hash4(uint32_t w)
{
	return (w * 2654435761u) >> (32 - 12);   /* 12 bits: LOG_NEEDLE_HASH */
}

_Static_assert(LOG_NEEDLE_HASH == 1 << 12, "hash4 returns 12 bits");

int log_needles_init(struct log_needles *n, const struct log_pattern *rows, size_t count)
{
	memset(n, 0, sizeof(*n));
	for (size_t b = 0; b < LOG_NEEDLE_HASH; b++)
		n->bucket[b] = -1;
	n->text = calloc(count ? count : 1, sizeof(*n->text));
	n->len = calloc(count ? count : 1, sizeof(*n->len));
	n->head = calloc(count ? count : 1, sizeof(*n->head));
	n->next = calloc(count ? count : 1, sizeof(*n->next));
	n->short_ones = calloc(count ? count : 1, sizeof(*n->short_ones));
	n->of_row = calloc(count ? count : 1, sizeof(*n->of_row));
	n->seen = calloc(count ? count : 1, sizeof(*n->seen));
	if (!n->text || !n->len || !n->head || !n->next || !n->short_ones || !n->of_row || !n->seen) {
		log_needles_free(n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		size_t at = 0;

		while (at < n->count && strcmp(n->text[at], rows[i].needle) != 0)
			at++;
		n->of_row[i] = at;
		if (at < n->count)
			continue;
		n->text[at] = rows[i].needle;
		n->len[at] = strlen(rows[i].needle);
		n->next[at] = -1;
		if (n->len[at] < 4)
			n->short_ones[n->short_count++] = (int)at;
		else {
			unsigned b;

			n->head[at] = load4(rows[i].needle);
			b = hash4(n->head[at]);
			n->next[at] = n->bucket[b];
			n->bucket[b] = (int)at;
		}
		n->count++;
	}
	n->generation = 1;   /* seen[] starts at 0: no needle found yet */
	return 0;
}

void log_needles_free(struct log_needles *n)
{
	free(n->text);
	free(n->len);
	free(n->head);
	free(n->next);
	free(n->short_ones);
	free(n->of_row);
	free(n->seen);
	memset(n, 0, sizeof(*n));
}

void log_needles_find(struct log_needles *n, const char *text, size_t len)
{
	n->generation++;
	n->any = false;
	for (size_t i = 0; i + 4 <= len; i++) {
		uint32_t w = load4(text + i);

		for (int at = n->bucket[hash4(w)]; at >= 0; at = n->next[at])
			if (n->head[at] == w && n->len[at] <= len - i &&
			    memcmp(text + i, n->text[at], n->len[at]) == 0) {
				n->seen[at] = n->generation;
				n->any = true;
			}
	}
	for (size_t s = 0; s < n->short_count; s++) {
		int at = n->short_ones[s];

		if (memmem(text, len, n->text[at], n->len[at])) {
			n->seen[at] = n->generation;
			n->any = true;
		}
	}
}
