// SPDX-License-Identifier: GPL-2.0-only
/* The advice follows the version: an NCCL before 2.21 needs NCCL_IB_GID_INDEX pinned (it uses 0, a link-local
 * GID on every RoCE NIC); from 2.21 on NCCL picks per HCA, and pinning one index is right only when every HCA
 * agrees, so there the advice is to leave it unset. */
#include "core/nccl_advice.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/gid_suggest.h"

static size_t ports_of(const struct host *host, enum link_layer ll)
{
	size_t n = 0;

	for (size_t d = 0; d < host->device_count; d++)
		for (size_t p = 0; p < host->devices[d].port_count; p++)
			n += host->devices[d].ports[p].link_layer == ll;
	return n;
}

/* The ports of one link layer, appended in host order. */
static void predict_layer(const struct host *host, const struct nccl_gid_env *env, const struct nccl_version *v,
			  enum link_layer ll, struct nccl_version_advice *va, size_t *count)
{
	size_t order = 0;

	for (size_t d = 0; d < host->device_count; d++)
		for (size_t p = 0; p < host->devices[d].port_count; p++, order++) {
			const struct rdma_port *port = &host->devices[d].ports[p];
			struct nccl_port_prediction *pp = &va->ports[va->port_count + va->ib_port_count];
			struct gid_choice choice;

			if (port->link_layer != ll)
				continue;
			pp->device = &host->devices[d];
			pp->port = port;
			pp->order = order;
			nccl_gid_predict(v, port, env, &pp->gid);
			pp->suggested = -1;
			pp->suggested_family = pp->gid.family;
			if (ll == LINK_LAYER_ETHERNET) {
				const struct netdev *nd = host_find_netdev(host, port->netdev);
				int other = pp->gid.family == AF_INET ? AF_INET6 : AF_INET;

				gid_choose_port(port, nd, pp->gid.family, &choice);
				/* none of NCCL's family: the other family's GID is the answer, with NCCL_IB_ADDR_FAMILY */
				if (!choice.found) {
					gid_choose_port(port, nd, other, &choice);
					pp->suggested_family = choice.found ? other : pp->suggested_family;
				}
				pp->suggested = choice.found ? (int)choice.entry->index : -1;
			}
			(*count)++;
		}
}

static int predict(const struct host *host, const struct nccl_gid_env *env, struct nccl_version_advice *va)
{
	struct nccl_version parsed;
	const struct nccl_version *v = nccl_version_parse(va->version, &parsed) == 0 ? &parsed : NULL;

	va->ports = calloc(ports_of(host, LINK_LAYER_ETHERNET) + ports_of(host, LINK_LAYER_INFINIBAND) + 1,
			   sizeof(*va->ports));
	if (!va->ports)
		return -ENOMEM;
	predict_layer(host, env, v, LINK_LAYER_ETHERNET, va, &va->port_count);
	predict_layer(host, env, v, LINK_LAYER_INFINIBAND, va, &va->ib_port_count);
	return 0;
}

/* "mlx5_0/1" or "mlx5_0/1, mlx5_2/1": the InfiniBand ports. */
static void ib_ports_text(const struct nccl_version_advice *va, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < va->ib_port_count && len < size; i++) {
		const struct nccl_port_prediction *p = &va->ports[va->port_count + i];

		len += (size_t)snprintf(buf + len, size - len, "%s%s/%u", i ? ", " : "", p->device->name, p->port->num);
	}
}

/* "; InfiniBand mlx5_0/1: by LID, no GID index to set", or "" without InfiniBand ports. */
static void ib_note(const struct nccl_version_advice *va, char *buf, size_t size)
{
	char list[256];

	buf[0] = '\0';
	if (!va->ib_port_count)
		return;
	ib_ports_text(va, list, sizeof(list));
	snprintf(buf, size, "; InfiniBand %s: by LID, no GID index to set", list);
}

/* An index as a user reads it: "none" where there is none (never -1). */
static void index_text(int index, char *buf, size_t size)
{
	if (index < 0)
		snprintf(buf, size, "none");
	else
		snprintf(buf, size, "%d", index);
}

