// SPDX-License-Identifier: GPL-2.0-only
/* check's reading step: every source the rules need, read once, into the check_input the pure rules take.
 * Under --root only files of the replayed tree are used: the NCCL environment comes from
 * <root>/proc/self/environ (the capture's own environment), never from the shell running roce-doctor;
 * netlink and verbs data stay unknown. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/check_probe.h"
#include "core/nccl_env_names.h"
#include "core/system_input.h"
#include "model/system_parts.h"
#include "netcfg/ip_rules.h"
#include "netcfg/nftables.h"
#include "probe/container.h"
#include "probe/firewall_proc.h"
#include "probe/gpu.h"
#include "probe/gpudirect.h"
#include "probe/local_ports.h"
#include "probe/memlock.h"
#include "probe/modules.h"
#include "probe/nccl_conf.h"
#include "probe/nccl_libs.h"
#include "probe/qos.h"
#include "probe/pci_topology.h"
#include "probe/proc_environ.h"
#include "probe/sysctl_arp.h"
#include "probe/user_info.h"
#include "probe/uverbs.h"
#include "probe/verbs_providers.h"
#include "verbs/dmabuf_probe.h"
#include "verbs/mr_probe.h"

extern char **environ;

#define REGISTER_BYTES (256u << 20)
#define ENVIRON_MAX (256u << 10)

static bool wants(const struct findings *f, const char *prefix)
{
	return findings_wanted(f, prefix);
}

/* Which check ids need each source: check_probe_read reads a source only for them, and a snapshot's warnings
 * from it are said only where one of them is wanted, so `nccl --from` warns as `nccl --root` does. */
static const char *const part_ids[SYSTEM_PART_COUNT][5] = {
	[SYSTEM_PART_MODULES] = { "kernel.modules", "gpu.peermem", "rdma.devices" },
	[SYSTEM_PART_UVERBS] = { "rdma.uverbs" },
	[SYSTEM_PART_VERBS_PROVIDERS] = { "verbs.provider" },
	[SYSTEM_PART_PAM] = { "memlock.pam" },
	[SYSTEM_PART_SYSTEMD] = { "memlock.systemd" },
	[SYSTEM_PART_FIREWALL] = { "firewall.firewalld", "firewall.rules" },
	[SYSTEM_PART_GPUS] = { "gpu.peermem" },
	[SYSTEM_PART_PCI] = { "gpu.rails", "gpu.nic_distance", "gpu.acs", "gpu.pcie_link" },
};

static bool part_wanted(const struct findings *f, enum system_part part)
{
	/* NCCL's settings and libraries are read for every command; an older snapshot's warning has no source */
	if (part == SYSTEM_PART_UNSAID || part == SYSTEM_PART_NCCL || part == SYSTEM_PART_NCCL_LIBS)
		return true;
	for (size_t i = 0; part < SYSTEM_PART_COUNT && i < 5 && part_ids[part][i]; i++)
		if (wants(f, part_ids[part][i]))
			return true;
	return false;
}

void check_probe_keep_warnings(struct notes *n, const struct findings *wanted)
{
	size_t kept = 0;

	for (size_t i = 0; i < n->count; i++) {
		if (!part_wanted(wanted, n->tag[i])) {
			free(n->items[i]);
			continue;
		}
		n->tag[kept] = n->tag[i];
		n->items[kept++] = n->items[i];
	}
	n->count = kept;
}

/* <root>/proc/self/environ as an envp array; absent file: no environment. */
static void replayed_environ(struct check_probe *p, const struct rootfs *root)
{
	p->environ_buf = malloc(ENVIRON_MAX);
	if (p->environ_buf)
		proc_environ_read(root, "proc/self/environ", p->environ_buf, ENVIRON_MAX, p->envp, CHECK_ENV_MAX);
}

/* Under --root a tree without the directory did not capture that source: its rules stay silent rather than
 * report a replayed host's missing file as a finding. */
static bool captured(const struct rootfs *root, const char *dir)
{
	return root->live || rootfs_exists(root, "%s", dir);
}

