// SPDX-License-Identifier: GPL-2.0-only
/* The question the rules ask of the provider list: a pure function of the model. */
#include "model/verbs_providers.h"

#include <string.h>

bool verbs_provider_listed(const struct verbs_providers *p, const char *name)
{
	for (size_t i = 0; i < p->count; i++)
		if (strcmp(p->names[i], name) == 0)
			return true;
	return false;
}
