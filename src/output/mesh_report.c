// SPDX-License-Identifier: GPL-2.0-only
/* mesh's text report and SVG heatmap, both read from the one document. */
#include "output/mesh_report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/mesh_text.h"

/* A rate as people read it: one decimal from 10 Gb/s up (394.2), three significant digits below, so the
 * links of a slow fabric or of Soft-RoCE (0.0123) never all print as 0.0. */
static const char *gbps_text(double gbps, char *buf, size_t size)
{
	snprintf(buf, size, gbps >= 10 ? "%.1f" : "%.3g", gbps);
	return buf;
}

static long long integer(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static double number(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *text(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* "rank 3 (gpu03)" */
static void node_name(const json_t *doc, long long rank, char *buf, size_t size)
{
	const json_t *n = json_array_get(json_object_get(doc, "nodes"), (size_t)rank);
	const char *host = json_string_value(json_object_get(n, "host"));

	if (host)
		snprintf(buf, size, "rank %lld (%s)", rank, host);
	else
		snprintf(buf, size, "rank %lld", rank);
}

/* "mlx5_1/1" of rank's rail, or "rail 1" when it registered none. */
static void rail_name(const json_t *doc, long long rank, long long rail, char *buf, size_t size)
{
	const json_t *n = json_array_get(json_object_get(doc, "nodes"), (size_t)rank);
	const json_t *r = json_array_get(json_object_get(n, "rails"), (size_t)rail);

	if (r)
		snprintf(buf, size, "rail %lld (%s/%lld)", rail, text(r, "device"), integer(r, "port"));
	else
		snprintf(buf, size, "rail %lld", rail);
}

/* A rail's port as counters and bw take it: "DEV/PORT" ("" for none). */
static void port_arg(const json_t *rail, char *buf, size_t size)
{
	buf[0] = '\0';
	if (rail)
		snprintf(buf, size, "%s/%lld", text(rail, "device"), integer(rail, "port"));
}

/* For a's commands against b on rail: a's port on the rail ("" when it registered none), and b's address on
 * the rail (else where rank 0 saw it connect from, else its host). */
static void rail_cmd(const json_t *doc, long long a, long long b, long long rail, char *dev, size_t dev_size,
		     char *peer, size_t peer_size)
{
	const json_t *na = json_array_get(json_object_get(doc, "nodes"), (size_t)a);
	const json_t *nb = json_array_get(json_object_get(doc, "nodes"), (size_t)b);
	const json_t *ra = json_array_get(json_object_get(na, "rails"), (size_t)rail);
	const json_t *rb = json_array_get(json_object_get(nb, "rails"), (size_t)rail);

	port_arg(ra, dev, dev_size);
	snprintf(peer, peer_size, "%s", *text(rb, "address") ? text(rb, "address") : *text(nb, "address") ?
		 text(nb, "address") : text(nb, "host"));
}

static void print_header(FILE *out, const json_t *doc)
{
	const json_t *c = json_object_get(doc, "counts");
	const char *verdict = text(doc, "verdict");
	char took[32], size[32];
	long long bytes = integer(doc, "bytes");

	mesh_duration_text(number(doc, "elapsed_seconds"), took, sizeof(took));
	if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(size, sizeof(size), "%lldK", bytes / 1024);
	else
		snprintf(size, sizeof(size), "%lld", bytes);
	fprintf(out, "mesh: %s over %lld nodes (%s), %lld rail%s: %lld of %lld rounds in %s, %g s of bw with %s-byte "
		"messages per test\n", text(doc, "kind"), integer(doc, "size"), text(doc, "launcher"), integer(doc, "rails"),
		integer(doc, "rails") == 1 ? "" : "s", integer(doc, "rounds_run"), integer(doc, "rounds"), took,
		number(doc, "bw_seconds"), size);
	fprintf(out, "verdict: %s: %lld of %lld tests measured, %lld odd, %lld failed, %lld not measured, %lld node%s "
		"missing\n", strcmp(verdict, "ok") == 0 ? "OK" : strcmp(verdict, "odd") == 0 ? "ODD LINKS" :
		strcmp(verdict, "failed") == 0 ? "FAILED" : "INCOMPLETE", integer(c, "measured"), integer(c, "tests"),
		integer(c, "slow"), integer(c, "failed"), integer(c, "not_run"), integer(c, "nodes_missing"),
		integer(c, "nodes_missing") == 1 ? "" : "s");
}

static void print_missing(FILE *out, const json_t *doc)
{
	const json_t *n;
	size_t i, shown = 0;
	char name[300];

	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		const char *serve_error = json_string_value(json_object_get(n, "serve_error"));

		if (strcmp(text(n, "state"), "ok") != 0) {
			if (!shown++)
				fprintf(out, "\nnodes missing (the rest went on without them):\n");
			node_name(doc, (long long)i, name, sizeof(name));
			fprintf(out, "  %s %s\n", name, text(n, "why"));
		}
		if (serve_error)
			fprintf(out, "%s  rank %zu's serve %s: every pair it serves fails\n", shown++ ? "" : "\nserves:\n", i,
				serve_error);
	}
}

/* Results that match: "slow", "failed" or "not_run", at most MESH_TEXT_LIST_MAX of them. */
static void print_list(FILE *out, const json_t *doc, const char *which, const char *title)
{
	const json_t *r;
	size_t i, shown = 0;

	json_array_foreach(json_object_get(doc, "results"), i, r) {
		bool match = strcmp(which, "slow") == 0 ? json_is_true(json_object_get(r, "slow")) :
			     strcmp(text(r, "state"), which) == 0;
		char a[300], b[300], rail[120];

		if (!match)
			continue;
		if (shown++ == 0)
			fprintf(out, "\n%s:\n", title);
		if (shown > MESH_TEXT_LIST_MAX)
			continue;
		node_name(doc, integer(r, "a"), a, sizeof(a));
		node_name(doc, integer(r, "b"), b, sizeof(b));
		rail_name(doc, integer(r, "a"), integer(r, "rail"), rail, sizeof(rail));
		if (strcmp(which, "slow") == 0) {
			char dev[80] = "", peer[300], g1[32], g2[32];

			rail_cmd(doc, integer(r, "a"), integer(r, "b"), integer(r, "rail"), dev, sizeof(dev), peer, sizeof(peer));
			/* counters takes the port as its argument, bw as -d */
			fprintf(out, "  %s -> %s, %s: %s Gb/s, below %s Gb/s; to see it again, on %s: roce-doctor "
				"counters%s%s, roce-doctor bw%s%s -D 10 %s (roce-doctor serve on %s)\n", a, b, rail,
				gbps_text(number(r, "gbps"), g1, sizeof(g1)), gbps_text(number(r, "floor_gbps"), g2, sizeof(g2)), a, dev[0] ? " " : "", dev, dev[0] ? " -d " : "",
				dev, peer, b);
		}
		else
			fprintf(out, "  %s -> %s, %s%s: %s\n", a, b, rail, integer(r, "attempts") == 2 ? " (retried)" : "",
				text(r, "why"));
	}
	if (shown > MESH_TEXT_LIST_MAX)
		fprintf(out, "  ... and %zu more (--json lists every test)\n", shown - MESH_TEXT_LIST_MAX);
}

static void print_suspects(FILE *out, const json_t *doc)
{
	const json_t *s;
	size_t i;
	char name[300], rail[120], port[100];

	json_array_foreach(json_object_get(doc, "suspects"), i, s) {
		const json_t *n = json_array_get(json_object_get(doc, "nodes"), (size_t)integer(s, "rank"));
		const json_t *r = json_array_get(json_object_get(n, "rails"), (size_t)integer(s, "rail"));

		if (i == 0)
			fprintf(out, "\nsuspect nodes (most of their pairs on a rail are bad: the node, not the links):\n");
		node_name(doc, integer(s, "rank"), name, sizeof(name));
		rail_name(doc, integer(s, "rank"), integer(s, "rail"), rail, sizeof(rail));
		port_arg(r, port, sizeof(port));
		/* check reads the whole host (it has no device option); counters takes the port as its argument */
		fprintf(out, "  %s, %s: %lld of %lld pairs bad; on it: roce-doctor check, roce-doctor counters%s%s\n",
			name, rail, integer(s, "bad"), integer(s, "tested"), port[0] ? " " : "", port);
	}
	if (json_is_true(json_object_get(doc, "all_bad")))
		fprintf(out, "\nevery pair that ran was bad: no node stands out; look at what they share (the fabric, "
			"RDMA on every node: roce-doctor check on one of them)\n");
}

/* Rail k's N x N matrix from the document's cells: row a ran bw to column b; "*" odd, "x" failed, "-" not
 * measured. */
static void print_matrix(FILE *out, const json_t *doc, const json_t *m)
{
	const json_t *results = json_object_get(doc, "results"), *row;
	size_t a, n = json_array_size(json_object_get(m, "cells"));

	fprintf(out, "\nrail %lld, Gb/s (* odd, x failed, - not measured, . none planned):\n     ", integer(m, "rail"));
	for (size_t b = 0; b < n; b++)
		fprintf(out, " %7zu", b);
	fputc('\n', out);
	json_array_foreach(json_object_get(m, "cells"), a, row) {
		fprintf(out, "  %3zu", a);
		for (size_t b = 0; b < n; b++) {
			const json_t *c = json_array_get(results, (size_t)json_integer_value(json_array_get(row, b)));
			char v[48], g[32];

			if (!json_is_integer(json_array_get(row, b)) || !c)
				snprintf(v, sizeof(v), ".");
			else if (strcmp(text(c, "state"), "failed") == 0)
				snprintf(v, sizeof(v), "x");
			else if (strcmp(text(c, "state"), "not_run") == 0)
				snprintf(v, sizeof(v), "-");
			else
				snprintf(v, sizeof(v), "%s%s", gbps_text(number(c, "gbps"), g, sizeof(g)),
					 json_is_true(json_object_get(c, "slow")) ? "*" : "");
			fprintf(out, " %7s", v);
		}
		fputc('\n', out);
	}
}

void mesh_print_run(FILE *out, const json_t *doc)
{
	print_header(out, doc);
	print_missing(out, doc);
	print_list(out, doc, "slow", "odd links");
	print_suspects(out, doc);
	print_list(out, doc, "failed", "failed pairs (a bw that failed was tried once more)");
	print_list(out, doc, "not_run", "not measured");
	if (integer(doc, "size") <= MESH_MATRIX_NODES_MAX) {
		const json_t *m;
		size_t k;

		json_array_foreach(json_object_get(doc, "matrix"), k, m)
			print_matrix(out, doc, m);
	}
}

/* ---- the SVG heatmap ---- */

#define CELL 24
#define MARGIN 40

/* Red (slow) through yellow to green (the rail's best), by share of the rail's highest result. */
static void cell_colour(double share, char *buf, size_t size)
{
	int r = share < 0.5 ? 220 : (int)(220 - (share - 0.5) * 2 * 180);
	int g = share < 0.5 ? (int)(60 + share * 2 * 160) : 200;

	snprintf(buf, size, "rgb(%d,%d,60)", r, g);
}

static void plot_rail(FILE *f, const json_t *doc, long long k, int x0)
{
	long long n = integer(doc, "size");
	const json_t *r;
	double best = 0;
	char g[32];
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, r)
		if (integer(r, "rail") == k && number(r, "gbps") > best)
			best = number(r, "gbps");
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"14\">rail %lld (best %s Gb/s)</text>\n", x0, k,
		gbps_text(best, g, sizeof(g)));
	for (long long a = 0; a < n; a++)
		fprintf(f, "<rect x=\"%d\" y=\"%lld\" width=\"%d\" height=\"%d\" fill=\"#eee\"/>\n", x0, MARGIN + a * CELL,
			(int)(n * CELL), CELL);
	json_array_foreach(json_object_get(doc, "results"), i, r) {
		const char *state = text(r, "state");
		bool slow = json_is_true(json_object_get(r, "slow"));
		char fill[32], title[600];

		if (integer(r, "rail") != k)
			continue;
		if (strcmp(state, "measured") == 0)
			cell_colour(best > 0 ? number(r, "gbps") / best : 0, fill, sizeof(fill));
		else
			snprintf(fill, sizeof(fill), "%s", strcmp(state, "failed") == 0 ? "#555" : "#fff");
		if (strcmp(state, "measured") == 0)
			snprintf(title, sizeof(title), "%lld-%lld rail %lld: %s Gb/s%s", integer(r, "a"), integer(r, "b"), k,
				 gbps_text(number(r, "gbps"), g, sizeof(g)), slow ? " (odd)" : "");
		else
			snprintf(title, sizeof(title), "%lld-%lld rail %lld: %s", integer(r, "a"), integer(r, "b"), k, state);
		for (int half = 0; half < 2; half++) {
			long long row = half ? integer(r, "b") : integer(r, "a"), col = half ? integer(r, "a") : integer(r, "b");

			fprintf(f, "<rect x=\"%lld\" y=\"%lld\" width=\"%d\" height=\"%d\" fill=\"%s\"%s><title>", x0 + col * CELL,
				MARGIN + row * CELL, CELL, CELL, fill, slow ? " stroke=\"black\" stroke-width=\"3\"" : "");
			for (const char *c = title; *c; c++)   /* the why may hold <, > or & */
				fputs(*c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '&' ? "&amp;" : (char[2]){ *c, 0 }, f);
			fputs("</title></rect>\n", f);
			if (slow || strcmp(state, "failed") == 0)
				fprintf(f, "<text x=\"%lld\" y=\"%lld\" font-size=\"14\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
					x0 + col * CELL + CELL / 2, MARGIN + row * CELL + CELL * 2 / 3, slow ? "black" : "white",
					slow ? "!" : "x");
		}
	}
}

