// SPDX-License-Identifier: GPL-2.0-only
/* mesh's answer from its measurements: which links are odd (below a floor asked for, or the robust outlier
 * rule against the median of the same rail), which nodes are suspect (in most of the bad pairs), the N x N
 * matrix of a rail. Pure: the measurements come in as an array, whoever took them. */
#ifndef ROCE_DOCTOR_MESH_ANALYSIS_H
#define ROCE_DOCTOR_MESH_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

/* The default outlier rule: slow is below median - K x MAD of its rail and below PCT% of that median. */
#define MESH_OUTLIER_MAD_K 3.0
#define MESH_OUTLIER_MEDIAN_PCT 90.0
/* Fewer measurements on a rail than this and the outlier rule says nothing: a median of two is no norm. */
#define MESH_OUTLIER_MIN_SAMPLES 3

enum mesh_result_state {
	MESH_RESULT_MEASURED,    /* bw ran and gave its average */
	MESH_RESULT_FAILED,      /* bw failed twice (the retry too), or a node died during it */
	MESH_RESULT_NOT_RUN,     /* never started: the time limit, or a node missing before it */
};

struct mesh_result {
	unsigned a, b;           /* ranks, a < b; a ran bw, b served */
	int rail;                /* the rail index */
	enum mesh_result_state state;
	double gbps;             /* the average, when measured */
	double link_gbps;        /* a's port's link rate; 0 unknown */
	unsigned attempts;       /* bw runs: 1, or 2 after a retry */
	unsigned round;          /* 1-based; 0 not run */
	char why[256];           /* a failure's or not-run's reason; "" when measured */
	/* set by mesh_analyse */
	bool slow;
	double floor_gbps;       /* the floor it was held to; 0 when no rule applied */
};

struct mesh_rule {
	double expect_gbps;      /* 0: not asked */
	double expect_link_pct;  /* 0: not asked */
};

struct mesh_rail_stats {
	size_t measured;
	double median, mad;      /* over the rail's measured results; 0 when none */
	bool outlier_rule;       /* the rule applied (enough samples, no floor asked for) */
};

enum mesh_verdict { MESH_VERDICT_OK, MESH_VERDICT_INCOMPLETE, MESH_VERDICT_ODD, MESH_VERDICT_FAILED };

struct mesh_analysis {
	size_t nodes, rails;
	struct mesh_rail_stats *rail;   /* rails of them */
	size_t measured, slow, failed, not_run;
	unsigned *bad;           /* per node and rail ([node * rails + rail]): slow or failed pairs it is in */
	unsigned *tested;        /* per node and rail: pairs it is in that ran (measured or failed) */
	unsigned long long *suspect;   /* per node: a bit per rail on which most of its pairs are bad (its NIC) */
	size_t suspects;
	bool all_bad;            /* every pair that ran was slow or failed: no node stands out */
	enum mesh_verdict verdict;
};

/* "ok", "incomplete", "odd", "failed" */
const char *mesh_verdict_name(enum mesh_verdict v);

/* Judges results (count of them, ranks below nodes, rails below rails): sets each one's slow and
 * floor_gbps, and *out. The verdict: failed when a pair failed or missing > 0 (nodes that never registered or
 * died), else odd when a link is slow, else incomplete when a pair did not run, else ok. A node is suspect on a
 * rail when at least 2 of its pairs there are bad and more than half of them, unless every pair that ran was
 * bad. 0, or
 * -ENOMEM / -EINVAL (a rank or rail out of range). Free with mesh_analysis_free. */
int mesh_analyse(struct mesh_result *results, size_t count, size_t nodes, size_t rails, const struct mesh_rule *rule,
		 size_t missing, struct mesh_analysis *out);
void mesh_analysis_free(struct mesh_analysis *a);

/* The median of v (count values; reordered). 0 for none. */
double mesh_median(double *v, size_t count);

/* Rail's N x N matrix: cell[i * nodes + j] (both halves) the index of the result of pair (i, j) on rail, or -1
 * when the plan had none (the diagonal, another rail). cell has room for nodes x nodes. */
void mesh_matrix(const struct mesh_result *results, size_t count, size_t nodes, int rail, long *cell);

#endif
