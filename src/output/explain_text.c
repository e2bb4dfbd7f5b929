// SPDX-License-Identifier: GPL-2.0-only
/* explain's text: the facts the log states, then each problem with its lines, meaning, the check ids that
 * look at its cause (and, with --with-check, what they found here) and the fix; last, how much was read. */
#include "output/explain_text.h"

#include <stdbool.h>
#include <string.h>

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

static long long num(const json_t *obj, const char *key)
{
	return json_integer_value(json_object_get(obj, key));
}

static void print_list(FILE *out, const char *label, const json_t *items, const char *sep)
{
	size_t i;
	json_t *v;

	fprintf(out, "%s", label);
	json_array_foreach(items, i, v) {
		if (json_is_integer(v))
			fprintf(out, "%s%lld", i ? sep : "", json_integer_value(v));
		else
			fprintf(out, "%s%s", i ? sep : "", json_string_value(v));
	}
}

/* "node-b rank 2, node-b rank 3 (and 5 more)": who showed a problem, in a job of several ranks. */
static void print_ranks(FILE *out, const json_t *p)
{
	const json_t *ranks = json_object_get(p, "ranks");
	size_t i;
	json_t *v;

	if (!json_array_size(ranks))
		return;
	fprintf(out, "        ranks: ");
	json_array_foreach(ranks, i, v)
		fprintf(out, "%s%s", i ? ", " : "", str(v, "name"));
	if (num(p, "ranks_more"))
		fprintf(out, " (and up to %lld more)", num(p, "ranks_more"));
	fputc('\n', out);
}

/* The job's first failure and its cause, ahead of everything when the log is several ranks'. */
static void print_first_failure(FILE *out, const json_t *doc)
{
	const json_t *f = json_object_get(doc, "first_failure"), *problems = json_object_get(doc, "findings");
	size_t i;
	json_t *v;

	if (!json_is_object(f))
		return;
	fprintf(out, "first failure: %s (%s line %lld", str(f, "name"), str(f, "file"), num(f, "line"));
	if (json_is_string(json_object_get(f, "time")))
		fprintf(out, ", %s", str(f, "time"));
	fprintf(out, "): %s", str(f, "id"));
	if (json_is_string(json_object_get(f, "peer")))
		fprintf(out, ", peer %s", str(f, "peer"));
	if (json_is_string(json_object_get(f, "hca")))
		fprintf(out, ", HCA %s", str(f, "hca"));
	fputc('\n', out);
	json_array_foreach(problems, i, v)
		if (strcmp(str(v, "id"), str(f, "id")) == 0)
			fprintf(out, "  > %s\n  %s\n", str(v, "quote"), str(v, "message"));
	if (json_is_string(json_object_get(f, "explains")))
		fprintf(out, "  the cause of %s after it on that rank\n", str(f, "explains"));
	if (json_is_true(json_object_get(f, "effect")))
		fprintf(out, "  cause: not in these logs: %s follows another rank's failure; give explain every "
			"rank's log (the failing rank's may be missing, or it died without a word: dmesg, the "
			"scheduler's log on its node)\n", str(f, "id"));
}

static void print_problem(FILE *out, const json_t *p, bool job)
{
	const json_t *host = json_object_get(p, "host"), *checks = json_object_get(p, "checks");
	size_t i;
	json_t *v;

	fprintf(out, "  %-5s %s  ", str(p, "severity"), str(p, "id"));
	print_list(out, json_array_size(json_object_get(p, "lines")) > 1 ? "lines " : "line ",
		   json_object_get(p, "lines"), ",");
	if (num(p, "count") > (long long)json_array_size(json_object_get(p, "lines")))
		fprintf(out, " ... (%lld lines)", num(p, "count"));
	fprintf(out, "\n        > %s\n        %s\n", str(p, "quote"), str(p, "message"));
	if (job)
		print_ranks(out, p);
	if (json_array_size(checks)) {
		print_list(out, "        checks: ", checks, ", ");
		fputc('\n', out);
	}
	if (json_is_array(host)) {
		if (!json_array_size(host) && json_array_size(checks))
			fprintf(out, "        this host: those checks found nothing wrong\n");
		json_array_foreach(host, i, v)
			fprintf(out, "        this host: %s %s: %s: %s\n", str(v, "id"), str(v, "severity"),
				str(v, "subject"), str(v, "message"));
	}
	json_array_foreach(json_object_get(p, "fix_lines"), i, v)
		fprintf(out, "        %s %s\n", i ? "    " : "fix:", json_string_value(v));
	json_array_foreach(host, i, v) {
		size_t k;
		json_t *line;

		json_array_foreach(json_object_get(v, "fix_lines"), k, line)
			fprintf(out, "        %s %s\n", k ? "    " : "fix here:", json_string_value(line));
	}
}

