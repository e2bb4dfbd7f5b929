// SPDX-License-Identifier: GPL-2.0-only
/* mesh's plan: the circle method for all-pairs (and per rail), the ring's matchings, the time they take. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/plan.h"

static const char *const kind_names[] = { "all-pairs", "ring", "rail" };

const char *mesh_plan_kind_name(enum mesh_plan_kind kind)
{
	return (unsigned)kind < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[kind] : NULL;
}

int mesh_plan_kind_parse(const char *name, enum mesh_plan_kind *out)
{
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*out = (enum mesh_plan_kind)i;
			return 0;
		}
	return -EINVAL;
}

/* Rounds of the circle method over m nodes: m-1 when even; odd m gets a dummy node, whose partner sits out. */
static size_t circle_rounds(size_t m)
{
	return m < 2 ? 0 : m % 2 ? m : m - 1;
}

/* Round r of the circle method over m nodes: with m' = m rounded up to even, node m'-1 stays put and meets r;
 * the others turn, x meeting (2r - x) mod (m'-1), the node that would meet itself meeting m'-1 instead. For an
 * odd m, node m'-1 is a dummy and its partner sits the round out (the bye). Walking x upwards writes the pairs
 * already in order of their first node. Returns how many. */
static size_t circle_round(size_t m, size_t r, unsigned (*pairs)[2])
{
	size_t even = m + m % 2, ring = even - 1, n = 0;

	for (size_t x = 0; x < m; x++) {
		size_t y = x == ring ? r : 2 * r + ring - x;

		while (x != ring && y >= ring)   /* below 3 rings: a subtraction or two, not a division */
			y -= ring;
		if (y == x)
			y = ring;
		if (y <= x || y >= m)
			continue;   /* counted from its other end, or the dummy: a bye */
		pairs[n][0] = (unsigned)x;
		pairs[n][1] = (unsigned)y;
		n++;
	}
	return n;
}

/* Nodes with rail index r, in rank order, into members (room for p->nodes); returns how many. */
static size_t rail_members(const struct mesh_plan *p, unsigned r, unsigned *members)
{
	size_t m = 0;

	for (size_t i = 0; i < p->nodes; i++)
		if (p->rails[i] > r)
			members[m++] = (unsigned)i;
	return m;
}

static size_t rail_count(const struct mesh_plan *p, unsigned r)
{
	size_t m = 0;

	for (size_t i = 0; i < p->nodes; i++)
		m += p->rails[i] > r;
	return m;
}

int mesh_plan_init(struct mesh_plan *p, enum mesh_plan_kind kind, size_t nodes, const unsigned *rails, char *why,
		   size_t why_size)
{
	memset(p, 0, sizeof(*p));
	if (!mesh_plan_kind_name(kind)) {
		snprintf(why, why_size, "unknown plan kind %d", (int)kind);
		return -EINVAL;
	}
	if (nodes < 2) {
		snprintf(why, why_size, "a mesh needs at least 2 nodes, not %zu: below two there is no link to "
			 "test (bw against this node's own serve tests its NIC alone)", nodes);
		return -EINVAL;
	}
	if (nodes > MESH_NODES_MAX) {
		snprintf(why, why_size, "%zu nodes: at most %d", nodes, MESH_NODES_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < nodes; i++) {
		if (rails[i] < 1 || rails[i] > MESH_RAILS_MAX) {
			snprintf(why, why_size, "node %zu has %u rails: expected 1 to %d RoCE ports", i, rails[i],
				 MESH_RAILS_MAX);
			return -EINVAL;
		}
		if (rails[i] > p->rails_max)
			p->rails_max = rails[i];
	}
	p->kind = kind;
	p->nodes = nodes;
	p->rails = rails;
	switch (kind) {
	case MESH_PLAN_ALL_PAIRS:
		p->rounds = circle_rounds(nodes);
		p->tests = nodes * (nodes - 1) / 2;
		p->round_tests_max = nodes / 2;
		break;
	case MESH_PLAN_RING:
		/* An even cycle splits into two matchings; an odd one needs a third for its closing edge. */
		p->rounds = nodes == 2 ? 1 : nodes % 2 ? 3 : 2;
		p->tests = nodes == 2 ? 1 : nodes;
		p->round_tests_max = nodes / 2;
		break;
	case MESH_PLAN_RAIL:
		for (unsigned r = 0; r < p->rails_max; r++) {
			size_t m = rail_count(p, r);

			if (circle_rounds(m) > p->rounds)
				p->rounds = circle_rounds(m);
			p->tests += m * (m - 1) / 2;
			p->round_tests_max += m / 2;
		}
		break;
	}
	return 0;
}

long mesh_plan_round(const struct mesh_plan *p, size_t round, struct mesh_test *out)
{
	unsigned (*pairs)[2];
	unsigned *members = NULL;
	size_t n = 0;

	if (round >= p->rounds)
		return 0;
	pairs = malloc((p->nodes / 2 + 1) * sizeof(*pairs));
	if (!pairs)
		return -ENOMEM;
	switch (p->kind) {
	case MESH_PLAN_ALL_PAIRS:
		n = circle_round(p->nodes, round, pairs);
		for (size_t i = 0; i < n; i++)
			out[i] = (struct mesh_test){ pairs[i][0], pairs[i][1], MESH_RAIL_EVERY };
		break;
	case MESH_PLAN_RING:
		if (p->nodes == 2) {
			out[n++] = (struct mesh_test){ 0, 1, MESH_RAIL_EVERY };
			break;
		}
		if (round == 2) {   /* odd N: the edge that closes the ring */
			out[n++] = (struct mesh_test){ 0, (unsigned)p->nodes - 1, MESH_RAIL_EVERY };
			break;
		}
		/* Round 0: the edges from even nodes, round 1: from odd ones and, for an even N, (0, N-1); an odd
		 * ring leaves (0, N-1) to round 2. */
		if (p->nodes % 2 == 0 && round == 1)
			out[n++] = (struct mesh_test){ 0, (unsigned)p->nodes - 1, MESH_RAIL_EVERY };
		for (size_t i = round; i + 1 < p->nodes; i += 2)
			out[n++] = (struct mesh_test){ (unsigned)i, (unsigned)i + 1, MESH_RAIL_EVERY };
		break;
	case MESH_PLAN_RAIL:
		members = malloc(p->nodes * sizeof(*members));
		if (!members) {
			n = 0;
			break;
		}
		for (unsigned r = 0; r < p->rails_max; r++) {
			size_t m = rail_members(p, r, members), k;

			if (round >= circle_rounds(m))
				continue;
			k = circle_round(m, round, pairs);
			for (size_t i = 0; i < k; i++)
				out[n + i] = (struct mesh_test){ members[pairs[i][0]], members[pairs[i][1]], (int)r };
			n += k;
		}
		break;
	}
	free(pairs);
	if (p->kind == MESH_PLAN_RAIL && !members)
		return -ENOMEM;
	free(members);
	return (long)n;
}

double mesh_plan_round_seconds(const struct mesh_plan *p, double bw_seconds)
{
	double test = bw_seconds + MESH_TEST_SETUP_S;

	return p->kind == MESH_PLAN_RAIL ? test : test * p->rails_max;
}
