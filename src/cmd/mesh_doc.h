// SPDX-License-Identifier: GPL-2.0-only
/* mesh's answer as its roce-doctor/mesh/v1 document: every node, every measurement, the judgement. */
#ifndef ROCE_DOCTOR_MESH_DOC_H
#define ROCE_DOCTOR_MESH_DOC_H

#include <jansson.h>

#include "core/mesh/analysis.h"
#include "core/mesh/message.h"
#include "core/mesh/plan.h"

/* Up to this many nodes the document carries the matrix per rail (256: 65,536 cells a rail). */
#define MESH_DOC_MATRIX_NODES_MAX 256

struct mesh_run_input {
	enum mesh_plan_kind kind;
	double seconds;
	uint32_t bytes;
	double expect_gbps, expect_link_pct, time_limit;   /* 0: not given */
	size_t rounds, rounds_run;
	double elapsed;
	const char *launcher;
};

struct mesh_node_view {
	const char *state;                 /* "ok", "missing", "died" */
	const struct mesh_register *reg;   /* its registration (zero for one that never came) */
	const char *address;               /* where rank 0 saw it connect from */
	const char *gone;                  /* why missing or dead; "" */
};

/* Judges results (mesh_analyse: their slow and floor members set) and builds the document; NULL when out of
 * memory. The document's "ok" is true only for the verdict ok. */
json_t *mesh_run_doc(const struct mesh_run_input *in, struct mesh_result *results, size_t count,
		     const struct mesh_node_view *nodes, size_t size, unsigned rails);

#endif
