// SPDX-License-Identifier: GPL-2.0-only
/* snapshot -> compare_node. The strings a node keeps are copied, so the snapshot (kilobytes of identity and
 * system sources) is freed right after: memory stays near the host models themselves. */
#include "cmd/compare_node.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/checks.h"
#include "core/system_input.h"

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/* "libmlx5-rdmav34.so" -> "rdmav34": the provider ABI its file carries. */
static char *provider_version(const char *file)
{
	const char *base = strrchr(file, '/'), *v;

	base = base ? base + 1 : file;
	v = strstr(base, "-rdmav");
	if (!v)
		return strdup("?");
	v++;
	return strndup(v, strcspn(v, "."));
}

/* What the firewall is, as one comparable word: firewalld, nftables with its rule count, or none. */
static char *firewall_of(const struct system_state *s)
{
	char buf[64];

	if (!s->fw_procs_read)
		return NULL;
	if (s->fw_procs.firewalld_running)
		return strdup("firewalld");
	if (s->nft_read && s->nft.known) {
		snprintf(buf, sizeof(buf), s->nft.rule_count ? "nftables: %zu rules" : "none", s->nft.rule_count);
		return strdup(buf);
	}
	return NULL;   /* under --root the rules are not dumped: unknown, not "none" */
}

/* The name a job loads the library by: libnccl.so.2 where it was found under that name (a newer release
 * behind the same name is the same library in another version), else the first name it was found under. */
static const char *load_path(const struct nccl_lib *lib)
{
	for (size_t i = 0; lib->kind == NCCL_LIB_CORE && i < lib->place_count; i++) {
		const char *base = strrchr(lib->places[i].path, '/');

		if (strcmp(base ? base + 1 : lib->places[i].path, "libnccl.so.2") == 0)
			return lib->places[i].path;
	}
	return lib->place_count ? lib->places[0].path : lib->real_path;
}

static int nccl_libs_of(const struct nccl_libs *libs, struct compare_owned *own, struct compare_node *node)
{
	own->nccl_libs = calloc(libs->count + 1, sizeof(*own->nccl_libs));
	if (!own->nccl_libs)
		return -ENOMEM;
	for (size_t i = 0; i < libs->count; i++) {
		const struct nccl_lib *lib = &libs->items[i];
		struct compare_nccl_lib *to = &own->nccl_libs[i];

		own->nccl_lib_count = i + 1;
		to->net_plugin = lib->kind == NCCL_LIB_NET_PLUGIN;
		to->path = strdup(load_path(lib));
		to->version = strdup(lib->version);
		to->package_manager = strdup(lib->package_manager);
		to->package_name = strdup(lib->package_name);
		to->package_version = strdup(lib->package_version);
		to->where = strdup(lib->place_count ? lib->places[0].where : "");
		if (!to->path || !to->version || !to->package_manager || !to->package_name || !to->package_version ||
		    !to->where)
			return -ENOMEM;
	}
	node->nccl_libs = own->nccl_libs;
	node->nccl_lib_count = libs->count;
	node->nccl_libs_known = true;
	return 0;
}

/* The lossless chain's model is flat (no pointers inside a port): one copy of the ports array, kept only where
 * a port says something (DCB settings read, or a forced class): 10,000 nodes without DCB cost nothing. */
static int qos_of(const struct qos_host *q, struct compare_owned *own, struct compare_node *node)
{
	bool any = false;

	for (size_t i = 0; i < q->count; i++)
		any |= q->ports[i].dcb.known || q->ports[i].forced_tc >= 0;
	if (!any)
		return 0;
	own->qos = calloc(1, sizeof(*own->qos));
	if (!own->qos)
		return -ENOMEM;
	own->qos->ports = malloc((q->count ? q->count : 1) * sizeof(*q->ports));
	if (!own->qos->ports)
		return -ENOMEM;
	if (q->count)
		memcpy(own->qos->ports, q->ports, q->count * sizeof(*q->ports));
	own->qos->count = q->count;
	node->qos = own->qos;
	return 0;
}

static int system_members(const struct snapshot *s, struct compare_owned *own, struct compare_node *node,
			  struct findings *f)
{
	const struct system_state *sys = &s->system;
	struct check_input in = { .host = own->host, .family = AF_INET };
	struct nccl_if_list hca;
	size_t n = 0;

