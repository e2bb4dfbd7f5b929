// SPDX-License-Identifier: GPL-2.0-only
/* check_input <-> system model. The copy is deep so the model owns what it holds (system_free frees it). */
#include "core/system_input.h"

#include "core/nccl_hca_syntax.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A copy of count elements of size bytes, NULL for none; *ok turns false when out of memory. */
static void *copy_array(const void *src, size_t count, size_t size, bool *ok)
{
	void *copy;

	if (!*ok || count == 0 || !src)
		return NULL;
	copy = malloc(count * size);
	if (copy)
		memcpy(copy, src, count * size);
	else
		*ok = false;
	return copy;
}

static bool copy_env(char *const *envp, struct system_state *out)
{
	size_t n = 0;

	for (size_t i = 0; envp && envp[i]; i++)
		n++;
	out->env = n ? calloc(n, sizeof(*out->env)) : NULL;
	if (n && !out->env)
		return false;
	for (size_t i = 0; envp && envp[i] && out->env_count < SYSTEM_ENV_MAX; i++) {
		const char *eq = strchr(envp[i], '=');
		size_t len = eq ? (size_t)(eq - envp[i]) : 0;
		struct env_var *v = &out->env[out->env_count];

		/* nccl_conf_read cuts names and values the same way: a longer one never reaches NCCL as written */
		if (!eq || !system_env_kept(envp[i], len) || len >= sizeof(v->name) || strlen(eq + 1) >= sizeof(v->value))
			continue;
		memcpy(v->name, envp[i], len);
		v->name[len] = '\0';
		strcpy(v->value, eq + 1);
		out->env_count++;
	}
	return true;
}

int system_from_check_input(const struct check_input *in, char *const *envp, struct system_state *out)
{
	bool ok = true;   /* after a failed copy, copy_array copies nothing more: each array below is NULL */

	memset(out, 0, sizeof(*out));
	out->live = in->live;
	if (in->user)
		out->user = *in->user;
	if (in->container)
		out->container = *in->container;
	if ((out->modules_read = in->modules != NULL)) {
		out->modules = *in->modules;
		out->modules.items = copy_array(in->modules->items, in->modules->count, sizeof(*in->modules->items), &ok);
	}
	if ((out->uverbs_read = in->uverbs != NULL)) {
		out->uverbs = *in->uverbs;
		out->uverbs.devs = copy_array(in->uverbs->devs, in->uverbs->count, sizeof(*in->uverbs->devs), &ok);
	}
	if ((out->verbs_providers_read = in->verbs_providers != NULL))
		out->verbs_providers = *in->verbs_providers;
	if ((out->rlimit_read = in->rlimit != NULL))
		out->rlimit = *in->rlimit;
	if ((out->pam_read = in->pam != NULL)) {
		out->pam = *in->pam;
		out->pam.lines = copy_array(in->pam->lines, in->pam->count, sizeof(*in->pam->lines), &ok);
	}
	if ((out->systemd_read = in->systemd != NULL))
		out->systemd = *in->systemd;
	if ((out->fw_procs_read = in->fw_procs != NULL))
		out->fw_procs = *in->fw_procs;
	if ((out->nft_read = in->nft != NULL)) {
		out->nft = *in->nft;
		out->nft_err = in->nft_err;
		out->nft.tables = copy_array(in->nft->tables, in->nft->table_count, sizeof(*in->nft->tables), &ok);
		out->nft.chains = copy_array(in->nft->chains, in->nft->chain_count, sizeof(*in->nft->chains), &ok);
		out->nft.rules = copy_array(in->nft->rules, in->nft->rule_count, sizeof(*in->nft->rules), &ok);
	}
	memcpy(out->port_range, in->port_range, sizeof(out->port_range));
	if ((out->arp_read = in->arp != NULL)) {   /* check reads arp and ip rules together */
		out->arp_count = in->arp_count;
		out->arp = copy_array(in->arp, in->arp_count, sizeof(*in->arp), &ok);
		if (in->ip_rules) {
			out->ip_rules = *in->ip_rules;
			out->ip_rules.items = copy_array(in->ip_rules->items, in->ip_rules->count,
							 sizeof(*in->ip_rules->items), &ok);
		}
	}
	if ((out->gpus_read = in->gpus != NULL)) {
		out->gpus = *in->gpus;
		out->gpus.items = copy_array(in->gpus->items, in->gpus->count, sizeof(*in->gpus->items), &ok);
	}
	if ((out->gpudirect_read = in->gpudirect != NULL))
		out->gpudirect = *in->gpudirect;
	if ((out->qos_read = in->qos != NULL)) {
		out->qos.count = in->qos->count;
		out->qos.ports = copy_array(in->qos->ports, in->qos->count, sizeof(*in->qos->ports), &ok);
	}
	if ((out->pci_read = in->pci != NULL)) {
		out->pci = *in->pci;
		out->pci.functions = copy_array(in->pci->functions, in->pci->count, sizeof(*in->pci->functions), &ok);
		out->pci.bridges = copy_array(in->pci->bridges, in->pci->bridge_count, sizeof(*in->pci->bridges), &ok);
	}
	if ((out->nccl_read = in->nccl != NULL)) {
		out->nccl = *in->nccl;
		out->nccl.items = copy_array(in->nccl->items, in->nccl->count, sizeof(*in->nccl->items), &ok);
		out->nccl.not_read = copy_array(in->nccl->not_read, in->nccl->not_read_count, sizeof(*in->nccl->not_read),
						&ok);
	}
	if ((out->reg_read = in->reg != NULL))
		out->reg = *in->reg;
	if (ok)
		ok = copy_env(envp, out);
	if (!ok) {
		system_free(out);
		return -ENOMEM;
	}
	return 0;
}

