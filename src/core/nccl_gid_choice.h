// SPDX-License-Identifier: GPL-2.0-only
/* The GID index a given NCCL version will use on a port, predicted from the port's table and NCCL's
 * environment: a pure function, so the advice can differ by the NCCL that will actually run. */
#ifndef ROCE_DOCTOR_NCCL_GID_CHOICE_H
#define ROCE_DOCTOR_NCCL_GID_CHOICE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/host.h"

struct nccl_version {
	unsigned major, minor, patch;
	bool has_patch;              /* "2.18" names a series: its patch is unknown */
};

/* "X.Y" or "X.Y.Z" (digits only). 0 or -EINVAL. */
int nccl_version_parse(const char *text, struct nccl_version *v);

/* "2.18.3", or "2.18" without a patch. */
void nccl_version_format(const struct nccl_version *v, char *buf, size_t size);

/* Whether NCCL picks an InfiniBand port's GID by its FLID and ignores NCCL_IB_GID_INDEX there: from 2.22.3. */
bool nccl_version_routes_ib(const struct nccl_version *v);

/* Whether NCCL chooses the GID itself when NCCL_IB_GID_INDEX is unset: from 2.21.5 on (2.21.5-1 is the
 * first 2.21 release; before it, the index defaulted to 0). A series "2.21" counts as choosing. */
bool nccl_version_chooses_gid(const struct nccl_version *v);

/* NCCL's environment as it reads it; NULL: unset. */
struct nccl_gid_env {
	const char *gid_index;       /* NCCL_IB_GID_INDEX */
	const char *addr_family;     /* NCCL_IB_ADDR_FAMILY: "AF_INET" (default) or "AF_INET6" */
	const char *addr_range;      /* NCCL_IB_ADDR_RANGE: "10.0.0.0/8" */
	const char *roce_version;    /* NCCL_IB_ROCE_VERSION_NUM: 2 by default */
};

enum nccl_gid_verdict {
	NCCL_GID_GOOD,               /* a routable RoCE v2 GID of the family NCCL uses */
	NCCL_GID_EMPTY,              /* no GID at that index */
	NCCL_GID_LINK_LOCAL,         /* fe80::: not routable, peers on other hosts cannot reach it */
	NCCL_GID_ROCE_V1,            /* RoCE v1: layer 2 only */
	NCCL_GID_OTHER_FAMILY,       /* an IPv6 GID where NCCL expects IPv4, or the reverse */
	NCCL_GID_INFINIBAND,         /* an InfiniBand port: addressed by LID, no GID choice to judge */
};

struct nccl_gid_prediction {
	int index;                   /* what NCCL will use */
	bool pinned;                 /* from NCCL_IB_GID_INDEX */
	bool chose;                  /* NCCL's own selection ran (>= 2.21, index unset) */
	enum nccl_gid_verdict verdict;
	const struct gid_entry *entry;   /* the port's entry at index; NULL when empty */
	int family;                  /* AF_INET or AF_INET6: the family NCCL is after */
	char reason[384];            /* one sentence: what NCCL does and what that gives */
};

/* v NULL: an unknown version (predicted as the current behaviour). An Ethernet port gets NCCL's RoCE choice; an
 * InfiniBand port the GID NCCL reads there (it addresses IB by LID and puts that GID in a GRH only toward another
 * IB subnet), verdict NCCL_GID_INFINIBAND, and a reason that names its LID and state. */
void nccl_gid_predict(const struct nccl_version *v, const struct rdma_port *port, const struct nccl_gid_env *env,
		      struct nccl_gid_prediction *out);

const char *nccl_gid_verdict_name(enum nccl_gid_verdict verdict);   /* "ok", "empty", "link-local", ... */

#endif
