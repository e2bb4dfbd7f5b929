// SPDX-License-Identifier: GPL-2.0-only
/* bw's and lat's results (roce-doctor/bw/v1, lat/v1) for machines: JUnit XML and Prometheus text. */
#ifndef ROCE_DOCTOR_PERF_MACHINE_H
#define ROCE_DOCTOR_PERF_MACHINE_H

#include <jansson.h>
#include <stdio.h>

#include "output/machine_text.h"

/* One testcase per message size (classname "bw.OP" or "lat.write", name "SIZE B to PEER"), failed when its
 * data check found wrong data, its numbers as system-out; an error no size row shows (a failed completion, a
 * stall, a refusal) is one more failed testcase. The document's schema says bw or lat. */
void perf_junit_print(FILE *out, const json_t *doc, const struct run_meta *meta);

/* bw: roce_doctor_bw_gbps{op,size,peer,device,port} (average), _peak_gbps, _link_percent, and
 * roce_doctor_bw_ok; lat: the summary roce_doctor_lat_seconds{size,peer,device,port,quantile} (0, 0.5, 0.99,
 * 1; _sum and _count) and roce_doctor_lat_ok; both roce_doctor_info and the duration. */
void perf_prometheus_print(FILE *out, const json_t *doc, const struct run_meta *meta);

#endif