void system_to_check_input(const struct system_state *s, struct nccl_if_list *hca, struct check_input *in)
{
	const struct nccl_setting *set;

	in->live = s->live;
	in->user = &s->user;
	in->container = &s->container;
	in->modules = s->modules_read ? &s->modules : NULL;
	in->uverbs = s->uverbs_read ? &s->uverbs : NULL;
	in->verbs_providers = s->verbs_providers_read ? &s->verbs_providers : NULL;
	in->rlimit = s->rlimit_read ? &s->rlimit : NULL;
	in->pam = s->pam_read ? &s->pam : NULL;
	in->systemd = s->systemd_read ? &s->systemd : NULL;
	in->fw_procs = s->fw_procs_read ? &s->fw_procs : NULL;
	in->nft = s->nft_read ? &s->nft : NULL;
	in->nft_err = s->nft_read ? s->nft_err : 0;
	memcpy(in->port_range, s->port_range, sizeof(in->port_range));
	in->arp = s->arp_read ? s->arp : NULL;
	in->arp_count = s->arp_read ? s->arp_count : 0;
	in->ip_rules = s->arp_read ? &s->ip_rules : NULL;
	in->gpus = s->gpus_read ? &s->gpus : NULL;
	in->gpudirect = s->gpudirect_read ? &s->gpudirect : NULL;
	in->pci = s->pci_read ? &s->pci : NULL;
	in->qos = s->qos_read ? &s->qos : NULL;
	in->nccl = s->nccl_read ? &s->nccl : NULL;
	in->reg = s->reg_read ? &s->reg : NULL;
	in->nccl_libs = s->nccl_libs_read ? &s->nccl_libs : NULL;
	/* as check_probe_read does after reading the NCCL settings */
	set = s->nccl_read ? nccl_conf_get(&s->nccl, "NCCL_IB_HCA") : NULL;
	in->selection = NULL;
	in->port_selected = NULL;
	if (set) {
		nccl_hca_read_as_newest(set->value, in->nccl_libs, hca);
		in->selection = hca;
		in->port_selected = nccl_hca_port_selected;
	}
	set = s->nccl_read ? nccl_conf_get(&s->nccl, "NCCL_IB_GID_INDEX") : NULL;
	in->gid_index_value = set ? set->value : NULL;
	in->gid_index_source = set ? set->source : NULL;
}
