// SPDX-License-Identifier: GPL-2.0-only
/* A PCI function's config space as sysfs gives it (`config`: 4096 bytes for root, 64 for anyone else), and the
 * one capability roce-doctor looks for in it: ACS, which can force GPU-NIC peer traffic through the root complex. */
#ifndef ROCE_DOCTOR_PCI_CONFIG_H
#define ROCE_DOCTOR_PCI_CONFIG_H

#include <stddef.h>

#include "util/rootfs.h"

#define PCI_CONFIG_SIZE 4096          /* PCIe extended config space */
#define PCI_EXT_CAP_START 0x100
#define PCI_EXT_CAP_ID_ACS 0x000d

/* Reads DIR/config (DIR relative to the root, "sys/devices/pci0000:00/0000:00:01.0") into buf, at most
 * PCI_CONFIG_SIZE bytes. Returns the length read, or -errno. */
int pci_config_read(const struct rootfs *root, const char *dir, unsigned char *buf, size_t size);

/* Walks the extended capability list of cfg (len bytes) for ACS. 1: found (*offset, *ctrl set); 0: the list has
 * none; -ENODATA: cfg ends before the extended space or inside the list (not root, or a cut file); -EINVAL: a
 * malformed list (misaligned or looping next pointers). Bounded by the 4 KiB space: at most 960 headers. */
int pci_acs_parse(const unsigned char *cfg, size_t len, unsigned *offset, unsigned *ctrl);

#endif
