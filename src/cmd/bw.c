// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor bw: ib_write_bw built in, against 'roce-doctor serve' on the peer, with the data checked. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/bw_counters.h"
#include "cmd/commands.h"
#include "cmd/perf_common.h"
#include "cmd/report_format.h"
#include "model/counter_meaning.h"
#include "output/perf_machine.h"
#include "output/render.h"

enum { OPT_OP = 0x100, OPT_BIDIR, OPT_WAIT, OPT_EXPECT_GBPS, OPT_EXPECT_LINK_PCT, OPT_FORMAT, OPT_QPS_SWEEP };
enum wait_choice { WAIT_AUTO, WAIT_POLL, WAIT_EVENT };

struct bw_args {
	struct perf_conn_args conn;
	struct perf_size_args sizes;
	enum perf_op op;
	bool bidir;
	uint64_t iters;
	double duration;             /* seconds per size; 0 until given */
	unsigned qps, tx_depth;
	bool qps_given, qps_sweep;
	enum wait_choice wait;
	double expect_gbps, expect_link_pct;   /* 0: not asked */
	enum report_format format;
	bool format_given;
};

static const struct argp_option bw_options[] = {
	{ "op", OPT_OP, "write|read|send", 0, "RDMA operation (default write, as ib_write_bw)", 0 },
	{ "bidir", OPT_BIDIR, NULL, 0, "Both directions at once", 0 },
	{ "iters", 'n', "N", 0, "Messages per QP for each size (default: as many as --duration allows)", 0 },
	{ "duration", 'D', "S", 0, "Seconds for each size (default 2, or 0.5 with --sweep)", 0 },
	{ "qps", 'q', "N", 0, "Queue pairs, the load spread over them (default 1, at most 64)", 0 },
	{ "qps-sweep", OPT_QPS_SWEEP, NULL, 0, "Run the size with 1, 2, 4 and 8 queue pairs, a row each, and say how "
	  "close 1 QP comes to the best: a single-QP limit or the fabric's", 0 },
	{ "tx-depth", 't', "N", 0, "Work requests in flight per QP (default 128)", 0 },
	{ "wait", OPT_WAIT, "auto|poll|event", 0, "Between completions spin on the CQ (poll) or sleep until one "
	  "comes (event); auto: on a software device (rxe, siw) spin 50 us after a completion, then sleep; on a NIC "
	  "poll", 0 },
	{ "expect-gbps", OPT_EXPECT_GBPS, "N", 0, "Exit 1 when a size's average is below N Gb/s (both directions "
	  "added with --bidir): a CI gate", 0 },
	{ "expect-link-pct", OPT_EXPECT_LINK_PCT, "P", 0, "Exit 1 when a size's average is below P% of the link rate "
	  "(exit 3 when the link rate is unknown)", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default), json (as --json), junit (a testcase per size) or "
	  "prometheus (a gauge per size)", 0 },
	{ 0 }
};

/* The index of arg among three words, or -1. */
static int word_index(const char *arg, const char *const words[3])
{
	for (int i = 0; i < 3; i++)
		if (strcmp(arg, words[i]) == 0)
			return i;
	return -1;
}

