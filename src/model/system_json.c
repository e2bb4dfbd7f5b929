// SPDX-License-Identifier: GPL-2.0-only
/* The system model to JSON and back. As in host_json.c the writer and the reader sit side by side, source by
 * source in the same order, and the reader validates and builds in one walk, freeing what it built when a
 * member is wrong. */
#include "model/system_json.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/netfilter.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/host.h"
#include "model/json_io.h"
#include "model/nccl_libs_json.h"
#include "model/pci_json.h"
#include "model/qos_json.h"
#include "model/system_parts.h"

#define ERRNO_MAX 4095               /* the kernel's -errno range */
#define ADDRESS_TEXT_MAX 64

/* Closed sets, spelt as the tools spell them; index = the enum value unless said otherwise. */
static const char *const limits_kinds[] = { "memlock", "no_limits" };
static const char *const memlock_types[] = { "soft", "hard", "-" };        /* MEMLOCK_SOFT - 1 ... */
static const char *const id_ranges[] = { "one", "min", "min_max" };        /* ID_RANGE_ONE - 1 ... */
static const char *const managers[] = { "running", "absent" };            /* SYSTEMD_MANAGER_RUNNING - 1 ... */
static const char *const chain_hooks[] = { "prerouting", "input", "forward", "output", "postrouting", "ingress",
					   "egress", "other" };                     /* CHAIN_HOOK_PREROUTING - 1 ... */
static const char *const chain_policies[] = { "accept", "drop" };          /* CHAIN_POLICY_ACCEPT - 1 ... */
static const char *const verdicts[] = { "accept", "drop", "reject", "jump", "goto", "return", "queue", "other" };
static const char *const origins[] = { "environment", "file" };
static const char *const steps[] = { "ibv_get_device_list", "ibv_open_device", "ibv_alloc_pd", "mmap", "ibv_reg_mr" };
static const char *const flavors[] = { "open", "proprietary" };          /* NVIDIA_FLAVOR_OPEN - 1 ... */
static const char *const dmabuf_steps[] = { "ibv_reg_dmabuf_mr", "ibv_open_device", "ibv_alloc_pd" };  /* DMABUF_STEP_REG ... */

static const struct { int family; const char *name; } nft_families[] = {
	{ NFPROTO_INET, "inet" }, { NFPROTO_IPV4, "ip" }, { NFPROTO_IPV6, "ip6" },
	{ NFPROTO_ARP, "arp" }, { NFPROTO_BRIDGE, "bridge" }, { NFPROTO_NETDEV, "netdev" },
};
static const char *const nft_family_names[] = { "inet", "ip", "ip6", "arp", "bridge", "netdev" };

/* An enum whose first value (0) means none/unknown, the rest named from names[0]: null for 0. */
static json_t *name_or_null(unsigned value, const char *const names[], size_t count)
{
	return value == 0 ? json_null() : value <= count ? json_string(names[value - 1]) : NULL;
}

static json_t *nft_family_to_json(int family)
{
	for (size_t i = 0; i < COUNT(nft_families); i++)
		if (nft_families[i].family == family)
			return json_string(nft_families[i].name);
	return NULL;
}

/* ---- writer ---- */

/* A text the reader requires: "" is what it refuses there, so the writer refuses it too (NULL). */
static json_t *required(const char *s)
{
	return s[0] ? json_string(s) : NULL;
}

/* "unlimited", or bytes: an integer, or beyond JSON's integers (2^63 and up) its decimal text. */
static json_t *memlock_to_json(const struct memlock_value *v)
{
	char text[24];

	if (v->unlimited)
		return json_string("unlimited");
	if (v->bytes <= INT64_MAX)
		return json_integer((json_int_t)v->bytes);
	snprintf(text, sizeof(text), "%" PRIu64, v->bytes);
	return json_string(text);
}

static json_t *user_to_json(const struct user_info *u)
{
	json_t *o = json_object(), *groups = NULL;
	bool ok = o && put(o, "name", required(u->name)) && put(o, "uid", json_integer(u->uid)) &&
		  put(o, "gid", json_integer(u->gid)) && put(o, "home", string_or_null(u->home)) &&
		  put(o, "groups", groups = json_array()) &&
		  put(o, "groups_truncated", json_boolean(u->groups_truncated));

	for (size_t i = 0; ok && i < u->group_count; i++) {
		json_t *g = json_object();

		ok = append(groups, finished(g, g && put(g, "name", required(u->groups[i].name)) &&
						    put(g, "gid", json_integer(u->groups[i].gid))));
	}
	return finished(o, ok);
}

static json_t *container_to_json(const struct container_info *c)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "kind", string_or_null(c->kind)) && put(o, "evidence", string_or_null(c->evidence)));
}

static json_t *modules_to_json(const struct system_state *s)
{
	json_t *o, *list = NULL;
	bool ok;

	if (!s->modules_read)
		return json_null();
	o = json_object();
	ok = o && put(o, "proc_known", json_boolean(s->modules.proc_known)) && put(o, "modules", list = json_array());
	for (size_t i = 0; ok && i < s->modules.count; i++) {
		json_t *m = json_object();

		ok = append(list, finished(m, m && put(m, "name", required(s->modules.items[i].name)) &&
						    put(m, "builtin", json_boolean(s->modules.items[i].builtin))));
	}
	return finished(o, ok);
}

static json_t *dev_node_to_json(const struct dev_node *n)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "exists", json_boolean(n->exists)) &&
			   put(o, "read_write", n->access_known ? json_boolean(n->read_write) : json_null()));
}

/* null when not read; the names in the model's (sorted) order. */
static json_t *verbs_providers_to_json(const struct system_state *s)
{
	json_t *o, *list = NULL;
	bool ok;

	if (!s->verbs_providers_read)
		return json_null();
	o = json_object();
	ok = o && put(o, "dir_exists", json_boolean(s->verbs_providers.dir_exists)) &&
	     put(o, "providers", list = json_array());
	for (size_t i = 0; ok && i < s->verbs_providers.count; i++)
		ok = append(list, required(s->verbs_providers.names[i]));
	return finished(o, ok);
}

static json_t *uverbs_to_json(const struct system_state *s)
{
	json_t *o, *list = NULL;
	bool ok;

	if (!s->uverbs_read)
		return json_null();
	o = json_object();
	ok = o && put(o, "devices", list = json_array()) && put(o, "rdma_cm", dev_node_to_json(&s->uverbs.rdma_cm));
	for (size_t i = 0; ok && i < s->uverbs.count; i++) {
		const struct uverbs_dev *d = &s->uverbs.devs[i];
		json_t *j = json_object();

		ok = append(list, finished(j, j && put(j, "name", required(d->name)) &&
						    put(j, "ibdev", string_or_null(d->ibdev)) &&
						    put(j, "node", dev_node_to_json(&d->node))));
	}
	return finished(o, ok);
}

static json_t *rlimit_to_json(const struct system_state *s)
{
	json_t *o;

	if (!s->rlimit_read)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "soft", s->rlimit.known ? memlock_to_json(&s->rlimit.soft) : json_null()) &&
			   put(o, "hard", s->rlimit.known ? memlock_to_json(&s->rlimit.hard) : json_null()));
}

static json_t *limits_line_to_json(const struct limits_line *l)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "file", required(l->file)) && put(o, "line", json_integer(l->line)) &&
			   put(o, "kind", l->kind < COUNT(limits_kinds) ? json_string(limits_kinds[l->kind]) : NULL) &&
			   put(o, "domain", required(l->domain)) &&
			   put(o, "range", name_or_null(l->range, id_ranges, COUNT(id_ranges))) &&
			   put(o, "range_min", json_integer(l->range_min)) && put(o, "range_max", json_integer(l->range_max)) &&
			   put(o, "type", name_or_null(l->type, memlock_types, COUNT(memlock_types))) &&
			   put(o, "value", memlock_to_json(&l->value)));
}

static json_t *pam_to_json(const struct system_state *s)
{
	json_t *list;
	bool ok;

	if (!s->pam_read)
		return json_null();
	list = json_array();
	ok = list != NULL;
	for (size_t i = 0; ok && i < s->pam.count; i++)
		ok = append(list, limits_line_to_json(&s->pam.lines[i]));
	return finished(list, ok);
}

static json_t *default_limit_to_json(const struct systemd_memlock *m)
{
	json_t *o;

	if (!m->set)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "soft", memlock_to_json(&m->soft)) && put(o, "hard", memlock_to_json(&m->hard)) &&
			   put(o, "file", string_or_null(m->file)) && put(o, "line", json_integer(m->line)));
}

