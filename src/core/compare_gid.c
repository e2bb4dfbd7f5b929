// SPDX-License-Identifier: GPL-2.0-only
/* compare's GID rules: the index each node would use for the family, and whether one NCCL_IB_GID_INDEX pinned
 * on the nodes is wrong where the index differs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/compare_group.h"
#include "core/nccl_setting_fix.h"
#include "core/gid_suggest.h"

#define GID_KEY_MAX 64
#define PINNED_SHOWN 8

static const char *family_flag(int family)
{
	return family == AF_INET6 ? "AF_INET6" : "AF_INET";
}

/* The distinct indexes the node's usable RoCE ports would use, ascending ("3", "3,5", "none" where a port has
 * no GID of the family); NULL when the node has no such port or no host. */
static const char *gid_key(const struct host *h, int family, char *buf, size_t size)
{
	bool seen[HOST_GIDS_MAX] = { false };
	bool none = false, any = false;

	if (!h)
		return NULL;
	for (size_t d = 0; d < h->device_count; d++)
		for (size_t p = 0; p < h->devices[d].port_count; p++) {
			const struct rdma_port *port = &h->devices[d].ports[p];
			const struct netdev *nd = port->netdev[0] ? host_find_netdev(h, port->netdev) : NULL;
			struct gid_choice choice;
			char why[256];

			if (port->link_layer != LINK_LAYER_ETHERNET || gid_port_use(port, nd, why, sizeof(why)) != PORT_IN_USE)
				continue;
			gid_choose_port(port, nd, family, &choice);
			any = true;
			if (choice.found && choice.entry->index < HOST_GIDS_MAX)
				seen[choice.entry->index] = true;
			else
				none = true;
		}
	if (!any)
		return NULL;
	buf[0] = 0;
	for (unsigned i = 0; i < HOST_GIDS_MAX; i++)
		if (seen[i])
			text_append(buf, size, "%s%u", buf[0] ? "," : "", i);
	if (none)
		text_append(buf, size, "%snone", buf[0] ? "," : "");
	return buf;
}

static void fix_gid_index(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
			  const char *nodes, char *buf, size_t size)
{
	(void)arg;
	if (strstr(odd->value, "none"))
		snprintf(buf, size,
			 "on %s a port has no RoCE v2 GID of the family: give its netdev the address the others have "
			 "(`ip addr add ADDRESS/LEN dev NETDEV`; `roce-doctor gid --suggest` there names the port)", nodes);
	else
		snprintf(buf, size,
			 "on %s NCCL needs index %s, the others %s: do not pin one NCCL_IB_GID_INDEX for all nodes; leave "
			 "it unset (NCCL >= 2.21 picks each port's RoCE v2 GID itself) or set `export "
			 "NCCL_IB_ADDR_FAMILY=%s`; pinned, it must be `export NCCL_IB_GID_INDEX=%s` on %s only", nodes,
			 odd->value, want, family_flag(c->family), odd->value, nodes);
}

