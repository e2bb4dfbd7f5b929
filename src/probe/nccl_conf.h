// SPDX-License-Identifier: GPL-2.0-only
/* NCCL's settings as NCCL itself will see them (the matching of NCCL_IB_HCA / NCCL_SOCKET_IFNAME: model/nccl_match.h).
 *
 * Where NCCL reads settings (src/misc/param.cc, initEnv): the process environment always wins; then ONE user
 * file — $NCCL_CONF_FILE if that variable is set and non-empty in the environment, otherwise $HOME/.nccl.conf;
 * then /etc/nccl.conf. Files only fill in names still unset (setenv without overwrite), so within a file the
 * FIRST line for a name wins. File syntax is literal: a line is NAME=VALUE split at the first '=', lines
 * starting with '#' are skipped, a trailing "\n" and then "\r" are removed, and nothing else — no trimming,
 * no quotes, no "export" — so `NCCL_IB_HCA = mlx5_0` sets a variable named "NCCL_IB_HCA " that NCCL never
 * reads. Lines are read 4095 bytes at a time (fgets into 4096), names and values cut at 1023 bytes. */
#ifndef ROCE_DOCTOR_NCCL_CONF_H
#define ROCE_DOCTOR_NCCL_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "model/nccl.h"
#include "model/nccl_match.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* envp: the job's environment (NULL: none); home: the user's home directory for ~/.nccl.conf when envp has
 * no HOME, or always when home_wins (the job of another user than the caller: its HOME is that user's), NULL:
 * none. Files are read under root. Only NCCL_* names are kept; file lines that look meant
 * for NCCL but will not reach it (blanks around '=', "export", quotes) become notes. 0 or -errno. */
int nccl_conf_read(const struct rootfs *root, char *const *envp, const char *home, bool home_wins,
		   struct nccl_conf *out, struct notes *notes);
void nccl_conf_free(struct nccl_conf *conf);

#endif