static json_t *systemd_to_json(const struct system_state *s)
{
	json_t *o;

	if (!s->systemd_read)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "manager", name_or_null(s->systemd.manager, managers, COUNT(managers))) &&
			   put(o, "default_limit", default_limit_to_json(&s->systemd)));
}

static json_t *fw_procs_to_json(const struct system_state *s)
{
	const struct firewall_procs *f = &s->fw_procs;
	json_t *o, *tables = NULL;
	bool ok;

	if (!s->fw_procs_read)
		return json_null();
	o = json_object();
	ok = o && put(o, "firewalld_running", json_boolean(f->firewalld_running)) &&
	     put(o, "firewalld_pid", f->firewalld_pid > 0 ? json_integer(f->firewalld_pid) : json_null()) &&
	     put(o, "processes_scanned", json_integer((json_int_t)f->processes_scanned)) &&
	     put(o, "scan_truncated", json_boolean(f->scan_truncated)) &&
	     put(o, "iptables_tables", tables = f->iptables_known ? json_array() : json_null());
	for (size_t i = 0; ok && f->iptables_known && i < f->iptables_count; i++)
		ok = append(tables, required(f->iptables[i]));
	return finished(o, ok);
}

static json_t *nft_chain_to_json(const struct nft_chain *c)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "family", nft_family_to_json(c->family)) && put(o, "table", required(c->table)) &&
			   put(o, "name", required(c->name)) &&
			   put(o, "hook", name_or_null(c->hook, chain_hooks, COUNT(chain_hooks))) &&
			   put(o, "priority", json_integer(c->priority)) &&
			   put(o, "policy", name_or_null(c->policy, chain_policies, COUNT(chain_policies))) &&
			   put(o, "type", string_or_null(c->type)) &&
			   put(o, "first_rule", json_integer((json_int_t)c->first_rule)) &&
			   put(o, "rule_count", json_integer((json_int_t)c->rule_count)));
}

static json_t *nft_rule_to_json(const struct nft_rule *r)
{
	json_t *o = json_object();

	return finished(o, o && r->handle <= INT64_MAX && put(o, "chain", json_integer((json_int_t)r->chain)) &&
			   put(o, "handle", json_integer((json_int_t)r->handle)) &&
			   put(o, "verdict", name_or_null(r->verdict, verdicts, COUNT(verdicts))) &&
			   put(o, "target", string_or_null(r->target)) &&
			   put(o, "l4proto", r->l4proto >= 0 ? json_integer(r->l4proto) : json_null()) &&
			   put(o, "dport", r->dport >= 0 ? json_integer(r->dport) : json_null()) &&
			   put(o, "dport_set", string_or_null(r->dport_set)) &&
			   put(o, "other_matches", json_boolean(r->other_matches)));
}

static json_t *ruleset_to_json(const struct nft_ruleset *rs)
{
	json_t *o, *tables = NULL, *chains = NULL, *rules = NULL;
	bool ok;

	if (!rs->known)
		return json_null();
	o = json_object();
	ok = o && put(o, "tables", tables = json_array()) && put(o, "chains", chains = json_array()) &&
	     put(o, "rules", rules = json_array()) && put(o, "truncated", json_boolean(rs->truncated));
	for (size_t i = 0; ok && i < rs->table_count; i++) {
		json_t *t = json_object();

		ok = append(tables, finished(t, t && put(t, "family", nft_family_to_json(rs->tables[i].family)) &&
						      put(t, "name", required(rs->tables[i].name)) &&
						      put(t, "dormant", json_boolean(rs->tables[i].dormant))));
	}
	for (size_t i = 0; ok && i < rs->chain_count; i++)
		ok = append(chains, nft_chain_to_json(&rs->chains[i]));
	for (size_t i = 0; ok && i < rs->rule_count; i++)
		ok = append(rules, nft_rule_to_json(&rs->rules[i]));
	return finished(o, ok);
}

static json_t *nftables_to_json(const struct system_state *s)
{
	json_t *o;

	if (!s->nft_read)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "ruleset", ruleset_to_json(&s->nft)) &&
			   put(o, "errno", s->nft_err < 0 ? json_integer(-s->nft_err) : json_null()));
}

static json_t *arp_sysctl_to_json(const struct netdev_arp *a)
{
	json_t *o;

	if (!a->known)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "all_ignore", json_integer(a->value.all_ignore)) &&
			   put(o, "dev_ignore", json_integer(a->value.dev_ignore)) &&
			   put(o, "all_announce", json_integer(a->value.all_announce)) &&
			   put(o, "dev_announce", json_integer(a->value.dev_announce)) &&
			   put(o, "ignore", json_integer(a->value.ignore)) && put(o, "announce", json_integer(a->value.announce)));
}

static json_t *arp_to_json(const struct system_state *s)
{
	json_t *list;
	bool ok;

	if (!s->arp_read)
		return json_null();
	list = json_array();
	ok = list != NULL;
	for (size_t i = 0; ok && i < s->arp_count; i++) {
		json_t *o = json_object();

		ok = append(list, finished(o, o && put(o, "netdev", required(s->arp[i].netdev)) &&
						    put(o, "sysctl", arp_sysctl_to_json(&s->arp[i]))));
	}
	return finished(list, ok);
}

/* "10.0.0.1/32" (IPv4 stored mapped) or "fe80::/64"; NULL for a family JSON has no spelling for here. */
static json_t *prefix_to_json(int family, const struct in6_addr *addr, unsigned len)
{
	char ip[INET6_ADDRSTRLEN], text[ADDRESS_TEXT_MAX];

	if (family == AF_INET)
		inet_ntop(AF_INET, &addr->s6_addr[12], ip, sizeof(ip));
	else if (family == AF_INET6)
		inet_ntop(AF_INET6, addr, ip, sizeof(ip));
	else
		return NULL;
	snprintf(text, sizeof(text), "%s/%u", ip, len);
	return json_string(text);
}

static json_t *ip_rules_to_json(const struct system_state *s)
{
	json_t *list;
	bool ok;

	if (!s->arp_read || !s->ip_rules.known)
		return json_null();
	list = json_array();
	ok = list != NULL;
	for (size_t i = 0; ok && i < s->ip_rules.count; i++) {
		const struct ip_rule *r = &s->ip_rules.items[i];
		json_t *o = json_object();

		ok = append(list, finished(o, o && (r->family == AF_INET || r->family == AF_INET6) &&
						    put(o, "family", json_string(r->family == AF_INET ? "inet" : "inet6")) &&
						    put(o, "priority", json_integer(r->priority)) &&
						    put(o, "from", prefix_to_json(r->family, &r->src, r->src_len)) &&
						    put(o, "to", prefix_to_json(r->family, &r->dst, r->dst_len)) &&
						    put(o, "table", json_integer(r->table)) &&
						    put(o, "action", json_integer(r->action)) &&
						    put(o, "iif", string_or_null(r->iif)) && put(o, "oif", string_or_null(r->oif)) &&
						    put(o, "fwmark", json_integer(r->fwmark))));
	}
	return finished(list, ok);
}

static json_t *gpus_to_json(const struct system_state *s)
{
	json_t *list;
	bool ok;

	if (!s->gpus_read)
		return json_null();
	list = json_array();
	ok = list != NULL;
	for (size_t i = 0; ok && i < s->gpus.count; i++) {
		const struct nvidia_gpu *g = &s->gpus.items[i];
		json_t *o = json_object();

		ok = append(list, finished(o, o && put(o, "pci_address", required(g->pci_address)) &&
						    put(o, "device_id", json_integer(g->device_id)) &&
						    put(o, "class_code", json_integer(g->class_code)) &&
						    put(o, "driver", string_or_null(g->driver)) &&
						    put(o, "numa_node", g->numa_node >= 0 ? json_integer(g->numa_node) : json_null())));
	}
	return finished(list, ok);
}

static json_t *gpudirect_to_json(const struct system_state *s)
{
	const struct gpudirect_info *g = &s->gpudirect;
	json_t *o, *list = NULL;
	bool ok;

	if (!s->gpudirect_read)
		return json_null();
	o = json_object();
	ok = o && put(o, "nvidia_module", name_or_null(g->flavor, flavors, COUNT(flavors))) &&
	     put(o, "driver_version", string_or_null(g->driver_version)) &&
	     put(o, "kernel_release", string_or_null(g->kernel_release)) &&
	     put(o, "dmabuf_test", g->nics_tested ? (list = json_array()) : json_null());
	for (size_t i = 0; ok && list && i < g->nic_count; i++) {
		const struct dmabuf_nic *n = &g->nics[i];
		json_t *j = json_object();

		ok = append(list, finished(j, j && n->step < COUNT(dmabuf_steps) && put(j, "device", required(n->device)) &&
						    put(j, "step", json_string(dmabuf_steps[n->step])) &&
						    put(j, "errno", n->err > 0 ? json_integer(n->err) : json_null())));
	}
	return finished(o, ok);
}

