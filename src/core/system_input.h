// SPDX-License-Identifier: GPL-2.0-only
/* Between the system model (model/system.h) and the rules' struct check_input: what check read becomes a
 * model a snapshot can carry, and a model read back becomes the input the rules take. */
#ifndef ROCE_DOCTOR_SYSTEM_INPUT_H
#define ROCE_DOCTOR_SYSTEM_INPUT_H

#include "core/checks.h"
#include "model/system.h"

/* Copies every source in reads (NULL ones stay unread) into *out, and of envp (the job's environment as
 * check captured it, NULL: none) only the variables system_env_kept() keeps. 0 or -ENOMEM (*out empty). */
int system_from_check_input(const struct check_input *in, char *const *envp, struct system_state *out);

/* Points in's system members at s (which must outlive in), and derives what check_probe_read derives from
 * the NCCL settings: the NCCL_IB_HCA port selection (parsed into *hca) and NCCL_IB_GID_INDEX. in->host,
 * in->family are the caller's. */
void system_to_check_input(const struct system_state *s, struct nccl_if_list *hca, struct check_input *in);

#endif
