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
	if (!value || json_is_null(value))
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

void render_table(FILE *out, const json_t *rows, const struct column *columns, size_t count)
{
	size_t *width = calloc(count, sizeof(*width));
	char cell[256];
	size_t i, c;
	json_t *row;

	if (!width)
		return;
	for (c = 0; c < count; c++)
		width[c] = strlen(columns[c].header);
	json_array_foreach(rows, i, row) {
		for (c = 0; c < count; c++) {
			render_cell(json_object_get(row, columns[c].key), cell, sizeof(cell));
			if (strlen(cell) > width[c])
				width[c] = strlen(cell);
		}
	}
	for (c = 0; c < count; c++)
		fprintf(out, "%-*s%s", c + 1 < count ? (int)width[c] : 0, columns[c].header, c + 1 < count ? "  " : "\n");
	json_array_foreach(rows, i, row) {
		for (c = 0; c < count; c++) {
			render_cell(json_object_get(row, columns[c].key), cell, sizeof(cell));
			fprintf(out, "%-*s%s", c + 1 < count ? (int)width[c] : 0, cell, c + 1 < count ? "  " : "\n");
		}
	}
	free(width);
}
