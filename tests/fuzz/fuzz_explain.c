// SPDX-License-Identifier: GPL-2.0-only
/* explain's log reader (src/core/log/log_scan.c, log_line.c): any bytes, as one buffer and again cut into two
 * feeds at a point the input picks; both must count the same lines, and the counts must add up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_scan.h"

static void same_counts(const struct log_scan *a, const struct log_scan *b)
{
	if (a->lines != b->lines || a->recognised != b->recognised || a->truncated != b->truncated ||
	    a->hit_count != b->hit_count || a->fact_count != b->fact_count)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct log_scan whole, split;
	size_t cut;

	if (log_scan_buffer(&whole, (const char *)data, size) != 0)
		return 0;
	if (whole.recognised > whole.lines || whole.truncated > whole.lines || whole.hit_count > log_pattern_count ||
	    whole.fact_count > LOG_FACTS_MAX)
		abort();
	/* The reader is fed in chunks of any size (a pipe): a line cut between two feeds reads as one. */
	cut = size ? data[0] % (size + 1) : 0;
	if (log_scan_init(&split) == 0) {
		log_scan_feed(&split, (const char *)data, cut);
		log_scan_feed(&split, (const char *)data + cut, size - cut);
		log_scan_finish(&split);
		same_counts(&whole, &split);
		log_scan_free(&split);
	}
	log_scan_free(&whole);
	return 0;
}
