// SPDX-License-Identifier: GPL-2.0-only
/* mesh's plans: all-pairs meets every pair exactly once for N = 2..1024 with no node twice in a round; ring
 * covers its N edges in 2 rounds (3 when N is odd); the rail plan pairs only same-index NICs; N = 1 is refused
 * with a reason; the time estimate. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/plan.h"
#include "tap.h"

static unsigned *same_rails(size_t n, unsigned r)
{
	unsigned *rails = malloc(n * sizeof(*rails));

	for (size_t i = 0; i < n; i++)
		rails[i] = r;
	return rails;
}

/* Walks every round: counts each (a, b, rail) in seen (nodes x nodes per rail), checks a < b < nodes and that
 * no NIC (a node's rail, or the whole node for MESH_RAIL_EVERY) is in two tests of a round, and that a round's
 * tests come in order of rail, then first node. false on a fault. */
static bool walk(const struct mesh_plan *p, unsigned char *seen, size_t *tests)
{
	struct mesh_test *t = malloc((p->round_tests_max + 1) * sizeof(*t));
	unsigned *busy = calloc(p->nodes * (p->rails_max + 1), sizeof(*busy));
	bool ok = t && busy;

	*tests = 0;
	for (size_t r = 0; ok && r < p->rounds; r++) {
		long n = mesh_plan_round(p, r, t);

		ok = n >= 0 && (size_t)n <= p->round_tests_max;
		for (long i = 0; ok && i < n; i++) {
			size_t slot = t[i].rail == MESH_RAIL_EVERY ? 0 : (size_t)t[i].rail + 1;

			/* ordered by rail, then by a */
			ok = (i == 0 || t[i - 1].rail < t[i].rail || (t[i - 1].rail == t[i].rail && t[i - 1].a < t[i].a)) &&
			     t[i].a < t[i].b && t[i].b < p->nodes && busy[t[i].a * (p->rails_max + 1) + slot] != r + 1 &&
			     busy[t[i].b * (p->rails_max + 1) + slot] != r + 1;
			if (ok && t[i].rail != MESH_RAIL_EVERY)
				ok = t[i].rail >= 0 && (unsigned)t[i].rail < p->rails[t[i].a] &&
				     (unsigned)t[i].rail < p->rails[t[i].b];
			if (!ok)
				break;
			busy[t[i].a * (p->rails_max + 1) + slot] = busy[t[i].b * (p->rails_max + 1) + slot] =
				(unsigned)r + 1;
			/* a pair met twice fails here; tests == N(N-1)/2 with none twice is every pair once */
			ok = seen[(slot * p->nodes + t[i].a) * p->nodes + t[i].b]++ == 0;
			(*tests)++;
		}
	}
	free(t);
	free(busy);
	return ok;
}

static void all_pairs_meets_every_pair_once_2_to_1024(void)
{
	unsigned *rails = same_rails(1024, 1);
	unsigned char *seen = malloc(1024 * 1024);
	size_t bad = 0;

	for (size_t n = 2; n <= 1024; n++) {
		struct mesh_plan p;
		char why[160];
		size_t tests;

		memset(seen, 0, n * n);
		bad += mesh_plan_init(&p, MESH_PLAN_ALL_PAIRS, n, rails, why, sizeof(why)) != 0 ||
		       p.rounds != (n % 2 ? n : n - 1) || !walk(&p, seen, &tests) || tests != n * (n - 1) / 2 ||
		       p.tests != tests;
	}
	CHECK(bad == 0);
	free(seen);
	free(rails);
}

/* Every round of an even N holds N/2 pairs; an odd N's rounds (N-1)/2, one node out (the bye), each node out
 * exactly once. */
static void all_pairs_rounds_are_full_and_byes_rotate(void)
{
	unsigned *rails = same_rails(9, 1), out[9] = { 0 };
	struct mesh_test t[8];
	struct mesh_plan p;
	char why[160];

	CHECK(mesh_plan_init(&p, MESH_PLAN_ALL_PAIRS, 8, rails, why, sizeof(why)) == 0);
	for (size_t r = 0; r < p.rounds; r++)
		CHECK(mesh_plan_round(&p, r, t) == 4);
	CHECK(mesh_plan_init(&p, MESH_PLAN_ALL_PAIRS, 9, rails, why, sizeof(why)) == 0);
	CHECK(p.rounds == 9);
	for (size_t r = 0; r < p.rounds; r++) {
		bool in[9] = { false };
		long n = mesh_plan_round(&p, r, t);

		CHECK(n == 4);
		for (long i = 0; i < n; i++)
			in[t[i].a] = in[t[i].b] = true;
		for (size_t k = 0; k < 9; k++)
			out[k] += !in[k];
	}
	for (size_t k = 0; k < 9; k++)
		CHECK(out[k] == 1);
	free(rails);
}

