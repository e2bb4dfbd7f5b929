// SPDX-License-Identifier: GPL-2.0-only
/* Grouping nodes by a value with one sort, and the finding that names the odd groups against the majority. */
#include "core/compare_group.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int keyed_order(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int d = strcmp(x->key, y->key);

	if (d)
		return d;
	return (x->node > y->node) - (x->node < y->node);
}

static int group_order(const void *a, const void *b)
{
	const struct value_group *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->value, y->value);
}

int grouping_build(struct grouping *g, struct keyed *items, size_t count, size_t unknown)
{
	size_t groups = 0;

	memset(g, 0, sizeof(*g));
	g->unknown = unknown;
	g->known = count;
	if (!count)
		return 0;
	qsort(items, count, sizeof(*items), keyed_order);
	for (size_t i = 0; i < count; i++)
		groups += i == 0 || strcmp(items[i].key, items[i - 1].key) != 0;
	g->groups = calloc(groups, sizeof(*g->groups));
	if (!g->groups)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		if (i == 0 || strcmp(items[i].key, items[i - 1].key) != 0) {
			g->groups[g->group_count++] = (struct value_group){ .value = items[i].key, .items = &items[i] };
		}
		g->groups[g->group_count - 1].count++;
	}
	qsort(g->groups, g->group_count, sizeof(*g->groups), group_order);
	g->tie = g->group_count > 1 && g->groups[0].count == g->groups[1].count;
	return 0;
}

void grouping_tie_largest_first(struct grouping *g)
{
	size_t best = 0;

	if (!g->tie)
		return;
	for (size_t i = 1; i < g->group_count && g->groups[i].count == g->groups[0].count; i++)
		if (strtod(g->groups[i].value, NULL) > strtod(g->groups[best].value, NULL))
			best = i;
	if (best) {
		struct value_group first = g->groups[0];

		g->groups[0] = g->groups[best];
		g->groups[best] = first;
	}
}

void grouping_free(struct grouping *g)
{
	free(g->groups);
	memset(g, 0, sizeof(*g));
}

const char *compare_all_nodes(size_t n, char *buf, size_t size)
{
	if (n == 1)
		snprintf(buf, size, "the one node");
	else if (n == 2)
		snprintf(buf, size, "both nodes");
	else
		snprintf(buf, size, "all %zu nodes", n);
	return buf;
}

void compare_concern(const struct compare_ctx *c, size_t node)
{
	struct compare_concerns *cc = c->concerns;

	if (!cc || cc->failed)
		return;
	if (cc->count == cc->capacity) {
		size_t cap = cc->capacity ? cc->capacity * 2 : 64;
		struct compare_concern *more = realloc(cc->items, cap * sizeof(*more));

		if (!more) {
			cc->failed = true;
			return;
		}
		cc->items = more;
		cc->capacity = cap;
	}
	cc->items[cc->count++] = (struct compare_concern){ .finding = c->out->count, .node = node };
}

void compare_node_list(const struct compare_ctx *c, const struct value_group *vg, char *buf, size_t size)
{
	size_t shown = vg->count < COMPARE_NAMES_SHOWN ? vg->count : COMPARE_NAMES_SHOWN;

	for (size_t i = 0; i < vg->count; i++)
		compare_concern(c, vg->items[i].node);
	buf[0] = 0;
	for (size_t i = 0; i < shown; i++)
		text_append(buf, size, "%s%s", i ? "," : "", c->names[vg->items[i].node]);
	if (vg->count > shown)
		text_append(buf, size, " (+%zu more)", vg->count - shown);
}

static void unknown_note(const struct grouping *g, char *buf, size_t size)
{
	buf[0] = 0;
	if (g->unknown)
		snprintf(buf, size, " (%zu node%s unknown)", g->unknown, g->unknown == 1 ? "" : "s");
}

