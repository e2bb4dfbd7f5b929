// SPDX-License-Identifier: GPL-2.0-only
/* An NCCL WARN, or a UCX ERROR or FATAL, that no row of the pattern table reads is still a problem: they
 * print those where a call failed. It is looked up among every such wording of their sources (NCCL 2.4 to
 * the newest catalogued release, UCX 1.12 and 1.22: nccl_warnings.inc and ucx_errors.inc, generated from
 * tests/logs/catalogue), so that a message nobody here has seen is named with the file and releases that
 * print it instead of passed over. Pure functions. */
#ifndef ROCE_DOCTOR_LOG_UNLISTED_H
#define ROCE_DOCTOR_LOG_UNLISTED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/log/log_patterns.h"

struct log_hit;

/* One failure wording of a program's sources: its printf format, the file printing it in the newest release
 * that does, and the first and last release tags printing it. */
struct log_wording {
	const char *format, *file, *first, *last;
};

extern const struct log_wording log_nccl_warnings[], log_ucx_errors[];
extern const size_t log_nccl_warning_count, log_ucx_error_count;

/* The rows of the findings an unlisted NCCL WARN and UCX ERROR give (log_cause_patterns holds them, for
 * explain --list). */
extern const struct log_pattern *const log_unlisted_nccl_warn, *const log_unlisted_ucx_error;

/* Whether text is what printf format could print: a conversion matches what it prints (%d digits, %x hex,
 * %p a pointer, %s and %m any text, "<name>" where NCCL's macros paste a name any word), the rest as it
 * is. Bounded work whatever the text. */
bool log_format_matches(const char *format, const char *text);

/* The most specific wording of table[0..count) (the most literal characters, at least a few) that text, a
 * WARN's or ERROR's message, matches; NULL when none does. */
const struct log_wording *log_wording_find(const struct log_wording *table, size_t count, const char *text);

/* Where the message of a UCX ERROR or FATAL line begins in text[0..len) (after ucs_log's "file.c:123 UCX 
 * ERROR "; its time and host prefixes already skipped), 0 when the line is no such line. */
size_t log_ucx_failure_message(const char *text, size_t len);

/* Fills hit (pattern, quote, message, fix) for the unlisted message text[0..len), NUL-terminated, of p
 * (log_unlisted_nccl_warn or log_unlisted_ucx_error). */
void log_unlisted_describe(struct log_hit *hit, const struct log_pattern *p, const char *text, size_t len);

#endif
