// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor lat: ib_write_lat built in: RDMA-write ping-pong against 'roce-doctor serve' on the peer. */
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/perf_common.h"
#include "cmd/report_format.h"
#include "output/perf_machine.h"
#include "output/render.h"

#define LAT_MAX_ITERS 10000000u  /* one 8-byte sample each, kept until the percentiles are taken */

enum { OPT_FORMAT = 0x100 };

struct lat_args {
	struct perf_conn_args conn;
	struct perf_size_args sizes;
	unsigned long iters;
	enum report_format format;
	bool format_given;
};

static const struct argp_option lat_options[] = {
	{ "iters", 'n', "N", 0, "Round trips for each size (default 1000)", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default), json (as --json), junit (a testcase per size) or prometheus "
	  "(a latency summary per size)", 0 },
	{ 0 }
};

static error_t parse_lat(int key, char *arg, struct argp_state *state)
{
	struct lat_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->conn;
		state->child_inputs[1] = &a->sizes;
		return 0;
	case 'n':
		a->iters = parse_count(state, "--iters", arg, 1, LAT_MAX_ITERS);
		return 0;
	case OPT_FORMAT:
		if (report_format_parse(arg, &a->format) < 0)
			argp_error(state, "bad --format '%s': expected text, json, junit or prometheus", arg);
		a->format_given = true;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_child lat_children[] = {
	{ &perf_conn_argp, 0, "Connection:", 0 }, { &perf_size_argp, 0, NULL, 0 }, { 0 },
};

static const struct argp lat_argp = {
	lat_options, parse_lat, "PEER",
	"Measure RDMA latency to PEER, where 'roce-doctor serve' runs: RDMA-write ping-pong on one QP, as "
	"perftest's ib_write_lat. Reports per message size the one-way latency (half the round trip) in "
	"microseconds: minimum, median, 99th percentile, maximum and average.\v"
	"Exit status as for bw: 0 ok, 1 the test failed, 2 no local port fits, 3 the test could not start, 64 usage. "
	"-v as for bw.",
	lat_children, NULL, NULL,
};

static json_t *result_row(const struct client_size *r)
{
	return json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:s}", "bytes", (json_int_t)r->size, "iterations",
			 (json_int_t)r->iters, "min_us", r->min_ns / 1e3, "median_us", r->median_ns / 1e3, "p99_us",
			 r->p99_ns / 1e3, "max_us", r->max_ns / 1e3, "avg_us", r->avg_ns / 1e3, "check",
			 perf_check_name(r->check));
}

/* app_emit()'s callbacks take no context: what the run was besides its document, filled before emitting. */
static struct run_meta lat_meta;

static void print_junit(FILE *out, const json_t *doc)
{
	perf_junit_print(out, doc, &lat_meta);
}

static void print_prometheus(FILE *out, const json_t *doc)
{
	perf_prometheus_print(out, doc, &lat_meta);
}

static double num(const json_t *obj, const char *key)
{
	return json_number_value(json_object_get(obj, key));
}

static void print_lat(FILE *out, const json_t *doc)
{
	const json_t *local = json_object_get(doc, "local"), *remote = json_object_get(doc, "remote");
	const char *addr = json_string_value(json_object_get(local, "address"));
	size_t i;
	json_t *row;

	/* A test that never ran has nothing to show: stderr said why. */
	if (json_array_size(json_object_get(doc, "results")) == 0)
		return;

	fprintf(out, "lat write to %s port %lld: one-way latency (half the round trip), data check %s\n",
		json_string_value(json_object_get(doc, "peer")), (long long)json_integer_value(json_object_get(doc, "tcp_port")),
		json_is_true(json_object_get(doc, "verify")) ? "on" : "off");
	fprintf(out, "local %s/%lld GID %lld (%s)", json_string_value(json_object_get(local, "device")),
		(long long)json_integer_value(json_object_get(local, "port")),
		(long long)json_integer_value(json_object_get(local, "gid_index")), addr ? addr : "no address");
	if (json_is_object(remote))
		fprintf(out, ", remote %s, path MTU %lld", json_string_value(json_object_get(remote, "address")),
			(long long)json_integer_value(json_object_get(doc, "path_mtu")));
	fprintf(out, "\n%10s %10s %10s %10s %10s %10s %10s  %s\n", "bytes", "iterations", "min us", "median us", "p99 us",
		"max us", "avg us", "check");
	json_array_foreach(json_object_get(doc, "results"), i, row)
		fprintf(out, "%10lld %10lld %10.2f %10.2f %10.2f %10.2f %10.2f  %s\n",
			(long long)json_integer_value(json_object_get(row, "bytes")),
			(long long)json_integer_value(json_object_get(row, "iterations")), num(row, "min_us"),
			num(row, "median_us"), num(row, "p99_us"), num(row, "max_us"), num(row, "avg_us"),
			json_string_value(json_object_get(row, "check")));
}

int cmd_lat(struct app *app, int argc, char **argv)
{
	struct lat_args a = { .iters = 1000, .sizes.inline_size = 220 };
	struct client_config cfg = { 0 };
	struct client_report rep;
	struct secret *secret;
	struct perf_target target;
	struct notes warnings = { 0 };
	uint32_t sizes[PERF_SWEEP_COUNT];
	struct timespec started;
	json_t *doc, *rows;
	int code;

	perf_conn_defaults(&a.conn);
	report_clock_start(&started);
	if (command_parse(&lat_argp, PERF_CLIENT_TAKES, argc, argv, &a, app) != 0)
		return EXIT_USAGE;
	if (app_resolve_format(app, "lat", a.format_given, &a.format) != EXIT_OK)
		return EXIT_USAGE;
	code = perf_client_prepare(app, &a.conn, &cfg, &target, &warnings, &secret);
	if (code != EXIT_OK)
		return code;
	cfg.size_count = perf_sizes(&a.sizes, 2, sizes);
	cfg.sizes = sizes;
	cfg.test = PROTO_TEST_LAT;
	cfg.op = PERF_OP_WRITE;
	cfg.qps = 1;
	cfg.tx_depth = 1;              /* one write in flight: each is reaped before the next (as ib_write_lat) */
	cfg.inline_size = a.sizes.inline_size;
	cfg.iters = a.iters;
	cfg.corrupt = perf_test_corrupt();

	client_run(&cfg, &rep);

	doc = doc_new("lat");
	json_object_set_new(doc, "op", json_string("write"));
	json_object_set_new(doc, "inline", json_integer(rep.inline_granted));
	perf_doc_common(doc, &a.conn, &target, &rep);
	rows = json_array();
	for (size_t i = 0; i < rep.sizes.count; i++)
		json_array_append_new(rows, result_row(&rep.sizes.items[i]));
	json_object_set_new(doc, "results", rows);
	code = rep.failure == CLIENT_OK ? EXIT_OK : perf_report_failure(&rep, &target);
	report_meta_fill(&lat_meta, app, &started);
	code = app_emit(app, doc, &warnings, a.format == REPORT_JUNIT ? print_junit : a.format == REPORT_PROMETHEUS ?
			print_prometheus : print_lat, code);
	json_decref(doc);
	notes_free(&warnings);
	client_report_free(&rep);
	app_free_secret(secret);
	return code;
}
