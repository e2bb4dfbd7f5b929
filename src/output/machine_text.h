// SPDX-License-Identifier: GPL-2.0-only
/* The escaping and framing JUnit XML and the Prometheus text format need, shared by check's, bw's and lat's
 * renderers, and what every machine format says about the run besides the document. */
#ifndef ROCE_DOCTOR_MACHINE_TEXT_H
#define ROCE_DOCTOR_MACHINE_TEXT_H

#include <stdio.h>

/* What a machine format reports that the JSON document does not hold (it would make two runs differ). */
struct run_meta {
	const char *version;       /* roce-doctor's */
	double duration_s;         /* the command's own time: probing and rules, or the whole test */
	const char *timestamp;     /* UTC, ISO 8601 without zone: JUnit's timestamp */
	const char *hostname;
};

/* s as XML character data (in an attribute when attr: quotes and line breaks as references too). Characters
 * XML 1.0 cannot carry (controls other than tab and line breaks) become U+FFFD. */
void xml_put(FILE *out, const char *s, int attr);

/* `<?xml ...?>` and the opening <testsuites> and <testsuite> of a JUnit report named name. */
void junit_open(FILE *out, const char *name, size_t tests, size_t failures, const struct run_meta *meta);
void junit_close(FILE *out);

/* `# HELP name help` and `# TYPE name type`, help escaped as the text format wants. */
void prom_header(FILE *out, const char *name, const char *type, const char *help);

/* `,key="value"` (no comma when first), the value escaped: backslash, double quote, line feed. */
void prom_label(FILE *out, const char *key, const char *value, int first);

/* roce_doctor_info{version="..."} 1 with its header. */
void prom_info(FILE *out, const struct run_meta *meta);

/* A sample value as the text format spells it: 15 significant digits, NaN, +Inf, -Inf. */
void prom_value(FILE *out, double v);

#endif
