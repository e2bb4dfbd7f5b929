// SPDX-License-Identifier: GPL-2.0-only
/* NCCL's GID selection, re-expressed over roce-doctor's port model.
 *
 * Source: NVIDIA/nccl, src/transport/net_ib/connect.cc (ncclIbGetGidIndex, ncclUpdateGidIndex, envIbAddrFamily,
 * envIbAddrRange, getGidAddrFamily, matchGidAddrPrefix, validGid, ncclIbRoceGetVersionNum; in 2.21-2.27 the
 * same functions sit in src/transport/net_ib.cc). The automatic choice arrived in NCCL 2.21.5-1 (commit
 * ab2b89c4, "2.21.5-1": NCCL_PARAM(IbGidIndex) went from default 0 to -1 and ncclIbGetGidIndex appeared);
 * before it, every QP used NCCL_IB_GID_INDEX, default 0. Parameters are read by ncclLoadParam
 * (src/misc/param.cc): strtoll(value, NULL, 0), so "3abc" is 3, "abc" is 0, an empty value is the default.
 *
 * The walk: start at index 0, and for each later index in turn take the candidate when its family differs from
 * the current one's and is the wanted one (within NCCL_IB_ADDR_RANGE); otherwise, when the candidate is of the
 * wanted family, configured, not link-local and in the range, take it if its RoCE version is the wanted one
 * and differs from the current's (or the current is not valid). A type file that fails with EINVAL (a container
 * that does not map the slot) leaves the version unread, so that slot never matches the wanted version.
 * InfiniBand ports (link layer IBV_LINK_LAYER_INFINIBAND; NCCL_IB_HCA selects them like RoCE ports) are addressed
 * by LID: before 2.22 the QP never has a GRH, and the GID NCCL queries (NCCL_IB_GID_INDEX, default 0; from 2.21 the
 * walk below) is only exchanged. From 2.22.3-1 (commit 178b6b75) ncclIbGetGidIndex returns early on IB: index
 * NCCL_IB_ROUTABLE_FLID_GID_INDEX (default 1) when that GID carries a FLID (bytes 4-5), else 0, whatever
 * NCCL_IB_GID_INDEX says, and ncclIbRtrQp puts it in a GRH only when the peer's subnet prefix differs (routed IB;
 * from 2.30 also when the port requires a GRH). NCCL_IB_ADDR_FAMILY, _ADDR_RANGE and _ROCE_VERSION_NUM are RoCE's.
 * Difference: NCCL walks to gid_tbl_len (255 on mlx5); the model holds the non-empty entries, so the walk stops
 * at the last of them: past it, only an IPv6 walk from an IPv4 current entry could move (to an empty slot). */
#include "core/nccl_gid_choice.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define FIRST_CHOOSING_MINOR 21   /* 2.21.5-1 */
#define FIRST_FLID_MINOR 22       /* 2.22.3-1 */
#define ROUTABLE_FLID_GID_INDEX 1 /* NCCL_IB_ROUTABLE_FLID_GID_INDEX's default */
#define PORT_ACTIVE 4
#define PHYS_LINK_UP 5

int nccl_version_parse(const char *text, struct nccl_version *v)
{
	unsigned parts[3] = { 0 };
	size_t n = 0;
	const char *p = text;

	memset(v, 0, sizeof(*v));
	while (n < 3) {
		size_t len = 0;

		while (p[len] >= '0' && p[len] <= '9')
			len++;
		if (len == 0 || len > 4)
			return -EINVAL;
		parts[n++] = (unsigned)strtoul(p, NULL, 10);
		p += len;
		if (*p != '.')
			break;
		p++;
	}
	if (*p != '\0' || n < 2)
		return -EINVAL;
	v->major = parts[0];
	v->minor = parts[1];
	v->patch = parts[2];
	v->has_patch = n == 3;
	return 0;
}

void nccl_version_format(const struct nccl_version *v, char *buf, size_t size)
{
	if (v->has_patch)
		snprintf(buf, size, "%u.%u.%u", v->major, v->minor, v->patch);
	else
		snprintf(buf, size, "%u.%u", v->major, v->minor);
}

