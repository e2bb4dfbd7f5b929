// SPDX-License-Identifier: GPL-2.0-only
/* The PCIe placement of NVIDIA GPUs and RDMA NICs from sysfs alone (no nvidia-smi, no driver needed). */
#ifndef ROCE_DOCTOR_PCI_TOPOLOGY_H
#define ROCE_DOCTOR_PCI_TOPOLOGY_H

#include "model/pci.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* GPUs from /sys/bus/pci/devices (probe/gpu.h's scan), NICs from /sys/class/infiniband/DEV/device, each one's
 * chain of bridges from the real path of its sysfs directory, NUMA node, CPUs and link; every bridge's link and
 * ACS (config space: unknown, with a note naming the file, when it cannot be read in full). 0 or -errno. */
int pci_topology_read(const struct rootfs *root, struct pci_topology *out, struct notes *notes);
void pci_topology_free(struct pci_topology *t);

/* "0000:3b:00.0": hex domain, bus, device, function. Bridges and functions are named so in a sysfs path; the
 * other components (pci0000:3a, virtio2, infiniband) are not. */
bool pci_is_address(const char *s, size_t len);

#endif