/* "5 on every HCA" or "5 on mlx5_0/1, 7 on mlx5_1/1". */
static void indices_text(const struct nccl_version_advice *va, bool suggested, char *buf, size_t size)
{
	bool same = true;
	size_t len = 0;
	char n[16];

	for (size_t i = 1; i < va->port_count; i++)
		same &= (suggested ? va->ports[i].suggested == va->ports[0].suggested
				   : va->ports[i].gid.index == va->ports[0].gid.index);
	buf[0] = '\0';
	if (va->port_count && same) {
		/* "every HCA" would take in the InfiniBand ones, which have no index to pick */
		index_text(suggested ? va->ports[0].suggested : va->ports[0].gid.index, n, sizeof(n));
		snprintf(buf, size, "%s on every %sHCA", n, va->ib_port_count ? "RoCE " : "");
		return;
	}
	for (size_t i = 0; i < va->port_count && len < size; i++) {
		index_text(suggested ? va->ports[i].suggested : va->ports[i].gid.index, n, sizeof(n));
		len += (size_t)snprintf(buf + len, size - len, "%s%s on %s/%u", i ? ", " : "", n,
					va->ports[i].device->name, va->ports[i].port->num);
	}
}

/* The one index every port's suggestion agrees on, or -1. */
static int common_suggestion(const struct nccl_version_advice *va)
{
	int s = va->port_count ? va->ports[0].suggested : -1;

	for (size_t i = 1; i < va->port_count; i++)
		if (va->ports[i].suggested != s)
			return -1;
	return s;
}

/* The family the ports' suggestions are of when it is not the one NCCL looks for (every RoCE port alike), or 0. */
static int other_family(const struct nccl_version_advice *va)
{
	int f = va->port_count ? va->ports[0].suggested_family : 0;

	for (size_t i = 0; i < va->port_count; i++)
		if (va->ports[i].suggested_family != f || va->ports[i].suggested_family == va->ports[i].gid.family)
			return 0;
	return f;
}

static const char *family_name(int family)
{
	return family == AF_INET6 ? "AF_INET6" : "AF_INET";
}

void nccl_family_fix(int family, int index, char *buf, size_t size)
{
	snprintf(buf, size, "export NCCL_IB_ADDR_FAMILY=%s   # NCCL >= 2.21 then picks the RoCE v2 %s GID itself "
		 "(index %d here)\nexport NCCL_IB_GID_INDEX=%d   # what NCCL before 2.21 needs (and any NCCL takes)",
		 family_name(family), family == AF_INET6 ? "IPv6" : "IPv4", index, index);
}

static const char *lib_where(const struct nccl_version_advice *va)
{
	return va->first ? va->first->places[0].where : "--nccl-version";
}

