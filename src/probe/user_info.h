// SPDX-License-Identifier: GPL-2.0-only
/* The user whose limits and NCCL files matter: who we run as (live), or a named account of a --root tree. */
#ifndef ROCE_DOCTOR_USER_INFO_H
#define ROCE_DOCTOR_USER_INFO_H

#include <stdbool.h>
#include <stddef.h>

#include "model/user.h"
#include "util/rootfs.h"

/* Live root: name NULL means the real uid we run as; accounts come from NSS (getpwnam, getgrouplist).
 * Under --root: <root>/etc/passwd and <root>/etc/group only; name NULL means "root".
 * 0, -ENOENT when there is no such user, or -errno. */
int user_info_resolve(const struct rootfs *root, const char *name, struct user_info *out);

#endif