static bool settings_to_json(json_t *list, const struct nccl_setting *items, size_t count)
{
	bool ok = list != NULL;

	for (size_t i = 0; ok && i < count; i++) {
		const struct nccl_setting *n = &items[i];
		bool file = n->origin == NCCL_FROM_FILE;
		json_t *j = json_object();

		ok = append(list, finished(j, j && n->origin < COUNT(origins) && put(j, "name", required(n->name)) &&
						    put(j, "value", json_string(n->value)) &&
						    put(j, "origin", json_string(origins[n->origin])) &&
						    put(j, "file", file ? required(n->file) : json_null()) &&
						    put(j, "line", file ? json_integer(n->line) : json_null()) &&
						    put(j, "source", required(n->source)) &&
						    put(j, "effective", json_boolean(n->effective))));
	}
	return ok;
}

static json_t *nccl_to_json(const struct system_state *s)
{
	json_t *o, *list = NULL, *not_read = NULL;
	bool ok;

	if (!s->nccl_read)
		return json_null();
	o = json_object();
	ok = o && put(o, "settings", list = json_array()) && put(o, "not_read", not_read = json_array()) &&
	     put(o, "user_file", string_or_null(s->nccl.user_file)) &&
	     put(o, "user_file_read", json_boolean(s->nccl.user_file_read)) &&
	     put(o, "system_file_read", json_boolean(s->nccl.system_file_read));
	ok = ok && settings_to_json(list, s->nccl.items, s->nccl.count) &&
	     settings_to_json(not_read, s->nccl.not_read, s->nccl.not_read_count);
	return finished(o, ok);
}

static json_t *env_to_json(const struct system_state *s)
{
	json_t *list = json_array();
	bool ok = list != NULL;

	for (size_t i = 0; ok && i < s->env_count; i++) {
		json_t *o = json_object();

		ok = append(list, finished(o, o && put(o, "name", required(s->env[i].name)) &&
						    put(o, "value", json_string(s->env[i].value))));
	}
	return finished(list, ok);
}

static json_t *warnings_to_json(const struct notes *n)
{
	json_t *list = json_array();
	bool ok = list != NULL;

	for (size_t i = 0; ok && i < n->count; i++)
		ok = append(list, json_string(n->items[i]));
	return finished(list, ok);
}

/* Which source each warning came from, in the order of "warnings" (null: not said) */
static json_t *warning_sources_to_json(const struct notes *n)
{
	json_t *list = json_array();
	bool ok = list != NULL;

	for (size_t i = 0; ok && i < n->count; i++) {
		const char *name = system_part_name(n->tag[i]);

		ok = append(list, name ? json_string(name) : json_null());
	}
	return finished(list, ok);
}

static json_t *step_to_json(const char *step)
{
	for (size_t i = 0; step && i < COUNT(steps); i++)
		if (strcmp(step, steps[i]) == 0)
			return json_string(step);
	return step ? NULL : json_null();
}

static json_t *register_to_json(const struct system_state *s)
{
	const struct register_probe *r = &s->reg;
	json_t *o;

	if (!s->reg_read)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "tried", json_boolean(r->tried)) && put(o, "device", string_or_null(r->device)) &&
			   put(o, "bytes", json_integer((json_int_t)r->bytes)) &&
			   put(o, "errno", r->err < 0 ? json_integer(-r->err) : json_null()) &&
			   put(o, "step", step_to_json(r->step)));
}

json_t *system_to_json(const struct system_state *s)
{
	json_t *doc = json_object();

	return finished(doc, doc && put(doc, "schema", json_string(SYSTEM_JSON_SCHEMA)) &&
			     put(doc, "live", json_boolean(s->live)) && put(doc, "user", user_to_json(&s->user)) &&
			     put(doc, "container", container_to_json(&s->container)) &&
			     put(doc, "modules", modules_to_json(s)) && put(doc, "uverbs", uverbs_to_json(s)) &&
			     put(doc, "verbs_providers", verbs_providers_to_json(s)) &&
			     put(doc, "memlock_rlimit", rlimit_to_json(s)) && put(doc, "pam_limits", pam_to_json(s)) &&
			     put(doc, "systemd", systemd_to_json(s)) && put(doc, "firewall_procs", fw_procs_to_json(s)) &&
			     put(doc, "nftables", nftables_to_json(s)) &&
			     put(doc, "ip_local_port_range", string_or_null(s->port_range)) &&
			     put(doc, "arp", arp_to_json(s)) && put(doc, "ip_rules", ip_rules_to_json(s)) &&
			     put(doc, "gpus", gpus_to_json(s)) && put(doc, "gpudirect", gpudirect_to_json(s)) &&
			     put(doc, "pci", s->pci_read ? pci_topology_to_json(&s->pci) : json_null()) &&
			     put(doc, "qos", s->qos_read ? qos_host_to_json(&s->qos) : json_null()) &&
			     put(doc, "nccl", nccl_to_json(s)) &&
			     put(doc, "nccl_libs", nccl_libs_to_json(&s->nccl_libs, s->nccl_libs_read)) &&
			     put(doc, "environment", env_to_json(s)) && put(doc, "register_probe", register_to_json(s)) &&
			     put(doc, "warnings", warnings_to_json(&s->warnings)) &&
			     put(doc, "warning_sources", warning_sources_to_json(&s->warnings)));
}

/* ---- reader ---- */

/* obj's member key: an object with no member outside names, or with nullable null (*out = NULL). The path is
 * left at key when there is an object to read (the caller reads inside, then leaves to *mark); on null or an
 * error it is back where it was, as the callers that return on null leave nothing behind. */
static int enter_object(struct reader *r, const struct jnode *obj, const char *key, bool nullable, const char *const names[],
			size_t count, const struct jnode **out, size_t *mark)
{
	const char *expected = nullable ? "an object or null" : "an object";
	int ret;

	*mark = path_member(r, key);
	ret = member(r, obj, key, expected, out);
	if (ret == 0 && nullable && jnode_is_null(*out))
		*out = NULL;
	else if (ret == 0 && !jnode_is_object(*out))
		ret = invalid(r, "expected %s, got %s", expected, type_name(*out));
	else if (ret == 0)
		ret = check_object(r, *out, names, count);
	if (ret < 0 || !*out)
		path_leave(r, *mark);
	return ret;
}

/* An array entry that must be an object of these members. */
static int entry_object(struct reader *r, const struct jnode *v, const char *const names[], size_t count)
{
	return check_object(r, v, names, count);
}

static int read_unsigned(struct reader *r, const struct jnode *obj, const char *key, json_int_t max, unsigned *out)
{
	json_int_t v = 0;
	int ret = read_integer(r, obj, key, 0, max, false, 0, &v);

	*out = (unsigned)v;
	return ret;
}

static int read_flag(struct reader *r, const struct jnode *obj, const char *key, bool *out)
{
	int v = 0;
	int ret = read_bool(r, obj, key, false, &v);

	*out = v == 1;
	return ret;
}

/* An enum named from names[0] for value 1 on, null (when nullable) for 0. */
static int read_enum(struct reader *r, const struct jnode *obj, const char *key, const char *const names[], size_t count,
		     bool nullable, unsigned *out)
{
	const struct jnode *v = jnode_object_get(obj, key);
	char expected[256];
	size_t len = 0;
	int index = -1, ret;

	/* the usual case without spelling out the message */
	if (v && nullable && jnode_is_null(v)) {
		*out = 0;
		return 0;
	}
	for (size_t i = 0; jnode_is_string(v) && i < count; i++) {
		if (strcmp(jnode_string_value(v), names[i]) == 0 && strlen(names[i]) == jnode_string_length(v)) {
			*out = (unsigned)(i + 1);
			return 0;
		}
	}
	for (size_t i = 0; i < count; i++)
		len += (size_t)snprintf(expected + len, sizeof(expected) - len, "%s\"%s\"",
					i == 0 ? "" : i + 1 == count && !nullable ? " or " : ", ", names[i]);
	if (nullable)
		snprintf(expected + len, sizeof(expected) - len, " or null");
	ret = read_name(r, obj, key, names, count, expected, &index);
	if (ret == 0 && index < 0 && !nullable) {
		size_t mark = path_member(r, key);

		ret = invalid(r, "expected %s, got null", expected);
		path_leave(r, mark);
	}
	*out = (unsigned)(index + 1);
	return ret;
}