static error_t parse_bw(int key, char *arg, struct argp_state *state)
{
	struct bw_args *a = state->input;
	char *end;
	int i;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->conn;
		state->child_inputs[1] = &a->sizes;
		return 0;
	case OPT_OP:
		i = word_index(arg, (const char *const[3]){ "write", "read", "send" });
		if (i < 0)
			argp_error(state, "bad --op '%s': expected write, read or send", arg);
		else
			a->op = (enum perf_op)(PERF_OP_WRITE + i);
		return 0;
	case OPT_BIDIR:
		a->bidir = true;
		return 0;
	case OPT_FORMAT:
		if (report_format_parse(arg, &a->format) < 0)
			argp_error(state, "bad --format '%s': expected text, json, junit or prometheus", arg);
		a->format_given = true;
		return 0;
	case OPT_WAIT:
		i = word_index(arg, (const char *const[3]){ "auto", "poll", "event" });
		if (i < 0)
			argp_error(state, "bad --wait '%s': expected auto, poll or event", arg);
		else
			a->wait = (enum wait_choice)i;
		return 0;
	case 'n':
		a->iters = parse_count(state, "--iters", arg, 1, PROTO_MAX_ITERS);
		return 0;
	case 'D':
		a->duration = strtod(arg, &end);
		if (end == arg || *end || !(a->duration > 0) || a->duration > PROTO_MAX_DURATION_MS / 1000)
			argp_error(state, "bad --duration '%s': expected seconds, more than 0 and at most %u", arg,
				   PROTO_MAX_DURATION_MS / 1000);
		return 0;
	case 'q':
		a->qps = (unsigned)parse_count(state, "--qps", arg, 1, PERF_MAX_QPS);
		a->qps_given = true;
		return 0;
	case OPT_QPS_SWEEP:
		a->qps_sweep = true;
		return 0;
	case 't':
		a->tx_depth = (unsigned)parse_count(state, "--tx-depth", arg, 1, PERF_MAX_DEPTH);
		return 0;
	case OPT_EXPECT_GBPS:
	case OPT_EXPECT_LINK_PCT: {
		double v = strtod(arg, &end), max = key == OPT_EXPECT_GBPS ? 100000 : 100;

		if (end == arg || *end || !(v > 0) || v > max)
			argp_error(state, "bad --%s '%s': expected a number more than 0 and at most %g",
				   key == OPT_EXPECT_GBPS ? "expect-gbps" : "expect-link-pct", arg, max);
		else if (key == OPT_EXPECT_GBPS)
			a->expect_gbps = v;
		else
			a->expect_link_pct = v;
		return 0;
	}
	case ARGP_KEY_END:
		if (a->iters && a->duration > 0)
			argp_error(state, "--iters and --duration exclude each other");
		else if (a->qps_sweep && a->qps_given)
			argp_error(state, "--qps-sweep and --qps exclude each other: the sweep runs 1, 2, 4 and 8 QPs");
		else if (a->qps_sweep && a->sizes.sweep)
			argp_error(state, "--qps-sweep and --sweep exclude each other: the QP sweep runs one --size");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_child bw_children[] = {
	{ &perf_conn_argp, 0, "Connection:", 0 }, { &perf_size_argp, 0, NULL, 0 }, { 0 },
};

static const struct argp bw_argp = {
	bw_options, parse_bw, "PEER",
	"Measure RDMA bandwidth to PEER, where 'roce-doctor serve' runs: the ib_write_bw of perftest, built in. "
	"Reports per message size the peak and average bandwidth (MiB/s and Gb/s), the message rate and the "
	"share of the port's link rate, and checks the data pattern of the last message.\v"
	"Exit status: 0 when every size ran and its data checked out, 1 when the test failed (a work completion "
	"error, a stall, the serve going away, wrong data), 2 when no local port fits, 3 when the test could not "
	"start (no serve, refused, no resources), 64 for usage errors; with --expect-gbps or --expect-link-pct also 1 "
	"when a size's average is below it. -v says on stderr which sources answered "
	"for the local port chosen.",
	bw_children, NULL, NULL,
};

/* ---- the CI gate: --expect-gbps, --expect-link-pct ---- */

/* A size's average as the gate reads it: both directions added with --bidir, as link_pct does. */
static double row_gbps(const json_t *row, bool bidir)
{
	double gbps = json_number_value(json_object_get(row, "avg_gbps"));

	if (bidir)
		gbps = json_number_value(json_object_get(row, "total_avg_mib_s")) * (1 << 20) * 8 / 1e9;
	return gbps;
}

/* Sets doc's 'expect' member and says on stderr which size fell short; the exit code for the run that
 * otherwise ended with code. */
static int judge_expectation(json_t *doc, const struct bw_args *a, double link_gbps, int code)
{
	const json_t *rows = json_object_get(doc, "results"), *row;
	double floor_gbps = a->expect_gbps;
	bool met = true;
	size_t i;

	if (a->expect_gbps <= 0 && a->expect_link_pct <= 0)
		return code;
	if (a->expect_link_pct > 0) {
		if (link_gbps <= 0) {
			fprintf(stderr, "roce-doctor: bw: --expect-link-pct %g: the link rate of this port is unknown; "
				"use --expect-gbps\n", a->expect_link_pct);
			json_object_set_new(doc, "expect", json_pack("{s:o, s:f, s:o}", "gbps", json_null(), "link_pct",
								      a->expect_link_pct, "met", json_null()));
			return code == EXIT_OK ? EXIT_CANNOT_RUN : code;
		}
		/* Both percentages are of the one-direction link rate, doubled with --bidir as link_pct is. */
		double pct_gbps = link_gbps * (a->bidir ? 2 : 1) * a->expect_link_pct / 100;

		if (pct_gbps > floor_gbps)
			floor_gbps = pct_gbps;
	}
	json_array_foreach(rows, i, row) {
		double gbps = row_gbps(row, a->bidir);

		if (gbps < floor_gbps) {
			met = false;
			fprintf(stderr, "roce-doctor: bw: %lld-byte messages averaged %.3f Gb/s, below the %.3f Gb/s expected "
				"(%s)\n", (long long)json_integer_value(json_object_get(row, "bytes")), gbps, floor_gbps,
				a->expect_gbps >= floor_gbps ? "--expect-gbps" : "--expect-link-pct");
		}
	}
	json_object_set_new(doc, "expect", json_pack("{s:o, s:o, s:f, s:b}", "gbps",
						      a->expect_gbps > 0 ? json_real(a->expect_gbps) : json_null(),
						      "link_pct", a->expect_link_pct > 0 ? json_real(a->expect_link_pct) : json_null(),
						      "floor_gbps", floor_gbps, "met", met));
	return code == EXIT_OK && !met ? EXIT_FAILED : code;
}

/* ---- output ---- */

/* What the per-size callbacks need: the counters, the rows they build, and for text on stdout what the header is
 * made of. */
struct progress {
	size_t total, done;          /* sizes in the run; rows finished so far (over every run of --qps-sweep) */
	json_t *rows;                /* the document's results, a row appended as each size ends */
	bool tty;                    /* stderr is a terminal and stdout is not: a progress line there */
	struct bw_counters *counters;
	FILE *stream;                /* text to stdout: each row printed as its size ends; NULL: all at the end */
	bool header_done;
	const struct bw_args *a;
	const struct client_config *cfg;
	const struct perf_target *target;
	const struct client_report *rep;
};

static json_t *result_row(const struct client_size *r, const struct bw_args *a, unsigned qps, double link_gbps,
			  json_t *counters);
static json_t *bw_doc(const struct bw_args *a, const struct client_config *cfg, const struct perf_target *t,
		      const struct client_report *rep);
static void print_bw_header(FILE *out, const json_t *doc);
static void print_bw_row(FILE *out, const json_t *row, bool bidir);

static void before_size(void *arg, size_t index)
{
	struct progress *p = arg;

	(void)index;
	bw_counters_before(p->counters);
}

/* A sweep of minutes shows each size when it ends: the header with the first row (the endpoints are known by
 * then), each row flushed at once. */
static void stream_row(struct progress *p, const json_t *row)
{
	if (!p->header_done) {
		json_t *doc = bw_doc(p->a, p->cfg, p->target, p->rep);

		print_bw_header(p->stream, doc);
		json_decref(doc);
		p->header_done = true;
	}
	print_bw_row(p->stream, row, p->a->bidir);
	fflush(p->stream);
}

static void on_size(void *arg, const struct client_size *r, size_t index)
{
	struct progress *p = arg;
	char size[16];

	json_t *row;

	(void)index;
	bw_counters_after(p->counters);
	row = result_row(r, p->a, p->cfg->qps, p->target->link_gbps, bw_counters_json(p->counters, p->done));
	if (p->a->qps_sweep)
		json_object_set_new(row, "qps", json_integer(p->cfg->qps));
	json_array_append_new(p->rows, row);
	if (p->stream)
		stream_row(p, row);
	p->done++;
	if (!p->tty || p->total < 2)
		return;
	format_bytes(r->size, size, sizeof(size));
	fprintf(stderr, "\r\033[K[%zu/%zu] %s: %.1f MiB/s", p->done, p->total, size,
		r->ns ? (double)r->bytes * 1e9 / (double)r->ns / (1 << 20) : 0.0);
	if (p->done == p->total)
		fprintf(stderr, "\r\033[K");
}

static double mib_per_s(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 1e9 / (double)ns / (1 << 20) : 0;
}

/* counters: the local port's hw_counters that moved during the size (taken over), or null. */
static json_t *result_row(const struct client_size *r, const struct bw_args *a, unsigned qps, double link_gbps,
			  json_t *counters)
{
	double seconds = (double)r->ns / 1e9, avg_gbps = seconds > 0 ? (double)r->bytes * 8 / seconds / 1e9 : 0;
	double total_gbps = avg_gbps;
	json_t *row = json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f}", "bytes", (json_int_t)r->size,
				"iterations", (json_int_t)r->iters, "seconds", seconds, "peak_mib_s",
				r->peak_bytes_per_s / (1 << 20), "avg_mib_s", mib_per_s(r->bytes, r->ns), "peak_gbps",
				r->peak_bytes_per_s * 8 / 1e9, "avg_gbps", avg_gbps, "mpps",
				seconds > 0 ? (double)r->iters * qps / seconds / 1e6 : 0.0);

	if (a->bidir) {
		double peer_gbps = r->peer_ns ? (double)r->peer_bytes * 8 / (double)r->peer_ns : 0;

		json_object_set_new(row, "peer_avg_mib_s", json_real(mib_per_s(r->peer_bytes, r->peer_ns)));
		json_object_set_new(row, "total_avg_mib_s",
				    json_real(mib_per_s(r->bytes, r->ns) + mib_per_s(r->peer_bytes, r->peer_ns)));
		total_gbps = avg_gbps + peer_gbps;
	}
	json_object_set_new(row, "link_pct", link_gbps > 0 ? json_real(total_gbps / (link_gbps * (a->bidir ? 2 : 1)) * 100)
							   : json_null());
	json_object_set_new(row, "check", json_string(perf_check_name(r->check)));
	json_object_set_new(row, "counters", counters);
	return row;
}

