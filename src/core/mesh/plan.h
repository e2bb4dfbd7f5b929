// SPDX-License-Identifier: GPL-2.0-only
/* mesh's plan: which pairs of nodes test each other in which round, so no NIC is in two tests at once, and
 * what the whole takes. Pure: the nodes are indexes 0..N-1 (ranks), their rails a count per node. */
#ifndef ROCE_DOCTOR_MESH_PLAN_H
#define ROCE_DOCTOR_MESH_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#define MESH_NODES_MAX 65536
#define MESH_RAILS_MAX 64
#define MESH_RAIL_EVERY (-1)   /* a test over every rail the two nodes share, one bw after another */

/* A test's fixed cost besides bw's own duration: two processes starting, a QP connecting, the barriers. The
 * VM suite measures about 3 s for it on this repository's Soft-RoCE pair under TCG (tests/vm/README.md,
 * "A run's fixed cost here is about 3 s"); a host with a real NIC pays less, so estimates err long. */
#define MESH_TEST_SETUP_S 3.0

enum mesh_plan_kind {
	MESH_PLAN_ALL_PAIRS,   /* every pair once: the circle method, N-1 rounds (N odd: N, one bye each) */
	MESH_PLAN_RING,        /* i with i+1 (mod N): 2 rounds, 3 for an odd ring of 3 or more */
	MESH_PLAN_RAIL,        /* per rail index, same-index NICs only, the rails side by side */
};

struct mesh_test {
	unsigned a, b;         /* ranks, a < b */
	int rail;              /* the rail index, or MESH_RAIL_EVERY */
};

struct mesh_plan {
	enum mesh_plan_kind kind;
	size_t nodes;
	const unsigned *rails; /* per node: how many RoCE ports (rails) it has; the caller keeps it */
	unsigned rails_max;    /* the most any node has */
	size_t rounds;
	size_t tests;          /* tests over all rounds (a rail plan's count one per rail) */
	size_t round_tests_max;/* the most tests one round holds: the size mesh_plan_round's out needs */
};

/* "all-pairs", "ring", "rail"; NULL for an unknown kind / -EINVAL for an unknown name. */
const char *mesh_plan_kind_name(enum mesh_plan_kind kind);
int mesh_plan_kind_parse(const char *name, enum mesh_plan_kind *out);

/* The plan of kind over nodes nodes, rails[i] rails on node i (each 1..MESH_RAILS_MAX). 0, or -EINVAL with
 * why[] saying what is wrong (fewer than 2 nodes, more than MESH_NODES_MAX, a node without a rail; a rail plan
 * where no rail index is on two nodes). */
int mesh_plan_init(struct mesh_plan *p, enum mesh_plan_kind kind, size_t nodes, const unsigned *rails, char *why,
		   size_t why_size);

/* The tests of round r (0-based, below p->rounds) into out (room for p->round_tests_max), a < b, ordered by
 * rail and then by a. Returns how many. -ENOMEM when a rail plan's member lists cannot be allocated. */
long mesh_plan_round(const struct mesh_plan *p, size_t round, struct mesh_test *out);

/* The seconds of one round, each bw lasting bw_seconds: the setup cost and the run, once per rail in turn for
 * all-pairs and ring (each link measured alone), once for a rail plan (its rails run side by side). */
double mesh_plan_round_seconds(const struct mesh_plan *p, double bw_seconds);

#endif