/* "unlimited", an integer of bytes, or a decimal text above 2^63 (what the writer writes there); with nullable,
 * null sets *is_null. */
static int read_memlock(struct reader *r, const struct jnode *obj, const char *key, bool nullable, struct memlock_value *v,
			bool *is_null)
{
	static const char expected[] = "\"unlimited\", a byte count from 0 to 18446744073709551615";
	size_t mark = path_member(r, key);
	const struct jnode *j;
	int ret = member(r, obj, key, expected, &j);

	memset(v, 0, sizeof(*v));
	if (is_null)
		*is_null = false;
	if (ret < 0) {
		/* nothing more */
	} else if (nullable && jnode_is_null(j)) {
		*is_null = true;
	} else if (jnode_is_integer(j) && jnode_integer_value(j) >= 0) {
		v->bytes = (uint64_t)jnode_integer_value(j);
	} else if (jnode_is_string(j) && strcmp(jnode_string_value(j), "unlimited") == 0 && jnode_string_length(j) == 9) {
		v->unlimited = true;
	} else if (jnode_is_string(j)) {
		const char *t = jnode_string_value(j);
		size_t n = jnode_string_length(j);
		char *end = NULL;
		unsigned long long b;

		errno = 0;
		b = n && n < 21 && strspn(t, "0123456789") == n ? strtoull(t, &end, 10) : 0;
		if (!end || *end || errno || b <= INT64_MAX)   /* smaller counts are written as integers */
			ret = invalid(r, "expected %s%s, got \"%.32s\"", expected, nullable ? " or null" : "", t);
		v->bytes = b;
	} else {
		ret = invalid(r, "expected %s%s, got %s%s", expected, nullable ? " or null" : "", type_name(j),
			      jnode_is_integer(j) ? " below 0" : "");
	}
	path_leave(r, mark);
	return ret;
}

/* A string member that may be "" (a variable set to nothing), never null. */
static int read_text(struct reader *r, const struct jnode *obj, const char *key, char *dst, size_t size)
{
	size_t mark = path_member(r, key);
	const struct jnode *v;
	int ret = member(r, obj, key, "a string", &v);

	if (ret == 0 && jnode_is_string(v) && jnode_string_length(v) == 0)
		dst[0] = '\0';
	else if (ret == 0)
		ret = string_value(r, v, false, dst, size);
	path_leave(r, mark);
	return ret;
}

static const char *const user_members[] = { "name", "uid", "gid", "home", "groups", "groups_truncated" };
static const char *const group_members[] = { "name", "gid" };

static int read_user(struct reader *r, const struct jnode *doc, struct user_info *u)
{
	const struct jnode *o = NULL, *list = NULL;
	size_t mark, at;
	int ret = enter_object(r, doc, "user", false, user_members, COUNT(user_members), &o, &mark);

	if (ret < 0)
		return ret;
	ret = read_string(r, o, "name", false, u->name, sizeof(u->name));
	if (ret == 0)
		ret = read_unsigned(r, o, "uid", UINT_MAX, &u->uid);
	if (ret == 0)
		ret = read_unsigned(r, o, "gid", UINT_MAX, &u->gid);
	if (ret == 0)
		ret = read_string(r, o, "home", true, u->home, sizeof(u->home));
	if (ret == 0)
		ret = read_array(r, o, "groups", false, USER_GROUPS_MAX, &list);
	at = path_member(r, "groups");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		const struct jnode *g = jnode_array_get(list, i);
		size_t m = path_index(r, i);

		ret = entry_object(r, g, group_members, COUNT(group_members));
		if (ret == 0)
			ret = read_string(r, g, "name", false, u->groups[i].name, sizeof(u->groups[i].name));
		if (ret == 0)
			ret = read_unsigned(r, g, "gid", UINT_MAX, &u->groups[i].gid);
		path_leave(r, m);
	}
	path_leave(r, at);
	u->group_count = ret == 0 ? jnode_array_size(list) : 0;
	if (ret == 0)
		ret = read_flag(r, o, "groups_truncated", &u->groups_truncated);
	path_leave(r, mark);
	return ret;
}

static const char *const container_members[] = { "kind", "evidence" };

static int read_container(struct reader *r, const struct jnode *doc, struct container_info *c)
{
	const struct jnode *o = NULL;
	size_t mark;
	int ret = enter_object(r, doc, "container", false, container_members, COUNT(container_members), &o, &mark);

	if (ret < 0)
		return ret;
	ret = read_string(r, o, "kind", true, c->kind, sizeof(c->kind));
	if (ret == 0)
		ret = read_string(r, o, "evidence", true, c->evidence, sizeof(c->evidence));
	path_leave(r, mark);
	return ret;
}

/* The entries of list under obj's key: each read by one(r, entry json, i, element) into a zeroed element
 */
typedef int (*entry_reader)(struct reader *r, const struct jnode *j, void *element, void *ctx);

static int read_entries(struct reader *r, const struct jnode *obj, const char *key, size_t max, size_t size,
			void **items, size_t *count, entry_reader one, void *ctx)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, obj, key, false, max, &list);

	if (ret < 0)
		return ret;
	*items = entries(r, jnode_array_size(list), size, &ret);
	if (ret < 0)
		return ret;
	*count = jnode_array_size(list);
	mark = path_member(r, key);
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		void *e = (unsigned char *)*items + i * size;
		size_t at = path_index(r, i);

		memset(e, 0, size);
		ret = one(r, jnode_array_get(list, i), e, ctx);
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const module_members[] = { "name", "builtin" };