/* app_emit()'s callbacks take no context: what the run was besides its document, filled before emitting. */
static struct run_meta bw_meta;

static void print_junit(FILE *out, const json_t *doc)
{
	perf_junit_print(out, doc, &bw_meta);
}

static void print_prometheus(FILE *out, const json_t *doc)
{
	perf_prometheus_print(out, doc, &bw_meta);
}

static double num(const json_t *obj, const char *key)
{
	return json_number_value(json_object_get(obj, key));
}

/* Under a size's row, the counters of this side's port that say something went wrong during it (rxe's
 * retransmits, a NIC's out_of_sequence or CNPs), grouped by what they mean as counters groups them; plain
 * traffic counters stay in the JSON. */
static void print_trouble_counters(FILE *out, const json_t *counters)
{
	int shown = 0;

	for (int g = COUNTER_PATH_LOSS; g < COUNTER_GROUPS; g++) {
		const char *name;
		const json_t *v;
		int in_group = 0;

		json_object_foreach((json_t *)counters, name, v) {
			if ((int)counter_meaning_of(name)->group != g)
				continue;
			if (!shown++)
				fprintf(out, "           this port's hw counters:");
			if (in_group)
				fprintf(out, ", %s +%lld", name, (long long)json_integer_value(v));
			else
				fprintf(out, "%s %s: %s +%lld", shown > 1 ? ";" : "", counter_group_title((enum counter_group)g),
					name, (long long)json_integer_value(v));
			in_group++;
		}
	}
	if (shown)
		fputc('\n', out);
}

