// SPDX-License-Identifier: GPL-2.0-only
/* --format for the commands whose report machines read (check, bw, lat): text, json, junit, prometheus. */
#ifndef ROCE_DOCTOR_REPORT_FORMAT_H
#define ROCE_DOCTOR_REPORT_FORMAT_H

#include <stdbool.h>
#include <time.h>

#include "cmd/common.h"
#include "output/machine_text.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_JUNIT, REPORT_PROMETHEUS };

/* "text", "json", "junit", "prometheus" -> 0; -EINVAL otherwise. */
int report_format_parse(const char *word, enum report_format *format);
const char *report_format_name(enum report_format format);

/* --json is --format json: the two agree or it is a usage error (printed; EXIT_USAGE), and so is --pretty or
 * --compact with a format that is not JSON. On EXIT_OK *format and app->json say the same. */
int app_resolve_format(struct app *app, const char *command, bool given, enum report_format *format);

/* The run's clock, started before anything is probed. */
void report_clock_start(struct timespec *started);

/* The version, the seconds since started, the UTC time now and, on a live host, its name (under --root or
 * --from the host judged is not this one, so none). Points into static storage. */
void report_meta_fill(struct run_meta *meta, const struct app *app, const struct timespec *started);

#endif