static void advise_roce(const struct nccl_gid_env *env, struct nccl_version_advice *va)
{
	struct nccl_version v;
	bool known = nccl_version_parse(va->version, &v) == 0;
	bool chooses = !known || nccl_version_chooses_gid(&v);
	bool pinned = env->gid_index && *env->gid_index;
	char name[NCCL_LIB_PATH_MAX + 64];
	int common = common_suggestion(va);
	char list[256];

	snprintf(name, sizeof(name), "%s in %s", va->version[0] ? va->version : "of unknown version", lib_where(va));
	va->ok = va->port_count > 0;
	for (size_t i = 0; i < va->port_count; i++)
		va->ok &= va->ports[i].gid.verdict == NCCL_GID_GOOD;
	if (va->port_count == 0) {
		/* A GPU node without RDMA (NCCL runs over sockets): nothing is wrong with a GID that is not used. */
		va->ok = true;
		snprintf(va->advice, sizeof(va->advice), "no RoCE port: NCCL %s has no GID to choose", name);
		return;
	}
	indices_text(va, false, list, sizeof(list));
	if (va->ok) {
		if (chooses && !pinned)
			snprintf(va->advice, sizeof(va->advice), "leave NCCL_IB_GID_INDEX unset: NCCL %s picks %s", name,
				 list);
		else
			snprintf(va->advice, sizeof(va->advice), "NCCL %s uses %s: right", name, list);
		return;
	}
	if (known && chooses && pinned) {
		/* Would NCCL's own choice be right everywhere? Then the pin is the problem (an NCCL of unknown
		 * version might be older than 2.21 and use 0: for it the pin stays). */
		struct nccl_gid_env unpinned = *env;
		bool own_ok = true;

		unpinned.gid_index = NULL;
		for (size_t i = 0; i < va->port_count; i++) {
			struct nccl_gid_prediction p;

			nccl_gid_predict(&v, va->ports[i].port, &unpinned, &p);
			own_ok &= p.verdict == NCCL_GID_GOOD;
		}
		if (own_ok) {
			snprintf(va->advice, sizeof(va->advice), "NCCL %s uses %s because NCCL_IB_GID_INDEX=%s pins it; "
				 "unset, it picks a routable RoCE v2 GID on every HCA itself", name, list, env->gid_index);
			snprintf(va->fix, sizeof(va->fix), "unset NCCL_IB_GID_INDEX");
			return;
		}
	}
	if (common >= 0 && other_family(va) && chooses) {
		snprintf(va->advice, sizeof(va->advice), "NCCL %s uses %s, not routable RoCE v2 everywhere: it looks for "
			 "%s GIDs and the HCAs have RoCE v2 GIDs of %s only: set NCCL_IB_ADDR_FAMILY=%s (it then picks %d), "
			 "or NCCL_IB_GID_INDEX=%d", name, list, family_name(va->ports[0].gid.family),
			 family_name(other_family(va)), family_name(other_family(va)), common, common);
		nccl_family_fix(other_family(va), common, va->fix, sizeof(va->fix));
		return;
	}
	if (common >= 0) {
		snprintf(va->advice, sizeof(va->advice), "NCCL %s uses %s, not routable RoCE v2 everywhere: set "
			 "NCCL_IB_GID_INDEX=%d", name, list, common);
		snprintf(va->fix, sizeof(va->fix), "export NCCL_IB_GID_INDEX=%d", common);
		return;
	}
	indices_text(va, true, list, sizeof(list));
	if (common_suggestion(va) < 0 && !chooses) {
		snprintf(va->advice, sizeof(va->advice), "NCCL %s uses one index on every HCA, and no index fits them "
			 "all (the right ones: %s): use NCCL 2.21 or later, which picks per HCA, or limit NCCL_IB_HCA "
			 "to HCAs that agree", name, list);
		snprintf(va->fix, sizeof(va->fix), "pip install -U 'nvidia-nccl-cu12>=2.21'   # or conda install "
			 "-c conda-forge 'nccl>=2.21'");
	} else {
		snprintf(va->advice, sizeof(va->advice), "NCCL %s cannot use a routable RoCE v2 GID on every HCA (the "
			 "right ones: %s): gid --suggest says why", name, list);
		snprintf(va->fix, sizeof(va->fix), "roce-doctor gid --suggest");
	}
}

/* InfiniBand ports are addressed by LID: they never make a version's advice wrong, but they are named in it, so
 * that no line says "every HCA" of a host where some HCA has no GID index to pick. */
static void advise(const struct nccl_gid_env *env, struct nccl_version_advice *va)
{
	char list[256], note[320];

	if (va->port_count || !va->ib_port_count) {
		advise_roce(env, va);
		ib_note(va, note, sizeof(note));
		if (strlen(va->advice) + strlen(note) < sizeof(va->advice))
			strcat(va->advice, note);
		return;
	}
	va->ok = true;
	ib_ports_text(va, list, sizeof(list));
	snprintf(va->advice, sizeof(va->advice), "no RoCE port: NCCL %s in %s addresses InfiniBand %s by LID, with no "
		 "GID index to set%s%s%s", va->version[0] ? va->version : "of unknown version", lib_where(va), list,
		 env->gid_index && *env->gid_index ? "; NCCL_IB_GID_INDEX=" : "",
		 env->gid_index && *env->gid_index ? env->gid_index : "",
		 env->gid_index && *env->gid_index ? " has nothing to do here" : "");
	if (env->gid_index && *env->gid_index)
		snprintf(va->fix, sizeof(va->fix), "unset NCCL_IB_GID_INDEX");
}

static void compare_versions(struct nccl_advice *a)
{
	size_t len = 0;
	int common = -1;

	for (size_t i = 1; i < a->count; i++)
		for (size_t p = 0; p < a->versions[i].port_count && p < a->versions[0].port_count; p++)
			a->differ |= a->versions[i].ports[p].gid.index != a->versions[0].ports[p].gid.index;
	if (!a->differ)
		return;
	for (size_t i = 0; i < a->count && len < sizeof(a->differ_message); i++) {
		const struct nccl_version_advice *va = &a->versions[i];
		char list[256];

		indices_text(va, false, list, sizeof(list));
		len += (size_t)snprintf(a->differ_message + len, sizeof(a->differ_message) - len, "%sNCCL %s (%s) uses %s",
					i ? "; " : "", va->version[0] ? va->version : "of unknown version",
					lib_where(va), list);
	}
	if (len < sizeof(a->differ_message))
		snprintf(a->differ_message + len, sizeof(a->differ_message) - len, ": which one a job loads decides its "
			 "GID, and all ranks must agree");
	common = a->count ? common_suggestion(&a->versions[0]) : -1;
	if (common >= 0)
		snprintf(a->differ_fix, sizeof(a->differ_fix), "export NCCL_IB_GID_INDEX=%d   # the same for every "
			 "NCCL on the node", common);
}