/* "eth2 (mlx5_0/1)", or what of it is known */
static void print_port(FILE *out, const json_t *v)
{
	const char *net = str(v, "netdev"), *dev = str(v, "device");

	if (*net && *dev)
		fprintf(out, "%s (%s/%lld)", net, dev, num(v, "port"));
	else if (*net || *dev)
		fprintf(out, "%s", *net ? net : dev);
	else
		fprintf(out, "the port no command line named");
}

/* The QoS settings and counters pasted among the lines: what was read, check's lossless findings on it, the
 * counters that moved with their meaning. */
static void print_pastes(FILE *out, const json_t *pastes)
{
	size_t i, k;
	json_t *v, *line;

	if (!json_is_object(pastes))
		return;
	fprintf(out, "pasted (%lld lines):", num(pastes, "lines"));
	json_array_foreach(json_object_get(pastes, "blocks"), i, v) {
		fprintf(out, "%s %s line %lld for ", i ? "," : "", str(v, "kind"), num(v, "line"));
		print_port(out, v);
	}
	if (num(pastes, "blocks_more"))
		fprintf(out, " (and %lld more)", num(pastes, "blocks_more"));
	fputc('\n', out);
	json_array_foreach(json_object_get(pastes, "ports"), i, v) {
		fprintf(out, "  read for ");
		print_port(out, v);
		if (json_is_string(json_object_get(v, "trust")))
			fprintf(out, ": trust %s", str(v, "trust"));
		if (json_is_array(json_object_get(v, "pfc")))
			print_list(out, json_array_size(json_object_get(v, "pfc")) ? ", PFC on " : ", PFC off",
				   json_object_get(v, "pfc"), ",");
		if (json_array_size(json_object_get(v, "ecn")))
			print_list(out, ", ECN on ", json_object_get(v, "ecn"), ",");
		if (json_is_integer(json_object_get(v, "forced_tc")))
			fprintf(out, ", traffic class %lld forced", num(v, "forced_tc"));
		if (json_is_integer(json_object_get(v, "default_roce_tos")))
			fprintf(out, ", rdma_cm's default_roce_tos %lld (rdma_cm users; NCCL sends NCCL_IB_TC)",
				num(v, "default_roce_tos"));
		if (!json_is_true(json_object_get(v, "read")))
			fprintf(out, "%s", json_is_integer(json_object_get(v, "forced_tc")) ||
					   json_is_integer(json_object_get(v, "default_roce_tos")) ? "" : ": not read");
		fputc('\n', out);
	}
	if (json_is_string(json_object_get(pastes, "nccl_ib_tc")))
		fprintf(out, "  NCCL_IB_TC=%s, as the log states it\n", str(pastes, "nccl_ib_tc"));
	json_array_foreach(json_object_get(pastes, "findings"), i, v) {
		fprintf(out, "  %-5s %s  %s: %s\n", str(v, "severity"), str(v, "id"), str(v, "subject"), str(v, "message"));
		json_array_foreach(json_object_get(v, "fix_lines"), k, line)
			fprintf(out, "        %s %s\n", k ? "    " : "fix:", json_string_value(line));
	}
	json_array_foreach(json_object_get(pastes, "counters"), i, v) {
		fprintf(out, "  counter %s %lld", str(v, "name"), num(v, "value"));
		if (num(v, "seen") > 1)
			fprintf(out, " (was %lld: moved %lld)", num(v, "first"), num(v, "value") - num(v, "first"));
		fprintf(out, " on ");
		print_port(out, v);
		fprintf(out, ": %s: %s", str(v, "title"), str(v, "meaning"));
		if (json_is_string(json_object_get(v, "check")))
			fprintf(out, " (check %s)", str(v, "check"));
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(pastes, "traffic"), i, v) {
		fprintf(out, "  traffic on ");
		print_port(out, v);
		if (json_array_size(json_object_get(v, "priorities")))
			print_list(out, ": priority ", json_object_get(v, "priorities"), ", ");
		else
			fprintf(out, ": no per-priority packet counter moved");
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(pastes, "notes"), i, v)
		fprintf(out, "  note: %s\n", json_string_value(v));
}

