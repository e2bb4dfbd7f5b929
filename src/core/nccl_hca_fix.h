// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL_IB_HCA value nccl.ib_hca suggests for a typo: the user's list with each entry that matches nothing
 * replaced by the nearest HCA name, everything else kept as written. */
#ifndef ROCE_DOCTOR_NCCL_HCA_FIX_H
#define ROCE_DOCTOR_NCCL_HCA_FIX_H

#include <stddef.h>

#include "model/host.h"
#include "model/nccl.h"
#include "model/nccl_match.h"

/* A name is "near" within this many edits, and only when the edits are at most a third of what was typed
 * ("mlx_1" -> "mlx5_1" is 1 of 5; "m1" -> "ml" is not a correction but a guess). */
#define HCA_NEAR_MAX_EDITS 2

/* Builds in value the list as NCCL_IB_HCA (with its '^' and '=') where entries that match an HCA stay as
 * written, an entry whose name is right but whose ":port" the HCA lacks loses the port, an entry that matches
 * nothing becomes the nearest HCA name (by edit distance; for a prefix list the nearest prefix of a name),
 * keeping its port where that HCA has it, and an entry with no near name, or two equally near, is dropped.
 * hits[j] is what nccl_if_list_match() counted for entry j. why receives one "'mlx_1' -> mlx5_1" or
 * "'foo' dropped: ..." clause per changed entry, joined by "; ". Returns the number of entries kept (0: no
 * value keeps the user's intent). */
size_t nccl_hca_fix(const struct nccl_if_list *list, const unsigned *hits, const struct host *host, char *value,
		    size_t value_size, char *why, size_t why_size);

/* Whether value, as NCCL_IB_HCA, selects at least one of the n candidates (a fix must leave NCCL a port). */
bool nccl_hca_fix_selects(const char *value, const struct nccl_if_candidate *candidates, size_t n);

#endif
