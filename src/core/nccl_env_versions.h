// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env's NCCL_IB_GID_INDEX follows the NCCLs on the node: set when one of them would use a wrong GID with
 * it unset (before 2.21 that is index 0, link-local), left out when every one picks a routable RoCE v2 GID
 * itself (2.21 and later: NCCL's docs say not to set it then). Pure. */
#ifndef ROCE_DOCTOR_NCCL_ENV_VERSIONS_H
#define ROCE_DOCTOR_NCCL_ENV_VERSIONS_H

#include "core/nccl_advice.h"
#include "core/nccl_env.h"

/* a: built for the chosen ports with NCCL_IB_GID_INDEX unset; no versions (none found): env unchanged. */
void nccl_env_follow_versions(struct nccl_env *env, const struct nccl_advice *a);

#endif
