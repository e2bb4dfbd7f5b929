// SPDX-License-Identifier: GPL-2.0-only
/* The escaping of the machine formats: what XML and the Prometheus text format cannot take verbatim; the one
 * timestamp format they and every other output write. */
#include <stdlib.h>
#include <string.h>

#include "output/check_machine.h"
#include "output/machine_text.h"
#include "util/time_text.h"
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

/* RFC 3339 in UTC with a Z whatever the local zone; a buffer too small is an empty string, never a cut one. */
static void time_text_is_rfc3339_utc_with_z(void)
{
	char buf[TIME_TEXT_SIZE], small[TIME_TEXT_SIZE - 1];

	setenv("TZ", "America/New_York", 1);
	tzset();
	time_text(0, buf, sizeof(buf));
	CHECK_STR(buf, "1970-01-01T00:00:00Z");
	time_text(1795836371, buf, sizeof(buf));
	CHECK_STR(buf, "2026-11-28T03:26:11Z");
	time_text(0, small, sizeof(small));
	CHECK_STR(small, "");
}

int main(void)
{
	RUN(xml_escapes_markup_quotes_and_controls);
	RUN(prometheus_label_escapes_backslash_quote_newline);
	RUN(prometheus_lists_each_series_once_and_no_ok_findings);
	RUN(time_text_is_rfc3339_utc_with_z);
	TAP_DONE();
}