bool nccl_version_chooses_gid(const struct nccl_version *v)
{
	return v->major > 2 || (v->major == 2 && v->minor >= FIRST_CHOOSING_MINOR);
}

bool nccl_version_routes_ib(const struct nccl_version *v)
{
	return v->major > 2 || (v->major == 2 && v->minor >= FIRST_FLID_MINOR);
}

/* ncclLoadParam: unset or empty is the default; strtoll overflow (ERANGE) is the default too. */
static long long nccl_param(const char *value, long long deflt)
{
	long long v;

	if (!value || !*value)
		return deflt;
	errno = 0;
	v = strtoll(value, NULL, 0);
	return errno ? deflt : v;
}

static uint32_t word(const struct in6_addr *a, int i)
{
	uint32_t w;

	memcpy(&w, a->s6_addr + 4 * i, 4);
	return w;
}

static int gid_family(const struct in6_addr *a)
{
	bool mapped = (word(a, 0) | word(a, 1) | (word(a, 2) ^ htonl(0x0000ffff))) == 0;
	bool mapped_mc = word(a, 0) == htonl(0xff0e0000) && (word(a, 1) | (word(a, 2) ^ htonl(0x0000ffff))) == 0;

	return mapped || mapped_mc ? AF_INET : AF_INET6;
}

static bool gid_valid(const struct in6_addr *a)
{
	uint32_t trailer = word(a, 1) | word(a, 2) | word(a, 3);
	bool configured = !((word(a, 0) | trailer) == 0 || (word(a, 0) == htonl(0xfe800000) && trailer == 0));
	bool link_local = word(a, 0) == htonl(0xfe800000) && word(a, 1) == 0;

	return configured && !link_local;
}

struct addr_range {
	int family;
	struct in6_addr base;   /* IPv4 in its first 4 bytes */
	int prefix_len;         /* 0: every address */
};

/* envIbAddrRange: "ADDR/LEN" in the wanted family; anything else (no '/', a bad address, a too long mask)
 * means no range. */
