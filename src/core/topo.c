// SPDX-License-Identifier: GPL-2.0-only
/* The relation nvidia-smi topo -m prints for two PCI functions, computed from sysfs paths.
 *
 * How sysfs maps onto NCCL's and nvidia-smi's path types (NCCL src/graph/xml.cc, ncclTopoGetXmlFromSys, and
 * src/graph/paths.cc, ncclTopoSetPaths, read at commit 5067397 of NVIDIA/nccl):
 * - A PCIe switch shows in sysfs as two levels, its upstream port and a downstream port per slot. NCCL climbs
 *   from a device two path components at a time, so a device's parent is the bridge two levels up (the switch's
 *   upstream port) and the downstream ports never become nodes; when the walk reaches the root bus
 *   (pciDDDD:BB, not an address) the parent is the CPU of the device's NUMA node. We take the same "switch
 *   nodes": chain[len-2], chain[len-4], ... (a device on a root port, or on the root bus, has none).
 * - GPU/NIC to its switch is PATH_PIX, switch to switch PATH_PXB, any hop through a CPU PATH_PHB, and CPU to
 *   CPU (another NUMA node) PATH_SYS. So: the same last switch node: PIX; a shared switch node higher up: PXB;
 *   no shared switch node under one host bridge: PHB.
 * - nvidia-smi adds NODE, "between PCIe host bridges within a NUMA node": different root buses (pci0000:00,
 *   pci0000:17) with one NUMA node. NCCL keys its CPU nodes by NUMA id and calls that PHB too. Across NUMA nodes
 *   is SYS. A numa_node of -1 (one-node machines, VMs) is taken as one node, as NCCL's "-1" CPU key is. */
#include "core/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const relation_names[] = { "PIX", "PXB", "PHB", "NODE", "SYS" };

const char *topo_relation_name(enum topo_relation r)
{
	return relation_names[r];
}

/* The switch nodes NCCL would make of f's chain, root first; returns how many. */
static size_t switch_nodes(const struct pci_function *f, const char *nodes[PCI_CHAIN_MAX])
{
	size_t count = 0;

	/* chain[len] would be the function itself: its parent node is two levels up, chain[len - 2]. */
	for (long i = (long)f->chain_len - 2; i >= 0; i -= 2)
		nodes[count++] = f->chain[i];
	for (size_t i = 0; i < count / 2; i++) {
		const char *tmp = nodes[i];

		nodes[i] = nodes[count - 1 - i];
		nodes[count - 1 - i] = tmp;
	}
	return count;
}

enum topo_relation topo_relation(const struct pci_function *a, const struct pci_function *b)
{
	const char *na[PCI_CHAIN_MAX], *nb[PCI_CHAIN_MAX];
	size_t ca, cb, k = 0;

	if (strcmp(a->host_bridge, b->host_bridge) != 0)
		return a->numa_node == b->numa_node ? TOPO_NODE : TOPO_SYS;
	ca = switch_nodes(a, na);
	cb = switch_nodes(b, nb);
	while (k < ca && k < cb && strcmp(na[k], nb[k]) == 0)
		k++;
	if (k == 0)
		return TOPO_PHB;
	return k == ca && k == cb ? TOPO_PIX : TOPO_PXB;
}

size_t topo_nearest(const struct pci_topology *t, size_t gpu, size_t *out, size_t max, enum topo_relation *best)
{
	size_t count = 0;

	*best = TOPO_SYS;
	for (size_t i = 0; i < t->count; i++)
		if (t->functions[i].role == PCI_ROLE_NIC) {
			enum topo_relation r = topo_relation(&t->functions[gpu], &t->functions[i]);

			if (r < *best || count == 0) {
				*best = r;
				count = 0;
			}
			if (r == *best && count < max)
				out[count++] = i;
		}
	return count;
}