	memset(&hca, 0, sizeof(hca));
	system_to_check_input(sys, &hca, &in);
	own->gid_pinned = in.gid_index_value ? strdup(in.gid_index_value) : NULL;
	own->gid_source = in.gid_index_source ? strdup(in.gid_index_source) : NULL;
	node->gid_index_pinned = own->gid_pinned;
	node->gid_index_source = own->gid_source;
	if (sys->nccl_read) {
		own->nccl = calloc(sys->nccl.count + 1, sizeof(*own->nccl));
		if (!own->nccl)
			return -ENOMEM;
		for (size_t i = 0; i < sys->nccl.count; i++) {
			const struct nccl_setting *it = &sys->nccl.items[i];

			if (!it->effective)
				continue;
			own->nccl[n].name = strdup(it->name);
			own->nccl[n].value = strdup(it->value);
			own->nccl[n].source = strdup(it->source);
			if (!own->nccl[n].name || !own->nccl[n].value || !own->nccl[n].source) {
				n++;
				node->nccl_count = n;
				return -ENOMEM;
			}
			n++;
		}
		node->nccl = own->nccl;
		node->nccl_count = n;
		node->nccl_known = true;
	}
	if (sys->rlimit_read && sys->rlimit.known) {
		node->memlock_kind = sys->rlimit.soft.unlimited ? COMPARE_MEMLOCK_UNLIMITED : COMPARE_MEMLOCK_BYTES;
		node->memlock_bytes = sys->rlimit.soft.bytes;
	}
	if (sys->nccl_libs_read && nccl_libs_of(&sys->nccl_libs, own, node) < 0)
		return -ENOMEM;
	own->firewall = firewall_of(sys);
	node->firewall = own->firewall;
	if (sys->qos_read && qos_of(&sys->qos, own, node) < 0)
		return -ENOMEM;
	findings_clear(f);
	f->ids_only = true;   /* a node's findings are kept by id and severity only */
	checks_run(&in, f);
	own->checks = calloc(f->count + 1, sizeof(*own->checks));
	for (size_t i = 0; own->checks && i < f->count; i++) {
		/* a finding's id lives inside the finding, cleared for the next node: copy it */
		own->checks[i].id = strdup(f->items[i].id);
		own->checks[i].severity = f->items[i].severity;
		node->check_count = i + 1;
		if (!own->checks[i].id)
			return -ENOMEM;
	}
	if (!own->checks)
		return -ENOMEM;
	node->checks = own->checks;
	node->checks_known = true;
	return 0;
}

int compare_node_from_snapshot_in(struct snapshot *s, const char *file, const char *prefix_host,
				  struct findings *scratch, struct compare_owned *own, struct compare_node *node)
{
	const struct identity *id = &s->identity;
	int ret = 0;

	memset(own, 0, sizeof(*own));
	memset(node, 0, sizeof(*node));
	own->host = malloc(sizeof(*own->host));
	if (!own->host)
		return -ENOMEM;
	*own->host = s->host;
	memset(&s->host, 0, sizeof(s->host));
	own->hostname = dup_or_null(*id->hostname ? id->hostname : prefix_host);
	own->file = dup_or_null(file);
	own->kernel = dup_or_null(id->kernel_release);
	own->rdma_core = dup_or_null(id->rdma_core_version);
	own->providers = calloc(id->provider_count + 1, sizeof(*own->providers));
	own->boards = calloc(id->device_count + 1, sizeof(*own->boards));
	if (!own->providers || !own->boards)
		ret = -ENOMEM;
	node->hostname = own->hostname;
	node->file = own->file;
	node->host = own->host;
	node->kernel = own->kernel;
	node->rdma_core = own->rdma_core;
	for (size_t i = 0; ret == 0 && i < id->provider_count; i++) {
		own->providers[i].name = strdup(id->providers[i].name);
		own->providers[i].value = provider_version(id->providers[i].file);
		node->provider_count = i + 1;
		if (!own->providers[i].name || !own->providers[i].value)
			ret = -ENOMEM;
	}
	node->providers = own->providers;
	node->providers_known = id->providers_known;
	for (size_t i = 0; ret == 0 && i < id->device_count; i++) {
		own->boards[i].device = strdup(id->devices[i].device);
		own->boards[i].board_id = dup_or_null(id->devices[i].board_id);
		node->board_count = i + 1;
		if (!own->boards[i].device)
			ret = -ENOMEM;
	}
	node->boards = own->boards;
	if (ret == 0 && s->system_known)
		ret = system_members(s, own, node, scratch);
	own->provider_count = node->provider_count;
	own->board_count = node->board_count;
	own->nccl_count = node->nccl_count;
	own->check_count = node->check_count;
	if (ret < 0)
		compare_owned_free(own);
	return ret;
}

int compare_node_from_snapshot(struct snapshot *s, const char *file, const char *prefix_host,
			       struct compare_owned *own, struct compare_node *node)
{
	struct findings scratch = { 0 };
	int ret = compare_node_from_snapshot_in(s, file, prefix_host, &scratch, own, node);

	findings_free(&scratch);
	return ret;
}

void compare_owned_free(struct compare_owned *own)
{
	for (size_t i = 0; own->providers && i < own->provider_count; i++) {
		free((char *)own->providers[i].name);
		free((char *)own->providers[i].value);
	}
	for (size_t i = 0; own->boards && i < own->board_count; i++) {
		free((char *)own->boards[i].device);
		free((char *)own->boards[i].board_id);
	}
	for (size_t i = 0; own->nccl && i < own->nccl_count; i++) {
		free((char *)own->nccl[i].name);
		free((char *)own->nccl[i].value);
		free((char *)own->nccl[i].source);
	}
	for (size_t i = 0; own->checks && i < own->check_count; i++)
		free((char *)own->checks[i].id);
	for (size_t i = 0; own->nccl_libs && i < own->nccl_lib_count; i++) {
		const struct compare_nccl_lib *lib = &own->nccl_libs[i];

		free((char *)lib->path);
		free((char *)lib->version);
		free((char *)lib->package_manager);
		free((char *)lib->package_name);
		free((char *)lib->package_version);
		free((char *)lib->where);
	}
	free(own->nccl_libs);
	free(own->providers);
	free(own->boards);
	free(own->nccl);
	free(own->checks);
	free(own->hostname);
	free(own->file);
	free(own->kernel);
	free(own->rdma_core);
	free(own->firewall);
	free(own->gid_pinned);
	free(own->gid_source);
	if (own->qos)
		qos_host_free(own->qos);
	free(own->qos);
	if (own->host)
		host_free(own->host);
	free(own->host);
	memset(own, 0, sizeof(*own));
}
