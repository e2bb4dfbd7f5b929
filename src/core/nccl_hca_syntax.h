// SPDX-License-Identifier: GPL-2.0-only
/* NCCL_IB_HCA as each NCCL version reads it. The syntax changed twice (read in NVIDIA/nccl's history):
 *   - v2.18.5-1: MAX_IB_DEVS 16 -> 32, so older NCCL keeps only the first 16 entries;
 *   - v2.30.7-1 (commit 7ec092af): "hca[:port[:rail[:plane]]]"; an empty field is -1 (any port). Before it
 *     the port was atoi() of the rest, so "mlx5_0:" and "mlx5_0::0:0" are port 0 (no HCA has one) and
 *     ":rail:plane" is never read.
 * '^' then '=' (exclude, exact names) are read the same since 2.5.6. Pure functions. */
#ifndef ROCE_DOCTOR_NCCL_HCA_SYNTAX_H
#define ROCE_DOCTOR_NCCL_HCA_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/nccl_gid_choice.h"
#include "model/host.h"
#include "model/nccl_libs.h"
#include "model/nccl_match.h"

#define NCCL_HCA_RAIL_PLANE_SINCE "2.30.7"

/* value as NCCL version v reads it; v NULL: the newest syntax. A series without a patch ("2.30") is read as
 * its newest release, as nccl_version_chooses_gid() does. */
void nccl_hca_read_as(const char *value, const struct nccl_version *v, struct nccl_if_list *out);

/* How one NCCL on the node reads the value, against the reference reading (the newest NCCL found). */
struct nccl_hca_reading {
	char version[32];
	const struct nccl_lib *first;       /* the first library of that version */
	size_t selected;                    /* HCA ports it selects */
	bool differs;                       /* it selects other ports than the reference */
	bool differs_from_newest;           /* it selects other ports than NCCL >= 2.30.7 would */
	bool ignores_rail_plane;            /* the value assigns rails/planes that this version does not read */
	char how[640];                      /* what it reads differently, one clause: "'mlx5_0:' is port 0 ..." */
};

struct nccl_hca_readings {
	struct nccl_hca_reading items[16];  /* one per distinct version, in the order found */
	size_t count;
	size_t reference;                   /* index of the newest version: the one the main judgement uses */
	struct nccl_version reference_version;
	bool reference_known;               /* false: no version known, the newest syntax is the reference */
};

/* The NCCL versions of libs (NULL: none looked for) reading value on host's ports. */
void nccl_hca_readings_build(const char *value, const struct host *host, const struct nccl_libs *libs,
			     struct nccl_hca_readings *out);

/* value as the newest NCCL in libs reads it (the newest syntax when libs is NULL or knows no version): the
 * port selection check uses. */
void nccl_hca_read_as_newest(const char *value, const struct nccl_libs *libs, struct nccl_if_list *out);

/* A spelling of value that every NCCL reads as the newest one does, as far as one exists: an empty port
 * written as the HCAs' one port number (or dropped when no rail/plane follows it). Returns false when none
 * exists (more than 16 entries, or an empty port before ":rail:plane" on HCAs with several port numbers). */
bool nccl_hca_portable(const char *value, const struct host *host, char *buf, size_t size);

#endif
