// SPDX-License-Identifier: GPL-2.0-only
/* Questions about NCCL's settings that the rules ask: pure functions of the model. */
#include "model/nccl.h"

#include <string.h>

const struct nccl_setting *nccl_conf_get(const struct nccl_conf *conf, const char *name)
{
	for (size_t i = 0; i < conf->count; i++)
		if (conf->items[i].effective && strcmp(conf->items[i].name, name) == 0)
			return &conf->items[i];
	return NULL;
}
