// SPDX-License-Identifier: GPL-2.0-only
/* check's report (roce-doctor/check/v1) for machines: JUnit XML for CI, Prometheus text for node_exporter. */
#ifndef ROCE_DOCTOR_CHECK_MACHINE_H
#define ROCE_DOCTOR_CHECK_MACHINE_H

#include <jansson.h>
#include <stdio.h>

#include "output/machine_text.h"

/* One testcase per finding (classname: its area, name: "ID SUBJECT"): fail and warn as a <failure> holding the
 * message and the fix, info passed with the message as system-out, ok passed. */
void check_junit_print(FILE *out, const json_t *doc, const struct run_meta *meta);

/* node_exporter's textfile format: roce_doctor_check_findings{id,severity,subject} 1 for each finding that is
 * not ok (ok ones are counted in roce_doctor_check_findings_by_severity, not listed), the verdict gauge, the
 * duration and roce_doctor_info{version}. */
void check_prometheus_print(FILE *out, const json_t *doc, const struct run_meta *meta);

#endif
