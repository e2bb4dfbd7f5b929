// SPDX-License-Identifier: GPL-2.0-only
/* check's text layout. The verdict leads, the rails follow as a table, then only what needs doing. */
#include "output/check_text.h"

#include <stdbool.h>
#include <string.h>

#include "output/render.h"

#define RESET "\033[0m"

static const char *colour_of(const char *severity)
{
	if (strcmp(severity, "fail") == 0)
		return "\033[1;31m";
	if (strcmp(severity, "warn") == 0)
		return "\033[1;33m";
	if (strcmp(severity, "info") == 0)
		return "\033[36m";
	return "\033[32m";
}

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

static long long num(const json_t *obj, const char *key)
{
	return (long long)json_integer_value(json_object_get(obj, key));
}

static void print_verdict(FILE *out, const json_t *doc, const struct text_style *st)
{
	const json_t *counts = json_object_get(doc, "counts");
	const char *verdict = str(doc, "verdict");

	fprintf(out, "verdict: %s%s%s (%lld fail, %lld warn, %lld info, %lld ok)\n", st->colour ? colour_of(verdict) : "",
		verdict, st->colour ? RESET : "", num(counts, "fail"), num(counts, "warn"), num(counts, "info"),
		num(counts, "ok"));
}

/* The table's columns: heading and the member of a "ports" row (also the key of its "marked" object). */
static const struct { const char *header, *member; } table_columns[] = {
	{ "PORT", "port" }, { "NETDEV", "netdev" }, { "STATE", "state" }, { "RATE", "rate_gbps" },
	{ "MTU", "netdev_mtu" }, { "GID", "gid_index" }, { "NUMA", "numa_node" },
};
#define TABLE_COLUMNS (sizeof(table_columns) / sizeof(table_columns[0]))

/* One cell's text, with "!" when a finding is about it. */
static void table_cell(const json_t *row, size_t c, char *buf, size_t size)
{
	const char *member = table_columns[c].member;
	const json_t *v = json_object_get(row, member);
	char text[96];

	if (strcmp(member, "port") == 0)
		snprintf(text, sizeof(text), "%s/%lld", str(row, "device"), num(row, "port"));
	else if (strcmp(member, "netdev") == 0 && json_is_string(v) && strcmp(str(row, "netdev_state"), "up") != 0)
		snprintf(text, sizeof(text), "%s (%s)", json_string_value(v),
			 json_is_string(json_object_get(row, "netdev_state")) ? str(row, "netdev_state") : "unknown");
	else if (strcmp(member, "rate_gbps") == 0 && json_is_number(v))
		snprintf(text, sizeof(text), "%g Gb/s", json_number_value(v));
	else
		render_cell(v, text, sizeof(text));
	snprintf(buf, size, "%s%s", text, json_object_get(json_object_get(row, "marked"), member) ? "!" : "");
}

static void print_port_table(FILE *out, const json_t *ports, const struct text_style *st)
{
	size_t width[TABLE_COLUMNS], i, c;
	bool any_marked = false;
	char cell[128];
	json_t *row;

	if (json_array_size(ports) == 0)
		return;
	for (c = 0; c < TABLE_COLUMNS; c++)
		width[c] = strlen(table_columns[c].header);
	json_array_foreach(ports, i, row)
		for (c = 0; c < TABLE_COLUMNS; c++) {
			table_cell(row, c, cell, sizeof(cell));
			if (strlen(cell) > width[c])
				width[c] = strlen(cell);
		}
	fputc('\n', out);
	for (c = 0; c < TABLE_COLUMNS; c++)
		fprintf(out, "%-*s%s", c + 1 < TABLE_COLUMNS ? (int)width[c] : 0, table_columns[c].header,
			c + 1 < TABLE_COLUMNS ? "  " : "\n");
	json_array_foreach(ports, i, row) {
		const json_t *marked = json_object_get(row, "marked");

		for (c = 0; c < TABLE_COLUMNS; c++) {
			const char *sev = json_string_value(json_object_get(marked, table_columns[c].member));
			bool last = c + 1 == TABLE_COLUMNS;

			table_cell(row, c, cell, sizeof(cell));
			any_marked |= sev != NULL;
			/* Padding outside the colour, so escapes never count towards the width. */
			fprintf(out, "%s%s%s%*s%s", sev && st->colour ? colour_of(sev) : "", cell,
				sev && st->colour ? RESET : "", last ? 0 : (int)(width[c] - strlen(cell)), "",
				last ? "" : "  ");
		}
		fprintf(out, "%s\n", json_is_false(json_object_get(row, "selected")) ? "  (not in NCCL_IB_HCA: not checked)" : "");
	}
	if (any_marked)
		fprintf(out, "(! marks a cell that a finding below is about)\n");
}

/* "subject: message", or the message alone when it begins with the subject ("eth0 is up", not
 * "eth0: eth0 is up"). */
static void subject_and_message(const char *subject, const char *message, char *buf, size_t size)
{
	size_t len = strlen(subject);

	if (len && strncmp(message, subject, len) == 0 && message[len] && strchr(" :,", message[len]))
		snprintf(buf, size, "%s", message);
	else
		snprintf(buf, size, "%s: %s", subject, message);
}

static void print_finding(FILE *out, const json_t *it, const struct text_style *st)
{
	const char *sev = str(it, "severity");
	const json_t *lines = json_object_get(it, "fix_lines"), *line;
	char tag[8], text[4096];
	size_t i;
	int at;

	snprintf(tag, sizeof(tag), "%s", sev);
	for (char *c = tag; *c; c++)
		*c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
	at = fprintf(out, "  %s%-4s%s  %-18s ", st->colour ? colour_of(sev) : "", tag, st->colour ? RESET : "",
		     str(it, "id"));
	if (st->colour)
		at -= (int)(strlen(colour_of(sev)) + strlen(RESET));
	subject_and_message(str(it, "subject"), str(it, "message"), text, sizeof(text));
	text_print_wrapped(out, text, at > 0 ? (size_t)at : 0, at > 0 ? (size_t)at : 0, st);
	if (strcmp(sev, "ok") == 0)
		return;
	json_array_foreach(lines, i, line)    /* never wrapped: a fix line must paste as printed */
		fprintf(out, "        %s %s\n", i == 0 ? "fix:" : "    ", json_string_value(line));
}

void check_text_print(FILE *out, const json_t *doc, const struct text_style *style)
{
	const json_t *list = json_object_get(doc, "findings");
	const char *last_area = "";
	size_t i, folded = 0;
	json_t *it;

	print_verdict(out, doc, style);
	print_port_table(out, json_object_get(doc, "ports"), style);
	json_array_foreach(list, i, it) {
		const char *area = str(it, "area");

		if (!style->verbose && strcmp(str(it, "severity"), "ok") == 0) {
			folded++;
			continue;
		}
		if (strcmp(area, last_area) != 0)
			fprintf(out, "\n%s\n", area);
		last_area = area;
		print_finding(out, it, style);
	}
	if (folded)
		fprintf(out, "\n%zu ok finding(s) not shown: -v shows them\n", folded);
}
