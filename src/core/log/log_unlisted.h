// SPDX-License-Identifier: GPL-2.0-only
/* An NCCL WARN line that no row of the pattern table reads is still a problem: NCCL prints WARN where a
 * call failed. It is looked up among every WARN wording of NCCL 2.4 to the newest catalogued release
 * (nccl_warnings.inc, generated from tests/logs/catalogue/nccl-messages.tsv), so that a message nobody here
 * has seen is named with the file and releases that print it instead of passed over. Pure functions. */
#ifndef ROCE_DOCTOR_LOG_UNLISTED_H
#define ROCE_DOCTOR_LOG_UNLISTED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/log/log_patterns.h"

struct log_hit;

/* One WARN wording of NCCL's sources: its printf format, the file printing it in the newest release that
 * does, and the first and last release tags printing it. */
struct log_nccl_warning {
	const char *format, *file, *first, *last;
};

extern const struct log_nccl_warning log_nccl_warnings[];
extern const size_t log_nccl_warning_count;

/* The row of the finding an unlisted NCCL WARN gives (log_cause_patterns holds it, for explain --list). */
extern const struct log_pattern *const log_unlisted_nccl_warn;

/* Whether text is what printf format could print: a conversion matches what it prints (%d digits, %x hex,
 * %p a pointer, %s and %m any text, "<name>" where NCCL's macros paste a name any word), the rest as it
 * is. Bounded work whatever the text. */
bool log_format_matches(const char *format, const char *text);

/* The most specific wording (the most literal characters, at least a few) that text, an NCCL WARN's
 * message, matches; NULL when none does. */
const struct log_nccl_warning *log_nccl_warning_find(const char *text);

/* Fills hit (pattern, quote, message, fix) for the NCCL WARN message text[0..len), NUL-terminated. */
void log_unlisted_describe(struct log_hit *hit, const char *text, size_t len);

#endif