static int read_module(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct kernel_module *m = element;
	int ret = entry_object(r, j, module_members, COUNT(module_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "name", false, m->name, sizeof(m->name));
	if (ret == 0)
		ret = read_flag(r, j, "builtin", &m->builtin);
	return ret;
}

static const char *const modules_members[] = { "proc_known", "modules" };

static int read_modules(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	const struct jnode *o = NULL;
	size_t mark;
	void *items = NULL;
	int ret = enter_object(r, doc, "modules", true, modules_members, COUNT(modules_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->modules_read = true;
	ret = read_flag(r, o, "proc_known", &s->modules.proc_known);
	if (ret == 0)
		ret = read_entries(r, o, "modules", SYSTEM_MODULES_MAX, sizeof(*s->modules.items), &items,
				   &s->modules.count, read_module, NULL);
	s->modules.items = items;
	path_leave(r, mark);
	return ret;
}

static const char *const node_members[] = { "exists", "read_write" };

static int read_dev_node(struct reader *r, const struct jnode *obj, const char *key, struct dev_node *n)
{
	const struct jnode *o = NULL;
	size_t mark;
	int rw = -1;
	int ret = enter_object(r, obj, key, false, node_members, COUNT(node_members), &o, &mark);

	if (ret < 0)
		return ret;
	ret = read_flag(r, o, "exists", &n->exists);
	if (ret == 0)
		ret = read_bool(r, o, "read_write", true, &rw);
	n->access_known = rw >= 0;
	n->read_write = rw == 1;
	path_leave(r, mark);
	return ret;
}

static const char *const uverbs_dev_members[] = { "name", "ibdev", "node" };

static int read_uverbs_dev(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct uverbs_dev *d = element;
	int ret = entry_object(r, j, uverbs_dev_members, COUNT(uverbs_dev_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "name", false, d->name, sizeof(d->name));
	if (ret == 0)
		ret = read_string(r, j, "ibdev", true, d->ibdev, sizeof(d->ibdev));
	if (ret == 0)
		ret = read_dev_node(r, j, "node", &d->node);
	return ret;
}

static const char *const uverbs_members[] = { "devices", "rdma_cm" };

static int read_uverbs(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	const struct jnode *o = NULL;
	size_t mark;
	void *items = NULL;
	int ret = enter_object(r, doc, "uverbs", true, uverbs_members, COUNT(uverbs_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->uverbs_read = true;
	ret = read_entries(r, o, "devices", SYSTEM_UVERBS_MAX, sizeof(*s->uverbs.devs), &items, &s->uverbs.count,
			   read_uverbs_dev, NULL);
	s->uverbs.devs = items;
	if (ret == 0)
		ret = read_dev_node(r, o, "rdma_cm", &s->uverbs.rdma_cm);
	path_leave(r, mark);
	return ret;
}

static const char *const verbs_providers_members[] = { "dir_exists", "providers" };

/* Absent or null: not read, as in a snapshot of a roce-doctor that did not look (verbs.provider then says
 * nothing). Each name once: the probe keeps them so, and the rule asks "is NAME there". */
static int read_verbs_providers(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	struct verbs_providers *v = &s->verbs_providers;
	const struct jnode *o = jnode_object_get(doc, "verbs_providers"), *list = NULL;
	size_t mark, at;
	int ret;

	if (!o || jnode_is_null(o))
		return 0;
	ret = enter_object(r, doc, "verbs_providers", true, verbs_providers_members, COUNT(verbs_providers_members),
			   &o, &mark);
	if (ret < 0)
		return ret;
	ret = read_flag(r, o, "dir_exists", &v->dir_exists);
	if (ret == 0)
		ret = read_array(r, o, "providers", false, VERBS_PROVIDERS_MAX, &list);
	at = path_member(r, "providers");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		size_t m = path_index(r, i);

		ret = string_value(r, jnode_array_get(list, i), false, v->names[i], sizeof(v->names[i]));
		v->count = i + 1;
		for (size_t j = 0; ret == 0 && j < i; j++)
			if (strcmp(v->names[j], v->names[i]) == 0)
				ret = invalid(r, "expected each provider once, got \"%s\" again", v->names[i]);
		path_leave(r, m);
	}
	path_leave(r, at);
	s->verbs_providers_read = ret == 0;
	path_leave(r, mark);
	return ret;
}

static const char *const rlimit_members[] = { "soft", "hard" };

/* soft and hard are both known or both null: /proc/self/limits gives the pair in one line. */
static int read_rlimit(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	const struct jnode *o = NULL;
	size_t mark;
	bool soft_null = false, hard_null = false;
	int ret = enter_object(r, doc, "memlock_rlimit", true, rlimit_members, COUNT(rlimit_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->rlimit_read = true;
	ret = read_memlock(r, o, "soft", true, &s->rlimit.soft, &soft_null);
	if (ret == 0)
		ret = read_memlock(r, o, "hard", true, &s->rlimit.hard, &hard_null);
	if (ret == 0 && soft_null != hard_null) {
		size_t m = path_member(r, "hard");

		ret = invalid(r, "expected %s, as soft is", soft_null ? "null" : "a value");
		path_leave(r, m);
	}
	s->rlimit.known = !soft_null;
	path_leave(r, mark);
	return ret;
}

static const char *const limits_line_members[] = { "file", "line", "kind", "domain", "range", "range_min",
						   "range_max", "type", "value" };

static int read_limits_line(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct limits_line *l = element;
	unsigned kind = 0, range = 0, type = 0;
	int ret = entry_object(r, j, limits_line_members, COUNT(limits_line_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "file", false, l->file, sizeof(l->file));
	if (ret == 0)
		ret = read_unsigned(r, j, "line", UINT_MAX, &l->line);
	if (ret == 0)
		ret = read_enum(r, j, "kind", limits_kinds, COUNT(limits_kinds), false, &kind);
	l->kind = kind == 2 ? LIMITS_LINE_NO_LIMITS : LIMITS_LINE_MEMLOCK;
	if (ret == 0)
		ret = read_string(r, j, "domain", false, l->domain, sizeof(l->domain));
	if (ret == 0)
		ret = read_enum(r, j, "range", id_ranges, COUNT(id_ranges), true, &range);
	l->range = (enum id_range)range;
	if (ret == 0)
		ret = read_unsigned(r, j, "range_min", UINT_MAX, &l->range_min);
	if (ret == 0)
		ret = read_unsigned(r, j, "range_max", UINT_MAX, &l->range_max);
	if (ret == 0)
		ret = read_enum(r, j, "type", memlock_types, COUNT(memlock_types), true, &type);
	l->type = (enum memlock_type)type;
	if (ret == 0)
		ret = read_memlock(r, j, "value", false, &l->value, NULL);
	return ret;
}

static int read_pam(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "pam_limits");
	const struct jnode *v;
	void *items = NULL;
	int ret = member(r, doc, "pam_limits", "an array or null", &v);

	path_leave(r, mark);
	if (ret < 0 || jnode_is_null(v))
		return ret;
	s->pam_read = true;
	ret = read_entries(r, doc, "pam_limits", SYSTEM_LIMITS_LINES_MAX, sizeof(*s->pam.lines), &items, &s->pam.count,
			   read_limits_line, NULL);
	s->pam.lines = items;
	return ret;
}

static const char *const systemd_members[] = { "manager", "default_limit" };
static const char *const default_limit_members[] = { "soft", "hard", "file", "line" };

static int read_systemd(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	const struct jnode *o = NULL, *d = NULL;
	size_t mark, at;
	unsigned manager = 0;
	int ret = enter_object(r, doc, "systemd", true, systemd_members, COUNT(systemd_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->systemd_read = true;
	ret = read_enum(r, o, "manager", managers, COUNT(managers), true, &manager);
	s->systemd.manager = (enum systemd_manager)manager;
	if (ret == 0)
		ret = enter_object(r, o, "default_limit", true, default_limit_members, COUNT(default_limit_members), &d, &at);
	if (ret == 0 && d) {
		s->systemd.set = true;
		ret = read_memlock(r, d, "soft", false, &s->systemd.soft, NULL);
		if (ret == 0)
			ret = read_memlock(r, d, "hard", false, &s->systemd.hard, NULL);
		if (ret == 0)
			ret = read_string(r, d, "file", true, s->systemd.file, sizeof(s->systemd.file));
		if (ret == 0)
			ret = read_unsigned(r, d, "line", UINT_MAX, &s->systemd.line);
		path_leave(r, at);
	} else if (ret == 0) {
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const fw_members[] = { "firewalld_running", "firewalld_pid", "processes_scanned", "scan_truncated",
					  "iptables_tables" };

static int read_fw_procs(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	struct firewall_procs *f = &s->fw_procs;
	const struct jnode *o = NULL, *list = NULL;
	json_int_t pid = 0, scanned = 0;
	size_t mark, at;
	int ret = enter_object(r, doc, "firewall_procs", true, fw_members, COUNT(fw_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->fw_procs_read = true;
	ret = read_flag(r, o, "firewalld_running", &f->firewalld_running);
	if (ret == 0)
		ret = read_integer(r, o, "firewalld_pid", 1, INT_MAX, true, 0, &pid);
	f->firewalld_pid = (int)pid;
	if (ret == 0)
		ret = read_integer(r, o, "processes_scanned", 0, INT_MAX, false, 0, &scanned);
	f->processes_scanned = (size_t)scanned;
	if (ret == 0)
		ret = read_flag(r, o, "scan_truncated", &f->scan_truncated);
	if (ret == 0)
		ret = read_array(r, o, "iptables_tables", true, IPTABLES_TABLES_MAX, &list);
	f->iptables_known = ret == 0 && list;
	at = path_member(r, "iptables_tables");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		size_t m = path_index(r, i);

		ret = string_value(r, jnode_array_get(list, i), false, f->iptables[i], sizeof(f->iptables[i]));
		path_leave(r, m);
	}
	f->iptables_count = ret == 0 ? jnode_array_size(list) : 0;
	path_leave(r, at);
	path_leave(r, mark);
	return ret;
}

static int read_nft_family(struct reader *r, const struct jnode *j, int *family)
{
	unsigned index = 0;
	int ret = read_enum(r, j, "family", nft_family_names, COUNT(nft_family_names), false, &index);

	*family = ret == 0 ? nft_families[index - 1].family : 0;
	return ret;
}

static const char *const table_members[] = { "family", "name", "dormant" };

static int read_nft_table(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct nft_table *t = element;
	int ret = entry_object(r, j, table_members, COUNT(table_members));

	(void)ctx;
	if (ret == 0)
		ret = read_nft_family(r, j, &t->family);
	if (ret == 0)
		ret = read_string(r, j, "name", false, t->name, sizeof(t->name));
	if (ret == 0)
		ret = read_flag(r, j, "dormant", &t->dormant);
	return ret;
}

static const char *const chain_members[] = { "family", "table", "name", "hook", "priority", "policy", "type",
					     "first_rule", "rule_count" };

/* ctx: the document's rule count, which first_rule + rule_count must stay within. */
static int read_nft_chain(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct nft_chain *c = element;
	json_int_t priority = 0, first = 0, count = 0, rules = (json_int_t)*(size_t *)ctx;
	unsigned hook = 0, policy = 0;
	int ret = entry_object(r, j, chain_members, COUNT(chain_members));

	if (ret == 0)
		ret = read_nft_family(r, j, &c->family);
	if (ret == 0)
		ret = read_string(r, j, "table", false, c->table, sizeof(c->table));
	if (ret == 0)
		ret = read_string(r, j, "name", false, c->name, sizeof(c->name));
	if (ret == 0)
		ret = read_enum(r, j, "hook", chain_hooks, COUNT(chain_hooks), true, &hook);
	c->hook = (enum chain_hook)hook;
	if (ret == 0)
		ret = read_integer(r, j, "priority", INT_MIN, INT_MAX, false, 0, &priority);
	c->priority = (int)priority;
	if (ret == 0)
		ret = read_enum(r, j, "policy", chain_policies, COUNT(chain_policies), true, &policy);
	c->policy = (enum chain_policy)policy;
	if (ret == 0)
		ret = read_string(r, j, "type", true, c->type, sizeof(c->type));
	if (ret == 0)
		ret = read_integer(r, j, "first_rule", 0, rules, false, 0, &first);
	if (ret == 0)
		ret = read_integer(r, j, "rule_count", 0, rules - first, false, 0, &count);
	c->first_rule = (size_t)first;
	c->rule_count = (size_t)count;
	return ret;
}

static const char *const rule_members[] = { "chain", "handle", "verdict", "target", "l4proto", "dport", "dport_set",
					    "other_matches" };

/* ctx: the document's chain count, which chain indexes. */
static int read_nft_rule(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct nft_rule *rule = element;
	json_int_t chain = 0, handle = 0, proto = -1, dport = -1, chains = (json_int_t)*(size_t *)ctx;
	unsigned verdict = 0;
	int ret = entry_object(r, j, rule_members, COUNT(rule_members));

	if (ret == 0 && chains == 0)
		ret = invalid(r, "expected no rule: the ruleset has no chain to hold it");
	if (ret == 0)
		ret = read_integer(r, j, "chain", 0, chains - 1, false, 0, &chain);
	if (ret == 0)
		ret = read_integer(r, j, "handle", 0, INT64_MAX, false, 0, &handle);
	if (ret == 0)
		ret = read_enum(r, j, "verdict", verdicts, COUNT(verdicts), true, &verdict);
	rule->verdict = (enum rule_verdict)verdict;
	if (ret == 0)
		ret = read_string(r, j, "target", true, rule->target, sizeof(rule->target));
	if (ret == 0)
		ret = read_integer(r, j, "l4proto", 0, 255, true, -1, &proto);
	if (ret == 0)
		ret = read_integer(r, j, "dport", 0, 65535, true, -1, &dport);
	if (ret == 0)
		ret = read_string(r, j, "dport_set", true, rule->dport_set, sizeof(rule->dport_set));
	if (ret == 0)
		ret = read_flag(r, j, "other_matches", &rule->other_matches);
	rule->chain = (size_t)chain;
	rule->handle = (uint64_t)handle;
	rule->l4proto = (int)proto;
	rule->dport = (int)dport;
	return ret;
}

static const char *const ruleset_members[] = { "tables", "chains", "rules", "truncated" };
static const char *const nftables_members[] = { "ruleset", "errno" };

static int read_nftables(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	struct nft_ruleset *rs = &s->nft;
	const struct jnode *o = NULL, *set = NULL, *chains = NULL, *rules = NULL;
	size_t mark, at, chain_total, rule_total;
	json_int_t err = 0;
	void *items = NULL;
	int ret = enter_object(r, doc, "nftables", true, nftables_members, COUNT(nftables_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->nft_read = true;
	ret = enter_object(r, o, "ruleset", true, ruleset_members, COUNT(ruleset_members), &set, &at);
	if (ret == 0 && set) {
		rs->known = true;
		ret = read_entries(r, set, "tables", SYSTEM_NFT_OBJECTS_MAX, sizeof(*rs->tables), &items, &rs->table_count,
				   read_nft_table, NULL);
		rs->tables = items;
		/* sizes first: a chain's rules and a rule's chain are checked against the other list */
		if (ret == 0)
			ret = read_array(r, set, "chains", false, SYSTEM_NFT_OBJECTS_MAX, &chains);
		if (ret == 0)
			ret = read_array(r, set, "rules", false, SYSTEM_NFT_OBJECTS_MAX, &rules);
		chain_total = jnode_array_size(chains);
		rule_total = jnode_array_size(rules);
		items = NULL;
		if (ret == 0)
			ret = read_entries(r, set, "chains", SYSTEM_NFT_OBJECTS_MAX, sizeof(*rs->chains), &items,
					   &rs->chain_count, read_nft_chain, &rule_total);
		rs->chains = items;
		items = NULL;
		if (ret == 0)
			ret = read_entries(r, set, "rules", SYSTEM_NFT_OBJECTS_MAX, sizeof(*rs->rules), &items,
					   &rs->rule_count, read_nft_rule, &chain_total);
		rs->rules = items;
		if (ret == 0)
			ret = read_flag(r, set, "truncated", &rs->truncated);
		path_leave(r, at);
	} else if (ret == 0) {
		path_leave(r, at);
	}
	if (ret == 0)
		ret = read_integer(r, o, "errno", 1, ERRNO_MAX, true, 0, &err);
	s->nft_err = -(int)err;
	path_leave(r, mark);
	return ret;
}

/* "N-M", low first, as check prints net.ipv4.ip_local_port_range. */
static int read_port_range(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "ip_local_port_range");
	unsigned lo, hi;
	char tail;
	int ret = read_string(r, doc, "ip_local_port_range", true, s->port_range, sizeof(s->port_range));

	if (ret == 0 && s->port_range[0] &&
	    (sscanf(s->port_range, "%5u-%5u%c", &lo, &hi, &tail) != 2 || lo > hi || hi > 65535 ||
	     strspn(s->port_range, "0123456789-") != strlen(s->port_range)))
		ret = invalid(r, "expected \"LOW-HIGH\" ports (\"32768-60999\") or null, got \"%s\"", s->port_range);
	path_leave(r, mark);
	return ret;
}

static const char *const arp_members[] = { "netdev", "sysctl" };
static const char *const sysctl_members[] = { "all_ignore", "dev_ignore", "all_announce", "dev_announce", "ignore",
					      "announce" };

static int read_arp_entry(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct netdev_arp *a = element;
	int *values[] = { &a->value.all_ignore, &a->value.dev_ignore, &a->value.all_announce, &a->value.dev_announce,
			  &a->value.ignore, &a->value.announce };
	const struct jnode *o = NULL;
	size_t mark;
	int ret = entry_object(r, j, arp_members, COUNT(arp_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "netdev", false, a->netdev, sizeof(a->netdev));
	if (ret == 0)
		ret = enter_object(r, j, "sysctl", true, sysctl_members, COUNT(sysctl_members), &o, &mark);
	if (ret < 0)
		return ret;
	a->known = o != NULL;
	for (size_t i = 0; ret == 0 && o && i < COUNT(values); i++) {
		json_int_t v = 0;

		ret = read_integer(r, o, sysctl_members[i], 0, INT_MAX, false, 0, &v);
		*values[i] = (int)v;
	}
	path_leave(r, mark);
	return ret;
}

static int read_arp(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "arp");
	const struct jnode *v;
	void *items = NULL;
	int ret = member(r, doc, "arp", "an array or null", &v);

	path_leave(r, mark);
	if (ret < 0 || jnode_is_null(v))
		return ret;
	s->arp_read = true;
	ret = read_entries(r, doc, "arp", HOST_NETDEVS_MAX, sizeof(*s->arp), &items, &s->arp_count,
			   read_arp_entry, NULL);
	s->arp = items;
	return ret;
}

/* "10.0.0.1/32" for inet (stored mapped), "fe80::/64" for inet6; the prefix within the family's bits. */
static int read_prefix(struct reader *r, const struct jnode *j, const char *key, int family, struct in6_addr *addr,
		       unsigned *len)
{
	size_t mark = path_member(r, key);
	const char *expected = family == AF_INET ? "an IPv4 prefix (\"10.0.0.1/32\")" : "an IPv6 prefix (\"fe80::/64\")";
	char text[ADDRESS_TEXT_MAX], *slash, *end;
	unsigned long bits = 0;
	int ret = read_string(r, j, key, false, text, sizeof(text));

	if (ret == 0) {
		slash = strchr(text, '/');
		if (slash) {
			*slash = '\0';
			errno = 0;
			bits = slash[1] >= '0' && slash[1] <= '9' ? strtoul(slash + 1, &end, 10) : 999;
			if (bits != 999 && (*end || errno))
				bits = 999;
		}
		memset(addr, 0, sizeof(*addr));
		if (family == AF_INET) {
			addr->s6_addr[10] = addr->s6_addr[11] = 0xff;
			if (!slash || bits > 32 || inet_pton(AF_INET, text, &addr->s6_addr[12]) != 1)
				ret = invalid(r, "expected %s", expected);
		} else if (!slash || bits > 128 || inet_pton(AF_INET6, text, addr) != 1) {
			ret = invalid(r, "expected %s", expected);
		}
		*len = (unsigned)bits;
	}
	path_leave(r, mark);
	return ret;
}

static const char *const ip_rule_members[] = { "family", "priority", "from", "to", "table", "action", "iif", "oif",
					       "fwmark" };
static const char *const ip_families[] = { "inet", "inet6" };

static int read_ip_rule(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct ip_rule *rule = element;
	unsigned family = 0, priority = 0, table = 0, fwmark = 0;
	int ret = entry_object(r, j, ip_rule_members, COUNT(ip_rule_members));

	(void)ctx;
	if (ret == 0)
		ret = read_enum(r, j, "family", ip_families, COUNT(ip_families), false, &family);
	rule->family = family == 2 ? AF_INET6 : AF_INET;
	if (ret == 0)
		ret = read_unsigned(r, j, "priority", UINT32_MAX, &priority);
	if (ret == 0)
		ret = read_prefix(r, j, "from", rule->family, &rule->src, &rule->src_len);
	if (ret == 0)
		ret = read_prefix(r, j, "to", rule->family, &rule->dst, &rule->dst_len);
	if (ret == 0)
		ret = read_unsigned(r, j, "table", UINT32_MAX, &table);
	if (ret == 0)
		ret = read_unsigned(r, j, "action", UINT_MAX, &rule->action);
	if (ret == 0)
		ret = read_string(r, j, "iif", true, rule->iif, sizeof(rule->iif));
	if (ret == 0)
		ret = read_string(r, j, "oif", true, rule->oif, sizeof(rule->oif));
	if (ret == 0)
		ret = read_unsigned(r, j, "fwmark", UINT32_MAX, &fwmark);
	rule->priority = priority;
	rule->table = table;
	rule->fwmark = fwmark;
	return ret;
}

/* null: not read, or not known (--root has no netlink); check asks for them with the arp sysctls. */
static int read_ip_rules(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "ip_rules");
	const struct jnode *v;
	void *items = NULL;
	int ret = member(r, doc, "ip_rules", "an array or null", &v);

	if (ret == 0 && !jnode_is_null(v) && !s->arp_read)
		ret = invalid(r, "expected null, as arp is: check reads policy rules only with the arp sysctls");
	path_leave(r, mark);
	if (ret < 0 || jnode_is_null(v))
		return ret;
	s->ip_rules.known = true;
	ret = read_entries(r, doc, "ip_rules", SYSTEM_IP_RULES_MAX, sizeof(*s->ip_rules.items), &items,
			   &s->ip_rules.count, read_ip_rule, NULL);
	s->ip_rules.items = items;
	return ret;
}

static const char *const gpu_members[] = { "pci_address", "device_id", "class_code", "driver", "numa_node" };

static int read_gpu(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct nvidia_gpu *g = element;
	json_int_t numa = -1;
	int ret = entry_object(r, j, gpu_members, COUNT(gpu_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "pci_address", false, g->pci_address, sizeof(g->pci_address));
	if (ret == 0)
		ret = read_unsigned(r, j, "device_id", 0xffff, &g->device_id);
	if (ret == 0)
		ret = read_unsigned(r, j, "class_code", 0xffffff, &g->class_code);
	if (ret == 0)
		ret = read_string(r, j, "driver", true, g->driver, sizeof(g->driver));
	if (ret == 0)
		ret = read_integer(r, j, "numa_node", 0, INT_MAX, true, -1, &numa);
	g->numa_node = (int)numa;
	return ret;
}

static int read_gpus(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "gpus");
	const struct jnode *v;
	void *items = NULL;
	int ret = member(r, doc, "gpus", "an array or null", &v);

	path_leave(r, mark);
	if (ret < 0 || jnode_is_null(v))
		return ret;
	s->gpus_read = true;
	ret = read_entries(r, doc, "gpus", SYSTEM_GPUS_MAX, sizeof(*s->gpus.items), &items, &s->gpus.count, read_gpu, NULL);
	s->gpus.items = items;
	return ret;
}

static const char *const gpudirect_members[] = { "nvidia_module", "driver_version", "kernel_release", "dmabuf_test" };
static const char *const dmabuf_members[] = { "device", "step", "errno" };

static int read_dmabuf_nic(struct reader *r, const struct jnode *j, struct dmabuf_nic *n)
{
	json_int_t err = 0;
	unsigned step = 0;
	int ret = entry_object(r, j, dmabuf_members, COUNT(dmabuf_members));

	if (ret == 0)
		ret = read_string(r, j, "device", false, n->device, sizeof(n->device));
	if (ret == 0)
		ret = read_enum(r, j, "step", dmabuf_steps, COUNT(dmabuf_steps), false, &step);
	if (ret == 0)
		ret = read_integer(r, j, "errno", 1, ERRNO_MAX, true, 0, &err);
	n->step = step ? (enum dmabuf_step)(step - 1) : DMABUF_STEP_REG;
	n->err = (int)err;
	return ret;
}

/* Absent in the snapshots of a roce-doctor before it: read as null (not read), as "pci" below. */
static int read_gpudirect(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	struct gpudirect_info *g = &s->gpudirect;
	const struct jnode *o = NULL, *list = NULL;
	unsigned flavor = 0;
	size_t mark;
	int ret;

	if (!jnode_object_get(doc, "gpudirect"))
		return 0;
	ret = enter_object(r, doc, "gpudirect", true, gpudirect_members, COUNT(gpudirect_members), &o, &mark);
	if (ret < 0 || !o)
		return ret;
	s->gpudirect_read = true;
	ret = read_enum(r, o, "nvidia_module", flavors, COUNT(flavors), true, &flavor);
	g->flavor = (enum nvidia_flavor)flavor;
	if (ret == 0)
		ret = read_string(r, o, "driver_version", true, g->driver_version, sizeof(g->driver_version));
	if (ret == 0)
		ret = read_string(r, o, "kernel_release", true, g->kernel_release, sizeof(g->kernel_release));
	if (ret == 0)
		ret = read_array(r, o, "dmabuf_test", true, GPUDIRECT_NICS_MAX, &list);
	if (ret == 0 && list) {
		size_t at = path_member(r, "dmabuf_test");

		g->nics_tested = true;
		g->nic_count = jnode_array_size(list);
		for (size_t i = 0; ret == 0 && i < g->nic_count; i++) {
			size_t entry = path_index(r, i);

			ret = read_dmabuf_nic(r, jnode_array_get(list, i), &g->nics[i]);
			path_leave(r, entry);
		}
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

/* Absent in the snapshots of a roce-doctor before it, as pci: not read. */
static int read_qos(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "qos");
	const struct jnode *v = jnode_object_get(doc, "qos");
	int ret = 0;

	if (v && !jnode_is_null(v)) {
		s->qos_read = true;
		ret = qos_host_from_json(r, v, &s->qos);
	}
	path_leave(r, mark);
	return ret;
}

/* Absent in the snapshots of a roce-doctor before it: read as null (not read), so they still answer. */
static int read_pci(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	size_t mark = path_member(r, "pci");
	const struct jnode *v = jnode_object_get(doc, "pci");
	int ret = 0;

	if (v && !jnode_is_null(v)) {
		s->pci_read = true;
		ret = pci_topology_from_json(r, v, &s->pci);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const setting_members[] = { "name", "value", "origin", "file", "line", "source", "effective" };

/* A file setting names its file and line; an environment one has neither. */
static int read_setting(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct nccl_setting *n = element;
	json_int_t line = 0;
	unsigned origin = 0;
	int ret = entry_object(r, j, setting_members, COUNT(setting_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "name", false, n->name, sizeof(n->name));
	if (ret == 0)
		ret = read_text(r, j, "value", n->value, sizeof(n->value));
	if (ret == 0)
		ret = read_enum(r, j, "origin", origins, COUNT(origins), false, &origin);
	n->origin = origin == 2 ? NCCL_FROM_FILE : NCCL_FROM_ENV;
	if (ret == 0 && n->origin == NCCL_FROM_FILE) {
		ret = read_string(r, j, "file", false, n->file, sizeof(n->file));
		if (ret == 0)
			ret = read_integer(r, j, "line", 1, UINT_MAX, false, 0, &line);
	} else if (ret == 0) {
		ret = read_integer(r, j, "line", 0, 0, true, 0, &line);   /* only null passes */
		if (ret == 0)
			ret = read_string(r, j, "file", true, n->file, sizeof(n->file));
		if (ret == 0 && n->file[0]) {
			size_t m = path_member(r, "file");

			ret = invalid(r, "expected null for a setting from the environment");
			path_leave(r, m);
		}
	}
	n->line = (unsigned)line;
	if (ret == 0)
		ret = read_string(r, j, "source", false, n->source, sizeof(n->source));
	if (ret == 0)
		ret = read_flag(r, j, "effective", &n->effective);
	return ret;
}

static const char *const nccl_members[] = { "settings", "not_read", "user_file", "user_file_read",
					     "system_file_read" };

static int read_nccl(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	const struct jnode *o = NULL;
	size_t mark;
	void *items = NULL;
	int ret = enter_object(r, doc, "nccl", true, nccl_members, COUNT(nccl_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->nccl_read = true;
	ret = read_entries(r, o, "settings", NCCL_SETTINGS_MAX, sizeof(*s->nccl.items), &items, &s->nccl.count,
			   read_setting, NULL);
	s->nccl.items = items;
	/* not_read: absent in a snapshot of a roce-doctor before it (its settings may hold such names) */
	if (ret == 0 && jnode_object_get(o, "not_read")) {
		items = NULL;
		ret = read_entries(r, o, "not_read", NCCL_SETTINGS_MAX, sizeof(*s->nccl.not_read), &items,
				   &s->nccl.not_read_count, read_setting, NULL);
		s->nccl.not_read = items;
	}
	if (ret == 0)
		ret = read_string(r, o, "user_file", true, s->nccl.user_file, sizeof(s->nccl.user_file));
	if (ret == 0)
		ret = read_flag(r, o, "user_file_read", &s->nccl.user_file_read);
	if (ret == 0)
		ret = read_flag(r, o, "system_file_read", &s->nccl.system_file_read);
	path_leave(r, mark);
	return ret;
}

static const char *const env_members[] = { "name", "value" };

/* Only the names the model keeps: a document carrying more is refused rather than read as a secret's home. */
static int read_env_var(struct reader *r, const struct jnode *j, void *element, void *ctx)
{
	struct env_var *v = element;
	int ret = entry_object(r, j, env_members, COUNT(env_members));

	(void)ctx;
	if (ret == 0)
		ret = read_string(r, j, "name", false, v->name, sizeof(v->name));
	if (ret == 0 && !system_env_kept(v->name, strlen(v->name))) {
		size_t m = path_member(r, "name");

		ret = invalid(r, "expected NCCL_* or HOME (no other variable is kept), got \"%.64s\"", v->name);
		path_leave(r, m);
	}
	if (ret == 0)
		ret = read_text(r, j, "value", v->value, sizeof(v->value));
	return ret;
}

static const char *const register_members[] = { "tried", "device", "bytes", "errno", "step" };

/* warning_sources: absent in a snapshot of an older roce-doctor (every warning then unsaid); present, one known
 * source name or null per warning */
static int read_warning_sources(struct reader *r, const struct jnode *doc, struct notes *n)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret;

	if (!jnode_object_get(doc, "warning_sources"))
		return 0;
	ret = read_array(r, doc, "warning_sources", false, NOTES_MAX, &list);
	if (ret < 0)
		return ret;
	mark = path_member(r, "warning_sources");
	if (jnode_array_size(list) != n->count)
		ret = invalid(r, "expected one entry per warning (%zu), got %zu", n->count, jnode_array_size(list));
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		const struct jnode *v = jnode_array_get(list, i);
		size_t at = path_index(r, i);
		int part = jnode_is_string(v) ? system_part_from_name(jnode_string_value(v)) : -1;

		if (jnode_is_null(v))
			n->tag[i] = SYSTEM_PART_UNSAID;
		else if (part < 0 || strlen(jnode_string_value(v)) != jnode_string_length(v))
			ret = invalid(r, "expected a source name (modules, pam_limits, systemd, firewall, gpus, pci, "
				      "nccl, ...) or null");
		else
			n->tag[i] = (unsigned char)part;
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static int read_register(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	const struct jnode *o = NULL;
	json_int_t bytes = 0, err = 0;
	unsigned step = 0;
	size_t mark;
	int ret = enter_object(r, doc, "register_probe", true, register_members, COUNT(register_members), &o, &mark);

	if (ret < 0 || !o)
		return ret;
	s->reg_read = true;
	ret = read_flag(r, o, "tried", &s->reg.tried);
	if (ret == 0)
		ret = read_string(r, o, "device", true, s->reg.device, sizeof(s->reg.device));
	if (ret == 0)
		ret = read_integer(r, o, "bytes", 0, INT64_MAX, false, 0, &bytes);
	if (ret == 0)
		ret = read_integer(r, o, "errno", 1, ERRNO_MAX, true, 0, &err);
	if (ret == 0)
		ret = read_enum(r, o, "step", steps, COUNT(steps), true, &step);
	s->reg.bytes = (size_t)bytes;
	s->reg.err = -(int)err;
	s->reg.step = step ? steps[step - 1] : NULL;   /* the probe's own static strings */
	path_leave(r, mark);
	return ret;
}

static const char *const system_members[] = { "schema", "live", "user", "container", "modules", "uverbs",
					      "verbs_providers",
					      "memlock_rlimit", "pam_limits", "systemd", "firewall_procs", "nftables",
					      "ip_local_port_range", "arp", "ip_rules", "gpus", "gpudirect", "pci", "qos", "nccl", "nccl_libs", "environment",
					      "register_probe", "warnings", "warning_sources" };

static int read_system(struct reader *r, const struct jnode *doc, struct system_state *s)
{
	void *env = NULL;
	int ret;

	if (!jnode_is_object(doc))
		return invalid(r, "expected an object, got %s", type_name(doc));
	ret = read_schema(r, doc, SYSTEM_JSON_SCHEMA);
	if (ret == 0)
		ret = check_object(r, doc, system_members, COUNT(system_members));
	if (ret == 0)
		ret = read_flag(r, doc, "live", &s->live);
	if (ret == 0)
		ret = read_user(r, doc, &s->user);
	if (ret == 0)
		ret = read_container(r, doc, &s->container);
	if (ret == 0)
		ret = read_modules(r, doc, s);
	if (ret == 0)
		ret = read_uverbs(r, doc, s);
	if (ret == 0)
		ret = read_verbs_providers(r, doc, s);
	if (ret == 0)
		ret = read_rlimit(r, doc, s);
	if (ret == 0)
		ret = read_pam(r, doc, s);
	if (ret == 0)
		ret = read_systemd(r, doc, s);
	if (ret == 0)
		ret = read_fw_procs(r, doc, s);
	if (ret == 0)
		ret = read_nftables(r, doc, s);
	if (ret == 0)
		ret = read_port_range(r, doc, s);
	if (ret == 0)
		ret = read_arp(r, doc, s);
	if (ret == 0)
		ret = read_ip_rules(r, doc, s);
	if (ret == 0)
		ret = read_gpus(r, doc, s);
	if (ret == 0)
		ret = read_gpudirect(r, doc, s);
	if (ret == 0)
		ret = read_pci(r, doc, s);
	if (ret == 0)
		ret = read_qos(r, doc, s);
	if (ret == 0)
		ret = read_nccl(r, doc, s);
	if (ret == 0)
		ret = nccl_libs_read_member(r, doc, &s->nccl_libs, &s->nccl_libs_read);
	if (ret == 0)
		ret = read_entries(r, doc, "environment", SYSTEM_ENV_MAX, sizeof(*s->env), &env, &s->env_count,
				   read_env_var, NULL);
	s->env = env;
	if (ret == 0)
		ret = read_register(r, doc, s);
	if (ret == 0)
		ret = read_notes(r, doc, &s->warnings);
	if (ret == 0)
		ret = read_warning_sources(r, doc, &s->warnings);
	return ret;
}

int system_from_tree(const struct jnode *doc, struct system_state *s, char *why, size_t why_size)
{
	struct reader r = { .why = why, .why_size = why_size };
	int ret;

	memset(s, 0, sizeof(*s));
	if (why && why_size)
		why[0] = '\0';
	ret = read_system(&r, doc, s);   /* never a partial state: what was built before a bad member is freed */
	if (ret < 0)
		system_free(s);
	return ret;
}

int system_from_json(const json_t *doc, struct system_state *s, char *why, size_t why_size)
{
	struct json_tree tree = { 0 };
	int ret = doc ? json_tree_from_jansson(&tree, doc) : 0;

	if (ret < 0) {
		memset(s, 0, sizeof(*s));
		snprintf(why, why_size, "out of memory");
		return ret;
	}
	ret = system_from_tree(tree.root, s, why, why_size);
	json_tree_free(&tree);
	return ret;
}
