// SPDX-License-Identifier: GPL-2.0-only
/* Renders counters' document. */
#include "output/counters_text.h"

#include <stdbool.h>
#include <string.h>

#include "model/counter_meaning.h"

/* What the pause and drop rules said of the reading (qos.pause_storm, qos.discards), each with its fix. */
static bool print_findings(FILE *out, const json_t *findings)
{
	size_t i;
	json_t *f;

	json_array_foreach(findings, i, f) {
		const char *fix = json_string_value(json_object_get(f, "fix"));

		fprintf(out, "  %s %s: %s\n", json_string_value(json_object_get(f, "severity")),
			json_string_value(json_object_get(f, "id")), json_string_value(json_object_get(f, "message")));
		for (const char *line = fix; line && *line;) {
			size_t len = strcspn(line, "\n");
			fprintf(out, "    %s %.*s\n", line == fix ? "fix:" : "    ", (int)len, line);
			line += len + (line[len] == '\n');
		}
	}
	return json_array_size(findings) > 0;
}

static void print_port(FILE *out, const json_t *p)
{
	const json_t *moved = json_object_get(p, "moved");
	bool said = false;

	fprintf(out, "%s/%lld", json_string_value(json_object_get(p, "device")),
		(long long)json_integer_value(json_object_get(p, "port")));
	if (json_string_value(json_object_get(p, "netdev")))
		fprintf(out, " (%s)", json_string_value(json_object_get(p, "netdev")));
	fprintf(out, "\n");
	/* Trouble first, in the order an engineer reads them; plain traffic last, on one line. */
	for (int g = COUNTER_PATH_LOSS; g < COUNTER_GROUPS; g++) {
		const char *key = counter_group_key((enum counter_group)g);
		const char *check = NULL;
		bool header = false;
		size_t i;
		json_t *e;

		json_array_foreach(moved, i, e) {
			if (strcmp(json_string_value(json_object_get(e, "group")), key) != 0)
				continue;
			if (!header) {
				fprintf(out, "  %s:\n", counter_group_title((enum counter_group)g));
				header = said = true;
			}
			fprintf(out, "    %-32s %12lld  %10.1f/s  %s\n", json_string_value(json_object_get(e, "name")),
				(long long)json_integer_value(json_object_get(e, "delta")),
				json_real_value(json_object_get(e, "rate_per_s")),
				json_string_value(json_object_get(e, "meaning")));
			if (!check)
				check = json_string_value(json_object_get(e, "check"));
		}
		if (header && check)
			fprintf(out, "    -> roce-doctor check --only %s\n", check);
	}
	said |= print_findings(out, json_object_get(p, "findings"));
	if (!said)
		fprintf(out, "  nothing to say: no loss, congestion, pause, drop or error counter moved\n");
	{
		size_t i, n = 0;
		json_t *e;

		json_array_foreach(moved, i, e)
			if (!strcmp(json_string_value(json_object_get(e, "group")), "traffic"))
				n++;
		if (n)
			fprintf(out, "  traffic: %zu counters moved (--json lists them)\n", n);
	}
	if (json_array_size(json_object_get(p, "resets")))
		fprintf(out, "  reset during the run (not counted): %zu counters\n",
			json_array_size(json_object_get(p, "resets")));
	if (!json_is_true(json_object_get(p, "netdev_stats")))
		fprintf(out, "  (the netdev's driver statistics could not be read)\n");
}

void counters_text_print(FILE *out, const json_t *doc)
{
	size_t s, i;
	json_t *sample, *p;

	json_array_foreach(json_object_get(doc, "samples"), s, sample) {
		if (json_is_string(json_object_get(doc, "command")) || json_object_get(sample, "command_exit"))
			fprintf(out, "over the command (%.1f s, exit %lld):\n", json_real_value(json_object_get(sample, "seconds")),
				(long long)json_integer_value(json_object_get(sample, "command_exit")));
		else
			fprintf(out, "over %.1f s:\n", json_real_value(json_object_get(sample, "seconds")));
		json_array_foreach(json_object_get(sample, "ports"), i, p)
			print_port(out, p);
	}
}

static void prom_sample(FILE *out, const char *name, const json_t *port, const json_t *e, double value)
{
	char num[16];

	snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(json_object_get(port, "port")));
	fprintf(out, "%s{", name);
	prom_label(out, "device", json_string_value(json_object_get(port, "device")), 1);
	prom_label(out, "port", num, 0);
	if (json_string_value(json_object_get(port, "netdev")))
		prom_label(out, "netdev", json_string_value(json_object_get(port, "netdev")), 0);
	prom_label(out, "source", json_string_value(json_object_get(e, "source")), 0);
	prom_label(out, "counter", json_string_value(json_object_get(e, "name")), 0);
	prom_label(out, "group", json_string_value(json_object_get(e, "group")), 0);
	fputs("} ", out);
	prom_value(out, value);
	fputc('\n', out);
}

void counters_prometheus_print(FILE *out, const json_t *doc, const struct run_meta *meta)
{
	const json_t *samples = json_object_get(doc, "samples");
	const json_t *last = json_array_get(samples, json_array_size(samples) - 1);
	static const struct {
		const char *name, *help, *member;
	} metrics[] = {
		{ "roce_doctor_nic_increase", "How much a NIC counter grew over the reading (the interval, or the "
		  "command's run); group says what it means (path_loss, ecn, pfc, receiver, drops, errors, traffic).",
		  "delta" },
		{ "roce_doctor_nic_increase_per_second", "The same growth per second.", "rate_per_s" },
	};
	size_t i, k;
	json_t *port, *e;

	prom_info(out, meta);
	prom_header(out, "roce_doctor_counters_seconds", "gauge", "Seconds the last reading spanned.");
	fputs("roce_doctor_counters_seconds ", out);
	prom_value(out, json_real_value(json_object_get(last, "seconds")));
	fputc('\n', out);
	for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
		prom_header(out, metrics[m].name, "gauge", metrics[m].help);
		json_array_foreach(json_object_get(last, "ports"), i, port)
			json_array_foreach(json_object_get(port, "moved"), k, e)
				prom_sample(out, metrics[m].name, port, e, json_number_value(json_object_get(e, metrics[m].member)));
	}
}
