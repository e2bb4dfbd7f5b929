/* NCCL's NCCL_IB_HCA / NCCL_SOCKET_IFNAME list syntax and matching, re-implemented to give the same answers
 * (rules in model/nccl_match.h). Pure functions. */
#include "model/nccl_match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One "prefix[:port[:rail[:plane]]]" entry; false when its prefix is empty (NCCL skips it). */
static bool parse_entry(char *text, struct nccl_if_entry *e)
{
	char *colon = strchr(text, ':');

	if (colon)
		*colon = '\0';
	if (!*text)
		return false;
	snprintf(e->prefix, sizeof(e->prefix), "%s", text);
	e->port = -1;
	if (colon) {
		char *port = colon + 1;

		port[strcspn(port, ":")] = '\0';
		if (*port)
			e->port = atoi(port);
	}
	return true;
}

void nccl_if_list_parse(const char *value, size_t max, struct nccl_if_list *out)
{
	char *copy, *save = NULL;

	memset(out, 0, sizeof(*out));
	if (!value)
		return;
	if (*value == '^') {
		out->exclude = true;
		value++;
	}
	if (*value == '=') {
		out->exact = true;
		value++;
	}
	if (max > NCCL_IB_HCA_ENTRIES_MAX)
		max = NCCL_IB_HCA_ENTRIES_MAX;
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
