// SPDX-License-Identifier: GPL-2.0-only
/* The findings list, with --only/--skip applied as findings are added (matching as the catalog says). */
#include "core/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check_catalog.h"

int findings_wanted(const struct findings *f, const char *id)
{
	if (f->only && *f->only) {
		const char *const *o = f->only;

		while (*o && !check_id_selected(id, *o))
			o++;
		if (!*o)
			return 0;
	}
	for (const char *const *s = f->skip; s && *s; s++)
		if (check_id_selected(id, *s))
			return 0;
	return 1;
}

void finding_add(struct findings *f, const char *id, enum severity severity, const char *subject, const char *fix,
		 const char *fmt, ...)
{
	struct finding *item;
	va_list ap;

	if (!findings_wanted(f, id) || f->count >= FINDINGS_MAX)
		return;
	if (f->count == f->capacity) {
		size_t cap = f->capacity ? f->capacity * 2 : 32;
		struct finding *grown = realloc(f->items, cap * sizeof(*grown));
		if (!grown)
			return;
		f->items = grown;
		f->capacity = cap;
	}
	item = &f->items[f->count];
	memset(item, 0, sizeof(*item));
	snprintf(item->id, sizeof(item->id), "%s", id);
	snprintf(item->subject, sizeof(item->subject), "%s", subject ? subject : "");
	item->severity = severity;
	if (f->ids_only) {
		f->count++;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&item->message, fmt, ap) < 0)
		item->message = NULL;
	va_end(ap);
	item->fix = fix ? strdup(fix) : NULL;
	if (!item->message || (fix && !item->fix)) {
		free(item->message);
		free(item->fix);
		return;
	}
	f->count++;
}

void findings_clear(struct findings *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->items[i].message);
		free(f->items[i].fix);
	}
	f->count = 0;
}

void findings_free(struct findings *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->items[i].message);
		free(f->items[i].fix);
	}
	free(f->items);
	f->items = NULL;
	f->count = f->capacity = 0;
}

enum severity findings_worst(const struct findings *f)
{
	enum severity worst = SEVERITY_OK;

	for (size_t i = 0; i < f->count; i++)
		if (f->items[i].severity > worst)
			worst = f->items[i].severity;
	return worst;
}

const char *severity_name(enum severity s)
{
	static const char *const names[] = { "ok", "info", "warn", "fail" };

	return s <= SEVERITY_FAIL ? names[s] : "?";
}
