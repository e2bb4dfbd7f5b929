// SPDX-License-Identifier: GPL-2.0-only
/* Questions about the module list that the rules ask: pure functions of the model. */
#include "model/modules.h"

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

bool module_loaded(const struct module_list *list, const char *name)
{
	for (size_t i = 0; i < list->count; i++)
		if (same_name(list->items[i].name, name))
			return true;
	return false;
}
