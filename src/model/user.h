// SPDX-License-Identifier: GPL-2.0-only
/* The user whose limits and NCCL files matter, as data (probe/user_info.h resolves it). */
#ifndef ROCE_DOCTOR_MODEL_USER_H
#define ROCE_DOCTOR_MODEL_USER_H

#include <stdbool.h>
#include <stddef.h>

#define USER_GROUPS_MAX 64

struct user_group {
	char name[64];
	unsigned gid;
};

struct user_info {
	char name[64];
	unsigned uid, gid;           /* gid: the primary group */
	char home[256];
	struct user_group groups[USER_GROUPS_MAX];   /* the primary group first, then supplementary ones */
	size_t group_count;
	bool groups_truncated;       /* more than USER_GROUPS_MAX */
};

/* Membership by group name, or by gid (the primary group or a supplementary one). */
bool user_in_group(const struct user_info *user, const char *group);
bool user_in_gid(const struct user_info *user, unsigned gid);

#endif
