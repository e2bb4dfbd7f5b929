// SPDX-License-Identifier: GPL-2.0-only
/* compare's HCA rules: driver, how many HCAs and their names, and firmware per HCA model (board id). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compare_group.h"

static void fix_driver(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		       const char *nodes, char *buf, size_t size)
{
	char first[32];

	(void)c, (void)arg;
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(want, ","), want);
	snprintf(buf, size,
		 "on %s (drivers %s, the others %s): install the package the others take %s from (inbox kernel or "
		 "MLNX_OFED/DOCA: `modinfo %s | grep -E \"^(filename|version)\"` on one of them says which), then reboot", nodes,
		 odd->value, want, first, first);
}

static void fix_hca_count(const struct compare_ctx *c, const void *arg, const char *want,
			  const struct value_group *odd, const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg;
	snprintf(buf, size,
		 "on %s (%s HCAs, the others %s): find the missing ones with `lspci -d 15b3:` and `dmesg | grep -i "
		 "mlx5`, load the RDMA driver (`modprobe mlx5_ib`), then `ibv_devices` must list %s", nodes, odd->value,
		 want, want);
}

static void fix_hca_names(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
			  const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg, (void)odd;
	snprintf(buf, size,
		 "on %s: name the HCAs as the others do (%s), or NCCL_IB_HCA lists will not fit every node: rdma-core's "
		 "/etc/udev/rules.d/60-rdma-persistent-naming.rules with the same line as the others "
		 "(ACTION==\"add\", SUBSYSTEM==\"infiniband\", PROGRAM=\"rdma_rename %%k NAME_KERNEL\"), then reboot",
		 nodes, want);
}

static const struct rdma_device *odd_device_of_board(const struct compare_ctx *c, const struct value_group *odd,
						     const char *board)
{
	const struct compare_node *node = &c->nodes[odd->items[0].node];
	const struct rdma_device *first = NULL;

	/* Several HCAs share a board id: name the one whose firmware is the odd one, not the first of them. */
	for (size_t i = 0; node->host && i < node->board_count; i++) {
		const struct rdma_device *d;

		if (!node->boards[i].board_id || strcmp(node->boards[i].board_id, board) != 0)
			continue;
		d = host_find_device(node->host, node->boards[i].device);
		if (d && strcmp(d->fw_ver, odd->value) == 0)
			return d;
		if (!first)
			first = d;
	}
	return first;
}

static void fix_firmware(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
			 const char *nodes, char *buf, size_t size)
{
	const struct rdma_device *d = odd_device_of_board(c, odd, arg);
	const char *pci = d && d->pci_address[0] ? d->pci_address : d ? d->name : "PCI_ADDRESS";

	snprintf(buf, size,
		 "on %s (firmware %s): burn firmware %s for board %s on each such HCA, e.g. `mstflint -d %s -i "
		 "fw-%s-%s.bin burn` (or `mlxfwmanager -u -i` with that image), then `mstfwreset -d %s reset -y` or "
		 "reboot", nodes, odd->value, want, (const char *)arg, pci, (const char *)arg, want, pci);
}

/* Distinct drivers in device order ("mlx5_core"), HCA names ("mlx5_0,mlx5_1"): one string per host. */
static char *driver_key(const struct host *host)
{
	size_t len = 8;
	char *key;

	for (size_t i = 0; i < host->device_count; i++)
		len += strlen(host->devices[i].driver[0] ? host->devices[i].driver : "none") + 1;
	key = calloc(1, len);
	for (size_t i = 0; key && i < host->device_count; i++) {
		const char *drv = host->devices[i].driver[0] ? host->devices[i].driver : "none";
		size_t j = 0;

		while (j < i && strcmp(host->devices[j].driver[0] ? host->devices[j].driver : "none", drv) != 0)
			j++;
		if (j == i)
			text_append(key, len, "%s%s", key[0] ? "," : "", drv);
	}
	if (key && !key[0])
		strcpy(key, "none");
	return key;
}

static char *names_key(const struct host *host)
{
	size_t len = 8;
	char *key;

	for (size_t i = 0; i < host->device_count; i++)
		len += strlen(host->devices[i].name) + 1;
	key = calloc(1, len);
	for (size_t i = 0; key && i < host->device_count; i++)
		text_append(key, len, "%s%s", i ? "," : "", host->devices[i].name);
	if (key && !key[0])
		strcpy(key, "none");
	return key;
}

static char *count_key(const struct host *host)
{
	char *key;

	return asprintf(&key, "%zu", host->device_count) < 0 ? NULL : key;
}