static void parse_range(const char *env, int family, struct addr_range *r)
{
	char text[128], *slash;
	long len;

	memset(r, 0, sizeof(*r));
	r->family = family;
	if (!env || !*env)
		return;
	snprintf(text, sizeof(text), "%s", env);
	slash = strchr(text, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (inet_pton(family, text, &r->base) != 1)
		return;
	len = strtol(slash + 1, NULL, 10);
	if (len < 0 || len > (family == AF_INET ? 32 : 128))
		return;
	r->prefix_len = (int)len;
}

/* matchGidAddrPrefix: IPv4 compares the GID's last 32 bits. */
static bool in_range(const struct addr_range *r, const struct in6_addr *gid)
{
	int left = r->prefix_len;

	for (int i = 0; left > 0 && i < 4; i++) {
		uint32_t base = r->family == AF_INET ? word(&r->base, 0) : word(&r->base, i);
		uint32_t addr = r->family == AF_INET ? word(gid, 3) : word(gid, i);
		int bits = left >= 32 && r->family == AF_INET6 ? 32 : left;
		uint32_t mask = bits >= 32 ? 0xffffffffu : htonl(~((1u << (32 - bits)) - 1));

		if ((base & mask) != (addr & mask))
			return false;
		left -= bits;
		if (r->family == AF_INET)
			left = 0;
	}
	return true;
}

static const struct gid_entry *entry_at(const struct rdma_port *port, unsigned index)
{
	for (size_t i = 0; i < port->gid_count; i++)
		if (port->gids[i].index == index)
			return &port->gids[i];
	return NULL;
}

/* ncclIbRoceGetVersionNum: 1, 2, or -1 when the type is unknown or the slot empty (unread). */
static int roce_version(const struct gid_entry *e)
{
	if (!e || e->type == GID_TYPE_UNKNOWN)
		return -1;
	return e->type == GID_TYPE_ROCE_V2 ? 2 : 1;
}

static unsigned nccl_walk(const struct rdma_port *port, int family, const struct addr_range *range, int want_version)
{
	static const struct in6_addr zero;
	unsigned cur = 0, last = port->gid_count ? port->gids[port->gid_count - 1].index : 0;

	for (unsigned cand = 1; cand <= last; cand++) {
		const struct gid_entry *ce = entry_at(port, cand), *ke = entry_at(port, cur);
		const struct in6_addr *c = ce ? &ce->gid : &zero, *k = ke ? &ke->gid : &zero;
		int cfam = gid_family(c);
		bool match = in_range(range, c);

		if (cfam != gid_family(k) && cfam == family && match) {
			cur = cand;
			continue;
		}
		if (cfam != family || !gid_valid(c) || !match)
			continue;
		if ((roce_version(ke) != roce_version(ce) || !gid_valid(k)) && roce_version(ce) == want_version)
			cur = cand;
	}
	return cur;
}

static void judge(struct nccl_gid_prediction *out)
{
	const struct gid_entry *e = out->entry;

	if (!e)
		out->verdict = NCCL_GID_EMPTY;
	else if (word(&e->gid, 0) == htonl(0xfe800000))
		out->verdict = NCCL_GID_LINK_LOCAL;
	else if (gid_family(&e->gid) != out->family)
		out->verdict = NCCL_GID_OTHER_FAMILY;
	else if (e->type != GID_TYPE_ROCE_V2)
		out->verdict = NCCL_GID_ROCE_V1;
	else
		out->verdict = NCCL_GID_GOOD;
}

const char *nccl_gid_verdict_name(enum nccl_gid_verdict verdict)
{
	static const char *const names[] = { "ok", "empty", "link-local", "RoCE v1", "other family", "InfiniBand" };

	return names[verdict];
}

static void describe_entry(const struct nccl_gid_prediction *p, char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (!p->entry) {
		snprintf(buf, size, "an empty slot");
		return;
	}
	inet_ntop(AF_INET6, &p->entry->gid, text, sizeof(text));
	snprintf(buf, size, "%s %s%s", text, p->entry->type == GID_TYPE_ROCE_V2 ? "RoCE v2" :
		 p->entry->type == GID_TYPE_IB_ROCE_V1 ? "RoCE v1" : "of unknown type",
		 p->verdict == NCCL_GID_GOOD ? "" : p->verdict == NCCL_GID_LINK_LOCAL ? ", link-local: not routable" :
		 p->verdict == NCCL_GID_OTHER_FAMILY ? ", not of the family NCCL uses" :
		 p->verdict == NCCL_GID_ROCE_V1 ? ": not routable" : "");
}

/* ncclIbExtractFlid: the 16 bits after the 10-bit prefix and 22 zero bits of a routed-IB GID. */
static unsigned gid_flid(const struct gid_entry *e)
{
	return e ? (unsigned)e->gid.s6_addr[4] << 8 | e->gid.s6_addr[5] : 0;
}

/* "LID 0x5 (SM LID 0x1)", or what is unknown of it. */
static void describe_lid(const struct rdma_port *port, char *buf, size_t size)
{
	if (!port->lid_known)
		snprintf(buf, size, "its LID (unknown here)");
	else if (port->sm_lid_known)
		snprintf(buf, size, "LID 0x%x (SM LID 0x%x)", port->lid, port->sm_lid);
	else
		snprintf(buf, size, "LID 0x%x", port->lid);
}

static void predict_infiniband(const struct nccl_version *v, const struct rdma_port *port,
			       const struct nccl_gid_env *env, struct nccl_gid_prediction *out)
{
	bool routes = !v || nccl_version_routes_ib(v), chooses = !v || nccl_version_chooses_gid(v);
	char lid[64], gid[INET6_ADDRSTRLEN] = "empty", flid[24] = "";

	out->family = AF_INET6;
	out->verdict = NCCL_GID_INFINIBAND;
	if (routes) {
		out->index = gid_flid(entry_at(port, ROUTABLE_FLID_GID_INDEX)) ? ROUTABLE_FLID_GID_INDEX : 0;
	} else {
		long long pinned = nccl_param(env->gid_index, chooses ? -1 : 0);
		struct addr_range range;

		out->pinned = env->gid_index && *env->gid_index;
		if (pinned >= 0 || !chooses) {
			out->index = chooses ? (int)(pinned > 255 ? 255 : pinned) : (int)(uint8_t)pinned;
		} else {
			parse_range(env->addr_range, AF_INET, &range);
			out->index = (int)nccl_walk(port, AF_INET, &range, (int)nccl_param(env->roce_version, 2));
			out->chose = true;
		}
	}
	out->entry = entry_at(port, (unsigned)out->index);
	if (out->entry)
		inet_ntop(AF_INET6, &out->entry->gid, gid, sizeof(gid));
	if (gid_flid(out->entry))
		snprintf(flid, sizeof(flid), ", FLID 0x%x", gid_flid(out->entry));
	describe_lid(port, lid, sizeof(lid));
	if (port->state >= 0 && port->state != PORT_ACTIVE) {
		snprintf(out->reason, sizeof(out->reason), "InfiniBand, not ACTIVE (%s, phys state %s, %s): NCCL opens "
			 "only ACTIVE ports; %s", port->state_name[0] ? port->state_name : "unknown",
			 port->phys_state_name[0] ? port->phys_state_name : "unknown", lid,
			 port->phys_state == PHYS_LINK_UP ? "the link is up, so no subnet manager has activated it: run "
			 "one on the fabric (opensm, or the switch's)" : "the link is down: check the cable and the "
			 "switch port");
	} else if (routes) {
		snprintf(out->reason, sizeof(out->reason), "InfiniBand: NCCL addresses it by %s; GID index %d (%s%s) "
			 "goes in a GRH only toward another IB subnet; NCCL_IB_GID_INDEX and the RoCE settings do not "
			 "apply", lid, out->index, gid, flid);
	} else {
		snprintf(out->reason, sizeof(out->reason), "InfiniBand: NCCL before 2.22 addresses it by %s without a "
			 "GRH, so the GID it reads (index %d%s, %s) is not used; NCCL_IB_GID_INDEX and the RoCE settings "
			 "do not matter here", lid, out->index, out->pinned ? ", NCCL_IB_GID_INDEX" : "", gid);
	}
}

void nccl_gid_predict(const struct nccl_version *v, const struct rdma_port *port, const struct nccl_gid_env *env,
		      struct nccl_gid_prediction *out)
{
	bool chooses = !v || nccl_version_chooses_gid(v);
	long long pinned = nccl_param(env->gid_index, chooses ? -1 : 0);
	char entry[160];

	memset(out, 0, sizeof(*out));
	if (port->link_layer == LINK_LAYER_INFINIBAND) {
		predict_infiniband(v, port, env, out);
		return;
	}
	/* Before 2.21 NCCL_IB_ADDR_FAMILY did not exist; the GID is then judged for IPv4, NCCL's default since. */
	out->family = chooses && env->addr_family && strcmp(env->addr_family, "AF_INET6") == 0 ? AF_INET6 : AF_INET;
	if (pinned >= 0 || !chooses) {
		/* Older NCCLs put the value into an 8-bit sgid_index as is. */
		out->index = chooses ? (int)(pinned > 255 ? 255 : pinned) : (int)(uint8_t)pinned;
		out->pinned = env->gid_index && *env->gid_index;
	} else {
		struct addr_range range;

		parse_range(env->addr_range, out->family, &range);
		out->index = (int)nccl_walk(port, out->family, &range, (int)nccl_param(env->roce_version, 2));
		out->chose = true;
	}
	out->entry = entry_at(port, (unsigned)out->index);
	judge(out);
	describe_entry(out, entry, sizeof(entry));
	if (out->pinned)
		snprintf(out->reason, sizeof(out->reason), "NCCL_IB_GID_INDEX=%s: index %d, %s", env->gid_index,
			 out->index, entry);
	else if (!chooses)
		snprintf(out->reason, sizeof(out->reason), "NCCL before 2.21 does not choose: index 0 unless "
			 "NCCL_IB_GID_INDEX is set; 0 is %s", entry);
	else
		snprintf(out->reason, sizeof(out->reason), "NCCL chooses index %d (%s%s%s, RoCE v%lld): %s", out->index,
			 out->family == AF_INET6 ? "AF_INET6" : "AF_INET", env->addr_range && *env->addr_range ? " in " : "",
			 env->addr_range && *env->addr_range ? env->addr_range : "", nccl_param(env->roce_version, 2),
			 entry);
}
