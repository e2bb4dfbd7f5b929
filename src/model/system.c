// SPDX-License-Identifier: GPL-2.0-only
/* The system model's lifetime and its environment filter. */
#include "model/system.h"

#include <stdlib.h>
#include <string.h>

bool system_env_kept(const char *name, size_t name_len)
{
	return (name_len > 5 && strncmp(name, "NCCL_", 5) == 0) || (name_len == 4 && strncmp(name, "HOME", 4) == 0);
}

void system_free(struct system_state *s)
{
	free(s->modules.items);
	free(s->uverbs.devs);
	free(s->pam.lines);
	free(s->nft.tables);
	free(s->nft.chains);
	free(s->nft.rules);
	free(s->arp);
	free(s->ip_rules.items);
	free(s->gpus.items);
	free(s->pci.functions);
	free(s->pci.bridges);
	free(s->nccl.items);
	free(s->nccl.not_read);
	nccl_libs_free(&s->nccl_libs);
	qos_host_free(&s->qos);
	free(s->env);
	notes_free(&s->warnings);
	memset(s, 0, sizeof(*s));
}
