// SPDX-License-Identifier: GPL-2.0-only
/* explain's reader: a log is fed in chunks of any size (a file, a pipe, a fuzzer's buffer), split into lines
 * of bounded length, and each line is matched against the pattern table. What is kept is bounded too: the
 * facts (distinct values, counted), one finding per problem id (its first lines), and the line counts. */
#ifndef ROCE_DOCTOR_LOG_SCAN_H
#define ROCE_DOCTOR_LOG_SCAN_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/log/log_memo.h"
#include "core/log/log_needles.h"
#include "core/log/log_patterns.h"

#define LOG_LINE_MAX 4096       /* bytes of a line kept and matched; the rest is read and dropped */
#define LOG_FACTS_MAX 64        /* distinct (fact, value) pairs kept; more are counted in facts_dropped */
#define LOG_HIT_LINES 8         /* line numbers kept per finding */
#define LOG_TEXT_MAX 512        /* a quote, a message or a fix after its {N} are filled in */
#define LOG_HIT_RANKS 16        /* ranks kept per finding (indexes into the scan's ranks); more are counted */

struct log_ranks;
struct paste_scan;

struct log_fact {
	const char *name;             /* the pattern's fact name */
	char value[160];
	unsigned long line;           /* first line that stated it */
	unsigned long count;
};

struct log_hit {
	const struct log_pattern *pattern;   /* the row that matched first; later rows of the same id only count */
	unsigned long lines[LOG_HIT_LINES];
	size_t line_count;
	unsigned long count;
	char quote[LOG_TEXT_MAX];            /* the first line's message, cleaned */
	char message[LOG_TEXT_MAX];
	char fix[LOG_TEXT_MAX];
	int ranks[LOG_HIT_RANKS];            /* the ranks that showed it, in order of first appearance */
	size_t rank_count;
	unsigned long ranks_more;            /* further ranks not kept */
};

struct log_scan {
	regex_t *compiled;            /* one per pattern row; NULL entries have no regex */
	bool *has_regex;
	struct log_needles needles;   /* which rows' needles a line holds, in one pass (log_needles.c) */
	struct log_memo memo;         /* the rows each recent message text matched (log_memo.h) */
	struct log_match *found;      /* one per row: what the line being read matched */
	char line[LOG_LINE_MAX + 1];
	size_t len;
	bool pending;                 /* bytes of an unfinished line were fed */
	bool overflow;                /* the unfinished line is longer than LOG_LINE_MAX */
	unsigned long lines, blank, recognised, truncated, binary;
	struct log_fact facts[LOG_FACTS_MAX];
	size_t fact_count;
	unsigned long facts_dropped;
	struct log_hit *hits;         /* log_pattern_count + log_cause_count slots: the causes log_causes.c
				 * finds first, then the problems in order of first appearance */
	size_t hit_count;
	regex_t *until;               /* one per row with an until member (has_until) */
	bool *has_until;
	/* A row with an until member that matched and is not yet cleared: it becomes a hit if the log ends so.
	 * One at a time: a later such line replaces it (perftest prints one results header per run). */
	bool suspect;
	struct log_hit suspect_hit;
	unsigned long suspect_line;
	unsigned long line_base;      /* lines of the files before this one: line numbers count within a file */
	struct log_ranks *ranks;      /* NULL, or where each line's rank is kept (a job's logs: log_ranks.h) */
	struct paste_scan *pastes;    /* the QoS settings and counters pasted among the lines (paste_scan.h) */
};

/* Compiles the table. 0, -ENOMEM, or -EINVAL when a row's regex does not compile (a bug the unit test finds). */
int log_scan_init(struct log_scan *scan);
/* Feeds bytes; lines end at '\n' (a trailing '\r' is dropped). Never fails. */
void log_scan_feed(struct log_scan *scan, const char *buf, size_t len);
/* One file of a job ended: ends its last line if it had no newline, and its held suspect line. */
void log_scan_end_file(struct log_scan *scan);
/* log_scan_end_file, then picks the job's first failure (with ranks) and adds the causes the whole log
 * shows (log_causes.h). */
void log_scan_finish(struct log_scan *scan);
void log_scan_free(struct log_scan *scan);

/* The fuzzers' and the tests' entry point: init, one feed of buf, finish. 0 or log_scan_init's error. */
int log_scan_buffer(struct log_scan *scan, const char *buf, size_t len);

enum severity log_scan_worst(const struct log_scan *scan);

#endif