int nccl_advice_build(const struct host *host, const struct nccl_libs *libs, const struct nccl_gid_env *env,
		      const char *override, struct nccl_advice *out)
{
	size_t max = override ? 1 : libs->count;

	memset(out, 0, sizeof(*out));
	out->versions = calloc(max + 1, sizeof(*out->versions));
	if (!out->versions)
		return -ENOMEM;
	if (override) {
		snprintf(out->versions[0].version, sizeof(out->versions[0].version), "%s", override);
		out->count = 1;
	}
	for (size_t i = 0; !override && i < libs->count; i++) {
		const struct nccl_lib *l = &libs->items[i];
		size_t k = 0;

		if (l->kind != NCCL_LIB_CORE)
			continue;
		while (k < out->count && strcmp(out->versions[k].version, l->version) != 0)
			k++;
		if (k == out->count) {
			snprintf(out->versions[k].version, sizeof(out->versions[k].version), "%s", l->version);
			out->versions[k].first = l;
			out->count++;
		}
		out->versions[k].lib_count++;
	}
	for (size_t k = 0; k < out->count; k++) {
		if (predict(host, env, &out->versions[k]) < 0) {
			nccl_advice_free(out);
			return -ENOMEM;
		}
		advise(env, &out->versions[k]);
	}
	compare_versions(out);
	return 0;
}

void nccl_advice_free(struct nccl_advice *a)
{
	for (size_t k = 0; a->versions && k < a->count; k++)
		free(a->versions[k].ports);
	free(a->versions);
	nccl_libs_free(&a->libs);
	memset(a, 0, sizeof(*a));
}

void nccl_advice_name(const struct nccl_version_advice *va, char *buf, size_t size)
{
	if (va->first)
		snprintf(buf, size, "NCCL %s (%s: %s)", va->version[0] ? va->version : "of unknown version",
			 va->first->places[0].where, va->first->real_path);
	else
		snprintf(buf, size, "NCCL %s (--nccl-version)", va->version);
}

void nccl_advice_line(const struct nccl_version_advice *va, char *buf, size_t size, int *pin)
{
	struct nccl_version v;
	bool chooses = nccl_version_parse(va->version, &v) < 0 || nccl_version_chooses_gid(&v);
	int common = common_suggestion(va);
	char uses[256], note[320];

	*pin = -1;
	if (va->port_count == 0 && va->ib_port_count) {
		char list[256];

		ib_ports_text(va, list, sizeof(list));
		snprintf(buf, size, "no RoCE port: InfiniBand %s is addressed by LID, no GID index to set", list);
		return;
	}
	if (va->port_count == 0) {
		snprintf(buf, size, "no RoCE port: no GID to choose");
		return;
	}
	indices_text(va, false, uses, sizeof(uses));
	ib_note(va, note, sizeof(note));
	if (va->ok) {
		snprintf(buf, size, chooses ? "leave it unset; it will pick %s%s" : "it uses %s: right%s", uses, note);
		return;
	}
	if (common >= 0) {
		size_t bad = 0;

		while (bad + 1 < va->port_count && va->ports[bad].gid.verdict == NCCL_GID_GOOD)
			bad++;
		*pin = common;
		if (chooses && other_family(va)) {
			snprintf(buf, size, "set NCCL_IB_ADDR_FAMILY=%s, or NCCL_IB_GID_INDEX=%d (it would pick %s, %s: it "
				 "looks for %s GIDs, and the HCAs have RoCE v2 GIDs of %s only)%s", family_name(other_family(va)),
				 common, uses, nccl_gid_verdict_name(va->ports[bad].gid.verdict),
				 family_name(va->ports[0].gid.family), family_name(other_family(va)), note);
			return;
		}
		snprintf(buf, size, "set NCCL_IB_GID_INDEX=%d (it would %s %s, %s%s)%s", common, chooses ? "pick" : "use",
			 uses, nccl_gid_verdict_name(va->ports[bad].gid.verdict),
			 chooses ? "" : ": before 2.21 NCCL does not choose", note);
		return;
	}
	snprintf(buf, size, "%s", va->advice);   /* the note is in it */
}