bool topo_is_rail(const struct pci_topology *t, size_t nic)
{
	for (size_t g = 0; g < t->count; g++) {
		size_t near[PCI_FUNCTIONS_MAX];
		enum topo_relation best;
		size_t n;

		if (t->functions[g].role != PCI_ROLE_GPU)
			continue;
		n = topo_nearest(t, g, near, PCI_FUNCTIONS_MAX, &best);
		for (size_t i = 0; i < n; i++)
			if (near[i] == nic)
				return true;
	}
	return false;
}

/* "0000:01:00.1" -> "01:00.1": the part after the domain. */
static const char *after_domain(const char *address)
{
	const char *colon = strchr(address, ':');

	return colon ? colon + 1 : address;
}

long topo_twin_of(const struct pci_topology *t, size_t nic)
{
	const struct pci_function *n = &t->functions[nic];

	for (size_t i = 0; i < t->count; i++) {
		const struct pci_function *o = &t->functions[i];
		bool same = true;

		if (i == nic || o->role != PCI_ROLE_NIC || o->vendor != n->vendor || o->device_id != n->device_id ||
		    strcmp(after_domain(o->address), after_domain(n->address)) != 0 ||
		    strcmp(o->address, n->address) == 0 || o->numa_node != n->numa_node)
			continue;
		for (size_t g = 0; same && g < t->count; g++)
			if (t->functions[g].role == PCI_ROLE_GPU)
				same = topo_relation(&t->functions[g], n) == topo_relation(&t->functions[g], o);
		if (same)
			return (long)i;
	}
	return -1;
}

long topo_find_bridge(const struct pci_topology *t, const char *address)
{
	for (size_t i = 0; i < t->bridge_count; i++)
		if (strcmp(t->bridges[i].address, address) == 0)
			return (long)i;
	return -1;
}

static size_t add_chain(const struct pci_topology *t, const struct pci_function *f, size_t from, size_t *out,
			size_t count, size_t max)
{
	for (size_t i = from; i < f->chain_len && count < max; i++) {
		long b = topo_find_bridge(t, f->chain[i]);
		bool seen = false;

		for (size_t k = 0; b >= 0 && k < count; k++)
			seen = seen || out[k] == (size_t)b;
		if (b >= 0 && !seen)
			out[count++] = (size_t)b;
	}
	return count;
}

size_t topo_bridges_between(const struct pci_topology *t, const struct pci_function *a, const struct pci_function *b,
			    size_t *out, size_t max)
{
	size_t k = 0, from, count;

	if (strcmp(a->host_bridge, b->host_bridge) == 0)
		while (k < a->chain_len && k < b->chain_len && strcmp(a->chain[k], b->chain[k]) == 0)
			k++;
	/* The deepest shared bridge routes the peer request between its two downstream sides: its ACS counts. */
	from = k > 0 ? k - 1 : 0;
	count = add_chain(t, a, from, out, 0, max);
	return add_chain(t, b, from, out, count, max);
}

bool topo_acs_redirects(const struct pci_bridge *b)
{
	return b->acs == ACS_PRESENT && (b->acs_ctrl & ACS_CTRL_P2P_BLOCKING) != 0;
}

static double speed_gts(const char *s)
{
	return s[0] ? strtod(s, NULL) : 0;
}

bool topo_link_degraded(const struct pci_link *l)
{
	double cur = speed_gts(l->cur_speed), max = speed_gts(l->max_speed);

	return (l->cur_width > 0 && l->max_width > 0 && l->cur_width < l->max_width) ||
	       (cur > 0 && max > 0 && cur < max);
}

/* "32.0 GT/s PCIe" -> "32.0 GT/s" */
static int speed_len(const char *s)
{
	const char *pcie = strstr(s, " PCIe");

	return pcie ? (int)(pcie - s) : (int)strlen(s);
}

void topo_link_text(const struct pci_link *l, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s x%d of %.*s x%d", speed_len(l->cur_speed), l->cur_speed, l->cur_width,
		 speed_len(l->max_speed), l->max_speed, l->max_width);
}
