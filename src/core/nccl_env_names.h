// SPDX-License-Identifier: GPL-2.0-only
/* The environment variables NCCL reads (a table generated from NCCL's sources by tools/nccl-env-names.py), and
 * what follows for NCCL_* names that are not among them: an image's label (NCCL_VERSION=2.28.3-1 in NVIDIA's
 * CUDA images) is no setting, a near miss (NCCL_IB_GID_INDX) is a typo NCCL ignores in silence. */
#ifndef ROCE_DOCTOR_NCCL_ENV_NAMES_H
#define ROCE_DOCTOR_NCCL_ENV_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/nccl.h"

extern const char *const nccl_env_names[];   /* sorted with strcmp */
extern const size_t nccl_env_names_count;

bool nccl_env_name_known(const char *name);

/* The one known name closest to name by edit distance, when close enough to be its typo (1 edit for names of at
 * most 12 bytes, 2 beyond), else NULL; also NULL when two are equally close. */
const char *nccl_env_name_nearest(const char *name);

/* Moves the settings whose names NCCL does not read from conf->items to conf->not_read, keeping their order.
 * 0 or -ENOMEM (conf unchanged). */
int nccl_conf_set_aside_unknown(struct nccl_conf *conf);

#endif
