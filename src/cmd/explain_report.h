// SPDX-License-Identifier: GPL-2.0-only
/* explain's JSON document (roce-doctor/explain/v1): the facts and problems a log states, and with
 * --with-check the findings of this host's check each problem's cause is looked at by. */
#ifndef ROCE_DOCTOR_EXPLAIN_REPORT_H
#define ROCE_DOCTOR_EXPLAIN_REPORT_H

#include <jansson.h>

#include "core/findings.h"
#include "core/log/log_scan.h"

/* compression: "gzip", "xz", "zstd" or NULL (plain text). host: check's findings on this host, or NULL when
 * --with-check was not asked. pasted: check's lossless findings on the settings pasted among the lines
 * (paste_scan_judge). NULL when out of memory. */
json_t *explain_report_doc(const struct log_scan *scan, const char *input, const char *compression,
			   const struct findings *host, const struct findings *pasted);

/* The pattern table as a document (explain --list): every row's id, severity, needle, regex, source,
 * check ids and fact. */
json_t *explain_list_doc(void);

#endif
