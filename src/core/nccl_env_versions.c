// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env's NCCL_IB_GID_INDEX by the NCCL versions found (rules in nccl_env_versions.h). */
#include "core/nccl_env_versions.h"

#include <stdio.h>
#include <string.h>

#include "util/text_append.h"

static struct nccl_var *find_var(struct nccl_env *env, const char *name)
{
	for (size_t i = 0; i < env->count; i++)
		if (strcmp(env->vars[i].name, name) == 0)
			return &env->vars[i];
	return NULL;
}

void nccl_env_follow_versions(struct nccl_env *env, const struct nccl_advice *a)
{
	struct nccl_var *var = find_var(env, "NCCL_IB_GID_INDEX");
	char needs[256] = "";
	bool pin = false;

	if (!var || a->count == 0)
		return;
	for (size_t k = 0; k < a->count; k++) {
		const struct nccl_version_advice *va = &a->versions[k];
		char line[768];
		int index;

		nccl_advice_line(va, line, sizeof(line), &index);
		if (index < 0)
			continue;
		pin = true;
		text_append(needs, sizeof(needs), "%sNCCL %s would use %d", needs[0] ? ", " : "",
			    va->version[0] ? va->version : "of unknown version", va->ports[0].gid.index);
	}
	if (pin) {
		/* The index stays; its comment says which NCCL needs it. */
		text_append(var->comment, sizeof(var->comment), " (unset, %s)", needs);
		return;
	}
	/* Every NCCL here picks the right GID itself: leave the choice to it. */
	memmove(var, var + 1, (size_t)(env->vars + env->count - (var + 1)) * sizeof(*var));
	env->count--;
	snprintf(env->summary + strcspn(env->summary, ","), sizeof(env->summary) - strcspn(env->summary, ","),
		 ", NCCL_IB_GID_INDEX left to NCCL (it picks a RoCE v2 GID per HCA)");
}
