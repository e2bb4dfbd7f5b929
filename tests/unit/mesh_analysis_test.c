// SPDX-License-Identifier: GPL-2.0-only
/* mesh's answer from measured-looking inputs: the outlier rule finds the one slow link of a healthy rail and
 * nothing in a healthy mesh's jitter, a node with a bad cable is named suspect and its neighbours are not,
 * --expect-gbps and --expect-link-pct floors, failed and not-run pairs in the verdict, the matrix's cells. */
#include <errno.h>
#include <string.h>

#include "core/mesh/analysis.h"
#include "tap.h"

#define NODES 8
#define PAIRS (NODES * (NODES - 1) / 2)

static struct mesh_result res[2 * PAIRS];
static size_t count;

/* All pairs of NODES on rails rails, each at gbps[a][b] (a 100G fabric's 92-94 Gb/s of jitter by default). */
static void fill(size_t rails, double (*gbps)(unsigned a, unsigned b, int rail))
{
	count = 0;
	for (int k = 0; k < (int)rails; k++)
		for (unsigned a = 0; a < NODES; a++)
			for (unsigned b = a + 1; b < NODES; b++)
				res[count++] = (struct mesh_result){ .a = a, .b = b, .rail = k, .state = MESH_RESULT_MEASURED,
								     .gbps = gbps(a, b, k), .link_gbps = 100, .attempts = 1,
								     .round = 1 };
}

static double jitter(unsigned a, unsigned b, int rail)
{
	return 92.0 + (double)((a * 7 + b * 3 + (unsigned)rail) % 5) * 0.5;   /* 92.0 .. 94.0 */
}

/* Node 5's cable on rail 1 runs at half rate: 47 Gb/s against anyone. */
static double node5_rail1_half(unsigned a, unsigned b, int rail)
{
	return rail == 1 && (a == 5 || b == 5) ? 47.0 - (double)a * 0.1 : jitter(a, b, rail);
}

/* One link, 2-6 on rail 0, crosses a congested spine: 61 Gb/s. */
static double one_link_slow(unsigned a, unsigned b, int rail)
{
	return rail == 0 && a == 2 && b == 6 ? 61.0 : jitter(a, b, rail);
}

static const struct mesh_rule no_floor = { 0, 0 };

static void healthy_mesh_has_no_odd_link(void)
{
	struct mesh_analysis an;

	fill(2, jitter);
	CHECK(mesh_analyse(res, count, NODES, 2, &no_floor, 0, &an) == 0);
	CHECK(an.verdict == MESH_VERDICT_OK && an.slow == 0 && an.suspects == 0 && an.measured == 2 * PAIRS);
	CHECK(an.rail[0].outlier_rule && an.rail[0].measured == PAIRS);
	CHECK(an.rail[0].median >= 92.0 && an.rail[0].median <= 94.0);
	CHECK_STR(mesh_verdict_name(an.verdict), "ok");
	mesh_analysis_free(&an);
}

static void one_slow_link_is_odd_and_no_node_suspect(void)
{
	struct mesh_analysis an;

	fill(2, one_link_slow);
	CHECK(mesh_analyse(res, count, NODES, 2, &no_floor, 0, &an) == 0);
	CHECK(an.verdict == MESH_VERDICT_ODD && an.slow == 1 && an.suspects == 0);
	for (size_t i = 0; i < count; i++)
		CHECK(res[i].slow == (res[i].rail == 0 && res[i].a == 2 && res[i].b == 6));
	CHECK(res[0].floor_gbps > 80 && res[0].floor_gbps < 90);   /* 90% of the median, MAD is small */
	mesh_analysis_free(&an);
}

static void node_in_most_slow_pairs_is_suspect(void)
{
	struct mesh_analysis an;

	fill(2, node5_rail1_half);
	CHECK(mesh_analyse(res, count, NODES, 2, &no_floor, 0, &an) == 0);
	CHECK(an.verdict == MESH_VERDICT_ODD && an.slow == NODES - 1);
	CHECK(an.suspects == 1 && an.suspect[5] == 2);   /* rail 1's bit: its NIC there */
	CHECK(an.bad[5 * 2 + 1] == NODES - 1 && an.bad[0 * 2 + 1] == 1 && an.bad[5 * 2] == 0);
	CHECK(an.tested[5 * 2 + 1] == NODES - 1);
	mesh_analysis_free(&an);
}

static void expect_gbps_floor_replaces_the_rule(void)
{
	struct mesh_rule r = { .expect_gbps = 93.0 };
	struct mesh_analysis an;
	size_t below = 0;

	fill(1, jitter);
	for (size_t i = 0; i < count; i++)
		below += res[i].gbps < 93.0;
	CHECK(mesh_analyse(res, count, NODES, 1, &r, 0, &an) == 0);
	CHECK(an.slow == below && below > 0 && !an.rail[0].outlier_rule && res[0].floor_gbps == 93.0);
	mesh_analysis_free(&an);
}

static void expect_link_pct_uses_each_links_rate(void)
{
	struct mesh_rule r = { .expect_link_pct = 95 };
	struct mesh_analysis an;

	fill(1, jitter);
	res[3].link_gbps = 0;   /* unknown rate: no floor for that one */
	res[4].link_gbps = 50;  /* a 50G port at 92+ Gb/s is fine */
	CHECK(mesh_analyse(res, count, NODES, 1, &r, 0, &an) == 0);
	CHECK(res[0].slow && res[0].floor_gbps == 95.0);
	CHECK(!res[3].slow && res[3].floor_gbps == 0);
	CHECK(!res[4].slow && res[4].floor_gbps == 47.5);
	mesh_analysis_free(&an);
}

