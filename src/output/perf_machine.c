// SPDX-License-Identifier: GPL-2.0-only
/* bw/v1 and lat/v1 as JUnit and Prometheus metrics, from the document alone. */
#include "output/perf_machine.h"

#include <stdbool.h>
#include <string.h>

static const char *member(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

static double num(const json_t *obj, const char *key)
{
	return json_number_value(json_object_get(obj, key));
}

static bool is_lat(const json_t *doc)
{
	return strcmp(member(doc, "schema"), "roce-doctor/lat/v1") == 0;
}

/* The row the error happened at shows it; an error at no row's size (or at none) needs a testcase of its own. */
static bool error_has_row(const json_t *doc)
{
	const json_t *error = json_object_get(doc, "error"), *size = json_object_get(error, "size"), *row;
	size_t i;

	if (!json_is_integer(size))
		return false;
	json_array_foreach(json_object_get(doc, "results"), i, row)
		if (json_integer_value(json_object_get(row, "bytes")) == json_integer_value(size))
			return strcmp(member(row, "check"), "MISMATCH") == 0;
	return false;
}

static void row_numbers(FILE *out, const json_t *row, bool lat)
{
	char text[256];

	if (lat)
		snprintf(text, sizeof(text), "%lld iterations: one-way min %.2f us, median %.2f us, p99 %.2f us, max "
			 "%.2f us, avg %.2f us; data check %s", (long long)json_integer_value(json_object_get(row, "iterations")),
			 num(row, "min_us"), num(row, "median_us"), num(row, "p99_us"), num(row, "max_us"), num(row, "avg_us"),
			 member(row, "check"));
	else
		snprintf(text, sizeof(text), "%lld iterations: avg %.3f Gb/s (%.2f MiB/s), peak %.3f Gb/s, %.4f Mpps; "
			 "data check %s", (long long)json_integer_value(json_object_get(row, "iterations")),
			 num(row, "avg_gbps"), num(row, "avg_mib_s"), num(row, "peak_gbps"), num(row, "mpps"),
			 member(row, "check"));
	xml_put(out, text, 0);
}

static void testcase_open(FILE *out, const char *classname, const char *size_text, const char *peer)
{
	fputs("    <testcase classname=\"", out);
	xml_put(out, classname, 1);
	fputs("\" name=\"", out);
	xml_put(out, size_text, 1);
	fputs(" to ", out);
	xml_put(out, peer, 1);
	fputc('"', out);
}

static void failure(FILE *out, const char *type, const char *message, const json_t *error)
{
	const char *explanation = member(error, "explanation");

	fputs(">\n      <failure type=\"", out);
	xml_put(out, type, 1);
	fputs("\" message=\"", out);
	xml_put(out, message, 1);
	fputs("\">", out);
	xml_put(out, message, 0);
	if (*explanation) {
		fputs("\nwhat it usually means: ", out);
		xml_put(out, explanation, 0);
	}
	fputs("\n</failure>\n", out);
}

void perf_junit_print(FILE *out, const json_t *doc, const struct run_meta *meta)
{
	const json_t *rows = json_object_get(doc, "results"), *error = json_object_get(doc, "error"), *row;
	const char *peer = member(doc, "peer");
	bool lat = is_lat(doc), extra = json_is_object(error) && !error_has_row(doc);
	char classname[64], size_text[48], name[64];
	size_t i, failures = extra;

	snprintf(classname, sizeof(classname), "%s.%s", lat ? "lat" : "bw", member(doc, "op"));
	json_array_foreach(rows, i, row)
		failures += strcmp(member(row, "check"), "MISMATCH") == 0;
	snprintf(name, sizeof(name), "roce-doctor %s", lat ? "lat" : "bw");
	junit_open(out, name, json_array_size(rows) + extra, failures, meta);
	json_array_foreach(rows, i, row) {
		/* bw --qps-sweep: the same size once per QP count, told apart by it. */
		if (json_is_integer(json_object_get(row, "qps")))
			snprintf(size_text, sizeof(size_text), "%lld B, %lld QP%s",
				 (long long)json_integer_value(json_object_get(row, "bytes")),
				 (long long)json_integer_value(json_object_get(row, "qps")),
				 json_integer_value(json_object_get(row, "qps")) > 1 ? "s" : "");
		else
			snprintf(size_text, sizeof(size_text), "%lld B",
				 (long long)json_integer_value(json_object_get(row, "bytes")));
		testcase_open(out, classname, size_text, peer);
		if (strcmp(member(row, "check"), "MISMATCH") == 0)
			failure(out, "data-check", json_is_object(error) ? member(error, "message") : "wrong data", error);
		else
			fputs(">\n", out);
		fputs("      <system-out>", out);
		row_numbers(out, row, lat);
		fputs("</system-out>\n    </testcase>\n", out);
	}
	if (extra) {
		const json_t *size = json_object_get(error, "size");

		if (json_is_integer(size))
			snprintf(size_text, sizeof(size_text), "%lld B", (long long)json_integer_value(size));
		else
			snprintf(size_text, sizeof(size_text), "the test");
		testcase_open(out, classname, size_text, peer);
		failure(out, member(error, "kind"), member(error, "message"), error);
		fputs("    </testcase>\n", out);
	}
	junit_close(out);
}

/* "NAME{op,size,peer,device,port[,extra]} " of row (lat: no op), the value to follow. */
static void series(FILE *out, const char *name, const json_t *doc, const json_t *row, const char *extra_key,
		   const char *extra_value)
{
	const json_t *local = json_object_get(doc, "local");
	char size[32], port[16];

	snprintf(size, sizeof(size), "%lld", (long long)json_integer_value(json_object_get(row, "bytes")));
	snprintf(port, sizeof(port), "%lld", (long long)json_integer_value(json_object_get(local, "port")));
	fprintf(out, "%s{", name);
	if (is_lat(doc)) {
		prom_label(out, "size", size, 1);
	} else {
		prom_label(out, "op", member(doc, "op"), 1);
		prom_label(out, "size", size, 0);
	}
	prom_label(out, "peer", member(doc, "peer"), 0);
	prom_label(out, "device", member(local, "device"), 0);
	prom_label(out, "port", port, 0);
	if (json_is_integer(json_object_get(row, "qps"))) {   /* bw --qps-sweep: a series per QP count */
		char qps[16];

		snprintf(qps, sizeof(qps), "%lld", (long long)json_integer_value(json_object_get(row, "qps")));
		prom_label(out, "qps", qps, 0);
	}
	if (extra_key)
		prom_label(out, extra_key, extra_value, 0);
	fputs("} ", out);
}

/* One gauge: a header, then key of every row (scaled), skipping rows where the member is not a number. */
static void gauge_per_size(FILE *out, const json_t *doc, const char *name, const char *help, const char *key,
			   double scale)
{
	const json_t *rows = json_object_get(doc, "results"), *row;
	size_t i;

	prom_header(out, name, "gauge", help);
	json_array_foreach(rows, i, row) {
		if (!json_is_number(json_object_get(row, key)))
			continue;
		series(out, name, doc, row, NULL, NULL);
		prom_value(out, num(row, key) * scale);
		fputc('\n', out);
	}
}

static void lat_summary(FILE *out, const json_t *doc)
{
	static const struct { const char *quantile, *key; } quantiles[] = {
		{ "0", "min_us" }, { "0.5", "median_us" }, { "0.99", "p99_us" }, { "1", "max_us" },
	};
	const json_t *rows = json_object_get(doc, "results"), *row;
	size_t i;

	prom_header(out, "roce_doctor_lat_seconds", "summary",
		    "One-way RDMA write latency (half the round trip) to roce-doctor serve, per message size.");
	json_array_foreach(rows, i, row) {
		double count = (double)json_integer_value(json_object_get(row, "iterations"));

		for (size_t q = 0; q < sizeof(quantiles) / sizeof(quantiles[0]); q++) {
			series(out, "roce_doctor_lat_seconds", doc, row, "quantile", quantiles[q].quantile);
			prom_value(out, num(row, quantiles[q].key) / 1e6);
			fputc('\n', out);
		}
		series(out, "roce_doctor_lat_seconds_sum", doc, row, NULL, NULL);
		prom_value(out, num(row, "avg_us") / 1e6 * count);
		fputc('\n', out);
		series(out, "roce_doctor_lat_seconds_count", doc, row, NULL, NULL);
		prom_value(out, count);
		fputc('\n', out);
	}
}

void perf_prometheus_print(FILE *out, const json_t *doc, const struct run_meta *meta)
{
	const json_t *local = json_object_get(doc, "local");
	bool lat = is_lat(doc);
	const char *ok_name = lat ? "roce_doctor_lat_ok" : "roce_doctor_bw_ok";
	const char *duration_name = lat ? "roce_doctor_lat_duration_seconds" : "roce_doctor_bw_duration_seconds";
	char port[16];

	prom_info(out, meta);
	prom_header(out, ok_name, "gauge", "1 when every message size ran and its data checked out, else 0 (the "
		    "command's exit status says why).");
	snprintf(port, sizeof(port), "%lld", (long long)json_integer_value(json_object_get(local, "port")));
	fprintf(out, "%s{", ok_name);
	prom_label(out, "peer", member(doc, "peer"), 1);
	prom_label(out, "device", member(local, "device"), 0);
	prom_label(out, "port", port, 0);
	fprintf(out, "} %d\n", json_is_null(json_object_get(doc, "error")) ? 1 : 0);
	prom_header(out, duration_name, "gauge", "Seconds the command took, connecting and every size.");
	fprintf(out, "%s ", duration_name);
	prom_value(out, meta->duration_s);
	fputc('\n', out);
	if (lat) {
		lat_summary(out, doc);
		return;
	}
	gauge_per_size(out, doc, "roce_doctor_bw_gbps", "Average RDMA bandwidth to roce-doctor serve in Gb/s (10^9 "
		       "bit/s), this side's direction, per message size.", "avg_gbps", 1);
	gauge_per_size(out, doc, "roce_doctor_bw_peak_gbps", "Best stretch of at least a twentieth of the run, in "
		       "Gb/s, per message size.", "peak_gbps", 1);
	/* peer_avg_mib_s (--bidir): MiB/s to Gb/s. */
	if (json_is_true(json_object_get(doc, "bidir")))
		gauge_per_size(out, doc, "roce_doctor_bw_peer_gbps", "With --bidir: the serve's direction's average "
			       "in Gb/s, per message size.", "peer_avg_mib_s", 1048576.0 * 8 / 1e9);
	gauge_per_size(out, doc, "roce_doctor_bw_link_percent", "Average bandwidth against the port's link rate "
		       "(with --bidir both directions against twice it), per message size.", "link_pct", 1);
}
