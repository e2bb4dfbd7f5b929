// SPDX-License-Identifier: GPL-2.0-only
/* explain's "pastes" member: the QoS settings and counters pasted among the log's lines, what check's
 * lossless rules find on them, and what each counter that moved means. */
#ifndef ROCE_DOCTOR_EXPLAIN_PASTES_H
#define ROCE_DOCTOR_EXPLAIN_PASTES_H

#include <jansson.h>

#include "core/findings.h"
#include "core/log/paste_scan.h"

/* null when nothing was pasted; NULL when out of memory. findings: paste_scan_judge's. */
json_t *explain_pastes_json(const struct paste_scan *ps, const struct findings *findings);

#endif