static void failed_and_not_run_in_the_verdict(void)
{
	struct mesh_analysis an;

	fill(1, jitter);
	res[count - 1].state = MESH_RESULT_NOT_RUN;
	snprintf(res[count - 1].why, sizeof(res[count - 1].why), "the time limit");
	CHECK(mesh_analyse(res, count, NODES, 1, &no_floor, 0, &an) == 0);
	CHECK(an.verdict == MESH_VERDICT_INCOMPLETE && an.not_run == 1 && an.tested[NODES - 1] == NODES - 2 && an.tested[0] == NODES - 1);
	CHECK_STR(mesh_verdict_name(an.verdict), "incomplete");
	mesh_analysis_free(&an);
	CHECK(mesh_analyse(res, count, NODES, 1, &no_floor, 1, &an) == 0);
	CHECK(an.verdict == MESH_VERDICT_FAILED);   /* a node missing */
	mesh_analysis_free(&an);
	res[0].state = MESH_RESULT_FAILED;
	CHECK(mesh_analyse(res, count, NODES, 1, &no_floor, 0, &an) == 0);
	CHECK(an.verdict == MESH_VERDICT_FAILED && an.failed == 1 && an.suspects == 0);
	mesh_analysis_free(&an);
}

static void node_whose_serve_is_down_fails_every_pair_and_is_suspect(void)
{
	struct mesh_analysis an;

	fill(1, jitter);
	for (size_t i = 0; i < count; i++)
		if (res[i].a == 3 || res[i].b == 3)
			res[i].state = MESH_RESULT_FAILED;
	CHECK(mesh_analyse(res, count, NODES, 1, &no_floor, 0, &an) == 0);
	CHECK(an.failed == NODES - 1 && an.suspects == 1 && an.suspect[3] == 1 && !an.all_bad);
	mesh_analysis_free(&an);
}

/* Every pair failed (bw cannot run anywhere, as on a host without RDMA): no node stands out. */
static void every_pair_bad_names_no_node(void)
{
	struct mesh_analysis an;

	fill(1, jitter);
	for (size_t i = 0; i < count; i++)
		res[i].state = MESH_RESULT_FAILED;
	CHECK(mesh_analyse(res, count, NODES, 1, &no_floor, 0, &an) == 0);
	CHECK(an.all_bad && an.suspects == 0 && an.verdict == MESH_VERDICT_FAILED);
	mesh_analysis_free(&an);
}

/* Two nodes, one pair: too few samples for the rule, nothing is called slow however low. */
static void too_few_samples_no_rule(void)
{
	struct mesh_result two = { .a = 0, .b = 1, .rail = 0, .state = MESH_RESULT_MEASURED, .gbps = 3 };
	struct mesh_analysis an;

	CHECK(mesh_analyse(&two, 1, 2, 1, &no_floor, 0, &an) == 0);
	CHECK(!an.rail[0].outlier_rule && !two.slow && an.verdict == MESH_VERDICT_OK);
	mesh_analysis_free(&an);
}

static void out_of_range_refused(void)
{
	struct mesh_result r = { .a = 1, .b = 1, .rail = 0 };
	struct mesh_analysis an;

	CHECK(mesh_analyse(&r, 1, 2, 1, &no_floor, 0, &an) == -EINVAL);
	r = (struct mesh_result){ .a = 0, .b = 2, .rail = 0 };
	CHECK(mesh_analyse(&r, 1, 2, 1, &no_floor, 0, &an) == -EINVAL);
	r = (struct mesh_result){ .a = 0, .b = 1, .rail = 1 };
	CHECK(mesh_analyse(&r, 1, 2, 1, &no_floor, 0, &an) == -EINVAL);
}

static void matrix_cells_both_halves(void)
{
	long cell[NODES * NODES];

	fill(2, jitter);
	mesh_matrix(res, count, NODES, 1, cell);
	CHECK(cell[0] == -1 && cell[NODES + 1] == -1);
	CHECK(cell[2 * NODES + 6] >= 0 && cell[2 * NODES + 6] == cell[6 * NODES + 2]);
	CHECK(res[cell[2 * NODES + 6]].a == 2 && res[cell[2 * NODES + 6]].b == 6 && res[cell[2 * NODES + 6]].rail == 1);
}

static void median_even_and_odd(void)
{
	double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };

	CHECK(mesh_median(a, 3) == 3 && mesh_median(b, 4) == 2.5 && mesh_median(NULL, 0) == 0);
}

int main(void)
{
	RUN(healthy_mesh_has_no_odd_link);
	RUN(one_slow_link_is_odd_and_no_node_suspect);
	RUN(node_in_most_slow_pairs_is_suspect);
	RUN(expect_gbps_floor_replaces_the_rule);
	RUN(expect_link_pct_uses_each_links_rate);
	RUN(failed_and_not_run_in_the_verdict);
	RUN(node_whose_serve_is_down_fails_every_pair_and_is_suspect);
	RUN(every_pair_bad_names_no_node);
	RUN(too_few_samples_no_rule);
	RUN(out_of_range_refused);
	RUN(matrix_cells_both_halves);
	RUN(median_even_and_odd);
	TAP_DONE();
}
