// SPDX-License-Identifier: GPL-2.0-only
/* check/v1 as JUnit and as Prometheus metrics, read from the document alone like the text renderer. */
#include "output/check_machine.h"

#include <string.h>

static const char *member(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

static int is_failure(const char *severity)
{
	return strcmp(severity, "fail") == 0 || strcmp(severity, "warn") == 0;
}

/* The message, then the fix lines under "fix:", as a person reads them in the CI's failure view. */
static void put_message_and_fix(FILE *out, const json_t *finding)
{
	const json_t *lines = json_object_get(finding, "fix_lines"), *line;
	size_t i;

	xml_put(out, member(finding, "message"), 0);
	if (json_array_size(lines) > 0)
		fputs("\nfix:", out);
	json_array_foreach(lines, i, line) {
		fputs("\n  ", out);
		xml_put(out, json_string_value(line), 0);
	}
	fputc('\n', out);
}

void check_junit_print(FILE *out, const json_t *doc, const struct run_meta *meta)
{
	const json_t *findings = json_object_get(doc, "findings"), *f;
	size_t i, failures = 0;

	json_array_foreach(findings, i, f)
		failures += is_failure(member(f, "severity"));
	junit_open(out, "roce-doctor check", json_array_size(findings), failures, meta);
	json_array_foreach(findings, i, f) {
		const char *severity = member(f, "severity");

		fputs("    <testcase classname=\"", out);
		xml_put(out, member(f, "area"), 1);
		fputs("\" name=\"", out);
		xml_put(out, member(f, "id"), 1);
		fputc(' ', out);
		xml_put(out, member(f, "subject"), 1);
		fputc('"', out);
		if (is_failure(severity)) {
			fputs(">\n      <failure type=\"", out);
			xml_put(out, severity, 1);
			fputs("\" message=\"", out);
			xml_put(out, member(f, "message"), 1);
			fputs("\">", out);
			put_message_and_fix(out, f);
			fputs("</failure>\n    </testcase>\n", out);
		} else if (strcmp(severity, "info") == 0) {
			fputs(">\n      <system-out>", out);
			put_message_and_fix(out, f);
			fputs("</system-out>\n    </testcase>\n", out);
		} else {
			fputs("/>\n", out);
		}
	}
	junit_close(out);
}

/* The verdict as the exit status says it: info is no problem. */
static int verdict_value(const char *verdict)
{
	return strcmp(verdict, "fail") == 0 ? 2 : strcmp(verdict, "warn") == 0 ? 1 : 0;
}

/* Two findings with one id, severity and subject would be one series twice, which a scrape rejects whole. */
static int seen_before(const json_t *findings, size_t upto, const json_t *f)
{
	const json_t *g;
	size_t i;

	json_array_foreach(findings, i, g) {
		if (i >= upto)
			break;
		if (strcmp(member(g, "id"), member(f, "id")) == 0 &&
		    strcmp(member(g, "severity"), member(f, "severity")) == 0 &&
		    strcmp(member(g, "subject"), member(f, "subject")) == 0)
			return 1;
	}
	return 0;
}

void check_prometheus_print(FILE *out, const json_t *doc, const struct run_meta *meta)
{
	static const char *const severities[] = { "ok", "info", "warn", "fail" };
	const json_t *findings = json_object_get(doc, "findings"), *counts = json_object_get(doc, "counts"), *f;
	size_t i;

	prom_info(out, meta);
	prom_header(out, "roce_doctor_check_verdict", "gauge",
		    "The worst finding of roce-doctor check, as its exit status: 0 ok or info, 1 warn, 2 fail.");
	fprintf(out, "roce_doctor_check_verdict %d\n", verdict_value(member(doc, "verdict")));
	prom_header(out, "roce_doctor_check_duration_seconds", "gauge",
		    "Seconds roce-doctor check took to probe the host and judge it.");
	fputs("roce_doctor_check_duration_seconds ", out);
	prom_value(out, meta->duration_s);
	fputc('\n', out);
	prom_header(out, "roce_doctor_check_findings_by_severity", "gauge",
		    "Findings of roce-doctor check per severity, after the root-cause merge.");
	for (i = 0; i < sizeof(severities) / sizeof(severities[0]); i++) {
		fputs("roce_doctor_check_findings_by_severity{", out);
		prom_label(out, "severity", severities[i], 1);
		fprintf(out, "} %lld\n", (long long)json_integer_value(json_object_get(counts, severities[i])));
	}
	prom_header(out, "roce_doctor_check_findings", "gauge",
		    "A finding of roce-doctor check that is not ok, always 1 (roce-doctor check -v shows its fix).");
	json_array_foreach(findings, i, f) {
		if (strcmp(member(f, "severity"), "ok") == 0 || seen_before(findings, i, f))
			continue;
		fputs("roce_doctor_check_findings{", out);
		prom_label(out, "id", member(f, "id"), 1);
		prom_label(out, "severity", member(f, "severity"), 0);
		prom_label(out, "subject", member(f, "subject"), 0);
		fputs("} 1\n", out);
	}
}
