// SPDX-License-Identifier: GPL-2.0-only
/* check's JSON document (roce-doctor/check/v1): the findings, and the per-port table as "ports". */
#ifndef ROCE_DOCTOR_CHECK_REPORT_H
#define ROCE_DOCTOR_CHECK_REPORT_H

#include <jansson.h>

#include "core/port_table.h"

/* "a\nb" -> ["a", "b"] with sep '\n' (a fix's lines), "a,b" with ','; [] for NULL or "". */
json_t *split_json(const char *text, char sep);

/* One finding as check/v1 writes it (compare/v1 adds "nodes"). */
json_t *finding_json(const struct finding *it);

/* The "counts" member check/v1, compare/v1 and pair/v1 share: {ok, info, warn, fail} from counts indexed by
 * severity. */
json_t *severity_counts_json(const size_t counts[4]);

/* NULL when out of memory. */
json_t *check_report_doc(const struct findings *f, const struct port_row *rows, size_t row_count);

#endif
