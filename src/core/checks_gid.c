// SPDX-License-Identifier: GPL-2.0-only
/* gid.rocev2 and gid.env: a RoCE v2 GID of the family on each selected port, and a pinned index that fits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checks.h"
#include "core/gid_suggest.h"
#include "core/nccl_advice.h"
#include "core/nccl_setting_fix.h"
#include "util/gidaddr.h"

/* The index every usable selected port agrees on, or -1. */
static int common_suggestion(const struct check_input *in)
{
	const struct host *h = in->host;
	int common = -1;

	for (size_t i = 0; i < h->device_count; i++) {
		for (size_t j = 0; j < h->devices[i].port_count; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];
			struct gid_choice c;

			if (!input_port_checked(in, &h->devices[i], p) || p->link_layer != LINK_LAYER_ETHERNET)
				continue;
			gid_choose_port(p, p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL, in->family, &c);
			if (!c.found)
				continue;
			if (common >= 0 && common != (int)c.entry->index)
				return -1;
			common = (int)c.entry->index;
		}
	}
	return common;
}

static void check_rocev2(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p,
			 struct findings *out)
{
	const struct netdev *nd = p->netdev[0] ? host_find_netdev(in->host, p->netdev) : NULL;
	struct gid_choice c;
	char subject[96], fix[512];

	snprintf(subject, sizeof(subject), "%s/%u", d->name, p->num);
	if (out->ids_only)   /* the reason goes only into the message */
		gid_choose_port(p, nd, in->family, &c);
	else
		gid_suggest_port(p, nd, in->family, NULL, &c);
	if (c.found) {
		finding_add(out, "gid.rocev2", SEVERITY_OK, subject, NULL, "index %u: %s", c.entry->index, c.reason);
		return;
	}
	if (in->family == AF_INET)
		snprintf(fix, sizeof(fix), "ip addr add ADDR/PREFIX dev %s   # the kernel adds the RoCE v2 GID itself\n"
			 "cat /sys/class/infiniband/%s/ports/%u/gid_attrs/types/*   # RoCE v2 entries must be listed",
			 p->netdev[0] ? p->netdev : "IFACE", d->name, p->num);
	else
		snprintf(fix, sizeof(fix), "ip -6 addr add ADDR/64 dev %s   # a global or ULA address, not fe80::",
			 p->netdev[0] ? p->netdev : "IFACE");
	finding_add(out, "gid.rocev2", input_port_unaddressed_spare(in, d, p) ? SEVERITY_WARN : SEVERITY_FAIL,
		    subject, fix, "no RoCE v2 %s GID: %s",
		    in->family == AF_INET ? "IPv4" : "IPv6", c.reason);
}

static const struct gid_entry *entry_at(const struct rdma_port *p, unsigned index)
{
	for (size_t i = 0; i < p->gid_count; i++)
		if (p->gids[i].index == index)
			return &p->gids[i];
	return NULL;
}

/* What is wrong with the pinned index on this port, or NULL. */
static const char *pinned_entry_problem(const struct check_input *in, const struct rdma_port *p, unsigned index)
{
	const struct gid_entry *e = entry_at(p, index);

	if (!e)
		return "an empty GID slot";
	if (gid_is_link_local(&e->gid))
		return e->type == GID_TYPE_ROCE_V2 ? "the fe80:: link-local entry, which does not route" :
						     "the fe80:: link-local RoCE v1 entry, which does not route";
	if (e->type != GID_TYPE_ROCE_V2)
		return "a RoCE v1 entry";
	if ((in->family == AF_INET) != gid_is_ipv4_mapped(&e->gid))
		return in->family == AF_INET ? "an IPv6 entry while NCCL uses IPv4" : "an IPv4 entry while NCCL uses IPv6";
	return NULL;
}

static const char *setting(const struct check_input *in, const char *name)
{
	const struct nccl_setting *s = in->nccl ? nccl_conf_get(in->nccl, name) : NULL;

	return s ? s->value : NULL;
}

