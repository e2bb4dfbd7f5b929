// SPDX-License-Identifier: GPL-2.0-only
/* The catalog of every id check can emit: what --only and --skip are checked against, and what check --list
 * prints. tests/docs/docs_test.sh keeps it equal to the ids the rules add and to roce-doctor-checks(7)'s CHECKS. */
#ifndef ROCE_DOCTOR_CHECK_CATALOG_H
#define ROCE_DOCTOR_CHECK_CATALOG_H

#include <stddef.h>

struct check_id {
	const char *id;         /* "port.state": the area before the dot */
	const char *looks_at;   /* one line: what the rule reads */
};

/* In report order. */
extern const struct check_id check_catalog[];
extern const size_t check_catalog_count;

/* The area of an id ("port" for "port.state") into buf. */
const char *check_area(const char *id, char *buf, size_t size);

/* Whether --only PREFIX keeps id: id starts with PREFIX, except that a whole area name keeps only that area
 * ("net" keeps net.same_subnet, not netdev.*; "netd" keeps netdev.*). */
int check_id_selected(const char *id, const char *prefix);

/* How many catalog ids --only PREFIX keeps. */
size_t check_catalog_prefix_matches(const char *prefix);

/* Whether id is exactly a catalog id. */
int check_catalog_has(const char *id);

/* "rdma.devices, rdma.uverbs, ..." for a usage error naming the known ids. */
void check_catalog_ids(char *buf, size_t size);

#endif
