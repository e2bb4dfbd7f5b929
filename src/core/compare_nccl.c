// SPDX-License-Identifier: GPL-2.0-only
/* compare's NCCL settings rule (each NCCL_* variable against the majority, unset counting as a value) and the
 * summary of the nodes' own check findings (how many nodes fail which id). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compare_group.h"
#include "core/nccl_setting_fix.h"

#define NAMES_SHOWN 32
#define UNSET "(unset)"

struct setting_item {
	const char *name, *value;
	size_t node;
};

static int setting_order(const void *a, const void *b)
{
	const struct setting_item *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	return (x->node > y->node) - (x->node < y->node);
}

static const struct compare_setting *node_setting(const struct compare_node *node, const char *name)
{
	for (size_t i = 0; i < node->nccl_count; i++)
		if (node->nccl[i].name && strcmp(node->nccl[i].name, name) == 0)
			return &node->nccl[i];
	return NULL;
}

struct setting_arg {
	const char *name;
	const char *want_source;   /* where the majority sets it: the fix sets it the same way */
};

static bool is_file(const char *source)
{
	return source && !nccl_source_is_environment(source);
}

static void fix_setting(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
			const char *nodes, char *buf, size_t size)
{
	const struct setting_arg *a = arg;
	const char *name = a->name;
	const struct compare_setting *s = node_setting(&c->nodes[odd->items[0].node], name);
	bool in_file = s && is_file(s->source);

	if (strcmp(want, UNSET) == 0 && in_file)
		snprintf(buf, size, "on %s: delete the line %s=%s from %s, as the others do not set it", nodes, name,
			 odd->value, s->source);
	else if (strcmp(want, UNSET) == 0)
		snprintf(buf, size, "on %s: `unset %s` in the job's environment, as the others do not set it", nodes, name);
	else if (in_file)
		snprintf(buf, size, "on %s: in %s: %s=%s, as on the others", nodes, s->source, name, want);
	else if (is_file(a->want_source))
		snprintf(buf, size, "on %s: in %s: %s=%s, as on the others", nodes, a->want_source, name, want);
	else
		snprintf(buf, size, "on %s: `export %s=%s` in the job's environment (or %s=%s in /etc/nccl.conf), as on "
			 "the others", nodes, name, want, name, want);
}

/* Puts the unset nodes in as a group of their own without listing them: only done when they are the strict
 * majority, whose nodes no message lists. */
