// SPDX-License-Identifier: GPL-2.0-only
/* Lookups in an environment array. */
#include "util/env_list.h"

#include <string.h>

const char *env_list_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
			return envp[i] + len + 1;
	return NULL;
}