static const char *wait_text(const char *wait)
{
	if (strcmp(wait, "event") == 0)
		return "sleeps on completion events";
	if (strcmp(wait, "adaptive") == 0)
		return "spins, then sleeps on completion events";
	return "polls for completions";
}

static void print_bw_header(FILE *out, const json_t *doc)
{
	const json_t *local = json_object_get(doc, "local"), *remote = json_object_get(doc, "remote");
	const json_t *link = json_object_get(local, "link_gbps");
	bool bidir = json_is_true(json_object_get(doc, "bidir"));
	const char *addr = json_string_value(json_object_get(local, "address"));
	const char *nd = json_string_value(json_object_get(local, "netdev"));

	bool qps_sweep = json_is_object(json_object_get(doc, "qps_sweep"));
	char qps_text[32];

	snprintf(qps_text, sizeof(qps_text), "%lld QP%s", (long long)json_integer_value(json_object_get(doc, "qps")),
		 json_integer_value(json_object_get(doc, "qps")) > 1 ? "s" : "");
	fprintf(out, "bw %s%s to %s port %lld: %s, tx depth %lld, inline up to %lld B, %s, data check %s\n",
		json_string_value(json_object_get(doc, "op")), bidir ? " (both directions)" : "",
		json_string_value(json_object_get(doc, "peer")), (long long)json_integer_value(json_object_get(doc, "tcp_port")),
		qps_sweep ? "1, 2, 4 and 8 QPs" : qps_text,
		(long long)json_integer_value(json_object_get(doc, "tx_depth")),
		(long long)json_integer_value(json_object_get(doc, "inline")),
		wait_text(json_string_value(json_object_get(doc, "wait"))),
		json_is_true(json_object_get(doc, "verify")) ? "on" : "off");
	fprintf(out, "local %s/%lld GID %lld (%s%s%s%s)", json_string_value(json_object_get(local, "device")),
		(long long)json_integer_value(json_object_get(local, "port")),
		(long long)json_integer_value(json_object_get(local, "gid_index")), addr ? addr : "no address",
		nd ? ", " : "", nd ? nd : "", "");
	if (json_is_object(remote))
		fprintf(out, ", remote %s, path MTU %lld", json_string_value(json_object_get(remote, "address")),
			(long long)json_integer_value(json_object_get(doc, "path_mtu")));
	if (json_is_number(link))
		fprintf(out, ", link %g Gb/s", json_number_value(link));
	fprintf(out, "\n%s%10s %10s %12s %12s %9s %9s %7s%s  %s\n", qps_sweep ? "QPs " : "", "bytes", "iterations",
		"peak MiB/s", "avg MiB/s", "avg Gb/s", "Mpps", "link %", bidir ? "   both MiB/s" : "", "check");
}