static int add_unlisted_majority(struct grouping *g, size_t count)
{
	struct value_group *grown = realloc(g->groups, (g->group_count + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	memmove(grown + 1, grown, g->group_count * sizeof(*grown));
	grown[0] = (struct value_group){ .value = UNSET, .items = NULL, .count = count };
	g->groups = grown;
	g->group_count++;
	g->known += count;
	g->tie = false;
	return 0;
}

/* One variable: items[start..end) are the nodes that set it, ascending node. */
static int compare_setting_name(const struct compare_ctx *c, const struct setting_item *set, size_t count,
				size_t known, size_t *stamp, size_t gen, struct keyed *keyed)
{
	struct setting_arg arg = { set[0].name, NULL };
	struct attribute_rule rule = { "compare.nccl_settings", set[0].name, set[0].name, SEVERITY_WARN, fix_setting,
				       &arg, false };
	struct grouping g;
	size_t k = 0;
	int ret;

	for (size_t i = 0; i < count; i++) {
		if (i > 0 && set[i].node == set[i - 1].node)
			continue;   /* a name listed twice by one node (not effective twice) counts once */
		stamp[set[i].node] = gen;
		keyed[k++] = (struct keyed){ .key = set[i].value ? set[i].value : "", .node = set[i].node };
	}
	size_t unset = known - k;

	if (unset > 0 && unset <= k) {
		/* the unset nodes are odd or tied: name them (at most as many as set it, so linear overall) */
		for (size_t i = 0; i < c->n; i++)
			if (c->nodes[i].nccl_known && stamp[i] != gen)
				keyed[k++] = (struct keyed){ .key = UNSET, .node = i };
		ret = grouping_build(&g, keyed, k, c->n - known);
	} else {
		ret = grouping_build(&g, keyed, k, c->n - known);
		if (ret == 0 && unset > 0)
			ret = add_unlisted_majority(&g, unset);
	}
	if (ret == 0 && g.group_count && g.groups[0].items) {
		const struct compare_setting *maj = node_setting(&c->nodes[g.groups[0].items[0].node], arg.name);

		arg.want_source = maj ? maj->source : NULL;
	}
	if (ret == 0)
		ret = compare_attribute(c, &rule, &g, false);
	grouping_free(&g);
	return ret;
}

static int compare_settings(const struct compare_ctx *c)
{
	struct setting_item *items;
	struct keyed *keyed;
	size_t *stamp;
	size_t total = 0, count = 0, known = 0, differing = 0, names = 0;
	int ret = 0;

	for (size_t i = 0; i < c->n; i++) {
		known += c->nodes[i].nccl_known;
		total += c->nodes[i].nccl_known ? c->nodes[i].nccl_count : 0;
	}
	items = malloc((total ? total : 1) * sizeof(*items));
	keyed = malloc((c->n + total + 1) * sizeof(*keyed));
	stamp = calloc(c->n ? c->n : 1, sizeof(*stamp));
	if (!items || !keyed || !stamp) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++)
		for (size_t j = 0; c->nodes[i].nccl_known && j < c->nodes[i].nccl_count; j++)
			if (c->nodes[i].nccl[j].name)
				items[count++] = (struct setting_item){ c->nodes[i].nccl[j].name, c->nodes[i].nccl[j].value, i };
	qsort(items, count, sizeof(*items), setting_order);
	for (size_t start = 0, end; ret >= 0 && start < count; start = end) {
		for (end = start + 1; end < count && strcmp(items[end].name, items[start].name) == 0; end++)
			;
		names++;
		if (differing >= NAMES_SHOWN) {
			/* past the findings shown, only counted: set on fewer than all, or to two values */
			size_t k = 0;
			bool same = true;

			for (size_t i = start; i < end; i++) {
				k += i == start || items[i].node != items[i - 1].node;
				same &= strcmp(items[i].value ? items[i].value : "", items[start].value ? items[start].value : "") == 0;
			}
			differing += k != known || !same;
			continue;
		}
		ret = compare_setting_name(c, &items[start], end - start, known, stamp, names, keyed);
		differing += ret > 0;
	}
	if (ret >= 0 && differing > NAMES_SHOWN)
		finding_add(c->out, "compare.nccl_settings", SEVERITY_WARN, "NCCL_*",
			    "give every node the same NCCL_* settings (one /etc/nccl.conf, one job environment)",
			    "more NCCL_* variables differ between nodes than the %d shown", NAMES_SHOWN);
	else if (ret >= 0 && !differing)
		finding_add(c->out, "compare.nccl_settings", known ? SEVERITY_OK : SEVERITY_INFO, "NCCL_*", NULL,
			    "the %zu NCCL_* variables set are the same on all %zu nodes whose settings are known "
			    "(%zu unknown)", names, known, c->n - known);
out:
	free(items);
	free(keyed);
	free(stamp);
	return ret < 0 ? ret : 0;
}

struct check_item {
	const char *id;
	enum severity severity;
	size_t node;
};

static int check_order(const void *a, const void *b)
{
	const struct check_item *x = a, *y = b;
	int d = strcmp(x->id, y->id);

	if (d)
		return d;
	return (x->node > y->node) - (x->node < y->node);
}

struct check_run {
	struct value_group nodes;
	enum severity worst;
};

static int run_order(const void *a, const void *b)
{
	const struct check_run *x = a, *y = b;

	if (x->worst != y->worst)
		return x->worst < y->worst ? 1 : -1;
	if (x->nodes.count != y->nodes.count)
		return x->nodes.count < y->nodes.count ? 1 : -1;
	return strcmp(x->nodes.value, y->nodes.value);
}

int compare_check_summary(const struct compare_ctx *c)
{
	struct check_item *items;
	struct keyed *keyed;
	struct check_run *runs;
	size_t total = 0, count = 0, k = 0, run_count = 0, known = 0;
	int ret = -ENOMEM;

	for (size_t i = 0; i < c->n; i++) {
		known += c->nodes[i].checks_known;
		total += c->nodes[i].checks_known ? c->nodes[i].check_count : 0;
	}
	items = malloc((total ? total : 1) * sizeof(*items));
	keyed = malloc((total ? total : 1) * sizeof(*keyed));
	runs = malloc((total ? total : 1) * sizeof(*runs));
	if (!items || !keyed || !runs)
		goto out;
	for (size_t i = 0; i < c->n; i++)
		for (size_t j = 0; c->nodes[i].checks_known && j < c->nodes[i].check_count; j++)
			if (c->nodes[i].checks[j].id && c->nodes[i].checks[j].severity > SEVERITY_OK)
				items[count++] = (struct check_item){ c->nodes[i].checks[j].id, c->nodes[i].checks[j].severity, i };
	qsort(items, count, sizeof(*items), check_order);
	/* one run per id, each node once in it (a per-port id can come several times from one node) */
	for (size_t i = 0; i < count; i++) {
		bool new_id = i == 0 || strcmp(items[i].id, items[i - 1].id) != 0;

		if (new_id)
			runs[run_count++] = (struct check_run){ .nodes = { .value = items[i].id, .items = &keyed[k] } };
		struct check_run *r = &runs[run_count - 1];

		if (items[i].severity > r->worst)
			r->worst = items[i].severity;
		if (!new_id && items[i].node == items[i - 1].node)
			continue;
		keyed[k++] = (struct keyed){ .key = items[i].id, .node = items[i].node };
		r->nodes.count++;
	}
	qsort(runs, run_count, sizeof(*runs), run_order);
	for (size_t r = 0; r < run_count && r < NAMES_SHOWN; r++) {
		char nodes[512], fix[768];

		compare_node_list(c, &runs[r].nodes, nodes, sizeof(nodes));
		snprintf(fix, sizeof(fix), "on %s: `roce-doctor check --only %s` and apply the fix it prints", nodes,
			 runs[r].nodes.value);
		finding_add(c->out, "compare.check_summary", runs[r].worst, runs[r].nodes.value, fix,
			    "%s: %s on %zu of %zu nodes: %s", runs[r].nodes.value, severity_name(runs[r].worst),
			    runs[r].nodes.count, known, nodes);
	}
	if (run_count > NAMES_SHOWN)
		finding_add(c->out, "compare.check_summary", SEVERITY_WARN, "check",
			    "`roce-doctor check` on the nodes named above", "%zu more check ids are not ok on some nodes",
			    run_count - NAMES_SHOWN);
	else if (run_count == 0)
		finding_add(c->out, "compare.check_summary", known ? SEVERITY_OK : SEVERITY_INFO, "check", NULL,
			    "check is ok on all %zu nodes whose findings are known (%zu unknown)", known, c->n - known);
	ret = 0;
out:
	free(items);
	free(keyed);
	free(runs);
	return ret;
}

int compare_nccl(const struct compare_ctx *c)
{
	return compare_settings(c);
}
