// SPDX-License-Identifier: GPL-2.0-only
/* The system around the host model: every source check's rules read besides struct host, as plain data.
 * cmd/check_probe.c reads them (live or under --root), core/system_input.c converts between this model and
 * the rules' struct check_input, and system_json carries it (roce-doctor/system/v1). A source that was not
 * read has its *_read flag false: the rules then say "unknown", and the JSON says null. */
#ifndef ROCE_DOCTOR_MODEL_SYSTEM_H
#define ROCE_DOCTOR_MODEL_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>

#include "model/container.h"
#include "model/firewall.h"
#include "model/gpu.h"
#include "model/gpudirect.h"
#include "model/memlock.h"
#include "model/modules.h"
#include "model/nccl.h"
#include "model/nccl_libs.h"
#include "model/pci.h"
#include "model/qos.h"
#include "model/net.h"
#include "model/user.h"
#include "model/uverbs.h"
#include "model/verbs_providers.h"
#include "util/notes.h"

/* Bounds the JSON reader holds a document to, far above what a real host has (the probes' own bounds where
 * they have one: USER_GROUPS_MAX, IPTABLES_TABLES_MAX, NCCL_SETTINGS_MAX). */
#define SYSTEM_MODULES_MAX 8192
#define SYSTEM_UVERBS_MAX 1024
#define SYSTEM_LIMITS_LINES_MAX 65536
#define SYSTEM_NFT_OBJECTS_MAX 65536    /* tables, chains, rules: each */
#define SYSTEM_IP_RULES_MAX 65536
#define SYSTEM_GPUS_MAX 256
#define SYSTEM_ENV_MAX 512              /* kept variables: NCCL_* and HOME (see system_env_kept) */

/* The outcome of the live ibv_reg_mr probe. */
struct register_probe {
	bool tried;                 /* false under --root or without a usable device: unknown */
	int err;                    /* 0 or -errno of the failing step */
	const char *step;           /* the call that failed: "ibv_open_device", "ibv_reg_mr", ... (a static string) */
	char device[64];
	size_t bytes;
};

/* One variable of the job's environment, kept because check (through NCCL) reads it. */
struct env_var {
	char name[128];
	char value[1024];           /* may be empty: NCCL_IB_HCA= is set, to nothing */
};

struct system_state {
	bool live;                         /* the running host, not a --root tree */
	struct user_info user;             /* whose pam limits and ~/.nccl.conf apply: always read */
	struct container_info container;   /* always read; kind empty: no container */
	bool modules_read;
	struct module_list modules;
	bool uverbs_read;
	struct uverbs_probe uverbs;
	bool verbs_providers_read;         /* false also for a snapshot of a roce-doctor that did not read them */
	struct verbs_providers verbs_providers;
	bool rlimit_read;
	struct memlock_rlimit rlimit;
	bool pam_read;
	struct pam_limits pam;
	bool systemd_read;
	struct systemd_memlock systemd;
	bool fw_procs_read;
	struct firewall_procs fw_procs;
	bool nft_read;                     /* with the firewall rules; nft.known false: not dumped (--root) */
	struct nft_ruleset nft;
	int nft_err;                       /* -errno when the live dump failed */
	char port_range[32];               /* net.ipv4.ip_local_port_range "32768-60999"; empty: unknown */
	bool arp_read;                     /* arp and ip_rules come together (net.same_subnet) */
	struct netdev_arp *arp;
	size_t arp_count;
	struct ip_rule_list ip_rules;
	bool gpus_read;
	struct gpu_list gpus;
	bool gpudirect_read;                /* with the GPUs (gpu.peermem): the dma-buf path's facts */
	struct gpudirect_info gpudirect;
	bool pci_read;                     /* the GPUs' and NICs' PCIe placement (gpu.rails, gpu.acs, ...) */
	struct pci_topology pci;
	bool qos_read;                     /* each RoCE port's lossless chain: DCB, forced class, ECN, VLAN */
	struct qos_host qos;
	bool nccl_read;                    /* always read by check: NCCL_IB_HCA selects the ports */
	struct nccl_conf nccl;
	bool nccl_libs_read;               /* the NCCL libraries a job could load (roce-doctor nccl) */
	struct nccl_libs nccl_libs;
	struct env_var *env;               /* the job's environment as check captured it: only kept names */
	size_t env_count;
	bool reg_read;
	struct register_probe reg;
	struct notes warnings;             /* what reading these sources warned about (after the host's own) */
};

/* Which environment variables the model keeps: NCCL_* (what NCCL reads) and HOME (where ~/.nccl.conf is).
 * Never the rest: an environment holds tokens and passwords. */
bool system_env_kept(const char *name, size_t name_len);

/* Frees every array and leaves the state empty. */
void system_free(struct system_state *s);

#endif
