// SPDX-License-Identifier: GPL-2.0-only
/* /etc/libibverbs.d: the providers libibverbs will load. */
#ifndef ROCE_DOCTOR_PROBE_VERBS_PROVIDERS_H
#define ROCE_DOCTOR_PROBE_VERBS_PROVIDERS_H

#include "model/verbs_providers.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* Every file of <root>/etc/libibverbs.d read as libibverbs' read_config_file() reads it: lines "driver NAME"
 * (blanks before and between, # comments); NAME may be a path ("/opt/lib/libmlx5", loaded as that path plus
 * "-rdmav*.so"), which names the provider "mlx5". A missing directory is dir_exists false and no provider;
 * lines libibverbs would ignore go to notes. 0 or -ENOMEM. */
int verbs_providers_read(const struct rootfs *root, struct verbs_providers *out, struct notes *notes);

#endif
