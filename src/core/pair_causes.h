// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's findings grouped by cause: one difference between the nodes is seen by a node's own check, by
 * compare and by the pair rules (an MTU of 1500 on b: port.active_mtu, netdev.mtu, compare.mtu,
 * compare.active_mtu, two compare.check_summary, pair.mtu, pair.rdma). The report shows each cause once, with
 * the others listed under it. Pure: over the findings lists alone, for every cause. */
#ifndef ROCE_DOCTOR_PAIR_CAUSES_H
#define ROCE_DOCTOR_PAIR_CAUSES_H

#include <stddef.h>

#include "core/findings.h"

/* The four lists of a check --peer report, in the report's order. */
enum pair_list { PAIR_LIST_A, PAIR_LIST_B, PAIR_LIST_COMPARE, PAIR_LIST_PAIR, PAIR_LISTS };

struct pair_causes_input {
	const struct findings *list[PAIR_LISTS];
	const char *pair_node;          /* [i]: the node ('a', 'b', 0) of list[PAIR_LIST_PAIR]'s item i */
	const char *hostname[2];        /* a's and b's, NULL when unknown: compare names the nodes by them */
};

struct pair_finding_ref {
	enum pair_list list;            /* PAIR_LISTS: none */
	size_t index;
};

/* by[list][i]: the finding that stands for item i's cause, when item i is covered by it; .list PAIR_LISTS when
 * item i is shown itself (it leads its cause, stands alone, or is ok). */
struct pair_causes {
	struct pair_finding_ref by[PAIR_LISTS][FINDINGS_MAX];
};

/* Findings that are not ok are one cause when
 *  - they carry their fix on the same node and their fixes start with the same command (`ip link set dev X mtu
 *    9000` and `ip link set X mtu 9000` alike), whichever rule found them;
 *  - a compare finding (or a pair finding of no node) names a command in backquotes that such a finding
 *    runs, on the node its line names when both nodes have one;
 *  - a compare.check_summary's subject is the id of a node's own finding (the first node's that has it).
 * A cause is led by its most severe finding, so the report's verdict and exit status are unchanged; among
 * equals a pair finding of a node, then a node's own, then the rest, each in the report's order. */
void pair_causes_group(const struct pair_causes_input *in, struct pair_causes *out);

#endif