/* "pin\037need\037source": the wrong pins grouped by what was pinned, where, and what is needed */
static int pinned_key(const struct compare_node *node, const char *need, char **key)
{
	*key = NULL;
	if (!node->gid_index_pinned || !need || strcmp(node->gid_index_pinned, need) == 0)
		return 0;
	if (asprintf(key, "%s\037%s\037%s", node->gid_index_pinned, need,
		     node->gid_index_source ? node->gid_index_source : "environment") < 0) {
		*key = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void report_pinned(const struct compare_ctx *c, const struct value_group *vg)
{
	char pin[64], need[GID_KEY_MAX], source[256], nodes[512], fix[2048];
	const char *f1 = strchr(vg->value, '\037');
	const char *f2 = f1 ? strchr(f1 + 1, '\037') : NULL;
	bool env;

	if (!f1 || !f2)
		return;
	snprintf(pin, sizeof(pin), "%.*s", (int)(f1 - vg->value), vg->value);
	snprintf(need, sizeof(need), "%.*s", (int)(f2 - f1 - 1), f1 + 1);
	snprintf(source, sizeof(source), "%s", f2 + 1);
	env = nccl_source_is_environment(source);
	compare_node_list(c, vg, nodes, sizeof(nodes));
	if (strchr(need, ',') || strstr(need, "none"))
		snprintf(fix, sizeof(fix),
			 "on %s no single index serves every port (%s): %s NCCL_IB_GID_INDEX%s%s and let NCCL >= 2.21 "
			 "pick each port's RoCE v2 GID, or `export NCCL_IB_ADDR_FAMILY=%s`", nodes, need,
			 env ? "`unset` " : "delete the line ", env ? "" : " from ", env ? "" : source, family_flag(c->family));
	else if (env)
		snprintf(fix, sizeof(fix),
			 "on %s: `export NCCL_IB_GID_INDEX=%s`; better: unset it on every node and leave the index to "
			 "NCCL >= 2.21, or `export NCCL_IB_ADDR_FAMILY=%s`", nodes, need, family_flag(c->family));
	else
		snprintf(fix, sizeof(fix),
			 "on %s, in %s: NCCL_IB_GID_INDEX=%s; better: delete the line on every node and leave the index "
			 "to NCCL >= 2.21, or set NCCL_IB_ADDR_FAMILY=%s there", nodes, source, need,
			 family_flag(c->family));
	finding_add(c->out, "compare.gid_index_pinned", SEVERITY_FAIL, env ? "NCCL_IB_GID_INDEX" : source, fix,
		    "NCCL_IB_GID_INDEX=%s (from %s) is wrong on %s, where the index is %s", pin, source, nodes, need);
}

static int compare_pinned(const struct compare_ctx *c, const char *const *keys)
{
	struct keyed *items = malloc((c->n ? c->n : 1) * sizeof(*items));
	char **owned = calloc(c->n ? c->n : 1, sizeof(*owned));
	size_t count = 0, pinned = 0, unknown = 0;
	struct grouping g = { 0 };
	int ret = -ENOMEM;

	if (!items || !owned)
		goto out;
	ret = 0;
	for (size_t i = 0; ret == 0 && i < c->n; i++) {
		pinned += c->nodes[i].gid_index_pinned != NULL;
		unknown += c->nodes[i].gid_index_pinned && !keys[i];
		ret = pinned_key(&c->nodes[i], keys[i], &owned[i]);
		if (owned[i])
			items[count++] = (struct keyed){ .key = owned[i], .node = i };
	}
	if (ret == 0)
		ret = grouping_build(&g, items, count, 0);
	for (size_t k = 0; ret == 0 && k < g.group_count && k < PINNED_SHOWN; k++)
		report_pinned(c, &g.groups[k]);
	if (ret == 0 && g.group_count > PINNED_SHOWN) {
		size_t rest = 0;

		for (size_t k = PINNED_SHOWN; k < g.group_count; k++)
			rest += g.groups[k].count;
		finding_add(c->out, "compare.gid_index_pinned", SEVERITY_FAIL, "NCCL_IB_GID_INDEX",
			    "unset NCCL_IB_GID_INDEX on every node (NCCL >= 2.21 picks the index itself)",
			    "NCCL_IB_GID_INDEX is wrong on %zu more nodes, in %zu more combinations", rest,
			    g.group_count - PINNED_SHOWN);
	}
	if (ret == 0 && count == 0 && pinned)
		finding_add(c->out, "compare.gid_index_pinned", SEVERITY_OK, "NCCL_IB_GID_INDEX", NULL,
			    "NCCL_IB_GID_INDEX, pinned on %zu %s, is the index %s uses (%zu with ports unknown)", pinned,
			    PLURAL_NODES(pinned), pinned == 1 ? "it" : "each of them", unknown);
	else if (ret == 0 && count == 0)
		finding_add(c->out, "compare.gid_index_pinned", SEVERITY_OK, "NCCL_IB_GID_INDEX", NULL,
			    "NCCL_IB_GID_INDEX is pinned on no node (%zu %s)", c->n, PLURAL_NODES(c->n));
	grouping_free(&g);
out:
	for (size_t i = 0; owned && i < c->n; i++)
		free(owned[i]);
	free(owned);
	free(items);
	return ret;
}

int compare_gid(const struct compare_ctx *c)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char (*bufs)[GID_KEY_MAX] = calloc(c->n ? c->n : 1, sizeof(*bufs));
	const struct attribute_rule rule = { "compare.gid_index", "GID index", "gid_index", SEVERITY_WARN, fix_gid_index,
					     NULL, false };
	int ret = -ENOMEM;

	if (!keys || !bufs)
		goto out;
	for (size_t i = 0; i < c->n; i++) {
		if (i > 0 && c->nodes[i].host == c->nodes[i - 1].host)
			keys[i] = keys[i - 1];   /* one host shared by several nodes is looked at once */
		else
			keys[i] = gid_key(c->nodes[i].host, c->family, bufs[i], GID_KEY_MAX);
	}
	ret = compare_keys(c, &rule, keys, true);
	if (ret >= 0)
		ret = compare_pinned(c, keys);
out:
	free(keys);
	free(bufs);
	return ret < 0 ? ret : 0;
}