static const char *first_usable_device(const struct check_input *in)
{
	for (size_t i = 0; i < in->host->device_count; i++)
		for (size_t j = 0; j < in->host->devices[i].port_count; j++)
			if (port_usable(in, &in->host->devices[i].ports[j]))
				return in->host->devices[i].name;
	return NULL;
}

int check_probe_read(struct check_probe *p, const char *root_dir, const char *user, const struct host *host,
		     const struct findings *wanted, struct check_input *in, struct notes *notes, char *why,
		     size_t why_size)
{
	struct rootfs root;
	const struct nccl_setting *s;
	size_t from;
	int ret = rootfs_open(&root, root_dir);

	memset(p, 0, sizeof(*p));
	if (ret < 0) {
		snprintf(why, why_size, "cannot open root directory %s: %s", root_dir ? root_dir : "/", strerror(-ret));
		return ret;
	}
	in->live = root.live;
	ret = user_info_resolve(&root, user, &p->user);
	if (ret < 0 && !user && !root.live) {
		/* A tree without etc/passwd: judge for root, as the default under --root is. */
		snprintf(p->user.name, sizeof(p->user.name), "root");
		snprintf(p->user.home, sizeof(p->user.home), "/root");
		ret = 0;
	}
	if (ret < 0) {
		snprintf(why, why_size, "no user %s%s%s: %s", user ? user : "(self)", root.live ? "" : " in ",
			 root.live ? "" : root_dir, strerror(-ret));
		goto out;
	}
	in->user = &p->user;
	container_detect(&root, &p->container);
	in->container = &p->container;

	if (part_wanted(wanted, SYSTEM_PART_MODULES)) {
		from = notes->count;
		module_list_read(&root, &p->modules, notes);
		notes_tag_since(notes, from, SYSTEM_PART_MODULES);
		in->modules = &p->modules;
	}
	if (part_wanted(wanted, SYSTEM_PART_UVERBS) && captured(&root, "dev")) {
		from = notes->count;
		uverbs_probe(&root, &p->uverbs, notes);
		notes_tag_since(notes, from, SYSTEM_PART_UVERBS);
		in->uverbs = &p->uverbs;
	}
	/* A tree with no etc/ at all did not capture the configuration; one with etc/ and no libibverbs.d is a
	 * host (or a container image) without providers, which is what verbs.provider is there to say. */
	if (part_wanted(wanted, SYSTEM_PART_VERBS_PROVIDERS) && captured(&root, "etc")) {
		from = notes->count;
		ret = verbs_providers_read(&root, &p->verbs_providers, notes);
		notes_tag_since(notes, from, SYSTEM_PART_VERBS_PROVIDERS);
		if (ret < 0) {
			snprintf(why, why_size, "out of memory");
			goto out;
		}
		in->verbs_providers = &p->verbs_providers;
	}
	if (wants(wanted, "memlock.limit") && captured(&root, "proc/self/limits")) {
		memlock_rlimit_read(&root, &p->rlimit);
		in->rlimit = &p->rlimit;
	}
	if (part_wanted(wanted, SYSTEM_PART_PAM) && captured(&root, "etc/security")) {
		from = notes->count;
		pam_limits_read(&root, &p->pam, notes);
		notes_tag_since(notes, from, SYSTEM_PART_PAM);
		in->pam = &p->pam;
	}
	if (part_wanted(wanted, SYSTEM_PART_SYSTEMD) && captured(&root, "etc/systemd")) {
		from = notes->count;
		systemd_memlock_read(&root, &p->systemd, notes);
		notes_tag_since(notes, from, SYSTEM_PART_SYSTEMD);
		in->systemd = &p->systemd;
	}
	if (part_wanted(wanted, SYSTEM_PART_FIREWALL)) {
		unsigned lo, hi;

		if (captured(&root, "proc")) {   /* a tree without /proc cannot say what runs */
			from = notes->count;
			firewall_procs_read(&root, &p->fw, notes);
			notes_tag_since(notes, from, SYSTEM_PART_FIREWALL);
			in->fw_procs = &p->fw;
		}
		if (local_port_range_read(&root, &lo, &hi) == 0)
			snprintf(in->port_range, sizeof(in->port_range), "%u-%u", lo, hi);
		in->nft_err = nft_ruleset_read(&root, &p->nft);
		in->nft = &p->nft;
	}
	if (wants(wanted, "net.same_subnet")) {
		p->arp = calloc(host->netdev_count ? host->netdev_count : 1, sizeof(*p->arp));
		if (!p->arp) {
			ret = -ENOMEM;
			snprintf(why, why_size, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < host->netdev_count; i++) {
			snprintf(p->arp[i].netdev, sizeof(p->arp[i].netdev), "%s", host->netdevs[i].name);
			p->arp[i].known = arp_sysctl_read(&root, host->netdevs[i].name, &p->arp[i].value) == 0;
		}
		in->arp = p->arp;
		in->arp_count = host->netdev_count;
		ip_rules_read(&root, &p->rules);
		in->ip_rules = &p->rules;
	}
	if (part_wanted(wanted, SYSTEM_PART_GPUS)) {
		from = notes->count;
		gpu_list_read(&root, &p->gpus, notes);
		notes_tag_since(notes, from, SYSTEM_PART_GPUS);
		in->gpus = &p->gpus;
		gpudirect_read(&root, &p->gpudirect);
		/* NCCL's own NIC-side test, only where NCCL would run it: live, GPUs and RDMA devices present */
		if (root.live && p->gpus.count && host->device_count)
			verbs_test_dmabuf(&p->gpudirect);
		in->gpudirect = &p->gpudirect;
	}
	from = notes->count;
	if (part_wanted(wanted, SYSTEM_PART_PCI) && pci_topology_read(&root, &p->pci, notes) == 0)
		in->pci = &p->pci;
	notes_tag_since(notes, from, SYSTEM_PART_PCI);
	if (wants(wanted, "qos.lossless") || wants(wanted, "qos.pfc_unmapped") || wants(wanted, "qos.pfc_buffer") ||
	    wants(wanted, "qos.trust_pcp_untagged") || wants(wanted, "qos.vlan_egress") ||
	    wants(wanted, "qos.tc_forced") || wants(wanted, "qos.roce_tos") ||
	    wants(wanted, "qos.fifo_tc") || wants(wanted, "qos.pause_storm") ||
	    wants(wanted, "qos.discards")) {
		if (qos_probe(&root, host, &p->qos) < 0) {
			ret = -ENOMEM;
			snprintf(why, why_size, "out of memory");
			goto out;
		}
		in->qos = &p->qos;
	}
	/* NCCL settings always: NCCL_IB_HCA selects the ports every check looks at. */
	if (!root.live)
		replayed_environ(p, &root);
	/* check --user NAME judges NAME's job, whose HOME is NAME's home, not the caller's. */
	from = notes->count;
	ret = nccl_conf_read(&root, root.live ? environ : p->envp, p->user.home, user != NULL, &p->nccl, notes);
	notes_tag_since(notes, from, SYSTEM_PART_NCCL);
	if (ret < 0) {
		snprintf(why, why_size, "cannot read NCCL settings: %s", strerror(-ret));
		goto out;
	}
	/* Names NCCL never reads (an image's NCCL_VERSION label, a typo) are kept apart from its settings. */
	ret = nccl_conf_set_aside_unknown(&p->nccl);
	if (ret < 0) {
		snprintf(why, why_size, "out of memory");
		goto out;
	}
	/* Under --root the "environment" is the capture's: name the file it came from. */
	for (size_t i = 0; !root.live && i < p->nccl.count; i++)
		if (p->nccl.items[i].origin == NCCL_FROM_ENV)
			snprintf(p->nccl.items[i].source, sizeof(p->nccl.items[i].source), "/proc/self/environ");
	for (size_t i = 0; !root.live && i < p->nccl.not_read_count; i++)
		if (p->nccl.not_read[i].origin == NCCL_FROM_ENV)
			snprintf(p->nccl.not_read[i].source, sizeof(p->nccl.not_read[i].source), "/proc/self/environ");
	in->nccl = &p->nccl;
	s = nccl_conf_get(&p->nccl, "NCCL_IB_HCA");
	if (s) {
		nccl_if_list_parse(s->value, NCCL_IB_HCA_ENTRIES_MAX, &p->hca);
		in->selection = &p->hca;
		in->port_selected = nccl_hca_port_selected;
	}
	s = nccl_conf_get(&p->nccl, "NCCL_IB_GID_INDEX");
	in->gid_index_value = s ? s->value : NULL;
	in->gid_index_source = s ? s->source : NULL;

	if (wants(wanted, "memlock.register")) {
		const char *dev = first_usable_device(in);

		p->reg.bytes = REGISTER_BYTES;
		if (root.live && dev) {
			p->reg.tried = true;
			p->reg.err = verbs_try_register(dev, REGISTER_BYTES, p->reg.device, sizeof(p->reg.device),
							&p->reg.step);
		}
		in->reg = &p->reg;
	}
	ret = 0;
out:
	rootfs_close(&root);
	return ret;
}

void check_probe_free(struct check_probe *p)
{
	module_list_free(&p->modules);
	uverbs_probe_free(&p->uverbs);
	pam_limits_free(&p->pam);
	nft_ruleset_free(&p->nft);
	ip_rule_list_free(&p->rules);
	free(p->arp);
	gpu_list_free(&p->gpus);
	pci_topology_free(&p->pci);
	nccl_conf_free(&p->nccl);
	qos_host_free(&p->qos);
	free(p->environ_buf);
}

/* The NCCL libraries a job could load: gid.env's advice depends on their versions. */
static int find_nccl_libs(const char *root_dir, char *const *envp, struct system_state *out, struct notes *notes)
{
	struct rootfs root;
	int ret = rootfs_open(&root, root_dir);

	if (ret < 0)
		return ret;
	size_t from = notes->count;

	ret = nccl_libs_find(&root, envp, &out->nccl_libs, notes);
	notes_tag_since(notes, from, SYSTEM_PART_NCCL_LIBS);
	out->nccl_libs_read = ret == 0;
	rootfs_close(&root);
	return ret;
}

int check_probe_system(const char *root_dir, const char *user, const struct host *host, int family,
		       const struct findings *wanted, struct system_state *out, char *why, size_t why_size)
{
	struct check_probe *p = calloc(1, sizeof(*p));   /* fixed arrays of many KiB: not the stack's */
	struct notes *notes = calloc(1, sizeof(*notes));
	struct check_input in = { .host = host, .family = family };
	int ret = p && notes ? 0 : -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (ret < 0)
		snprintf(why, why_size, "out of memory");
	if (ret == 0)
		ret = check_probe_read(p, root_dir, user, host, wanted, &in, notes, why, why_size);
	/* The environment as check read it: live ours, under --root the capture's. */
	if (ret == 0 && system_from_check_input(&in, in.live ? environ : p->envp, out) < 0) {
		ret = -ENOMEM;
		snprintf(why, why_size, "out of memory");
	}
	/* Always, as the NCCL settings: what it warns about is then the same live, under --root and from a snapshot
	 * whatever --only selects. */
	if (ret == 0 &&
	    find_nccl_libs(root_dir, in.live ? environ : p->envp, out, notes) == -ENOMEM) {
		ret = -ENOMEM;
		snprintf(why, why_size, "out of memory");
	}
	if (ret == 0)
		out->warnings = *notes;   /* the strings move to the model */
	else if (notes)
		notes_free(notes);
	if (p)
		check_probe_free(p);
	free(p);
	free(notes);
	return ret;
}

int check_probe_model(const struct app *app, const char *user, int family, const struct findings *wanted,
		      struct host *host, struct system_state *system)
{
	char why[512];
	int code = app_probe_host(app, host);

	if (code != EXIT_OK)
		return code;
	if (check_probe_system(app->root_dir, user, host, family, wanted, system, why, sizeof(why)) == 0)
		return EXIT_OK;
	fprintf(stderr, "roce-doctor: %s\n", why);
	host_free(host);
	return EXIT_CANNOT_RUN;
}
