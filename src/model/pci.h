// SPDX-License-Identifier: GPL-2.0-only
/* The PCIe placement of the GPUs and RDMA NICs, as data: where each sits in the PCI tree, its NUMA node, its link,
 * and the bridges above it with their ACS state. probe/pci_topology.h reads it from sysfs; core/topo.h decides
 * from it (GPU-NIC relations, rails, GPUDirect blockers). */
#ifndef ROCE_DOCTOR_MODEL_PCI_H
#define ROCE_DOCTOR_MODEL_PCI_H

#include <stdbool.h>
#include <stddef.h>

#define PCI_ADDRESS_LEN 16        /* "0000:3b:00.0" and the host bridge "pci0000:3a" */
#define PCI_CHAIN_MAX 16          /* bridges between a host bridge and a device; real trees have 2 to 6 */
#define PCI_FUNCTIONS_MAX 512
#define PCI_BRIDGES_MAX 1024

enum pci_role {
	PCI_ROLE_GPU,             /* NVIDIA, class 0x0300xx or 0x0302xx */
	PCI_ROLE_NIC,             /* the PCI function of an RDMA device (/sys/class/infiniband/DEV/device) */
};

/* A PCIe link as sysfs shows it (current_link_speed "32.0 GT/s PCIe", current_link_width "16"); an empty speed
 * or a width of 0 is unknown (virtual functions and legacy PCI have no link files). */
struct pci_link {
	char cur_speed[32];
	char max_speed[32];
	int cur_width;
	int max_width;
};

enum acs_state {
	ACS_UNKNOWN,              /* config unreadable or cut short (256 bytes when not root): no extended space */
	ACS_ABSENT,               /* the extended capability list has no ACS (ID 0x000D) */
	ACS_PRESENT,              /* found: acs_offset and acs_ctrl are valid */
};

/* The ACS control bits that send peer-to-peer traffic up to the root complex (PCIe base spec 7.7.8.3). */
#define ACS_CTRL_REQ_REDIRECT 0x0004   /* P2P Request Redirect */
#define ACS_CTRL_CMPLT_REDIRECT 0x0008 /* P2P Completion Redirect */
#define ACS_CTRL_UPSTREAM_FWD 0x0010   /* Upstream Forwarding */
#define ACS_CTRL_P2P_BLOCKING (ACS_CTRL_REQ_REDIRECT | ACS_CTRL_CMPLT_REDIRECT | ACS_CTRL_UPSTREAM_FWD)

struct pci_bridge {
	char address[PCI_ADDRESS_LEN];
	struct pci_link link;
	enum acs_state acs;
	unsigned acs_offset;      /* of the ACS extended capability header in config space */
	unsigned acs_ctrl;        /* the 16-bit ACS Control register (offset + 6) */
};

struct pci_function {
	char address[PCI_ADDRESS_LEN];
	enum pci_role role;
	char rdma_device[64];     /* NICs: the RDMA device on this function ("mlx5_0"); empty for GPUs */
	unsigned vendor, device_id, class_code;
	char host_bridge[PCI_ADDRESS_LEN];   /* the root bus it hangs from: "pci0000:00" */
	/* The bridges from the host bridge down to the function (the real path of /sys/bus/pci/devices/BDF
	 * without the function itself), root port first. */
	char chain[PCI_CHAIN_MAX][PCI_ADDRESS_LEN];
	size_t chain_len;
	int numa_node;            /* -1: unknown (sysfs -1 with several nodes; with one node online the probe puts it here) */
	char cpulist[64];         /* local_cpulist, empty when unknown */
	struct pci_link link;
};

struct pci_topology {
	struct pci_function *functions;   /* GPUs first, then NICs; each sorted by address */
	size_t count;
	struct pci_bridge *bridges;       /* every bridge named in a chain, once, sorted by address */
	size_t bridge_count;
};

#endif