/* One key per node from its host, computed once per distinct host where consecutive nodes share one. */
static int host_keys(const struct compare_ctx *c, char *(*make)(const struct host *), const char **keys, char **owned)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct host *h = c->nodes[i].host;

		owned[i] = NULL;
		keys[i] = NULL;
		if (!h)
			continue;
		if (i > 0 && c->nodes[i - 1].host == h) {
			keys[i] = keys[i - 1];
			continue;
		}
		owned[i] = make(h);
		if (!owned[i])
			return -ENOMEM;
		keys[i] = owned[i];
	}
	return 0;
}

struct fw_item {
	const char *board, *fw;
	size_t node;
	const struct rdma_device *device;
};

#define MIXED_SHOWN 16   /* nodes with mixed firmware named one finding each */

static int fw_order(const void *a, const void *b)
{
	const struct fw_item *x = a, *y = b;
	int d = strcmp(x->board, y->board);

	if (d)
		return d;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return strcmp(x->fw, y->fw);
}

/* The most common firmware among one node's HCAs of a board (items of one node, sorted by version). */
static const char *node_common_fw(const struct fw_item *items, size_t count)
{
	const char *best = items[0].fw;
	size_t best_run = 0;

	for (size_t i = 0, j; i < count; i = j) {
		for (j = i + 1; j < count && strcmp(items[j].fw, items[i].fw) == 0; j++)
			;
		if (j - i > best_run) {
			best_run = j - i;
			best = items[i].fw;
		}
	}
	return best;
}

/* One finding per node whose HCAs of one board (items: one board, sorted by node then version) run different
 * firmware: the devices named with their versions, each one not on want (the version the other nodes run, or
 * else the node's most common) with its burn command. Returns how many nodes it found; *mixed counts them. */
static size_t mixed_firmware(const struct compare_ctx *c, const struct fw_item *items, size_t count, const char *want,
			     size_t *mixed)
{
	size_t found = 0;

	for (size_t i = 0, j; i < count; i = j) {
		char devices[512] = "", fix[2048] = "";
		const char *to;
		size_t same = 0;

		for (j = i + 1; j < count && items[j].node == items[i].node; j++)
			;
		if (strcmp(items[i].fw, items[j - 1].fw) == 0)
			continue;
		found++;
		if ((*mixed)++ >= MIXED_SHOWN)
			continue;
		to = want ? want : node_common_fw(&items[i], j - i);
		for (size_t k = i; k < j; k++) {
			const struct rdma_device *d = items[k].device;
			const char *pci = d->pci_address[0] ? d->pci_address : d->name;

			if (strcmp(items[k].fw, to) == 0) {
				same++;
				continue;
			}
			text_append(devices, sizeof(devices), "%s%s runs %s", devices[0] ? ", " : "", d->name, items[k].fw);
			text_append(fix, sizeof(fix),
				    "%son %s: burn firmware %s on %s (now %s): `mstflint -d %s -i fw-%s-%s.bin burn`, then "
				    "`mstfwreset -d %s reset -y` or reboot", fix[0] ? "\n" : "", c->names[items[i].node], to,
				    d->name, items[k].fw, pci, items[i].board, to, pci);
		}
		compare_concern(c, items[i].node);
		finding_add(c->out, "compare.firmware", SEVERITY_WARN, items[i].board, fix,
			    "firmware of board %s differs inside %s: %s; its other %zu HCA%s of the board run%s %s%s",
			    items[i].board, c->names[items[i].node], devices, same, same == 1 ? "" : "s",
			    same == 1 ? "s" : "", to, want ? ", as the other nodes do" : "");
	}
	return found;
}

