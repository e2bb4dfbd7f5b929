// SPDX-License-Identifier: GPL-2.0-only
/* The roce-doctor/mesh/v1 document from the results and the nodes: the judgement is mesh_analyse's. */
#include "cmd/mesh_doc.h"

#include <stdlib.h>
#include <string.h>

#include "output/render.h"

static const char *const state_names[] = { "measured", "failed", "not_run" };

static json_t *num_or_null(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

static json_t *node_json(size_t rank, const struct mesh_node_view *v)
{
	const struct mesh_register *r = v->reg;
	json_t *rails = json_array();
	bool came = r->host[0] != '\0';

	for (unsigned i = 0; i < r->rail_count; i++)
		json_array_append_new(rails, json_pack("{s:I, s:s, s:I, s:o, s:o, s:o}", "rail", (json_int_t)i, "device",
						       r->rails[i].device, "port", (json_int_t)r->rails[i].port, "netdev",
						       json_str_or_null(r->rails[i].netdev), "address",
						       json_str_or_null(r->rails[i].address), "link_gbps",
						       num_or_null(r->rails[i].link_gbps)));
	return json_pack("{s:I, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "rank", (json_int_t)rank, "host",
			 came ? json_string(r->host) : json_null(), "address", json_str_or_null(v->address), "state",
			 v->state, "why", json_str_or_null(v->gone), "serve_port",
			 came ? json_integer(r->serve_port) : json_null(), "serve_error", json_str_or_null(r->serve_error),
			 "tool_version", json_str_or_null(r->tool_version), "devices",
			 came ? json_integer(r->devices) : json_null(), "rails", rails);
}

static json_t *result_json(const struct mesh_result *r)
{
	return json_pack("{s:I, s:I, s:i, s:o, s:s, s:o, s:o, s:o, s:b, s:I, s:o}", "a", (json_int_t)r->a, "b",
			 (json_int_t)r->b, "rail", r->rail, "round", r->round ? json_integer(r->round) : json_null(),
			 "state", state_names[r->state], "gbps",
			 r->state == MESH_RESULT_MEASURED ? json_real(r->gbps) : json_null(), "link_gbps",
			 num_or_null(r->link_gbps), "floor_gbps", num_or_null(r->floor_gbps), "slow", r->slow,
			 "attempts", (json_int_t)r->attempts, "why", json_str_or_null(r->why));
}

/* Per rail, the N x N cells as indexes into results (null: none planned, the diagonal). */
static json_t *matrix_json(const struct mesh_result *results, size_t count, size_t size, unsigned rails)
{
	long *cell = malloc(size * size * sizeof(*cell));
	json_t *list = json_array();

	for (unsigned k = 0; cell && k < rails; k++) {
		json_t *rows = json_array();

		mesh_matrix(results, count, size, (int)k, cell);
		for (size_t a = 0; a < size; a++) {
			json_t *row = json_array();

			for (size_t b = 0; b < size; b++)
				json_array_append_new(row, cell[a * size + b] < 0 ? json_null() : json_integer(cell[a * size + b]));
			json_array_append_new(rows, row);
		}
		json_array_append_new(list, json_pack("{s:I, s:o}", "rail", (json_int_t)k, "cells", rows));
	}
	free(cell);
	return list;
}

json_t *mesh_run_doc(const struct mesh_run_input *in, struct mesh_result *results, size_t count,
		     const struct mesh_node_view *nodes, size_t size, unsigned rails)
{
	struct mesh_rule rule = { in->expect_gbps, in->expect_link_pct };
	struct mesh_analysis an;
	json_t *doc, *list;
	size_t missing = 0;

	for (size_t i = 0; i < size; i++)
		missing += strcmp(nodes[i].state, "ok") != 0;
	if (mesh_analyse(results, count, size, rails, &rule, missing, &an) < 0)
		return NULL;
	doc = doc_new("mesh");
	json_object_set_new(doc, "verdict", json_string(mesh_verdict_name(an.verdict)));
	json_object_set_new(doc, "ok", json_boolean(an.verdict == MESH_VERDICT_OK));
	json_object_set_new(doc, "launcher", json_string(in->launcher));
	json_object_set_new(doc, "kind", json_string(mesh_plan_kind_name(in->kind)));
	json_object_set_new(doc, "size", json_integer((json_int_t)size));
	json_object_set_new(doc, "rails", json_integer(rails));
	json_object_set_new(doc, "rounds", json_integer((json_int_t)in->rounds));
	json_object_set_new(doc, "rounds_run", json_integer((json_int_t)in->rounds_run));
	json_object_set_new(doc, "bw_seconds", json_real(in->seconds));
	json_object_set_new(doc, "bytes", json_integer(in->bytes));
	json_object_set_new(doc, "elapsed_seconds", json_real(in->elapsed));
	json_object_set_new(doc, "time_limit_seconds", num_or_null(in->time_limit));
	json_object_set_new(doc, "rule", json_pack("{s:o, s:o, s:o}", "expect_gbps", num_or_null(in->expect_gbps),
						   "expect_link_pct", num_or_null(in->expect_link_pct), "outlier",
						   in->expect_gbps > 0 || in->expect_link_pct > 0 ? json_null() :
						   json_pack("{s:f, s:f, s:i}", "mad_k", MESH_OUTLIER_MAD_K, "median_pct",
							     MESH_OUTLIER_MEDIAN_PCT, "min_samples",
							     MESH_OUTLIER_MIN_SAMPLES)));
	json_object_set_new(doc, "counts", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "tests", (json_int_t)count,
						     "measured", (json_int_t)an.measured, "slow", (json_int_t)an.slow,
						     "failed", (json_int_t)an.failed, "not_run", (json_int_t)an.not_run,
						     "nodes_missing", (json_int_t)missing));
	list = json_array();
	for (size_t i = 0; i < size; i++)
		json_array_append_new(list, node_json(i, &nodes[i]));
	json_object_set_new(doc, "nodes", list);
	list = json_array();
	for (unsigned k = 0; k < rails; k++)
		json_array_append_new(list, json_pack("{s:I, s:I, s:o, s:o, s:b}", "rail", (json_int_t)k, "measured",
						      (json_int_t)an.rail[k].measured, "median_gbps",
						      an.rail[k].measured ? json_real(an.rail[k].median) : json_null(),
						      "mad_gbps", an.rail[k].measured ? json_real(an.rail[k].mad) : json_null(),
						      "outlier_rule", an.rail[k].outlier_rule));
	json_object_set_new(doc, "rail_stats", list);
	list = json_array();
	for (size_t n = 0; n < size; n++)
		for (unsigned k = 0; k < rails && k < 64; k++)
			if (an.suspect[n] & (1ull << k))
				json_array_append_new(list, json_pack("{s:I, s:o, s:I, s:I, s:I}", "rank", (json_int_t)n, "host",
								      json_str_or_null(nodes[n].reg->host), "rail",
								      (json_int_t)k, "bad", (json_int_t)an.bad[n * rails + k],
								      "tested", (json_int_t)an.tested[n * rails + k]));
	json_object_set_new(doc, "suspects", list);
	json_object_set_new(doc, "all_bad", json_boolean(an.all_bad));
	list = json_array();
	for (size_t i = 0; i < count; i++)
		json_array_append_new(list, result_json(&results[i]));
	json_object_set_new(doc, "results", list);
	json_object_set_new(doc, "matrix", size <= MESH_DOC_MATRIX_NODES_MAX ? matrix_json(results, count, size, rails) :
			    json_null());
	mesh_analysis_free(&an);
	return doc;
}