int compare_attribute(const struct compare_ctx *c, const struct attribute_rule *r, const struct grouping *g,
		      bool report_ok)
{
	char unknown[64], nodes[512], line[1024], all[32];
	char *message, *fix;
	size_t odd_nodes = 0, tied = 1;

	unknown_note(g, unknown, sizeof(unknown));
	if (g->group_count == 0) {
		if (report_ok)
			finding_add(c->out, r->id, SEVERITY_INFO, r->subject, NULL, "%s is unknown on %s", r->what,
				    compare_all_nodes(c->n, all, sizeof(all)));
		return 0;
	}
	if (g->group_count == 1) {
		if (report_ok)
			finding_add(c->out, r->id, SEVERITY_OK, r->subject, NULL, "%s is %s on %s%s", r->what,
				    g->groups[0].value, compare_all_nodes(g->known, all, sizeof(all)), unknown);
		return 0;
	}
	enum { TEXT_MAX = 8192 };
	message = calloc(1, TEXT_MAX);
	fix = calloc(1, TEXT_MAX);
	if (!message || !fix) {
		free(message);
		free(fix);
		return -ENOMEM;
	}
	for (size_t i = 1; i < g->group_count; i++)
		odd_nodes += g->groups[i].count;
	while (tied < g->group_count && g->groups[tied].count == g->groups[0].count)
		tied++;
	if (g->tie && g->groups[0].count == 1 && tied == g->known) {
		if (g->known == 2)
			text_append(message, TEXT_MAX, "%s differs between the two nodes: ", r->what);
		else
			text_append(message, TEXT_MAX, "%s differs on every node, so no value has a majority: ", r->what);
		text_append(fix, TEXT_MAX, "no value has a majority: pick the one these nodes need; to align on %s:\n",
			 g->groups[0].value);
	} else if (g->tie) {
		text_append(message, TEXT_MAX, "%s has no majority: the %zu most common values are on %zu nodes each: ",
			 r->what, tied, g->groups[0].count);
		text_append(fix, TEXT_MAX, "no value has a majority: pick the one these nodes need; to align on %s:\n",
			 g->groups[0].value);
	} else {
		text_append(message, TEXT_MAX, "%s: %zu of %zu nodes differ%s from the majority, %s (%zu %s): ", r->what,
			 odd_nodes, g->known, odd_nodes == 1 ? "s" : "", g->groups[0].value, g->groups[0].count,
			 PLURAL_NODES(g->groups[0].count));
	}
	for (size_t i = g->tie ? 0 : 1; i < g->group_count && i < COMPARE_GROUPS_SHOWN + 1; i++) {
		const struct value_group *vg = &g->groups[i];

		compare_node_list(c, vg, nodes, sizeof(nodes));
		text_append(message, TEXT_MAX, "%s%s on %s", i > (g->tie ? 0u : 1u) ? "; " : "", vg->value, nodes);
		if (i == 0)
			continue;   /* the tied value aligned on needs no fix */
		line[0] = 0;
		r->fix(c, r->arg, g->groups[0].value, vg, nodes, line, sizeof(line));
		text_append(fix, TEXT_MAX, "%s%s", fix[0] && fix[strlen(fix) - 1] != '\n' ? "\n" : "", line);
	}
	if (g->group_count > COMPARE_GROUPS_SHOWN + 1) {
		size_t rest = 0, named = 0;

		/* the fix still names them (bounded), so each can be found */
		text_append(fix, TEXT_MAX, "\nthe same (to %s) on ", g->groups[0].value);
		for (size_t i = COMPARE_GROUPS_SHOWN + 1; i < g->group_count; i++) {
			for (size_t j = 0; j < g->groups[i].count; j++)
				compare_concern(c, g->groups[i].items[j].node);
			for (size_t j = 0; j < g->groups[i].count && named < COMPARE_NAMES_SHOWN; j++, named++)
				text_append(fix, TEXT_MAX, "%s%s", named ? "," : "", c->names[g->groups[i].items[j].node]);
			rest += g->groups[i].count;
		}
		if (rest > named)
			text_append(fix, TEXT_MAX, " (+%zu more)", rest - named);
		text_append(message, TEXT_MAX, "; %zu more value%s on %zu %s", g->group_count - COMPARE_GROUPS_SHOWN - 1,
			 g->group_count - COMPARE_GROUPS_SHOWN - 1 == 1 ? "" : "s", rest, PLURAL_NODES(rest));
	}
	text_append(message, TEXT_MAX, "%s", unknown);
	finding_add(c->out, r->id, r->severity, r->subject, fix, "%s", message);
	free(message);
	free(fix);
	return 1;
}

int compare_keys(const struct compare_ctx *c, const struct attribute_rule *r, const char *const *keys, bool report_ok)
{
	return compare_keys_tied(c, r, keys, report_ok, NULL, NULL);
}

int compare_keys_tied(const struct compare_ctx *c, const struct attribute_rule *r, const char *const *keys,
		      bool report_ok, void (*tie)(struct grouping *g, const void *arg), const void *arg)
{
	struct keyed *items = malloc((c->n ? c->n : 1) * sizeof(*items));
	struct grouping g;
	size_t count = 0;
	int ret;

	if (!items)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++)
		if (keys[i])
			items[count++] = (struct keyed){ .key = keys[i], .node = i };
	ret = grouping_build(&g, items, count, c->n - count);
	if (ret == 0 && r->tie_takes_largest)
		grouping_tie_largest_first(&g);
	if (ret == 0 && tie)
		tie(&g, arg);
	if (ret == 0)
		ret = compare_attribute(c, r, &g, report_ok);
	grouping_free(&g);
	free(items);
	return ret;
}
