// SPDX-License-Identifier: GPL-2.0-only
/* compare_nodes: names the nodes (hostname, or file name where hostnames collide) and runs every rule. */
#include "core/compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compare_group.h"

const char *const compare_ids[] = {
	"compare.hostname", "compare.kernel", "compare.rdma_core", "compare.providers", "compare.nccl_version",
	"compare.memlock", "compare.firewall", "compare.driver", "compare.hca_count", "compare.hca_names",
	"compare.firmware", "compare.port_rate", "compare.link_layer", "compare.mtu", "compare.active_mtu",
	"compare.gid_index", "compare.gid_index_pinned", "compare.rails", "compare.duplicate_address",
	"compare.nccl_settings", "compare.pfc", "compare.trust", "compare.dscp_map", "compare.traffic_class",
	"compare.roce_tos", "compare.forced_tc", "compare.fifo_tc",
	"compare.check_summary", NULL,
};

#define COLLISIONS_SHOWN 16

/* The kernel's name before anyone set one ("(none)"), or an empty or localhost name a VM image shipped with. */
static bool is_unset(const char *hostname)
{
	return strcmp(hostname, "(none)") == 0 || strcmp(hostname, "localhost") == 0 ||
	       strcmp(hostname, "localhost.localdomain") == 0;
}

/* Names every node: its hostname where unique, else its file name; "node N" when neither is known. A hostname
 * two snapshots share is a warning, not a failure: NCCL tells hosts apart by host name and boot id, so the job
 * runs; what breaks is whatever names nodes by host name (MPI hostfiles, Slurm), or one snapshot is stale. */
static int name_nodes(struct compare_ctx *c, char **owned)
{
	struct keyed *items = malloc((c->n ? c->n : 1) * sizeof(*items));
	struct grouping g;
	size_t count = 0, collisions = 0;
	int ret;

	if (!items)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		c->names[i] = c->nodes[i].hostname ? c->nodes[i].hostname : c->nodes[i].file;
		if (c->nodes[i].hostname)
			items[count++] = (struct keyed){ .key = c->nodes[i].hostname, .node = i };
	}
	ret = grouping_build(&g, items, count, c->n - count);
	for (size_t k = 0; ret == 0 && k < g.group_count && g.groups[k].count > 1; k++) {
		const struct value_group *vg = &g.groups[k];
		char files[512] = "";

		for (size_t j = 0; j < vg->count; j++) {
			const struct compare_node *node = &c->nodes[vg->items[j].node];

			c->names[vg->items[j].node] = node->file;
			if (collisions < COLLISIONS_SHOWN)
				compare_concern(c, vg->items[j].node);
			if (j < COMPARE_NAMES_SHOWN)
				text_append(files, sizeof(files), "%s%s", j ? ", " : "", node->file ? node->file : "(no file)");
		}
		if (vg->count > COMPARE_NAMES_SHOWN)
			text_append(files, sizeof(files), " (+%zu more)", vg->count - COMPARE_NAMES_SHOWN);
		if (collisions++ < COLLISIONS_SHOWN) {
			const bool unset = is_unset(vg->value);
			char fix[768];

			snprintf(fix, sizeof(fix),
				 "on each of them but one (or all, where the name is unset): `hostnamectl set-hostname NAME` "
				 "with a name of its own, then take its snapshot again; or drop the stale snapshots among %s",
				 files);
			if (unset)
				finding_add(c->out, "compare.hostname", SEVERITY_WARN, "hostnames", fix,
					    "the host name is unset (the kernel's %s) on %zu nodes: %s (named by file name "
					    "below). NCCL tells hosts apart by host name and boot id, but MPI hostfiles and "
					    "Slurm node names cannot", vg->value, vg->count, files);
			else
				finding_add(c->out, "compare.hostname", SEVERITY_WARN, vg->value, fix,
					    "host name %s is in %zu snapshots: %s (named by file name below). If they are "
					    "different nodes (a cloned image), NCCL tells them apart by host name and boot "
					    "id, but MPI hostfiles and Slurm node names cannot", vg->value, vg->count, files);
		}
	}
	if (ret == 0 && collisions > COLLISIONS_SHOWN)
		finding_add(c->out, "compare.hostname", SEVERITY_WARN, "hostnames",
			    "give each node a name of its own (`hostnamectl set-hostname NAME` on it) and take its snapshot "
			    "again", "%zu more host names are in several snapshots", collisions - COLLISIONS_SHOWN);
	else if (ret == 0 && collisions == 0)
		finding_add(c->out, "compare.hostname", SEVERITY_OK, "hostnames", NULL,
			    "every host name is unique (%zu %s, %zu without a host name)", c->n, PLURAL_NODES(c->n),
			    g.unknown);
	grouping_free(&g);
	free(items);
	/* nodes with neither a hostname nor a file (or colliding without a file) are called by their position */
	for (size_t i = 0; ret == 0 && i < c->n; i++) {
		if (c->names[i])
			continue;
		if (asprintf(&owned[i], "node%zu", i + 1) < 0) {
			owned[i] = NULL;
			return -ENOMEM;
		}
		c->names[i] = owned[i];
	}
	return ret;
}

void compare_concerns_free(struct compare_concerns *c)
{
	free(c->items);
	memset(c, 0, sizeof(*c));
}

int compare_nodes(const struct compare_node *nodes, size_t n, int family, struct findings *out)
{
	return compare_nodes_concerned(nodes, n, family, out, NULL);
}

int compare_nodes_concerned(const struct compare_node *nodes, size_t n, int family, struct findings *out,
			    struct compare_concerns *concerns)
{
	struct compare_ctx c = { .nodes = nodes, .n = n, .family = family, .out = out, .concerns = concerns };
	int (*const rules[])(const struct compare_ctx *) = {
		compare_software, compare_hcas, compare_ports, compare_gid, compare_addresses, compare_nccl,
		compare_qos, compare_check_summary,
	};
	char **owned;
	int ret;

	c.names = calloc(n ? n : 1, sizeof(*c.names));
	owned = calloc(n ? n : 1, sizeof(*owned));
	if (!c.names || !owned) {
		ret = -ENOMEM;
		goto out;
	}
	ret = name_nodes(&c, owned);
	for (size_t i = 0; ret == 0 && i < sizeof(rules) / sizeof(rules[0]); i++)
		ret = rules[i](&c);
	if (ret == 0 && concerns && concerns->failed)
		ret = -ENOMEM;
out:
	for (size_t i = 0; owned && i < n; i++)
		free(owned[i]);
	free(owned);
	free(c.names);
	return ret;
}
