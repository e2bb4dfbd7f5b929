// SPDX-License-Identifier: GPL-2.0-only
/* For each NCCL version on the node: the GID index it will use on each Ethernet port, whether that works, and
 * the exact setting that makes it work, and what it does on each InfiniBand port (addresses it by LID); and
 * whether two NCCLs on the node would disagree. Pure. */
#ifndef ROCE_DOCTOR_NCCL_ADVICE_H
#define ROCE_DOCTOR_NCCL_ADVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/nccl_gid_choice.h"
#include "model/host.h"
#include "model/nccl_libs.h"

struct nccl_port_prediction {
	const struct rdma_device *device;
	const struct rdma_port *port;
	struct nccl_gid_prediction gid;
	int suggested;                    /* what gid --suggest picks for the family; -1: none */
	int suggested_family;             /* the family of suggested: NCCL's, or the other one where NCCL's has
					   * no RoCE v2 GID on the port (an IPv6-only host under NCCL's AF_INET) */
	size_t order;                     /* the port's place among the host's ports */
};

struct nccl_version_advice {
	char version[32];                 /* "2.28.9"; "" when no library said */
	const struct nccl_lib *first;     /* the first library of this version (NULL for --nccl-version) */
	size_t lib_count;
	/* The RoCE ports [0, port_count), then the InfiniBand ports [port_count, port_count + ib_port_count):
	 * NCCL opens both kinds, but only the RoCE ones have a GID index to get right. */
	struct nccl_port_prediction *ports;
	size_t port_count;
	size_t ib_port_count;
	bool ok;                          /* every port gets a routable RoCE v2 GID of the family */
	char advice[1536];
	char fix[512];                    /* the command; "" when nothing is to be done */
};

struct nccl_advice {
	struct nccl_version_advice *versions;
	size_t count;
	bool differ;                      /* two versions would use different indices on some port */
	char differ_message[1024];
	char differ_fix[256];
	struct nccl_libs libs;            /* libraries the advice owns (moved in by its caller), freed with it */
};

/* override: --nccl-version's text (already valid) or NULL; then only that version is predicted. Versions in
 * the order their first library was found. 0 or -ENOMEM. */
int nccl_advice_build(const struct host *host, const struct nccl_libs *libs, const struct nccl_gid_env *env,
		      const char *override, struct nccl_advice *out);
void nccl_advice_free(struct nccl_advice *a);

/* What to do with NCCL_IB_GID_INDEX for one NCCL, in one clause after its name (gid --suggest, nccl-env):
 * "leave it unset; it will pick 5 on every HCA", "set NCCL_IB_GID_INDEX=5 (it would use 0, link-local)", or
 * why no one index helps. *pin: the index to set, -1 when none is to be set. The advice must have been built
 * with NCCL_IB_GID_INDEX unset. */
void nccl_advice_line(const struct nccl_version_advice *va, char *buf, size_t size, int *pin);

/* The fix for a host whose RoCE v2 GIDs are all of family while NCCL looks for the other: NCCL_IB_ADDR_FAMILY
 * for NCCL >= 2.21, which then picks index itself, and the index for any NCCL. One answer for nccl, gid --suggest,
 * nccl-env and check. */
void nccl_family_fix(int family, int index, char *buf, size_t size);

/* "NCCL 2.18.3 (conda env train (/opt/conda/envs/train): /opt/.../libnccl.so.2.18.3)", or "(--nccl-version)". */
void nccl_advice_name(const struct nccl_version_advice *va, char *buf, size_t size);

#endif
