// SPDX-License-Identifier: GPL-2.0-only
/* compare/v1 as text. The verdict first, then the rows of the table with an odd cell (marked !) and a count of the
 * others (-v: every row), then what is wrong with the fix to paste: 200 agreeing nodes are one line, not 200. */
#include "output/compare_text.h"

#include <string.h>

#include "output/render.h"

static const struct column columns[] = {
	{ "name", "NODE" }, { "kernel", "KERNEL" }, { "rdma_core", "RDMA_CORE" }, { "hcas", "HCAS" },
	{ "firmware", "FIRMWARE" }, { "mtu", "MTU" }, { "nccl", "NCCL" }, { "gid_index_pinned", "GID_INDEX" },
};
#define COLUMNS (sizeof(columns) / sizeof(columns[0]))

static void cell(const json_t *node, size_t c, char *buf, size_t size)
{
	size_t len;

	render_cell(json_object_get(node, columns[c].key), buf, size);
	len = strlen(buf);
	if (json_is_true(json_object_get(json_object_get(node, "marked"), columns[c].key)) && len + 1 < size)
		strcpy(buf + len, "!");
}

static bool row_marked(const json_t *node)
{
	const json_t *marked = json_object_get(node, "marked");

	return marked && json_object_size(marked) > 0;
}

/* The table: every node with all, else only the rows with an odd cell and a count of the others. */
static void print_table(FILE *out, const json_t *nodes, bool all)
{
	size_t width[COLUMNS], i, shown = 0;
	json_t *node;
	char buf[256];

	for (size_t c = 0; c < COLUMNS; c++)
		width[c] = strlen(columns[c].header);
	json_array_foreach(nodes, i, node) {
		if (!all && !row_marked(node))
			continue;
		shown++;
		for (size_t c = 0; c < COLUMNS; c++) {
			cell(node, c, buf, sizeof(buf));
			if (strlen(buf) > width[c])
				width[c] = strlen(buf);
		}
	}
	if (shown == 0) {
		fprintf(out, json_array_size(nodes) == 1 ? "one node: nothing to differ from (-v shows its row)\n"
			     : "every node agrees on every column of the table (-v shows every row)\n");
		return;
	}
	for (size_t c = 0; c < COLUMNS; c++)
		fprintf(out, "%-*s%s", c + 1 < COLUMNS ? (int)width[c] : 0, columns[c].header, c + 1 < COLUMNS ? "  " : "\n");
	json_array_foreach(nodes, i, node) {
		if (!all && !row_marked(node))
			continue;
		for (size_t c = 0; c < COLUMNS; c++) {
			cell(node, c, buf, sizeof(buf));
			fprintf(out, "%-*s%s", c + 1 < COLUMNS ? (int)width[c] : 0, buf, c + 1 < COLUMNS ? "  " : "\n");
		}
	}
	if (json_array_size(nodes) > shown)
		fprintf(out, "(%zu other node%s: no cell differs; -v shows every row)\n", json_array_size(nodes) - shown,
			json_array_size(nodes) - shown == 1 ? "" : "s");
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

void compare_text_print(FILE *out, const json_t *doc, bool verbose)
{
	const json_t *counts = json_object_get(doc, "counts"), *it, *line;
	size_t i, k, folded = 0;

	long long nodes = json_integer_value(json_object_get(counts, "nodes"));

	fprintf(out, "verdict: %s (%lld node%s; %lld fail, %lld warn, %lld info)\n\n", str(doc, "verdict"), nodes,
		nodes == 1 ? "" : "s", json_integer_value(json_object_get(counts, "fail")),
		json_integer_value(json_object_get(counts, "warn")), json_integer_value(json_object_get(counts, "info")));
	print_table(out, json_object_get(doc, "nodes"), verbose);
	fputc('\n', out);
	json_array_foreach(json_object_get(doc, "findings"), i, it) {
		char tag[8];

		if (!verbose && strcmp(str(it, "severity"), "ok") == 0) {
			folded++;
			continue;
		}
		snprintf(tag, sizeof(tag), "%s", str(it, "severity"));
		for (char *c = tag; *c; c++)
			*c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
		fprintf(out, "  %-4s  %-26s %s: %s\n", tag, str(it, "id"), str(it, "subject"), str(it, "message"));
		json_array_foreach(json_object_get(it, "fix_lines"), k, line)   /* never wrapped: pasted as printed */
			fprintf(out, "        %s %s\n", k == 0 ? "fix:" : "    ", json_string_value(line));
	}
	if (folded)
		fprintf(out, "  %zu ok finding%s not shown: -v shows them\n", folded, folded == 1 ? "" : "s");
}
