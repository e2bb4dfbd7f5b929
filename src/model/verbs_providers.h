// SPDX-License-Identifier: GPL-2.0-only
/* The libibverbs providers this host's configuration names (probe/verbs_providers.h reads them): libibverbs
 * loads only these (/etc/libibverbs.d/NAME.driver: "driver NAME"), and a device whose provider is not among
 * them is left out of ibv_get_device_list(), so nothing that uses verbs can open it. */
#ifndef ROCE_DOCTOR_MODEL_VERBS_PROVIDERS_H
#define ROCE_DOCTOR_MODEL_VERBS_PROVIDERS_H

#include <stdbool.h>
#include <stddef.h>

/* rdma-core ships 20-odd providers; a config naming more is not one a real host has. */
#define VERBS_PROVIDERS_MAX 64
#define VERBS_PROVIDER_NAME_MAX 32

struct verbs_providers {
	bool dir_exists;             /* /etc/libibverbs.d is there (a container image may lack it) */
	size_t count;
	char names[VERBS_PROVIDERS_MAX][VERBS_PROVIDER_NAME_MAX];   /* sorted, each once: "mlx5", "rxe" */
};

bool verbs_provider_listed(const struct verbs_providers *p, const char *name);

#endif
