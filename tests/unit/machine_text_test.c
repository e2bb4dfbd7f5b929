// SPDX-License-Identifier: GPL-2.0-only
/* The escaping of the machine formats: what XML and the Prometheus text format cannot take verbatim. */
#include <stdlib.h>
#include <string.h>

#include "output/check_machine.h"
#include "output/machine_text.h"
#include "tap.h"

/* What call wrote to out, into buf (to free). */
#define CAPTURE(buf, call)                                                                          \
	do {                                                                                        \
		size_t len_;                                                                        \
		FILE *out = open_memstream(&(buf), &len_);                                          \
		call;                                                                               \
		fclose(out);                                                                        \
	} while (0)

static void xml_escapes_markup_quotes_and_controls(void)
{
	char *text = NULL, *attr = NULL;

	CAPTURE(text, xml_put(out, "a<b>&\"c\"\n\x01z", 0));
	CHECK_STR(text, "a&lt;b&gt;&amp;\"c\"\n\xef\xbf\xbdz");
	CAPTURE(attr, xml_put(out, "say \"hi\"\n\tthere", 1));
	CHECK_STR(attr, "say &quot;hi&quot;&#10;&#9;there");
	free(text);
	free(attr);
}

static void prometheus_label_escapes_backslash_quote_newline(void)
{
	char *label = NULL, *help = NULL;

	CAPTURE(label, prom_label(out, "subject", "C:\\x \"y\"\nz", 0));
	CHECK_STR(label, ",subject=\"C:\\\\x \\\"y\\\"\\nz\"");
	CAPTURE(help, prom_header(out, "m", "gauge", "a \"b\" \\ c\nd"));
	CHECK_STR(help, "# HELP m a \"b\" \\\\ c\\nd\n# TYPE m gauge\n");
	free(label);
	free(help);
}

/* Two findings with one id, severity and subject would be a duplicate series, which node_exporter refuses. */
static void prometheus_lists_each_series_once_and_no_ok_findings(void)
{
	const struct run_meta meta = { "1.0", 0.25, NULL, NULL };
	json_t *doc = json_pack("{s:s, s:{s:i, s:i, s:i, s:i}, s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s, s:s}]}",
				"verdict", "warn", "counts", "ok", 1, "info", 0, "warn", 2, "fail", 0, "findings",
				"id", "a.b", "severity", "warn", "subject", "x\"y",
				"id", "a.b", "severity", "warn", "subject", "x\"y",
				"id", "a.c", "severity", "ok", "subject", "z");
	char *text = NULL;

	CAPTURE(text, check_prometheus_print(out, doc, &meta));
	CHECK(strstr(text, "roce_doctor_check_findings{id=\"a.b\",severity=\"warn\",subject=\"x\\\"y\"} 1\n") != NULL);
	CHECK(strstr(text, "} 1\nroce_doctor_check_findings{id=\"a.b\"") == NULL);
	CHECK(strstr(text, "id=\"a.c\"") == NULL);
	CHECK(strstr(text, "roce_doctor_check_verdict 1\n") != NULL);
	CHECK(strstr(text, "roce_doctor_check_duration_seconds 0.25\n") != NULL);
	free(text);
	json_decref(doc);
}

int main(void)
{
	RUN(xml_escapes_markup_quotes_and_controls);
	RUN(prometheus_label_escapes_backslash_quote_newline);
	RUN(prometheus_lists_each_series_once_and_no_ok_findings);
	TAP_DONE();
}