/* Firmware is compared within one board id: two HCA models run different firmware lines by design. */
static int compare_firmware(const struct compare_ctx *c)
{
	struct fw_item *items;
	struct keyed *keyed = NULL;
	size_t count = 0, total = 0, differing = 0, boards = 0, mixed = 0;
	int ret = 0;

	for (size_t i = 0; i < c->n; i++)
		total += c->nodes[i].host ? c->nodes[i].board_count : 0;
	items = malloc((total ? total : 1) * sizeof(*items));
	keyed = malloc((total ? total : 1) * sizeof(*keyed));
	if (!items || !keyed) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct compare_node *node = &c->nodes[i];

		for (size_t j = 0; node->host && j < node->board_count; j++) {
			const struct rdma_device *d = host_find_device(node->host, node->boards[j].device);

			if (node->boards[j].board_id && d && d->fw_ver[0])
				items[count++] = (struct fw_item){ node->boards[j].board_id, d->fw_ver, i, d };
		}
	}
	qsort(items, count, sizeof(*items), fw_order);
	for (size_t start = 0, end; start < count && ret >= 0; start = end) {
		size_t k = 0;
		struct grouping g;
		char what[160];

		for (end = start; end < count && strcmp(items[end].board, items[start].board) == 0; end++)
			;
		/* the nodes on one version for this board are compared; a node whose HCAs of the board run two
		 * versions is a finding of its own, against the version the others run */
		for (size_t i = start, j; i < end; i = j) {
			for (j = i + 1; j < end && items[j].node == items[i].node; j++)
				;
			if (strcmp(items[i].fw, items[j - 1].fw) == 0)
				keyed[k++] = (struct keyed){ .key = items[i].fw, .node = items[i].node };
		}
		boards++;
		snprintf(what, sizeof(what), "firmware of board %s", items[start].board);
		const struct attribute_rule rule = { "compare.firmware", what, items[start].board, SEVERITY_WARN,
						     fix_firmware, items[start].board, false };
		ret = grouping_build(&g, keyed, k, 0);
		if (ret == 0)
			ret = compare_attribute(c, &rule, &g, false);
		differing += ret > 0;
		if (ret >= 0)
			differing += mixed_firmware(c, &items[start], end - start, g.group_count ? g.groups[0].value : NULL,
						    &mixed);
		grouping_free(&g);
	}
	if (ret >= 0 && mixed > MIXED_SHOWN)
		finding_add(c->out, "compare.firmware", SEVERITY_WARN, "firmware",
			    "`roce-doctor devices` on each node shows every HCA's firmware; burn one version per board",
			    "%zu more nodes run different firmware on HCAs of one board id", mixed - MIXED_SHOWN);
	if (ret >= 0 && !differing) {
		if (boards)
			finding_add(c->out, "compare.firmware", SEVERITY_OK, "firmware", NULL,
				    "every HCA model (%zu board id%s) runs one firmware version on every node", boards,
				    boards == 1 ? "" : "s");
		else
			finding_add(c->out, "compare.firmware", SEVERITY_INFO, "firmware", NULL,
				    "board ids are unknown on every node (%zu %s): firmware not compared", c->n,
				    PLURAL_NODES(c->n));
	}
out:
	free(items);
	free(keyed);
	return ret < 0 ? ret : 0;
}

int compare_hcas(const struct compare_ctx *c)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char **owned = calloc(c->n ? c->n : 1, sizeof(*owned));
	const struct {
		struct attribute_rule rule;
		char *(*make)(const struct host *);
	} rules[] = {
		{ { "compare.driver", "HCA driver", "driver", SEVERITY_WARN, fix_driver, NULL, false }, driver_key },
		{ { "compare.hca_count", "HCA count", "hca_count", SEVERITY_FAIL, fix_hca_count, NULL, false }, count_key },
		{ { "compare.hca_names", "HCA names", "hca_names", SEVERITY_WARN, fix_hca_names, NULL, false }, names_key },
	};
	int ret = -ENOMEM;

	if (!keys || !owned)
		goto out;
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		ret = host_keys(c, rules[r].make, keys, owned);
		if (ret == 0)
			ret = compare_keys(c, &rules[r].rule, keys, true);
		for (size_t i = 0; i < c->n; i++)
			free(owned[i]);
		memset(owned, 0, c->n * sizeof(*owned));
		if (ret < 0)
			goto out;
	}
	ret = compare_firmware(c);
out:
	free(owned);
	free(keys);
	return ret < 0 ? ret : 0;
}

/* The host the per-port rules take their port list from: one of the nodes with the majority's HCA names, so
 * a node missing an HCA is compared on the ports it has (compare.hca_names names it). */
int compare_reference_host(const struct compare_ctx *c, const struct host **ref)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char **owned = calloc(c->n ? c->n : 1, sizeof(*owned));
	struct keyed *items = malloc((c->n ? c->n : 1) * sizeof(*items));
	struct grouping g = { 0 };
	size_t count = 0;
	int ret = -ENOMEM;

	*ref = NULL;
	if (!keys || !owned || !items)
		goto out;
	ret = host_keys(c, names_key, keys, owned);
	for (size_t i = 0; ret == 0 && i < c->n; i++)
		if (keys[i])
			items[count++] = (struct keyed){ .key = keys[i], .node = i };
	if (ret == 0)
		ret = grouping_build(&g, items, count, c->n - count);
	if (ret == 0 && g.group_count)
		*ref = c->nodes[g.groups[0].items[0].node].host;
	grouping_free(&g);
out:
	for (size_t i = 0; owned && i < c->n; i++)
		free(owned[i]);
	free(owned);
	free(keys);
	free(items);
	return ret;
}
