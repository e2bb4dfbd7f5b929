// SPDX-License-Identifier: GPL-2.0-only
/* explain's log reader (src/core/log/log_input.c, log_scan.c, log_line.c): any bytes, as one buffer and
 * again cut into two feeds at a point the input picks; both must count the same lines, and the counts must
 * add up. The same bytes also go through the input decoder (gzip, xz, zstd or text, then the text-or-binary
 * judgement), whole and cut, which must agree on what it decoded and never crash on a damaged stream. The cut
 * reading also puts lines to ranks (log_ranks.c), which must not change what is matched and stays bounded,
 * and it goes without the match memo and the kept rank walks, which must change nothing. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_causes.h"
#include "core/log/log_input.h"
#include "core/log/log_ranks.h"
#include "core/log/log_scan.h"

static void same_counts(const struct log_scan *a, const struct log_scan *b)
{
	if (a->lines != b->lines || a->recognised != b->recognised || a->truncated != b->truncated ||
	    a->hit_count != b->hit_count || a->fact_count != b->fact_count)
		abort();
}

/* The same problems and facts, and the same ranks with the same lines. */
static void same_findings(const struct log_scan *a, const struct log_ranks *ra, const struct log_scan *b,
			  const struct log_ranks *rb)
{
	same_counts(a, b);
	for (size_t h = 0; h < a->hit_count; h++)
		if (a->hits[h].pattern != b->hits[h].pattern || a->hits[h].count != b->hits[h].count ||
		    strcmp(a->hits[h].quote, b->hits[h].quote) != 0)
			abort();
	for (size_t f = 0; f < a->fact_count; f++)
		if (strcmp(a->facts[f].value, b->facts[f].value) != 0 || a->facts[f].count != b->facts[f].count)
			abort();
	if (ra->count != rb->count || ra->first != rb->first)
		abort();
	for (size_t i = 0; i < ra->count; i++)
		if (ra->items[i].lines != rb->items[i].lines || ra->items[i].rank != rb->items[i].rank)
			abort();
}

/* The decoder fed data[0..cut) then the rest: its result code, what it decoded and the scan's counts. */
static int decode(const uint8_t *data, size_t size, size_t cut, struct log_scan *scan, unsigned long long *decoded)
{
	struct log_input in;
	int rc;

	if (log_scan_init(scan) != 0)
		return -ENOMEM;
	rc = log_input_init(&in, scan);
	if (rc == 0)
		rc = log_input_feed(&in, data, cut);
	if (rc == 0 && !in.binary)
		rc = log_input_feed(&in, data + cut, size - cut);
	if (rc == 0)
		rc = log_input_finish(&in);
	if (in.sample_len > LOG_INPUT_SAMPLE || in.sample_bad > in.sample_len)
		abort();
	*decoded = in.decoded;
	if (in.binary)
		rc = 1;
	log_input_free(&in);
	return rc;
}

static void through_input(const uint8_t *data, size_t size, size_t cut)
{
	struct log_scan whole, split;
	unsigned long long a = 0, b = 0;
	int ra = decode(data, size, size, &whole, &a), rb = decode(data, size, cut, &split, &b);

	/* where a feed ends does not change what a readable input decodes to */
	if (ra == 0 && rb == 0) {
		if (a != b)
			abort();
		same_counts(&whole, &split);
	}
	log_scan_free(&whole);
	log_scan_free(&split);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct log_scan whole, split;
	struct log_ranks ranks, whole_ranks;
	size_t cut;

	if (log_ranks_init(&whole_ranks) != 0)
		return 0;
	if (log_scan_init(&whole) != 0) {
		log_ranks_free(&whole_ranks);
		return 0;
	}
	whole.ranks = &whole_ranks;   /* a job's reading: the cause rules may compare ranks */
	log_ranks_file(&whole_ranks, "fuzz-r1.log", 0);
	log_scan_feed(&whole, (const char *)data, size);
	log_scan_finish(&whole);
	if (whole.recognised > whole.lines || whole.truncated > whole.lines ||
	    whole.hit_count > log_pattern_count + log_cause_count || whole.fact_count > LOG_FACTS_MAX)
		abort();
	/* The reader is fed in chunks of any size (a pipe): a line cut between two feeds reads as one. And its
	 * fast paths answer as the slow ones: this reading has no match memo (log_memo.h) and keeps no walk's
	 * answer over the ranks (log_ranks.h), and must find exactly what the first did. */
	cut = size ? data[0] % (size + 1) : 0;
	if (log_ranks_init(&ranks) == 0 && log_scan_init(&split) == 0) {
		free(ranks.walks);
		ranks.walks = NULL;
		log_memo_free(&split.memo);
		split.ranks = &ranks;
		log_ranks_file(&ranks, "fuzz-r1.log", 0);
		log_scan_feed(&split, (const char *)data, cut);
		log_scan_feed(&split, (const char *)data + cut, size - cut);
		log_scan_finish(&split);
		same_findings(&whole, &whole_ranks, &split, &ranks);
		if (ranks.count > LOG_RANKS_MAX || ranks.first >= (long)ranks.count)
			abort();
		for (size_t h = 0; h < split.hit_count; h++)
			for (size_t i = 0; i < split.hits[h].rank_count; i++)
				if (split.hits[h].ranks[i] < 0 || (size_t)split.hits[h].ranks[i] >= ranks.count)
					abort();
		log_scan_free(&split);
	}
	log_ranks_free(&ranks);
	log_scan_free(&whole);
	log_ranks_free(&whole_ranks);
	through_input(data, size, cut);
	return 0;
}