/* NCCL_IB_GID_INDEX unset, and the node's NCCLs known: what each will do (roce-doctor nccl's prediction). An
 * NCCL before 2.21 uses 0 (fail when it is the only NCCL, warn when a job may load another); from 2.21 NCCL
 * picks per HCA, and leaving the index unset is the advice. false: no NCCL found, the generic info stands. */
static bool unset_by_version(const struct check_input *in, struct findings *out)
{
	struct nccl_gid_env env = { NULL, setting(in, "NCCL_IB_ADDR_FAMILY"), setting(in, "NCCL_IB_ADDR_RANGE"),
				    setting(in, "NCCL_IB_ROCE_VERSION_NUM") };
	struct nccl_advice a;
	char ok[2048] = "";
	size_t len = 0;
	bool any_bad = false;

	if (!in->nccl_libs || nccl_advice_build(in->host, in->nccl_libs, &env, NULL, &a) < 0)
		return false;
	if (a.count == 0) {
		nccl_advice_free(&a);
		return false;
	}
	for (size_t k = 0; k < a.count; k++) {
		const struct nccl_version_advice *va = &a.versions[k];

		if (!va->ok) {
			any_bad = true;
			finding_add(out, "gid.env", a.count == 1 ? SEVERITY_FAIL : SEVERITY_WARN, "NCCL_IB_GID_INDEX",
				    va->fix[0] ? va->fix : NULL, "NCCL_IB_GID_INDEX is unset: %s", va->advice);
		} else if (len < sizeof(ok)) {
			const char *prefix = "leave NCCL_IB_GID_INDEX unset: ";
			const char *what = strncmp(va->advice, prefix, strlen(prefix)) == 0 ? va->advice + strlen(prefix)
											   : va->advice;

			len += (size_t)snprintf(ok + len, sizeof(ok) - len, "%s%s", len ? "; " : "", what);
		}
	}
	if (!any_bad)
		finding_add(out, "gid.env", SEVERITY_OK, "NCCL_IB_GID_INDEX", NULL, "NCCL_IB_GID_INDEX is unset, and every NCCL on the node picks a routable RoCE v2 GID itself: %s", ok);
	nccl_advice_free(&a);
	return true;
}

/* "mlx5_0/1, mlx5_1/1": the selected ports of one link layer; the count. */
static size_t selected_ports(const struct check_input *in, enum link_layer ll, char *buf, size_t size)
{
	const struct host *h = in->host;
	size_t n = 0, len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];

			if (!input_port_selected(in, &h->devices[i], p) || p->link_layer != ll)
				continue;
			if (len < size)
				len += (size_t)snprintf(buf + len, size - len, "%s%s/%u", n ? ", " : "",
							h->devices[i].name, p->num);
			n++;
		}
	return n;
}

/* Only InfiniBand ports: NCCL addresses them by LID (from 2.22 it ignores NCCL_IB_GID_INDEX there, before it
 * never put the GID in a GRH), so an unset index is right and a set one is only clutter. */
static void infiniband_only(const struct check_input *in, const char *ib, struct findings *out)
{
	const char *v = in->gid_index_value, *src = in->gid_index_source;
	char fix[640];

	if (!v) {
		finding_add(out, "gid.env", SEVERITY_OK, "NCCL_IB_GID_INDEX", NULL, "NCCL_IB_GID_INDEX is unset: right, "
			    "there is no RoCE port and NCCL addresses InfiniBand %s by LID", ib);
		return;
	}
	nccl_setting_fix(src, "NCCL_IB_GID_INDEX", NULL, fix, sizeof(fix));
	finding_add(out, "gid.env", SEVERITY_INFO, "NCCL_IB_GID_INDEX", fix, "NCCL_IB_GID_INDEX is %s (%s) and has no "
		    "RoCE port to apply to: NCCL addresses InfiniBand %s by LID (from NCCL 2.22 on it ignores the variable "
		    "there)", v, src ? src : "environment", ib);
}

