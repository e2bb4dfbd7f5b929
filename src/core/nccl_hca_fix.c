// SPDX-License-Identifier: GPL-2.0-only
/* nccl.ib_hca's fix for a typo keeps the user's intent: the entries they got right, their '^', '=' and
 * ":port", and for a misspelt entry the HCA name it is nearest to — never a list of every HCA instead. */
#include "core/nccl_hca_fix.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/edit_distance.h"
#include "util/text_append.h"

struct nearest {
	char name[EDIT_NAME_MAX + 1];   /* the suggestion: a whole name, or a prefix of one for a prefix list */
	unsigned edits;
	size_t length_gap;             /* how far its length is from what was typed: the tie-break */
	bool tie;                      /* another, different suggestion is exactly as near */
	char other[EDIT_NAME_MAX + 1];
};

static bool name_matches(const struct nccl_if_list *list, const char *prefix, const char *name)
{
	return list->exact ? strcmp(name, prefix) == 0 : strncmp(name, prefix, strlen(prefix)) == 0;
}

static bool port_exists(const struct nccl_if_list *list, const struct host *h, const char *prefix, int port)
{
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; name_matches(list, prefix, h->devices[i].name) && j < h->devices[i].port_count; j++)
			if ((int)h->devices[i].ports[j].num == port)
				return true;
	return false;
}

static bool any_name_matches(const struct nccl_if_list *list, const struct host *h, const char *prefix)
{
	for (size_t i = 0; i < h->device_count; i++)
		if (name_matches(list, prefix, h->devices[i].name))
			return true;
	return false;
}

static void consider(struct nearest *best, const char *name, size_t len, unsigned edits, size_t typed)
{
	size_t gap = len > typed ? len - typed : typed - len;

	if (edits > best->edits || (edits == best->edits && gap > best->length_gap))
		return;
	if (edits == best->edits && gap == best->length_gap) {
		if (strlen(best->name) != len || strncmp(best->name, name, len) != 0) {
			best->tie = true;
			snprintf(best->other, sizeof(best->other), "%.*s", (int)len, name);
		}
		return;
	}
	snprintf(best->name, sizeof(best->name), "%.*s", (int)len, name);
	best->edits = edits;
	best->length_gap = gap;
	best->tie = false;
}

/* The HCA name (exact list) or name prefix (prefix list) fewest edits away from typed. */
static void find_nearest(const struct nccl_if_list *list, const struct host *h, const char *typed, struct nearest *best)
{
	size_t typed_len = strlen(typed);

	memset(best, 0, sizeof(*best));
	best->edits = ~0u;
	for (size_t i = 0; i < h->device_count; i++) {
		const char *name = h->devices[i].name;
		unsigned d[EDIT_NAME_MAX + 1];
		size_t n = edit_distance_to_prefixes(typed, name, d);

		for (size_t k = list->exact ? n : 1; k <= n; k++)
			consider(best, name, k, d[k], typed_len);
	}
}

static bool near_enough(const struct nearest *best, const char *typed)
{
	return best->edits <= HCA_NEAR_MAX_EDITS && best->edits * 3 <= strlen(typed);
}

static void entry_text(const char *name, int port, char *buf, size_t size)
{
	if (port == -1)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s:%d", name, port);
}

/* Whether value's entries (after '^'/'=') already hold text: "mlx5_0,mlx_0" fixes to one mlx5_0. */
static bool already_listed(const char *entries, const char *text)
{
	size_t len = strlen(text);

	for (const char *p = entries; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, text, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

size_t nccl_hca_fix(const struct nccl_if_list *list, const unsigned *hits, const struct host *host, char *value,
		    size_t value_size, char *why, size_t why_size)
{
	char entries[1024] = "", text[EDIT_NAME_MAX + 16], typed[EDIT_NAME_MAX + 16];
	size_t kept = 0;

	why[0] = 0;
	for (size_t j = 0; j < list->count; j++) {
		const struct nccl_if_entry *e = &list->entries[j];
		const char *sep = why[0] ? "; " : "";
		struct nearest best;
		int port = e->port;

		entry_text(e->prefix, e->port, typed, sizeof(typed));
		if (hits[j]) {
			snprintf(text, sizeof(text), "%s", typed);
		} else if (any_name_matches(list, host, e->prefix)) {
			/* The name is right: only the port is not there. */
			snprintf(text, sizeof(text), "%s", e->prefix);
			text_append(why, why_size, "%s'%s' -> %s (no port %d there)", sep, typed, text, e->port);
		} else {
			find_nearest(list, host, e->prefix, &best);
			if (best.edits == ~0u || !near_enough(&best, e->prefix)) {
				text_append(why, why_size, "%s'%s' dropped: no HCA name within %d edits of it", sep, typed,
				       HCA_NEAR_MAX_EDITS);
				continue;
			}
			if (best.tie) {
				text_append(why, why_size, "%s'%s' dropped: as near to %s as to %s", sep, typed, best.name,
				       best.other);
				continue;
			}
			if (port != -1 && !port_exists(list, host, best.name, port))
				port = -1;
			entry_text(best.name, port, text, sizeof(text));
			text_append(why, why_size, "%s'%s' -> %s (%u edit%s%s)", sep, typed, text, best.edits,
			       best.edits == 1 ? "" : "s", port == e->port ? "" : ", that port is not there");
		}
		if (already_listed(entries, text))
			continue;
		text_append(entries, sizeof(entries), "%s%s", kept ? "," : "", text);
		kept++;
	}
	snprintf(value, value_size, "%s%s%s", list->exclude ? "^" : "", list->exact ? "=" : "", entries);
	return kept;
}

bool nccl_hca_fix_selects(const char *value, const struct nccl_if_candidate *candidates, size_t n)
{
	struct nccl_if_list list;

	nccl_if_list_parse(value, NCCL_IB_HCA_ENTRIES_MAX, &list);
	for (size_t i = 0; i < n; i++)
		if (nccl_if_list_selects(&list, candidates[i].name, candidates[i].port))
			return true;
	return false;
}
