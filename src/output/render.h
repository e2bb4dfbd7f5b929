// SPDX-License-Identifier: GPL-2.0-only
/* The one output model: commands build a JSON document; it is printed as JSON or as aligned text. */
#ifndef ROCE_DOCTOR_RENDER_H
#define ROCE_DOCTOR_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/notes.h"

struct column {
	const char *key;      /* member of each row object */
	const char *header;   /* text table heading */
};

/* {"schema": "roce-doctor/<name>/v1"} */
json_t *doc_new(const char *name);

/* A string member, or null when empty (unknown). */
json_t *json_str_or_null(const char *s);

/* "warnings": [...], which every document has (README): warnings NULL keeps a list the document already has,
 * else makes it empty. */
void doc_add_warnings(json_t *doc, const struct notes *warnings);

/* Exactly one JSON document and a newline, indented. 0 or -EIO. */
int render_json(FILE *out, const json_t *doc);

/* The same, indented or on one line (members still separated by ", " and ": ", so a line-oriented grep for
 * "key": "value" finds it either way). */
int render_json_as(FILE *out, const json_t *doc, bool pretty);

/* An aligned table of the row objects in rows; null and missing members print as "-". */
void render_table(FILE *out, const json_t *rows, const struct column *columns, size_t count);

/* The same within width columns (0: any width): columns whose drop rank (drop[c], one per column) is not 0
 * are left out, the highest rank first, until the table fits, and a last line names those left out. */
void render_table_fit(FILE *out, const json_t *rows, const struct column *columns, const unsigned *drop,
		      size_t count, unsigned width);

/* One cell's text, as the table prints it: an array's items joined by ",", an empty one as "-". */
void render_cell(const json_t *value, char *buf, size_t size);

#endif
