// SPDX-License-Identifier: GPL-2.0-only
/* A process environment captured as /proc/PID/environ: NUL-separated NAME=VALUE strings. */
#ifndef ROCE_DOCTOR_PROC_ENVIRON_H
#define ROCE_DOCTOR_PROC_ENVIRON_H

#include <stddef.h>

#include "util/rootfs.h"

/* Reads <root>/REL into buf (size bytes at most) and points envp[0..] at its non-empty strings, at most max of
 * them, then a NULL. The number of variables, or -errno (envp[0] is NULL then). */
int proc_environ_read(const struct rootfs *root, const char *rel, char *buf, size_t size, char **envp, size_t max);

#endif
