// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env --peer: one NCCL environment right on both nodes of a pair, and the launch lines (torchrun per node,
 * mpirun from a), as a pure function of the two sides and their rails. */
#ifndef ROCE_DOCTOR_PAIR_ENV_H
#define ROCE_DOCTOR_PAIR_ENV_H

#include "core/nccl_env.h"
#include "core/pair.h"

#define PAIR_ENV_NOTES_MAX 4

struct pair_env {
	struct nccl_var vars[NCCL_VARS_MAX];      /* right on both nodes: mpirun -x pushes these */
	size_t count;
	/* Variables with no single value for both: each node's own (set on that node, in its ~/.nccl.conf). */
	struct nccl_var own[2][2];
	size_t own_count[2];
	bool unset_gid_index;                     /* no index is right on both: a pinned one must go */
	char notes[PAIR_ENV_NOTES_MAX][512];      /* why a value is per node or left unset */
	size_t note_count;
	char summary[256];
	char master_addr[64];                     /* a's bootstrap address */
	char torchrun[2][512];
	char mpirun[2048];
};

/* addr[2]: each side's bootstrap address (NCCL_SOCKET_IFNAME's, else the first rail's; "" unknown). 0, or
 * -ENODEV with why when no rail is usable on both nodes. */
int pair_env_build(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		   const char *const addr[2], unsigned master_port, struct pair_env *out, char *why, size_t why_size);

#endif
