// SPDX-License-Identifier: GPL-2.0-only
/* compare's machinery shared by its rules: grouping nodes by a value (one sort), naming the odd groups against
 * the majority, and the bounded lists of node names. Internal to src/core/compare*.c. */
#ifndef ROCE_DOCTOR_COMPARE_GROUP_H
#define ROCE_DOCTOR_COMPARE_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/compare.h"
#include "util/text_append.h"

#define COMPARE_NAMES_SHOWN 8    /* node names listed before "+N more" */
#define COMPARE_GROUPS_SHOWN 6   /* odd values described before "+N more values" */
#define NCCL_WHAT_MAX 600        /* "NCCL at PATH" */
#define PLURAL_NODES(n) ((n) == 1 ? "node" : "nodes")

struct compare_ctx {
	const struct compare_node *nodes;
	size_t n;
	const char **names;          /* what each node is called in findings */
	int family;
	struct findings *out;
	struct compare_concerns *concerns;   /* NULL: not recorded */
};

/* One node's value; a node may appear in several items of one grouping only where a rule says so. */
struct keyed {
	const char *key;
	size_t node;
};

struct value_group {
	const char *value;
	const struct keyed *items;   /* into the grouping's sorted items, ascending node */
	size_t count;
};

struct grouping {
	struct value_group *groups;  /* largest first, then by value */
	size_t group_count;
	size_t known, unknown;
	bool tie;                    /* the two largest groups are equally large: no majority */
};

/* Sorts items (key then node) in place and groups them; unknown is how many nodes had no value. 0 or -ENOMEM. */
int grouping_build(struct grouping *g, struct keyed *items, size_t count, size_t unknown);
void grouping_free(struct grouping *g);

/* "the one node", "both nodes", "all 5 nodes": n nodes as a sentence says them. */
const char *compare_all_nodes(size_t n, char *buf, size_t size);

/* Records that the finding the rule adds next (index out->count) concerns node. */
void compare_concern(const struct compare_ctx *c, size_t node);

/* "b07,b12 (+3 more)"; records every node of vg (compare_concern) for the finding that names them next. */
void compare_node_list(const struct compare_ctx *c, const struct value_group *vg, char *buf, size_t size);

/* Writes the command that brings the nodes of `odd` (first node: odd->items[0].node) from `have` to `want`. */
typedef void (*compare_fix_fn)(const struct compare_ctx *c, const void *arg, const char *want,
			       const struct value_group *odd, const char *nodes, char *buf, size_t size);

struct attribute_rule {
	const char *id;
	const char *what;            /* "kernel", "netdev MTU of mlx5_0/1" */
	const char *subject;
	enum severity severity;
	compare_fix_fn fix;
	const void *arg;
	/* Numeric values where more is what RoCE wants (MTU, link rate): when the largest groups tie (two nodes,
	 * one each), align on the largest of them rather than the first in text order, which would tell the
	 * 9000-byte node to go down to 1500. */
	bool tie_takes_largest;
};

/* One finding for a grouped attribute: ok when every known node agrees (when report_ok), else the majority, the
 * odd values with their nodes and one fix line per odd group. Returns 1 when they differ, 0 when not, -ENOMEM. */
int compare_attribute(const struct compare_ctx *c, const struct attribute_rule *r, const struct grouping *g,
		      bool report_ok);

/* Puts the numerically largest of the tied leading groups first (rule.tie_takes_largest). */
void grouping_tie_largest_first(struct grouping *g);

/* Builds and reports in one go from one value per node (keys[i] NULL: unknown). */
int compare_keys(const struct compare_ctx *c, const struct attribute_rule *r, const char *const *keys, bool report_ok);
/* compare_keys with a tie in the majority broken by tie(g, arg), after the rule's own tie_takes_largest */
int compare_keys_tied(const struct compare_ctx *c, const struct attribute_rule *r, const char *const *keys,
		      bool report_ok, void (*tie)(struct grouping *g, const void *arg), const void *arg);


/* The host of a node with the majority's HCA names (NULL when no node has a host). 0 or -ENOMEM. */
int compare_reference_host(const struct compare_ctx *c, const struct host **ref);

/* The rules, by area. Each returns 0 or -ENOMEM. */
int compare_software(const struct compare_ctx *c);
int compare_nccl_libs(const struct compare_ctx *c);   /* compare.nccl_version, run by compare_software */
int compare_hcas(const struct compare_ctx *c);
int compare_ports(const struct compare_ctx *c);
int compare_gid(const struct compare_ctx *c);
int compare_addresses(const struct compare_ctx *c);
int compare_nccl(const struct compare_ctx *c);
/* Whether compare_qos judges a node's NCCL_IB_TC or NCCL_IB_FIFO_TC itself (compare.traffic_class, which needs
 * some node's DCB settings; compare.fifo_tc, always), so compare.nccl_settings leaves the name to it: one
 * difference, one finding. */
bool compare_qos_judges_setting(const struct compare_ctx *c, const char *name);
int compare_qos(const struct compare_ctx *c);         /* compare.pfc, .trust, .dscp_map, .traffic_class, .roce_tos,
                                                        * .forced_tc, .fifo_tc: core/qos/ */
int compare_check_summary(const struct compare_ctx *c);

#endif