static void print_bw_row(FILE *out, const json_t *row, bool bidir)
{
	const json_t *pct = json_object_get(row, "link_pct");
	char pct_text[16] = "-";

	if (json_is_number(pct))
		snprintf(pct_text, sizeof(pct_text), "%.1f", json_number_value(pct));
	if (json_is_integer(json_object_get(row, "qps")))
		fprintf(out, "%3lld ", (long long)json_integer_value(json_object_get(row, "qps")));
	fprintf(out, "%10lld %10lld %12.2f %12.2f %9.3f %9.4f %7s", (long long)json_integer_value(json_object_get(row, "bytes")),
		(long long)json_integer_value(json_object_get(row, "iterations")), num(row, "peak_mib_s"),
		num(row, "avg_mib_s"), num(row, "avg_gbps"), num(row, "mpps"), pct_text);
	if (bidir)
		fprintf(out, " %13.2f", num(row, "total_avg_mib_s"));
	fprintf(out, "  %s\n", json_string_value(json_object_get(row, "check")));
	print_trouble_counters(out, json_object_get(row, "counters"));
}

/* --qps-sweep's verdict: "1 QP reaches 97% of the best (4 QPs)". */
static void print_qps_verdict(FILE *out, const json_t *doc)
{
	const json_t *sweep = json_object_get(doc, "qps_sweep");
	json_int_t best = json_integer_value(json_object_get(sweep, "best_qps"));

	if (!json_is_number(json_object_get(sweep, "single_qp_pct")))
		return;
	fprintf(out, "1 QP reaches %.0f%% of the best (%lld QP%s)\n", num(sweep, "single_qp_pct"), (long long)best,
		best > 1 ? "s" : "");
}

