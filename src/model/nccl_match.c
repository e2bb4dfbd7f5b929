// SPDX-License-Identifier: GPL-2.0-only
/* NCCL's NCCL_IB_HCA / NCCL_SOCKET_IFNAME list syntax and matching, re-implemented to give the same answers
 * (rules in model/nccl_match.h). Pure functions. */
#include "model/nccl_match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int field_int(char **rest)
{
	char *field = *rest;
	char *colon;

	if (!field)
		return -1;
	colon = strchr(field, ':');
	*rest = colon ? colon + 1 : NULL;
	if (colon)
		*colon = '\0';
	return *field ? atoi(field) : -1;
}

/* One "prefix[:port[:rail[:plane]]]" entry, each field absent or empty = -1; false when its prefix is empty
 * (NCCL skips it). */
static bool parse_entry(char *text, struct nccl_if_entry *e)
{
	char *rest = strchr(text, ':');

	if (rest)
		*rest++ = '\0';
	if (!*text)
		return false;
	snprintf(e->prefix, sizeof(e->prefix), "%s", text);
	e->extra_fields = rest && strchr(rest, ':');
	e->port = field_int(&rest);
	e->rail = field_int(&rest);
	e->plane = field_int(&rest);
	return true;
}

/* The part every version reads alike: out emptied, a leading '^' (exclude) then '=' (exact names) taken,
 * max clamped to what out holds. The entries' text, or NULL for no value. */
static const char *list_start(const char *value, size_t *max, struct nccl_if_list *out)
{
	memset(out, 0, sizeof(*out));
	if (!value)
		return NULL;
	if (*value == '^') {
		out->exclude = true;
		value++;
	}
	if (*value == '=') {
		out->exact = true;
		value++;
	}
	if (*max > NCCL_IB_HCA_ENTRIES_MAX)
		*max = NCCL_IB_HCA_ENTRIES_MAX;
	return value;
}

void nccl_if_list_parse(const char *value, size_t max, struct nccl_if_list *out)
{
	char *copy, *save = NULL;

	value = list_start(value, &max, out);
	if (!value)
		return;
	copy = strdup(value);
	if (!copy)
		return;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct nccl_if_entry e;

		if (!parse_entry(tok, &e))
			continue;
		if (out->count < max)
			out->entries[out->count++] = e;
		else
			out->ignored++;
	}
	free(copy);
}

void nccl_if_list_parse_legacy(const char *value, size_t max, struct nccl_if_list *out)
{
	const char *p;

	value = list_start(value, &max, out);
	if (!value)
		return;
	/* Entry by entry as NCCL's character loop goes: a prefix ends at ':' (then the port is atoi of the rest,
	 * and the loop skips to the next ',') or at ','; an empty prefix is no entry. */
	for (p = value; *p;) {
		size_t len = strcspn(p, ":,");
		struct nccl_if_entry e = { .port = -1, .rail = -1, .plane = -1 };
		size_t skip = len + strcspn(p + len, ",");

		if (len) {
			snprintf(e.prefix, sizeof(e.prefix), "%.*s", (int)(len < sizeof(e.prefix) ? len : sizeof(e.prefix) - 1), p);
			if (p[len] == ':') {
				e.port = atoi(p + len + 1);
				e.extra_fields = memchr(p + len + 1, ':', skip - len - 1) != NULL;
			}
			if (out->count < max)
				out->entries[out->count++] = e;
			else
				out->ignored++;
		}
		p += skip;
		if (*p == ',')
			p++;
	}
}

static bool entry_matches(const struct nccl_if_list *list, const struct nccl_if_entry *e, const char *name, int port)
{
	bool name_ok = list->exact ? strcmp(name, e->prefix) == 0 : strncmp(name, e->prefix, strlen(e->prefix)) == 0;

	return name_ok && (port == -1 || e->port == -1 || port == e->port);
}

bool nccl_if_list_selects(const struct nccl_if_list *list, const char *name, int port)
{
	bool listed = list->count == 0;

	for (size_t i = 0; i < list->count && !listed; i++)
		listed = entry_matches(list, &list->entries[i], name, port);
	return listed != list->exclude;
}

void nccl_if_list_match(const struct nccl_if_list *list, const struct nccl_if_candidate *candidates, size_t n,
			bool *selected, unsigned *entry_hits)
{
	if (entry_hits)
		memset(entry_hits, 0, list->count * sizeof(*entry_hits));
	for (size_t i = 0; i < n; i++) {
		if (selected)
			selected[i] = nccl_if_list_selects(list, candidates[i].name, candidates[i].port);
		for (size_t j = 0; entry_hits && j < list->count; j++)
			if (entry_matches(list, &list->entries[j], candidates[i].name, candidates[i].port))
				entry_hits[j]++;
	}
}
