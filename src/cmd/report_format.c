// SPDX-License-Identifier: GPL-2.0-only
/* The --format words and what a machine format says about the run (time, duration, host). */
#include "cmd/report_format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/time_text.h"

static const char *const format_names[] = { "text", "json", "junit", "prometheus" };

int report_format_parse(const char *word, enum report_format *format)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (strcmp(word, format_names[i]) == 0) {
			*format = (enum report_format)i;
			return 0;
		}
	return -EINVAL;
}

const char *report_format_name(enum report_format format)
{
	return format_names[format];
}

int app_resolve_format(struct app *app, const char *command, bool given, enum report_format *format)
{
	if (app->json && given && *format != REPORT_JSON) {
		fprintf(stderr, "roce-doctor %s: --json and --format %s exclude each other\n", command,
			report_format_name(*format));
		return EXIT_USAGE;
	}
	if (app->json)
		*format = REPORT_JSON;
	if (app_layout_needs_json(app, command, *format == REPORT_JSON, true) != EXIT_OK)
		return EXIT_USAGE;
	app->json = *format == REPORT_JSON;
	return EXIT_OK;
}

void report_clock_start(struct timespec *started)
{
	clock_gettime(CLOCK_MONOTONIC, started);
}

void report_meta_fill(struct run_meta *meta, const struct app *app, const struct timespec *started)
{
	static char timestamp[32], hostname[256];
	struct timespec now;
	time_t wall = time(NULL);

	clock_gettime(CLOCK_MONOTONIC, &now);
	meta->version = ROCE_DOCTOR_VERSION;
	meta->duration_s = (double)(now.tv_sec - started->tv_sec) + (double)(now.tv_nsec - started->tv_nsec) / 1e9;
	time_text(wall, timestamp, sizeof(timestamp));
	meta->timestamp = timestamp;
	hostname[0] = '\0';
	if (!app->root_dir && !app->from_file && gethostname(hostname, sizeof(hostname) - 1) < 0)
		hostname[0] = '\0';
	meta->hostname = hostname;
}
