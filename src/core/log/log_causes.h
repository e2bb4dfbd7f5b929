// SPDX-License-Identifier: GPL-2.0-only
/* Causes a log shows across lines, that no single line states: a link-local GID in use on RoCE, a rank that
 * skipped a collective, a job stopped while ranks waited in NCCL's init, and a log with too little in it to
 * tell. Read from the facts and problems the scan kept, once the log has ended; a cause found is put first,
 * above the problems it explains. Pure functions. */
#ifndef ROCE_DOCTOR_LOG_CAUSES_H
#define ROCE_DOCTOR_LOG_CAUSES_H

#include <stddef.h>

#include "core/log/log_patterns.h"

struct log_scan;

/* The rows of the findings these rules give (id, severity, source, checks): listed by explain --list with
 * the pattern table; their needle is "(derived)", their regex NULL, and the matcher never reads them. */
extern const struct log_pattern log_cause_patterns[];
extern const size_t log_cause_count;

/* Adds each cause the scan's facts and problems show, before the problems (log_scan_finish calls it). */
void log_causes_derive(struct log_scan *scan);

#endif
