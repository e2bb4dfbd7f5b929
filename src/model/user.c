// SPDX-License-Identifier: GPL-2.0-only
/* Questions about the user that the rules ask: pure functions of the model. */
#include "model/user.h"

#include <string.h>

bool user_in_group(const struct user_info *user, const char *group)
{
	for (size_t i = 0; i < user->group_count; i++)
		if (strcmp(user->groups[i].name, group) == 0)
			return true;
	return false;
}

bool user_in_gid(const struct user_info *user, unsigned gid)
{
	for (size_t i = 0; i < user->group_count; i++)
		if (user->groups[i].gid == gid)
			return true;
	return false;
}