void explain_text_print(FILE *out, const json_t *doc)
{
	const json_t *facts = json_object_get(doc, "facts"), *problems = json_object_get(doc, "findings");
	const json_t *s = json_object_get(doc, "summary");
	size_t i;
	json_t *v;

	fprintf(out, "explain %s", str(doc, "input"));
	if (json_is_string(json_object_get(doc, "compression")))
		fprintf(out, " (%s)", str(doc, "compression"));
	fprintf(out, ": %s (%zu problem%s", str(doc, "verdict"), json_array_size(problems),
		json_array_size(problems) == 1 ? "" : "s");
	if (json_array_size(json_object_get(doc, "ranks")) > 1)
		fprintf(out, ", %zu ranks", json_array_size(json_object_get(doc, "ranks")));
	fprintf(out, ")\n");
	if (json_array_size(json_object_get(doc, "ranks")) > 1)
		print_first_failure(out, doc);
	if (json_array_size(facts)) {
		fprintf(out, "facts:\n");
		json_array_foreach(facts, i, v) {
			fprintf(out, "  %-20s %s  (line %lld", str(v, "fact"), str(v, "value"), num(v, "line"));
			if (num(v, "count") > 1)
				fprintf(out, ", %lld times", num(v, "count"));
			fprintf(out, ")\n");
		}
		if (num(s, "facts_dropped"))
			fprintf(out, "  (%lld more facts not kept)\n", num(s, "facts_dropped"));
	}
	if (json_array_size(problems)) {
		fprintf(out, "problems:\n");
		json_array_foreach(problems, i, v)
			print_problem(out, v, json_array_size(json_object_get(doc, "ranks")) > 1);
	}
	print_pastes(out, json_object_get(doc, "pastes"));
	fprintf(out, "%lld of %lld lines recognised", num(s, "recognised"), num(s, "lines") - num(s, "blank"));
	if (num(s, "blank"))
		fprintf(out, " (%lld blank not counted)", num(s, "blank"));
	if (num(s, "truncated"))
		fprintf(out, "; %lld longer than 4096 bytes, read up to there", num(s, "truncated"));
	if (num(s, "binary"))
		fprintf(out, "; %lld with control bytes or NUL", num(s, "binary"));
	if (num(doc, "ranks_cut_lines"))
		fprintf(out, "; %lld lines of ranks past the first %d not put to a rank", num(doc, "ranks_cut_lines"), 4096);
	fputc('\n', out);
}

void explain_list_print(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *v;

	fprintf(out, "%-32s %-8s %s\n", "ID", "SEVERITY", "MATCHES / CHECK IDS");
	json_array_foreach(json_object_get(doc, "patterns"), i, v) {
		const json_t *regex = json_object_get(v, "regex");

		fprintf(out, "%-32s %-8s %s\n", str(v, "id"), str(v, "severity"),
			json_is_string(regex) ? json_string_value(regex) : str(v, "needle"));
		if (json_array_size(json_object_get(v, "checks"))) {
			print_list(out, "                                          checks: ",
				   json_object_get(v, "checks"), ",");
			fputc('\n', out);
		}
	}
}