static void print_bw(FILE *out, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "results");
	bool bidir = json_is_true(json_object_get(doc, "bidir"));
	size_t i;
	json_t *row;

	/* A test that never ran has nothing to show: stderr said why. */
	if (json_array_size(rows) == 0)
		return;
	print_bw_header(out, doc);
	json_array_foreach(rows, i, row)
		print_bw_row(out, row, bidir);
	print_qps_verdict(out, doc);
}

/* The document without its results: what the header is made of. */
static json_t *bw_doc(const struct bw_args *a, const struct client_config *cfg, const struct perf_target *t,
		      const struct client_report *rep)
{
	json_t *doc = doc_new("bw");

	json_object_set_new(doc, "op", json_string(perf_op_name(a->op)));
	json_object_set_new(doc, "bidir", json_boolean(a->bidir));
	json_object_set_new(doc, "qps", a->qps_sweep ? json_null() : json_integer(cfg->qps));
	json_object_set_new(doc, "qps_sweep", a->qps_sweep ? json_object() : json_null());
	json_object_set_new(doc, "tx_depth", json_integer(a->tx_depth));
	json_object_set_new(doc, "inline", json_integer(rep->inline_granted));
	json_object_set_new(doc, "wait", json_string(perf_wait_name(cfg->wait)));
	json_object_set_new(doc, "iterations", a->iters ? json_integer((json_int_t)a->iters) : json_null());
	json_object_set_new(doc, "duration_s", a->iters ? json_null() : json_real(cfg->duration_ms / 1000.0));
	perf_doc_common(doc, &a->conn, t, rep);
	return doc;
}

/* qps_sweep's members from the rows: the QP count with the best average, and 1 QP's share of it; null when a
 * QP count failed (a best of the counts that ran would be a verdict on half a sweep). */
static void judge_qps_sweep(json_t *doc, bool bidir, size_t runs)
{
	const json_t *rows = json_object_get(doc, "results"), *row, *best = NULL, *single = NULL;
	json_t *sweep = json_object_get(doc, "qps_sweep");
	size_t i;

	if (!json_is_object(sweep))
		return;
	if (json_array_size(rows) != runs)
		rows = NULL;
	json_array_foreach(rows, i, row) {
		if (json_integer_value(json_object_get(row, "qps")) == 1)
			single = row;
		if (!best || row_gbps(row, bidir) > row_gbps(best, bidir))
			best = row;
	}
	json_object_set_new(sweep, "best_qps", best ? json_incref(json_object_get(best, "qps")) : json_null());
	json_object_set_new(sweep, "single_qp_pct", single && row_gbps(best, bidir) > 0 ?
			    json_real(row_gbps(single, bidir) / row_gbps(best, bidir) * 100) : json_null());
}

/* Text goes out row by row only to stdout: a file (--output) is written whole, as every document is. */
static bool streams_text(const struct app *app, const struct bw_args *a)
{
	return !app->json && a->format == REPORT_TEXT && !app->output_file;
}

