// SPDX-License-Identifier: GPL-2.0-only
/* check --list: the catalog as a roce-doctor/check-list/v1 document, printed as a table or as JSON. Needs no
 * host: it says what check can look at, not what it found. */
#include "cmd/check_list.h"

#include "core/check_catalog.h"
#include "output/render.h"

static const struct column list_columns[] = {
	{ "id", "ID" },
	{ "area", "AREA" },
	{ "looks_at", "LOOKS_AT" },
};

static void print_list(FILE *out, const json_t *doc)
{
	render_table(out, json_object_get(doc, "checks"), list_columns, sizeof(list_columns) / sizeof(list_columns[0]));
}

int check_list_emit(const struct app *app, const struct findings *wanted)
{
	json_t *doc = doc_new("check-list"), *checks = json_array();
	struct notes none = { 0 };
	int code;

	for (size_t i = 0; i < check_catalog_count; i++) {
		char area[40];

		if (!findings_wanted(wanted, check_catalog[i].id))
			continue;
		json_array_append_new(checks, json_pack("{s:s, s:s, s:s}", "id", check_catalog[i].id, "area",
							check_area(check_catalog[i].id, area, sizeof(area)), "looks_at",
							check_catalog[i].looks_at));
	}
	json_object_set_new(doc, "checks", checks);
	code = app_emit(app, doc, &none, print_list, EXIT_OK);
	json_decref(doc);
	return code;
}
