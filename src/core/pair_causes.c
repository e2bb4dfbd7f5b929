// SPDX-License-Identifier: GPL-2.0-only
/* Grouping check --peer's findings by cause (see pair_causes.h): a union-find over the findings that are not ok,
 * joined by the command that fixes them and the node it runs on. */
#include "core/pair_causes.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/findings_merge.h"

#define COMMAND_MAX 256

/* The findings taking part: not ok, with where they are and the command their fix starts with. */
struct member {
	struct pair_finding_ref ref;
	const struct finding *f;
	char node;                      /* 'a', 'b', or 0: compare's and the pair's own */
	char command[COMMAND_MAX];      /* normalised; "" when the fix starts with no command */
	size_t parent;                  /* union-find, an index into members */
};

struct grouping {
	struct member *m;
	size_t count;
	const struct pair_causes_input *in;
};

/* One spelling per command: blanks collapsed, "sudo " dropped, `ip link set dev IF` as `ip link set IF`. */
static void normalise(const char *text, char *out, size_t size)
{
	char copy[COMMAND_MAX], *save = NULL, *tok;
	size_t len = 0, n = 0;

	snprintf(copy, sizeof(copy), "%s", text);
	out[0] = 0;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if ((n == 0 && strcmp(tok, "sudo") == 0) || (n == 3 && strcmp(out, "ip link set") == 0 &&
							       strcmp(tok, "dev") == 0))
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "", tok);
		if (len >= size) {
			out[0] = 0;     /* cut short: no command to match on */
			return;
		}
		n++;
	}
	if (out[0] == '#')
		out[0] = 0;             /* a comment, not a command */
}

static size_t root(struct grouping *g, size_t i)
{
	while (g->m[i].parent != i) {
		g->m[i].parent = g->m[g->m[i].parent].parent;
		i = g->m[i].parent;
	}
	return i;
}

static void join(struct grouping *g, size_t i, size_t j)
{
	size_t a = root(g, i), b = root(g, j);

	if (a != b)
		g->m[b > a ? b : a].parent = b > a ? a : b;
}

/* The node a line of compare's fix is about, by the names compare gives the nodes (their host names, or a and
 * b, their file names, when the host names are the same or unknown); 0 when it names neither or both. */
static char line_node(const struct grouping *g, const char *line, size_t len)
{
	char node = 0;

	const char *const *host = g->in->hostname;
	bool by_host = host[0] && host[1] && *host[0] && *host[1] && strcmp(host[0], host[1]) != 0;

	for (int s = 0; s < 2; s++) {
		const char *name = by_host ? host[s] : s ? "b" : "a";
		size_t nlen = strlen(name);

		for (const char *p = line; nlen && p + nlen <= line + len; p++)
			if (memcmp(p, name, nlen) == 0 && (p == line || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-_.",
										  p[-1])) &&
			    (p + nlen == line + len || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-_.", p[nlen]))) {
				if (node && node != "ab"[s])
					return 0;
				node = "ab"[s];
				break;
			}
	}
	return node;
}

/* Joins member i (of no node) to the node finding whose command is `cmd`: the one on the line's node, or the
 * only node that has one. */
static void join_by_command(struct grouping *g, size_t i, const char *cmd, char node)
{
	size_t found[2] = { 0 };
	bool seen[2] = { false, false };

	for (size_t k = 0; k < g->count; k++) {
		const struct member *o = &g->m[k];

		if (o->node && o->command[0] && strcmp(o->command, cmd) == 0 && !seen[o->node == 'b']) {
			seen[o->node == 'b'] = true;
			found[o->node == 'b'] = k;
		}
	}
	if (node && seen[node == 'b'])
		join(g, i, found[node == 'b']);
	else if (!node && seen[0] != seen[1])
		join(g, i, found[seen[1]]);
}

