// SPDX-License-Identifier: GPL-2.0-only
/* JSON and text renderers over the same document. */
#include "output/render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

json_t *doc_new(const char *name)
{
	char schema[128];

	snprintf(schema, sizeof(schema), "roce-doctor/%s/v1", name);
	return json_pack("{s:s}", "schema", schema);
}

json_t *json_str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

void doc_add_warnings(json_t *doc, const struct notes *warnings)
{
	json_t *list;

	/* A command that keeps its own list (or has nothing to warn about: NULL) still answers the member. */
	if (!warnings && json_is_array(json_object_get(doc, "warnings")))
		return;
	list = json_array();
	for (size_t i = 0; warnings && i < warnings->count; i++)
		json_array_append_new(list, json_string(warnings->items[i]));
	if (warnings && warnings->dropped)
		json_array_append_new(list, json_sprintf("%zu more warnings not shown", warnings->dropped));
	json_object_set_new(doc, "warnings", list);
}

int render_json_as(FILE *out, const json_t *doc, bool pretty)
{
	/* JSON_INDENT(0) without JSON_COMPACT: jansson's one line with its usual separators. */
	if (json_dumpf(doc, out, JSON_INDENT(pretty ? 2 : 0) | JSON_PRESERVE_ORDER) < 0 || fputc('\n', out) == EOF)
		return -EIO;
	return 0;
}

int render_json(FILE *out, const json_t *doc)
{
	return render_json_as(out, doc, true);
}

void render_cell(const json_t *value, char *buf, size_t size)
{
	if (json_is_array(value) && json_array_size(value) > 0) {
		size_t len = 0, i;
		const json_t *it;

		buf[0] = '\0';
		json_array_foreach(value, i, it) {
			char item[128];

			if (len + 1 >= size)
				break;   /* cut short, as any cell is */
			render_cell(it, item, sizeof(item));
			len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "", item);
		}
		return;
	}
	if (!value || json_is_null(value) || json_is_array(value))
		snprintf(buf, size, "-");
	else if (json_is_string(value))
		snprintf(buf, size, "%s", json_string_value(value));
	else if (json_is_integer(value))
		snprintf(buf, size, "%lld", (long long)json_integer_value(value));
	else if (json_is_real(value))
		snprintf(buf, size, "%.1f", json_real_value(value));
	else if (json_is_boolean(value))
		snprintf(buf, size, "%s", json_is_true(value) ? "yes" : "no");
	else
		snprintf(buf, size, "?");
}

/* The width of the table's lines with the columns shown: each column and two spaces between them. */
static size_t table_width(const size_t *width, const bool *shown, size_t count)
{
	size_t total = 0, n = 0;

	for (size_t c = 0; c < count; c++)
		if (shown[c]) {
			total += width[c];
			n++;
		}
	return total + (n ? 2 * (n - 1) : 0);
}

/* Too wide: the columns that are always shown, then each other one in rank order that still fits (a narrow
 * column of a high rank may fit where a wide one of a lower rank did not). */
static void choose_columns(const size_t *width, const unsigned *drop, bool *shown, size_t count, size_t fit)
{
	unsigned rank = 0;

	for (size_t c = 0; c < count; c++)
		shown[c] = !drop[c];
	for (;;) {
		unsigned next = 0;

		for (size_t c = 0; c < count; c++)
			if (drop[c] > rank && (!next || drop[c] < next))
				next = drop[c];
		if (!next)
			return;
		rank = next;
		for (size_t c = 0; c < count; c++) {
			if (drop[c] != rank)
				continue;
			shown[c] = true;
			if (table_width(width, shown, count) > fit)
				shown[c] = false;
		}
	}
}

/* The headings left out, as one note wrapped to fit. */
static void print_left_out(FILE *out, const struct column *columns, const bool *shown, size_t count, size_t fit)
{
	const char *lead = "(not shown, to fit the width:", *tail = "; --json has them)";
	size_t col = strlen(lead), left = 0;

	for (size_t c = 0; c < count; c++)
		left += !shown[c];
	if (!left)
		return;
	fputs(lead, out);
	for (size_t c = 0; c < count; c++) {
		size_t len;

		if (shown[c])
			continue;
		len = 1 + strlen(columns[c].header) + (--left ? 1 : strlen(tail));
		if (col + len > fit) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s%s%s", col ? " " : "", columns[c].header, left ? "," : tail);
		col += len - (col ? 0 : 1);
	}
	fputc('\n', out);
}

static void print_row(FILE *out, const char *const *cells, const size_t *width, const bool *shown, size_t count)
{
	size_t last = count;

	for (size_t c = 0; c < count; c++)
		if (shown[c])
			last = c;
	for (size_t c = 0; c < count; c++)
		if (shown[c])
			fprintf(out, "%-*s%s", c < last ? (int)width[c] : 0, cells[c], c < last ? "  " : "\n");
}

void render_table_fit(FILE *out, const json_t *rows, const struct column *columns, const unsigned *drop,
		      size_t count, unsigned fit)
{
	size_t *width = calloc(count, sizeof(*width)), i, c;
	bool *shown = calloc(count, sizeof(*shown));
	const char **cells = calloc(count, sizeof(*cells));
	char (*text)[256] = calloc(count, sizeof(*text));
	json_t *row;

	if (!width || !shown || !cells || !text)
		goto out;
	for (c = 0; c < count; c++) {
		width[c] = strlen(columns[c].header);
		shown[c] = true;
		cells[c] = text[c];
	}
	json_array_foreach(rows, i, row) {
		for (c = 0; c < count; c++) {
			render_cell(json_object_get(row, columns[c].key), text[c], sizeof(text[c]));
			if (strlen(text[c]) > width[c])
				width[c] = strlen(text[c]);
		}
	}
	if (fit && drop && table_width(width, shown, count) > fit)
		choose_columns(width, drop, shown, count, fit);
	for (c = 0; c < count; c++)
		cells[c] = columns[c].header;
	print_row(out, cells, width, shown, count);
	for (c = 0; c < count; c++)
		cells[c] = text[c];
	json_array_foreach(rows, i, row) {
		for (c = 0; c < count; c++)
			render_cell(json_object_get(row, columns[c].key), text[c], sizeof(text[c]));
		print_row(out, cells, width, shown, count);
	}
	print_left_out(out, columns, shown, count, fit);
out:
	free(text);
	free(cells);
	free(shown);
	free(width);
}

void render_table(FILE *out, const json_t *rows, const struct column *columns, size_t count)
{
	render_table_fit(out, rows, columns, NULL, count, 0);
}
