// SPDX-License-Identifier: GPL-2.0-only
/* mesh-plan's text layout from its document: who this node is (dry-run), the plan in one paragraph, then the
 * rounds' pairs for a small mesh. */
#include <string.h>

#include "output/mesh_text.h"

void mesh_duration_text(double seconds, char *buf, size_t size)
{
	if (seconds < 120)
		snprintf(buf, size, "%.0f s", seconds);
	else if (seconds < 2 * 3600)
		snprintf(buf, size, "%.0f min", seconds / 60);
	else if (seconds < 48 * 3600)
		snprintf(buf, size, "%.1f h", seconds / 3600);
	else
		snprintf(buf, size, "%.1f days", seconds / 86400);
}

static void print_launch(FILE *out, const json_t *l, const json_t *rails)
{
	size_t i;
	json_t *r;

	fprintf(out, "launcher: %s, rank %lld of %lld", json_string_value(json_object_get(l, "launcher")),
		json_integer_value(json_object_get(l, "rank")), json_integer_value(json_object_get(l, "size")));
	if (json_string_length(json_object_get(l, "host")))
		fprintf(out, " (%s)", json_string_value(json_object_get(l, "host")));
	fprintf(out, "\nrendezvous: %s (from %s)\n", json_string_value(json_object_get(l, "rendezvous")),
		json_string_value(json_object_get(l, "rendezvous_from")));
	fprintf(out, "this node's rails:");
	json_array_foreach(rails, i, r) {
		const char *netdev = json_string_value(json_object_get(r, "netdev"));

		fprintf(out, "%s %lld=%s/%lld%s%s", i ? "," : "", json_integer_value(json_object_get(r, "rail")),
			json_string_value(json_object_get(r, "device")), json_integer_value(json_object_get(r, "port")),
			netdev ? " " : "", netdev ? netdev : "");
	}
	fprintf(out, "\n\n");
}

static void print_round(FILE *out, const json_t *round)
{
	const json_t *tests = json_object_get(round, "tests"), *byes = json_object_get(round, "byes"), *t;
	long long rail = -2;
	size_t i;

	fprintf(out, "  round %lld:", json_integer_value(json_object_get(round, "round")));
	json_array_foreach(tests, i, t) {
		const json_t *r = json_object_get(t, "rail");

		if (json_is_integer(r) && json_integer_value(r) != rail) {
			rail = json_integer_value(r);
			fprintf(out, "%s rail %lld:", i ? ";" : "", rail);
		}
		fprintf(out, " %lld-%lld", json_integer_value(json_object_get(t, "a")),
			json_integer_value(json_object_get(t, "b")));
	}
	if (json_array_size(byes)) {
		fprintf(out, " (out:");
		json_array_foreach(byes, i, t)
			fprintf(out, " %lld", json_integer_value(t));
		fprintf(out, ")");
	}
	fputc('\n', out);
}

void mesh_print_text(FILE *out, const json_t *doc)
{
	const json_t *schedule = json_object_get(doc, "schedule"), *launch = json_object_get(doc, "launch"), *r;
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	long long nodes = json_integer_value(json_object_get(doc, "nodes"));
	long long rails = json_integer_value(json_object_get(doc, "rails"));
	long long rounds = json_integer_value(json_object_get(doc, "rounds"));
	char total[32];
	size_t i;

	if (launch)
		print_launch(out, launch, json_object_get(doc, "local_rails"));
	mesh_duration_text(json_real_value(json_object_get(doc, "estimated_seconds")), total, sizeof(total));
	fprintf(out, "plan: %s over %lld nodes, %lld rail%s each\n", kind, nodes, rails, rails == 1 ? "" : "s");
	fprintf(out, "%lld round%s, %lld test%s in all, at most %lld in a round\n", rounds, rounds == 1 ? "" : "s",
		json_integer_value(json_object_get(doc, "tests")),
		json_integer_value(json_object_get(doc, "tests")) == 1 ? "" : "s",
		json_integer_value(json_object_get(doc, "round_tests_max")));
	fprintf(out, "a round: %s%.3g s of bw + %.3g s of setup%s = %.4g s\n",
		strcmp(kind, "rail") == 0 ? "" : "for each rail in turn, ",
		json_real_value(json_object_get(doc, "bw_seconds")), json_real_value(json_object_get(doc, "setup_seconds")),
		strcmp(kind, "rail") == 0 ? ", the rails side by side" : "",
		json_real_value(json_object_get(doc, "round_seconds")));
	fprintf(out, "estimated time: %s (%lld rounds x %.4g s)\n", total, rounds,
		json_real_value(json_object_get(doc, "round_seconds")));
	if (nodes > MESH_TEXT_ROUNDS_NODES_MAX || !json_is_array(schedule)) {
		fprintf(out, "(the rounds' pairs are listed up to %d nodes%s)\n", MESH_TEXT_ROUNDS_NODES_MAX,
			json_is_array(schedule) ? "; --json lists them" : "");
		return;
	}
	fprintf(out, "rounds (ranks a-b):\n");
	json_array_foreach(schedule, i, r)
		print_round(out, r);
}
