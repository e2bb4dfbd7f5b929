// SPDX-License-Identifier: GPL-2.0-only
/* GPU-NIC distances on PCIe as nvidia-smi topo -m names them, the rails (each GPU's nearest NICs), and what on
 * the path stands in GPUDirect RDMA's way (ACS redirection, links below their capability). Pure: no I/O. */
#ifndef ROCE_DOCTOR_TOPO_H
#define ROCE_DOCTOR_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "model/pci.h"

/* Nearest first, as NCCL's PATH_* types order them. */
enum topo_relation {
	TOPO_PIX,     /* through at most one PCIe switch */
	TOPO_PXB,     /* through several switches, not the host bridge */
	TOPO_PHB,     /* through a PCIe host bridge (the CPU's root complex) */
	TOPO_NODE,    /* between host bridges of one NUMA node */
	TOPO_SYS,     /* across NUMA nodes (the SMP interconnect: UPI, xGMI) */
};

const char *topo_relation_name(enum topo_relation r);

enum topo_relation topo_relation(const struct pci_function *a, const struct pci_function *b);

/* The indexes in t of GPU gpu's nearest NICs (every NIC at the best relation), at most max; *best is that
 * relation. Returns how many (0: no NIC on the host). */
size_t topo_nearest(const struct pci_topology *t, size_t gpu, size_t *out, size_t max, enum topo_relation *best);

/* A rail: a NIC that is some GPU's nearest. */
bool topo_is_rail(const struct pci_topology *t, size_t nic);

/* The other PCI function of a port presented twice (the GB10/DGX Spark ConnectX-7: one 200 GbE port as two PCIe
 * x4 functions in two PCI domains): the NIC of the same vendor and device at the same bus:device.function in
 * another domain, with the same relation to every GPU. Its index, or -1. */
long topo_twin_of(const struct pci_topology *t, size_t nic);

/* The bridges traffic between a and b crosses, as indexes into t->bridges: from the deepest bridge both share
 * down to each (all of both chains when they meet only in the root complex). Returns how many, at most max. */
size_t topo_bridges_between(const struct pci_topology *t, const struct pci_function *a, const struct pci_function *b,
			    size_t *out, size_t max);

/* ACS that redirects peer-to-peer requests or completions, or forwards them upstream. */
bool topo_acs_redirects(const struct pci_bridge *b);

/* current_link_* below max_link_*: a card in a narrower slot, a link trained down. Unknown links are not. */
bool topo_link_degraded(const struct pci_link *l);

/* "Gen5 x16"-like text for messages: "16.0 GT/s x8 of 32.0 GT/s x16". */
void topo_link_text(const struct pci_link *l, char *buf, size_t size);

long topo_find_bridge(const struct pci_topology *t, const char *address);

#endif