int cmd_bw(struct app *app, int argc, char **argv)
{
	struct bw_args a = { .op = PERF_OP_WRITE, .qps = 1, .tx_depth = 128, .sizes.inline_size = 220 };
	struct client_config cfg = { 0 };
	static const unsigned qps_steps[] = { 1, 2, 4, 8 };
	size_t runs;
	struct client_report rep;
	struct secret *secret;
	struct perf_target target;
	struct notes warnings = { 0 };
	struct progress progress;
	struct bw_counters counters;
	uint32_t sizes[PERF_SWEEP_COUNT];
	struct timespec started;
	json_t *doc, *rows;
	int code;

	perf_conn_defaults(&a.conn);
	report_clock_start(&started);
	if (command_parse(&bw_argp, PERF_CLIENT_TAKES, argc, argv, &a, app) != 0)
		return EXIT_USAGE;
	if (app_resolve_format(app, "bw", a.format_given, &a.format) != EXIT_OK)
		return EXIT_USAGE;
	code = perf_client_prepare(app, &a.conn, &cfg, &target, &warnings, &secret);
	if (code != EXIT_OK)
		return code;
	cfg.size_count = perf_sizes(&a.sizes, 65536, sizes);
	cfg.sizes = sizes;
	cfg.test = PROTO_TEST_BW;
	cfg.op = a.op;
	cfg.bidir = a.bidir;
	cfg.corrupt = perf_test_corrupt();
	cfg.bad_rkey = perf_test_bad_rkey();
	cfg.qps = a.qps;
	cfg.tx_depth = a.tx_depth;
	cfg.inline_size = a.sizes.inline_size;
	cfg.wait = a.wait == WAIT_POLL ? PERF_WAIT_POLL : a.wait == WAIT_EVENT ? PERF_WAIT_EVENT : perf_wait_for(&target);
	cfg.iters = a.iters;
	cfg.duration_ms = a.iters ? 0 : (uint32_t)((a.duration > 0 ? a.duration : a.sizes.sweep ? 0.5 : 2.0) * 1000);
	if (bw_counters_init(&counters, target.device, target.port) != 0) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		app_free_secret(secret);
		notes_free(&warnings);
		return EXIT_CANNOT_RUN;
	}
	runs = a.qps_sweep ? sizeof(qps_steps) / sizeof(qps_steps[0]) : 1;
	rows = json_array();
	progress = (struct progress){ .total = cfg.size_count * runs, .rows = rows, .counters = &counters, .a = &a,
				      .cfg = &cfg, .target = &target, .rep = &rep,
				      .stream = streams_text(app, &a) ? stdout : NULL };
	progress.tty = isatty(STDERR_FILENO) && !(progress.stream && isatty(STDOUT_FILENO));
	cfg.before_size = before_size;
	cfg.on_size = on_size;
	cfg.arg = &progress;

	/* --qps-sweep: a test (a connection, a set of QPs) per QP count, as many as perftest's -q sets up. */
	for (size_t r = 0; r < runs; r++) {
		if (r)
			client_report_free(&rep);
		cfg.qps = a.qps_sweep ? qps_steps[r] : a.qps;
		client_run(&cfg, &rep);   /* on_size appends each size's row */
		if (rep.failure != CLIENT_OK)
			break;
	}

	doc = bw_doc(&a, &cfg, &target, &rep);
	json_object_set_new(doc, "results", rows);
	judge_qps_sweep(doc, a.bidir, runs);
	code = rep.failure == CLIENT_OK ? EXIT_OK : perf_report_failure(&rep, &target);
	code = judge_expectation(doc, &a, target.link_gbps, code);
	report_meta_fill(&bw_meta, app, &started);
	code = app_emit(app, doc, &warnings, a.format == REPORT_JUNIT ? print_junit : a.format == REPORT_PROMETHEUS ?
			print_prometheus : progress.stream ? print_qps_verdict : print_bw, code);
	json_decref(doc);
	bw_counters_free(&counters);
	notes_free(&warnings);
	client_report_free(&rep);
	app_free_secret(secret);
	return code;
}