int mesh_plot_write(const char *path, const json_t *doc, char *why, size_t why_size)
{
	long long n = integer(doc, "size"), rails = integer(doc, "rails");
	int width = (int)(rails * (n * CELL + MARGIN) + MARGIN), height = (int)(n * CELL + 2 * MARGIN);
	char tmp[4096];
	FILE *f;

	if (n > MESH_PLOT_NODES_MAX) {
		snprintf(why, why_size, "--plot %s: %lld nodes are more than the %d a heatmap shows; --json has every "
			 "result", path, n, MESH_PLOT_NODES_MAX);
		return -1;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp) || !(f = fopen(tmp, "w"))) {
		snprintf(why, why_size, "cannot write --plot %s: %s", path, strerror(errno ? errno : ENAMETOOLONG));
		return -1;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\">\n<title>roce-doctor mesh: %s over %lld nodes, verdict %s</title>\n",
		width, height, text(doc, "kind"), n, text(doc, "verdict"));
	for (long long k = 0; k < rails; k++)
		plot_rail(f, doc, k, (int)(MARGIN + k * (n * CELL + MARGIN)));
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">row ran bw to column; red slow, green the rail's best, "
		"! odd, x failed, white not measured</text>\n</svg>\n", MARGIN, height - 10);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(why, why_size, "cannot write --plot %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
