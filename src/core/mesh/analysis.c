// SPDX-License-Identifier: GPL-2.0-only
/* mesh's answer: the floors and the outlier rule per rail, the suspect nodes, the verdict, a rail's matrix. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/analysis.h"

static const char *const verdict_names[] = { "ok", "incomplete", "odd", "failed" };

const char *mesh_verdict_name(enum mesh_verdict v)
{
	return (unsigned)v < sizeof(verdict_names) / sizeof(verdict_names[0]) ? verdict_names[v] : "?";
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double mesh_median(double *v, size_t count)
{
	if (count == 0)
		return 0;
	qsort(v, count, sizeof(*v), by_value);
	return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

/* The median and the median absolute deviation of rail's measured results; scratch has room for count. */
static void rail_stats(const struct mesh_result *r, size_t count, int rail, double *scratch,
		       struct mesh_rail_stats *out)
{
	size_t n = 0;

	for (size_t i = 0; i < count; i++)
		if (r[i].rail == rail && r[i].state == MESH_RESULT_MEASURED)
			scratch[n++] = r[i].gbps;
	out->measured = n;
	out->median = mesh_median(scratch, n);
	for (size_t i = 0; i < n; i++)
		scratch[i] = scratch[i] > out->median ? scratch[i] - out->median : out->median - scratch[i];
	out->mad = mesh_median(scratch, n);
}

/* The floor result r is held to: what was asked (the higher of the two when both), else the outlier rule's.
 * 0 when nothing applies (no link rate for --expect-link-pct alone, too few samples for the rule). */
static double floor_of(const struct mesh_result *r, const struct mesh_rule *rule, const struct mesh_rail_stats *s)
{
	double f = rule->expect_gbps;

	if (rule->expect_link_pct > 0 && r->link_gbps > 0 && r->link_gbps * rule->expect_link_pct / 100 > f)
		f = r->link_gbps * rule->expect_link_pct / 100;
	if (rule->expect_gbps > 0 || rule->expect_link_pct > 0)
		return f;
	if (!s->outlier_rule)
		return 0;
	f = s->median - MESH_OUTLIER_MAD_K * s->mad;
	return f < s->median * MESH_OUTLIER_MEDIAN_PCT / 100 ? f : s->median * MESH_OUTLIER_MEDIAN_PCT / 100;
}

int mesh_analyse(struct mesh_result *results, size_t count, size_t nodes, size_t rails, const struct mesh_rule *rule,
		 size_t missing, struct mesh_analysis *out)
{
	double *scratch = malloc((count ? count : 1) * sizeof(*scratch));
	size_t ran = 0, bad = 0;

	memset(out, 0, sizeof(*out));
	out->nodes = nodes;
	out->rails = rails;
	out->rail = calloc(rails ? rails : 1, sizeof(*out->rail));
	out->bad = calloc(nodes * rails + 1, sizeof(*out->bad));
	out->tested = calloc(nodes * rails + 1, sizeof(*out->tested));
	out->suspect = calloc(nodes ? nodes : 1, sizeof(*out->suspect));
	if (!scratch || !out->rail || !out->bad || !out->tested || !out->suspect) {
		free(scratch);
		mesh_analysis_free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++)
		if (results[i].a >= results[i].b || results[i].b >= nodes || results[i].rail < 0 ||
		    (size_t)results[i].rail >= rails) {
			free(scratch);
			mesh_analysis_free(out);
			return -EINVAL;
		}
	for (size_t k = 0; k < rails; k++) {
		rail_stats(results, count, (int)k, scratch, &out->rail[k]);
		out->rail[k].outlier_rule = out->rail[k].measured >= MESH_OUTLIER_MIN_SAMPLES &&
					    rule->expect_gbps <= 0 && rule->expect_link_pct <= 0;
	}
	free(scratch);
	for (size_t i = 0; i < count; i++) {
		struct mesh_result *r = &results[i];

		r->slow = false;
		r->floor_gbps = 0;
		if (r->state == MESH_RESULT_NOT_RUN) {
			out->not_run++;
			continue;
		}
		ran++;
		out->tested[r->a * rails + (size_t)r->rail]++;
		out->tested[r->b * rails + (size_t)r->rail]++;
		if (r->state == MESH_RESULT_FAILED) {
			out->failed++;
		} else {
			out->measured++;
			r->floor_gbps = floor_of(r, rule, &out->rail[r->rail]);
			r->slow = r->gbps < r->floor_gbps;
			out->slow += r->slow;
		}
		if (r->state == MESH_RESULT_FAILED || r->slow) {
			bad++;
			out->bad[r->a * rails + (size_t)r->rail]++;
			out->bad[r->b * rails + (size_t)r->rail]++;
		}
	}
	/* A node whose own pairs on a rail are mostly bad is the node (its NIC, its cable), not the links; when
	 * every pair is bad, no node stands out. */
	out->all_bad = ran > 0 && bad == ran;
	for (size_t n = 0; n < nodes && !out->all_bad; n++) {
		for (size_t k = 0; k < rails && k < 64; k++) {
			unsigned b = out->bad[n * rails + k];

			if (b >= 2 && 2 * b > out->tested[n * rails + k])
				out->suspect[n] |= 1ull << k;
		}
		out->suspects += out->suspect[n] != 0;
	}
	out->verdict = out->failed || missing ? MESH_VERDICT_FAILED : out->slow ? MESH_VERDICT_ODD :
		       out->not_run ? MESH_VERDICT_INCOMPLETE : MESH_VERDICT_OK;
	return 0;
}

void mesh_analysis_free(struct mesh_analysis *a)
{
	free(a->rail);
	free(a->bad);
	free(a->tested);
	free(a->suspect);
	memset(a, 0, sizeof(*a));
}

void mesh_matrix(const struct mesh_result *results, size_t count, size_t nodes, int rail, long *cell)
{
	for (size_t i = 0; i < nodes * nodes; i++)
		cell[i] = -1;
	for (size_t i = 0; i < count; i++)
		if (results[i].rail == rail && results[i].a < nodes && results[i].b < nodes) {
			cell[results[i].a * nodes + results[i].b] = (long)i;
			cell[results[i].b * nodes + results[i].a] = (long)i;
		}
}