static void ring_covers_its_edges_in_two_rounds_or_three_when_odd(void)
{
	unsigned *rails = same_rails(64, 2);
	unsigned char seen[64 * 64];

	for (size_t n = 2; n <= 64; n++) {
		struct mesh_plan p;
		char why[160];
		size_t tests;

		memset(seen, 0, sizeof(seen));
		CHECK(mesh_plan_init(&p, MESH_PLAN_RING, n, rails, why, sizeof(why)) == 0);
		CHECK(p.rounds == (n == 2 ? 1u : n % 2 ? 3u : 2u));
		CHECK(walk(&p, seen, &tests));
		CHECK(tests == (n == 2 ? 1 : n) && p.tests == tests);
		for (size_t i = 0; i < n; i++) {
			size_t a = i, b = (i + 1) % n;

			CHECK(seen[(a < b ? a : b) * n + (a < b ? b : a)] == 1);
		}
	}
	free(rails);
}

/* Nodes with 1 to 4 rails: rail r's pairs are among the nodes that have it, each pair once per rail, never
 * two different rail indexes, no NIC twice in a round. */
static void rail_plan_pairs_only_same_index_nics(void)
{
	enum { N = 37 };
	unsigned rails[N];
	unsigned char *seen = calloc(5 * N * N, 1);
	struct mesh_plan p;
	char why[160];
	size_t tests, want = 0, bad = 0;

	for (size_t i = 0; i < N; i++)
		rails[i] = 1 + (unsigned)(i * 7 % 4);
	CHECK(mesh_plan_init(&p, MESH_PLAN_RAIL, N, rails, why, sizeof(why)) == 0);
	CHECK(p.rails_max == 4);
	CHECK(walk(&p, seen, &tests));
	CHECK(tests == p.tests);
	for (unsigned r = 0; r < 4; r++)
		for (size_t a = 0; a < N; a++)
			for (size_t b = a + 1; b < N; b++) {
				bool both = rails[a] > r && rails[b] > r;

				want += both;
				bad += seen[((r + 1) * N + a) * N + b] != (both ? 1 : 0);
			}
	for (size_t i = 0; i < N * N; i++)
		bad += seen[i] != 0;   /* no test over every rail in a rail plan */
	CHECK(bad == 0);
	CHECK(tests == want);
	/* every node has rail 0: the rounds are those of all-pairs over 37 nodes */
	CHECK(p.rounds == 37);
	free(seen);
}

static void one_node_and_bad_input_refused(void)
{
	unsigned rails[2] = { 1, 0 };
	struct mesh_plan p;
	char why[200] = "";
	enum mesh_plan_kind k;

	CHECK(mesh_plan_init(&p, MESH_PLAN_ALL_PAIRS, 1, rails, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "at least 2 nodes") != NULL);
	CHECK(mesh_plan_init(&p, MESH_PLAN_RING, 0, rails, why, sizeof(why)) == -EINVAL);
	CHECK(mesh_plan_init(&p, MESH_PLAN_RAIL, 2, rails, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "node 1 has 0 rails") != NULL);
	CHECK(mesh_plan_init(&p, MESH_PLAN_ALL_PAIRS, MESH_NODES_MAX + 1, rails, why, sizeof(why)) == -EINVAL);
	CHECK(mesh_plan_kind_parse("all-pairs", &k) == 0 && k == MESH_PLAN_ALL_PAIRS);
	CHECK(mesh_plan_kind_parse("rail", &k) == 0 && k == MESH_PLAN_RAIL);
	CHECK(mesh_plan_kind_parse("mesh", &k) == -EINVAL);
}

/* all-pairs runs each rail alone, one after another; the rail plan runs the rails side by side. */
static void round_seconds_count_rails_in_turn_or_side_by_side(void)
{
	unsigned *rails = same_rails(8, 4);
	struct mesh_plan p;
	char why[160];

	CHECK(mesh_plan_init(&p, MESH_PLAN_ALL_PAIRS, 8, rails, why, sizeof(why)) == 0);
	CHECK(mesh_plan_round_seconds(&p, 2.0) == 4 * (2.0 + MESH_TEST_SETUP_S));
	CHECK(mesh_plan_init(&p, MESH_PLAN_RAIL, 8, rails, why, sizeof(why)) == 0);
	CHECK(mesh_plan_round_seconds(&p, 2.0) == 2.0 + MESH_TEST_SETUP_S);
	CHECK(p.rounds == 7 && p.tests == 4 * 28);
	free(rails);
}

int main(void)
{
	RUN(all_pairs_meets_every_pair_once_2_to_1024);
	RUN(all_pairs_rounds_are_full_and_byes_rotate);
	RUN(ring_covers_its_edges_in_two_rounds_or_three_when_odd);
	RUN(rail_plan_pairs_only_same_index_nics);
	RUN(one_node_and_bad_input_refused);
	RUN(round_seconds_count_rails_in_turn_or_side_by_side);
	TAP_DONE();
}