/* A finding of no node: each `command` its fix names, on the node its line names. */
static void join_quoted(struct grouping *g, size_t i)
{
	const char *fix = g->m[i].f->fix, *line = fix;

	while (line && *line) {
		size_t len = strcspn(line, "\n");
		const char *p = line, *end = line + len;

		while ((p = memchr(p, '`', (size_t)(end - p))) != NULL) {
			const char *close = memchr(p + 1, '`', (size_t)(end - p - 1));
			char raw[COMMAND_MAX], cmd[COMMAND_MAX];

			if (!close)
				break;
			snprintf(raw, sizeof(raw), "%.*s", (int)(close - p - 1), p + 1);
			normalise(raw, cmd, sizeof(cmd));
			if (cmd[0])     /* "on node-b (MTU 1500): `...`": the name comes before the command */
				join_by_command(g, i, cmd, line_node(g, line, (size_t)(p - line)));
			p = close + 1;
		}
		line = end + (*end == '\n');
	}
}

/* compare.check_summary names a check id: the first node's own finding of that id. */
static void join_summary(struct grouping *g, size_t i)
{
	for (size_t k = 0; k < g->count; k++) {
		const struct member *o = &g->m[k];

		if ((o->ref.list == PAIR_LIST_A || o->ref.list == PAIR_LIST_B) && strcmp(o->f->id, g->m[i].f->subject) == 0) {
			join(g, i, k);
			return;
		}
	}
}

/* Lower leads among equal severities: a pair finding of a node, a node's own, the rest. */
static int rank(const struct member *m)
{
	if (m->ref.list == PAIR_LIST_PAIR && m->node)
		return 0;
	return m->ref.list == PAIR_LIST_A || m->ref.list == PAIR_LIST_B ? 1 : 2;
}

static bool leads(const struct member *x, const struct member *y)
{
	if (x->f->severity != y->f->severity)
		return x->f->severity > y->f->severity;
	return rank(x) < rank(y);   /* members are in the report's order: the first of equals stays */
}

static void collect(struct grouping *g)
{
	for (int l = 0; l < PAIR_LISTS; l++) {
		const struct findings *list = g->in->list[l];

		for (size_t i = 0; list && i < list->count; i++) {
			struct member *m = &g->m[g->count];
			char first[COMMAND_MAX];

			if (list->items[i].severity == SEVERITY_OK)
				continue;
			m->ref = (struct pair_finding_ref){ (enum pair_list)l, i };
			m->f = &list->items[i];
			m->node = l == PAIR_LIST_A ? 'a' : l == PAIR_LIST_B ? 'b' :
				  l == PAIR_LIST_PAIR && g->in->pair_node ? g->in->pair_node[i] : 0;
			fix_first_command(m->f->fix, first, sizeof(first));
			normalise(first, m->command, sizeof(m->command));
			m->parent = g->count++;
		}
	}
}

void pair_causes_group(const struct pair_causes_input *in, struct pair_causes *out)
{
	struct grouping g = { .in = in };
	size_t *lead, total = 0;

	for (int l = 0; l < PAIR_LISTS; l++) {
		for (size_t i = 0; i < FINDINGS_MAX; i++)
			out->by[l][i] = (struct pair_finding_ref){ PAIR_LISTS, 0 };
		total += in->list[l] ? in->list[l]->count : 0;
	}
	g.m = calloc(total + 1, sizeof(*g.m));
	lead = calloc(total + 1, sizeof(*lead));
	if (!g.m || !lead)
		goto out;   /* nothing grouped: every finding shown, as before */
	collect(&g);
	for (size_t i = 0; i < g.count; i++)
		for (size_t k = 0; g.m[i].node && g.m[i].command[0] && k < i; k++)
			if (g.m[k].node == g.m[i].node && strcmp(g.m[k].command, g.m[i].command) == 0) {
				join(&g, i, k);
				break;
			}
	for (size_t i = 0; i < g.count; i++) {
		if (g.m[i].node || !g.m[i].f->fix)
			continue;
		if (g.m[i].ref.list == PAIR_LIST_COMPARE && strcmp(g.m[i].f->id, "compare.check_summary") == 0)
			join_summary(&g, i);
		else
			join_quoted(&g, i);
	}
	for (size_t i = 0; i < g.count; i++)
		lead[i] = i;
	for (size_t i = 0; i < g.count; i++) {
		size_t r = root(&g, i);

		if (leads(&g.m[i], &g.m[lead[r]]))
			lead[r] = i;
	}
	for (size_t i = 0; i < g.count; i++) {
		size_t l = lead[root(&g, i)];

		if (l != i)
			out->by[g.m[i].ref.list][g.m[i].ref.index] = g.m[l].ref;
	}
out:
	free(g.m);
	free(lead);
}
