// SPDX-License-Identifier: GPL-2.0-only
/* check's rules: pure functions from the probed host to findings, testable on a fixture with no I/O. */
#ifndef ROCE_DOCTOR_CHECKS_H
#define ROCE_DOCTOR_CHECKS_H

#include <stdbool.h>

#include "core/findings.h"
#include "model/container.h"
#include "model/firewall.h"
#include "model/gpu.h"
#include "model/gpudirect.h"
#include "model/host.h"
#include "model/memlock.h"
#include "model/modules.h"
#include "model/nccl.h"
#include "model/nccl_match.h"
#include "model/qos.h"
#include "model/net.h"
#include "model/system.h"
#include "model/user.h"
#include "model/uverbs.h"
#include "model/verbs_providers.h"

struct check_input {
	const struct host *host;
	int family;                 /* AF_INET or AF_INET6: the GID family NCCL will use */
	/* Ports NCCL would use (NCCL_IB_HCA applied); parallel to host devices/ports, NULL = every port. */
	bool (*port_selected)(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);
	const void *selection;      /* state for port_selected */
	const char *gid_index_value;   /* NCCL_IB_GID_INDEX as NCCL will see it, NULL when unset */
	const char *gid_index_source;  /* "environment", "/etc/nccl.conf:3" */
	/* The system around the ports, read once by cmd/check_probe.c. NULL (or known == false inside) means the
	 * source was not read: the rule says "unknown" and never guesses. */
	bool live;                     /* the running host, not a --root tree */
	bool recorded;                 /* read when a snapshot was taken (check --from), not now */
	const struct module_list *modules;
	const struct uverbs_probe *uverbs;
	const struct verbs_providers *verbs_providers;   /* /etc/libibverbs.d */
	const struct user_info *user;          /* whose pam limits and ~/.nccl.conf apply */
	const struct memlock_rlimit *rlimit;
	const struct pam_limits *pam;
	const struct systemd_memlock *systemd;
	const struct container_info *container;
	const struct register_probe *reg;
	const struct firewall_procs *fw_procs;
	const struct nft_ruleset *nft;         /* known == false under --root */
	int nft_err;                           /* -errno when the live dump failed */
	const struct ip_rule_list *ip_rules;   /* known == false under --root */
	const struct netdev_arp *arp;
	size_t arp_count;
	const struct gpu_list *gpus;
	const struct gpudirect_info *gpudirect;   /* NVIDIA module, kernel, NIC dma-buf test */
	const struct pci_topology *pci;        /* GPUs' and NICs' PCIe placement */
	const struct nccl_conf *nccl;
	char port_range[32];                   /* net.ipv4.ip_local_port_range as "32768-60999"; empty: unknown */
	const struct nccl_libs *nccl_libs;     /* the NCCL libraries on the node; NULL: not looked for */
	const struct qos_host *qos;            /* each RoCE port's lossless chain; NULL: not read */
};

/* Every check, in report order. */
void checks_run(const struct check_input *in, struct findings *out);

/* Individual areas (each adds only findings of its own ids). */
void check_rdma_devices(const struct check_input *in, struct findings *out);
void check_ports(const struct check_input *in, struct findings *out);
void check_netdevs(const struct check_input *in, struct findings *out);
void check_gids(const struct check_input *in, struct findings *out);
void check_system(const struct check_input *in, struct findings *out);    /* rdma.uverbs, kernel.modules, gpu.peermem */
void check_verbs_providers(const struct check_input *in, struct findings *out);   /* verbs.provider */
void check_memlock(const struct check_input *in, struct findings *out);   /* memlock.* */
void check_firewall(const struct check_input *in, struct findings *out);  /* firewall.* */
void check_same_subnet(const struct check_input *in, struct findings *out);  /* net.same_subnet */
void check_nccl(const struct check_input *in, struct findings *out);      /* nccl.* */
void check_lossless(const struct check_input *in, struct findings *out);  /* qos.*: core/checks_qos_ports.c */
void check_nccl_net_plugin(const struct check_input *in, struct findings *out);   /* nccl.net_plugin (nccl too) */
void check_gpu_topology(const struct check_input *in, struct findings *out);
void check_gpudirect(const struct check_input *in, struct findings *out);      /* gpu.peermem: peer memory or dma-buf */   /* gpu.rails, gpu.acs, ... */

/* NCCL_IB_HCA as the port selection: selection points to a struct nccl_if_list. */
bool nccl_hca_port_selected(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);

/* Whether NCCL_IB_HCA names this port by its device's own name (a list of ports to use, not '^'). */
bool nccl_hca_names_port(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);

/* A port's part in the job. NCCL opens only ACTIVE ports, the rule gid --suggest and nccl-env leave ports out by
 * (gid_port_use()): a down port is a spare, reported and not failed, unless NCCL_IB_HCA names it or no port is
 * left to carry the job. A port NCCL_IB_HCA leaves out is excluded. */
enum port_part { PORT_PART_USED, PORT_PART_SPARE, PORT_PART_EXCLUDED };
enum port_part input_port_part(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);
/* An ACTIVE Ethernet port with no routable GID (no address) that NCCL_IB_HCA does not name, beside ports that
 * carry the job. The host cannot tell a rail that lost its address from a port for other traffic: NCCL_IB_HCA
 * naming the port says it is a rail (a failure); otherwise it is the port gid --suggest and nccl-env leave out,
 * and a warning (NCCL still opens it unless told not to), not a failure that drains a working node. */
bool input_port_unaddressed_spare(const struct check_input *in, const struct rdma_device *d,
				  const struct rdma_port *p);
/* The ports whose every finding counts: input_port_part() is PORT_PART_USED. */
bool input_port_checked(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);

/* A RoCE port NCCL can use: Ethernet, ACTIVE, and a RoCE v2 GID of the family. */
bool port_usable(const struct check_input *in, const struct rdma_port *p);
bool input_port_selected(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);

/* The netdev MTU below which a RoCE port cannot run a 4096-byte path MTU (4096 + RoCE v2 headers). */
#define ROCE_MTU_4096_MIN_NETDEV_MTU 4200

#endif
