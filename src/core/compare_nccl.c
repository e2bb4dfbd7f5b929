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
		if (compare_qos_judges_setting(c, items[start].name))
			continue;   /* once per name: it may look at every node's ports */
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
	else if (ret >= 0 && !differing && !known)
		finding_add(c->out, "compare.nccl_settings", SEVERITY_INFO, "NCCL_*", NULL,
			    "no snapshot records its NCCL_* settings: not compared");
	else if (ret >= 0 && !differing && !names)
		finding_add(c->out, "compare.nccl_settings", SEVERITY_OK, "NCCL_*", NULL,
			    "no NCCL_* variable is set on any node whose settings are known (%zu of %zu)", known, c->n);
	else if (ret >= 0 && !differing)
		finding_add(c->out, "compare.nccl_settings", SEVERITY_OK, "NCCL_*", NULL,
			    "the same NCCL_* settings (%zu variable%s) on every node whose settings are known (%zu of %zu)",
			    names, names == 1 ? "" : "s", known, c->n);
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

/* By id, then node, then worst first: the first item of an (id, node) is that node's severity for the id. */
static int check_order(const void *a, const void *b)
{
	const struct check_item *x = a, *y = b;
	int d = strcmp(x->id, y->id);

	if (d)
		return d;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->severity < y->severity) - (x->severity > y->severity);
}

/* By id, then severity (worst first), then node: one run per id and severity. */
static int severity_order(const void *a, const void *b)
{
	const struct check_item *x = a, *y = b;
	int d = strcmp(x->id, y->id);

	if (d)
		return d;
	if (x->severity != y->severity)
		return x->severity < y->severity ? 1 : -1;
	return (x->node > y->node) - (x->node < y->node);
}

/* The nodes of one check id at one severity (a node counted at its worst for the id). */
struct check_run {
	struct value_group nodes;
	enum severity severity;
	enum severity id_worst;     /* the id's worst on any node: keeps an id's runs together, worst ids first */
};

static int run_order(const void *a, const void *b)
{
	const struct check_run *x = a, *y = b;
	int d;

	if (x->id_worst != y->id_worst)
		return x->id_worst < y->id_worst ? 1 : -1;
	d = strcmp(x->nodes.value, y->nodes.value);
	if (d)
		return d;
	return (x->severity < y->severity) - (x->severity > y->severity);
}

/* compare.check_summary: for each check id not ok somewhere, which nodes have it at which severity, one finding
 * per severity (gid.env fail on n2, warn on n1), so a node is never given another node's severity. */
int compare_check_summary(const struct compare_ctx *c)
{
	struct check_item *items;
	struct keyed *keyed;
	struct check_run *runs;
	size_t total = 0, count = 0, k = 0, run_count = 0, known = 0, ids = 0, kept = 0;
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
	/* each node once per id, at its worst (a per-port id can come several times from one node) */
	qsort(items, count, sizeof(*items), check_order);
	for (size_t i = 0; i < count; i++)
		if (i == 0 || strcmp(items[i].id, items[i - 1].id) != 0 || items[i].node != items[i - 1].node)
			items[kept++] = items[i];
	qsort(items, kept, sizeof(*items), severity_order);
	for (size_t i = 0; i < kept; i++) {
		bool new_id = i == 0 || strcmp(items[i].id, items[i - 1].id) != 0;

		ids += new_id;
		if (new_id || items[i].severity != items[i - 1].severity)
			runs[run_count++] = (struct check_run){ .nodes = { .value = items[i].id, .items = &keyed[k] },
								.severity = items[i].severity };
		keyed[k++] = (struct keyed){ .key = items[i].id, .node = items[i].node };
		runs[run_count - 1].nodes.count++;
	}
	/* items are worst first within an id: the id's first run carries its worst */
	for (size_t r = 0; r < run_count; r++)
		runs[r].id_worst = r > 0 && strcmp(runs[r].nodes.value, runs[r - 1].nodes.value) == 0 ? runs[r - 1].id_worst
												      : runs[r].severity;
	qsort(runs, run_count, sizeof(*runs), run_order);
	for (size_t r = 0; r < run_count && r < NAMES_SHOWN; r++) {
		char nodes[512], fix[768];

		compare_node_list(c, &runs[r].nodes, nodes, sizeof(nodes));
		snprintf(fix, sizeof(fix), "on %s: `roce-doctor check --only %s` and apply the fix it prints", nodes,
			 runs[r].nodes.value);
		finding_add(c->out, "compare.check_summary", runs[r].severity, runs[r].nodes.value, fix,
			    "%s on %zu of %zu %s: %s", severity_name(runs[r].severity), runs[r].nodes.count, known,
			    PLURAL_NODES(known), nodes);
	}
	if (run_count > NAMES_SHOWN)
		finding_add(c->out, "compare.check_summary", SEVERITY_WARN, "check",
			    "`roce-doctor check` on the nodes named above",
			    "%zu more check ids or severities are not ok on some nodes (%zu ids in all)",
			    run_count - NAMES_SHOWN, ids);
	else if (run_count == 0 && known == 0)
		finding_add(c->out, "compare.check_summary", SEVERITY_INFO, "check", NULL,
			    "no snapshot records what check found: not summarised");
	else if (run_count == 0)
		finding_add(c->out, "compare.check_summary", SEVERITY_OK, "check", NULL,
			    "check is ok on every node whose findings are known (%zu of %zu)", known, c->n);
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