static void check_env_index(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	int suggested = common_suggestion(in);
	char fix[640], *end;
	unsigned long index;
	const char *v = in->gid_index_value;

	if (suggested >= 0) {
		char index[16];

		snprintf(index, sizeof(index), "%d", suggested);
		/* rewritten where NCCL reads it: the environment, or that line of /etc/nccl.conf */
		nccl_setting_fix(v ? in->gid_index_source : NULL, "NCCL_IB_GID_INDEX", index, fix, sizeof(fix));
	} else {
		snprintf(fix, sizeof(fix), "unset NCCL_IB_GID_INDEX   # NCCL >= 2.21 picks a RoCE v2 GID per HCA; the "
			 "ports disagree on one index");
	}
	char ib[256], roce[8];
	size_t ib_count = selected_ports(in, LINK_LAYER_INFINIBAND, ib, sizeof(ib));

	if (ib_count && selected_ports(in, LINK_LAYER_ETHERNET, roce, sizeof(roce)) == 0) {
		infiniband_only(in, ib, out);
		return;
	}
	if (!v && unset_by_version(in, out))
		return;
	if (!v && in->family == AF_INET6 && suggested >= 0 &&
	    !(setting(in, "NCCL_IB_ADDR_FAMILY") && strcmp(setting(in, "NCCL_IB_ADDR_FAMILY"), "AF_INET6") == 0)) {
		/* Whatever the version: NCCL >= 2.21 looks for AF_INET GIDs by default and, finding none, keeps 0;
		 * older NCCL takes 0. The same answer as nccl and gid --suggest give. */
		nccl_family_fix(AF_INET6, suggested, fix, sizeof(fix));
		finding_add(out, "gid.env", SEVERITY_FAIL, "NCCL_IB_GID_INDEX", fix, "NCCL_IB_GID_INDEX and "
			    "NCCL_IB_ADDR_FAMILY are unset: every NCCL uses index 0 (fe80:: link-local) on these IPv6 "
			    "ports: NCCL >= 2.21 looks for AF_INET GIDs unless told AF_INET6, older NCCL takes 0; the "
			    "RoCE v2 IPv6 GID is %d", suggested);
		return;
	}
	if (!v) {
		finding_add(out, "gid.env", SEVERITY_INFO, "NCCL_IB_GID_INDEX", suggested >= 0 ? fix : NULL,
			    "NCCL_IB_GID_INDEX is unset: NCCL >= 2.21 picks per HCA, older NCCL uses index 0 "
			    "(link-local)%s%s%s", ib_count ? "; InfiniBand " : "", ib_count ? ib : "",
			    ib_count ? " goes by LID" : "");
		return;
	}
	errno = 0;
	index = strtoul(v, &end, 10);
	if (!*v || *end || errno || index > 65535) {
		finding_add(out, "gid.env", SEVERITY_FAIL, "NCCL_IB_GID_INDEX", fix,
			    "NCCL_IB_GID_INDEX=\"%s\" (%s) is not an index: NCCL reads it as 0, the link-local GID", v,
			    in->gid_index_source ? in->gid_index_source : "environment");
		return;
	}
	for (size_t i = 0; i < h->device_count; i++) {
		for (size_t j = 0; j < h->devices[i].port_count; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];
			const char *problem;
			char subject[96];

			if (!input_port_checked(in, &h->devices[i], p) || p->link_layer != LINK_LAYER_ETHERNET)
				continue;
			snprintf(subject, sizeof(subject), "%s/%u", h->devices[i].name, p->num);
			problem = pinned_entry_problem(in, p, (unsigned)index);
			if (problem)
				finding_add(out, "gid.env", SEVERITY_FAIL, subject, fix,
					    "NCCL_IB_GID_INDEX=%lu (%s) points to %s on %s", index,
					    in->gid_index_source ? in->gid_index_source : "environment", problem, subject);
			else
				finding_add(out, "gid.env", SEVERITY_OK, subject, NULL,
					    "NCCL_IB_GID_INDEX=%lu is a RoCE v2 GID here", index);
		}
	}
}

void check_gids(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;

	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];

			if (input_port_checked(in, &h->devices[i], p) && p->link_layer == LINK_LAYER_ETHERNET)
				check_rocev2(in, &h->devices[i], p, out);
		}
	if (findings_wanted(out, "gid.env"))
		check_env_index(in, out);
}
