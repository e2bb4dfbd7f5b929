// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's JSON document (roce-doctor/pair/v1): the verdict, the rails with their probes, the bootstrap
 * probes, and every finding tagged with where it comes from and the node whose fix it carries. */
#ifndef ROCE_DOCTOR_CMD_PAIR_REPORT_H
#define ROCE_DOCTOR_CMD_PAIR_REPORT_H

#include <jansson.h>

#include "core/pair.h"
#include "core/pair_causes.h"

struct pair_report {
	const struct pair_side *side;             /* [2]: a, b */
	const struct findings *own;               /* [2]: each node's own check findings */
	const struct findings *compare;           /* compare of the two snapshots */
	const struct pair_findings *pair;
	const struct pair_rails *rails;
	const struct pair_probes *probes;
	const struct pair_causes *causes;         /* which finding stands for which; NULL: each its own */
	const char *peer;
	unsigned master_port;
};

/* "findings" holds one finding per cause, each with the ones it stands for in "covers" ([{id, node,
 * subject}]); "covered" holds those in full, each with "covered_by" ({id, node}). NULL when out of memory. */
json_t *pair_report_doc(const struct pair_report *r);

/* As check: 0 when nothing is worse than info, 1 warn, 2 fail. */
int pair_report_exit_code(const json_t *doc);

#endif
