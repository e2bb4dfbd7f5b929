// SPDX-License-Identifier: GPL-2.0-only
/* mesh's run: every rank starts its serve and registers with rank 0, rank 0 plans and drives the rounds of bw,
 * gathers the results and gives the answer. */
#ifndef ROCE_DOCTOR_MESH_RUN_H
#define ROCE_DOCTOR_MESH_RUN_H

#include <stdint.h>

#include "cmd/common.h"
#include "core/mesh/launcher.h"
#include "core/mesh/plan.h"
#include "util/secret_file.h"

#define MESH_RENDEZVOUS_PORT 18517   /* next to serve's 18516 */
#define MESH_REGISTER_TIMEOUT_S 60

struct mesh_run_args {
	enum mesh_plan_kind kind;
	double seconds;               /* bw's -D */
	uint32_t bytes;               /* bw's -s */
	double expect_gbps, expect_link_pct;   /* 0: not asked */
	double time_limit;            /* seconds; 0: none */
	unsigned register_timeout_s;
	unsigned serve_port;          /* this node's serve; 0: a free one */
	unsigned rendezvous_port;
	const char *plot;             /* --plot FILE; NULL none */
	const struct secret *token;   /* the job's token for the control connection; NULL none */
	const char *token_from;       /* "ROCE_DOCTOR_MESH_TOKEN" or "--secret-file" */
};

/* Runs this rank's part. Rank 0 emits the answer: 0 when every pair measured and none is odd, 1 otherwise (odd
 * links, failed pairs, nodes missing, pairs not measured), 3 when it cannot listen. Other ranks print nothing
 * on success and exit 0; 3 when rank 0 cannot be reached or refuses them, or one side holds a token the other
 * does not prove. */
int mesh_run(struct app *app, const struct mesh_run_args *a, const struct mesh_launch *l);

#endif
