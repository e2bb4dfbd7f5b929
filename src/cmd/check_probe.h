// SPDX-License-Identifier: GPL-2.0-only
/* Everything check reads besides the host model, read once before the rules run. */
#ifndef ROCE_DOCTOR_CHECK_PROBE_H
#define ROCE_DOCTOR_CHECK_PROBE_H

#include "cmd/common.h"
#include "core/checks.h"
#include "model/system.h"
#include "util/notes.h"

#define CHECK_ENV_MAX 512

struct check_probe {
	struct module_list modules;
	struct uverbs_probe uverbs;
	struct verbs_providers verbs_providers;
	struct user_info user;
	struct memlock_rlimit rlimit;
	struct pam_limits pam;
	struct systemd_memlock systemd;
	struct container_info container;
	struct register_probe reg;
	struct firewall_procs fw;
	struct nft_ruleset nft;
	struct ip_rule_list rules;
	struct netdev_arp *arp;
	struct gpu_list gpus;
	struct gpudirect_info gpudirect;
	struct pci_topology pci;
	struct nccl_conf nccl;
	struct qos_host qos;
	struct nccl_if_list hca;
	char *environ_buf;           /* under --root: <root>/proc/self/environ */
	char *envp[CHECK_ENV_MAX + 1];
};

/* Fills in from host and the sources under app->root_dir; user NULL: who we run as (live) or root (--root).
 * Sources a --only/--skip selection leaves out are not read; what reading warns about goes to notes. 0, or
 * -errno with why[] naming what failed. */
int check_probe_read(struct check_probe *p, const char *root_dir, const char *user, const struct host *host,
		     const struct findings *wanted, struct check_input *in, struct notes *notes, char *why,
		     size_t why_size);
void check_probe_free(struct check_probe *p);

/* A snapshot's system warnings, less those of sources that none of the wanted check ids reads: what the same
 * command would have warned about reading the host itself (--root, live) */
void check_probe_keep_warnings(struct notes *n, const struct findings *wanted);

/* check_probe_read as a model that owns what it holds (its warnings included): what check judges live and
 * under --root, and what a snapshot records (wanted with no selection: every source). in->family picks the
 * port the live ibv_reg_mr probe tries. 0, or -errno with why[] naming what failed (*out empty). */
int check_probe_system(const char *root_dir, const char *user, const struct host *host, int family,
		       const struct findings *wanted, struct system_state *out, char *why, size_t why_size);

/* The host (app_probe_host: live or --root) and then check_probe_system over it: what check and nccl judge when
 * not --from. EXIT_OK, or an exit code after one line on stderr (host then freed). */
int check_probe_model(const struct app *app, const char *user, int family, const struct findings *wanted,
		      struct host *host, struct system_state *system);

#endif
