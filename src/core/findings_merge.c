// SPDX-License-Identifier: GPL-2.0-only
/* Root-cause merge of check's findings: pure, on the findings alone (findings_locate() ran before). */
#include "core/findings_merge.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fix_first_command(const char *fix, char *buf, size_t size)
{
	size_t len = fix ? strcspn(fix, "\n") : 0;
	const char *hash;

	snprintf(buf, size, "%.*s", (int)len, fix ? fix : "");
	hash = strstr(buf, " #");
	if (hash)
		buf[hash - buf] = '\0';
	len = strlen(buf);
	while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = '\0';
}

static bool about_port_only(const struct finding *it)
{
	return it->port && strcmp(it->subject, it->netdev) != 0;
}

static bool about_netdev(const struct finding *it)
{
	return it->netdev[0] && strcmp(it->subject, it->netdev) == 0;
}

/* The netdev finding that port finding p folds into, or NULL. */
static struct finding *cause_of(struct findings *f, const struct finding *p)
{
	char want[256], have[256];

	if (p->severity == SEVERITY_OK || !p->fix || !about_port_only(p) || !p->netdev[0])
		return NULL;
	fix_first_command(p->fix, want, sizeof(want));
	if (!want[0])
		return NULL;
	for (size_t i = 0; i < f->count; i++) {
		struct finding *n = &f->items[i];

		if (n->severity == SEVERITY_OK || !n->fix || !about_netdev(n) || strcmp(n->netdev, p->netdev) != 0 ||
		    n->cover_count >= FINDING_COVERS_MAX)
			continue;
		fix_first_command(n->fix, have, sizeof(have));
		if (strcmp(want, have) == 0)
			return n;
	}
	return NULL;
}

static int fold(struct finding *into, struct finding *from)
{
	char *message;

	if (asprintf(&message, "%s; %s: %s", into->message, from->subject, from->message) < 0)
		return -ENOMEM;
	free(into->message);
	into->message = message;
	if (from->severity > into->severity)
		into->severity = from->severity;
	snprintf(into->covers[into->cover_count++], sizeof(into->covers[0]), "%s", from->id);
	free(from->message);
	free(from->fix);
	from->fix = NULL;
	return 0;
}

int findings_merge_root_causes(struct findings *f)
{
	size_t kept = 0;
	int err = 0;

	/* Causes are netdev findings, never removed themselves: mark first, compact after. */
	for (size_t i = 0; i < f->count; i++) {
		struct finding *cause = cause_of(f, &f->items[i]);

		if (cause && fold(cause, &f->items[i]) < 0)
			err = -ENOMEM;      /* this one stays as it was */
		else if (cause)
			f->items[i].message = NULL;
	}
	for (size_t i = 0; i < f->count; i++)
		if (f->items[i].message)
			f->items[kept++] = f->items[i];
	f->count = kept;
	return err;
}
