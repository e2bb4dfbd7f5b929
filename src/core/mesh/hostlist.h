// SPDX-License-Identifier: GPL-2.0-only
/* Slurm's hostlist syntax (SLURM_NODELIST): "node[01-04,07]", "a[1-2],b3", "r[1-2]-n[01-02]". */
#ifndef ROCE_DOCTOR_MESH_HOSTLIST_H
#define ROCE_DOCTOR_MESH_HOSTLIST_H

#include <stddef.h>

#define HOSTLIST_HOST_MAX 256    /* a host name's bytes with its NUL */
#define HOSTLIST_TEXT_MAX 65536  /* the list's bytes: Slurm's own are shorter */

/* Expands list in order: *count gets how many hosts it names (stopping past max_hosts), and host (size
 * bytes) the index-th of them when index < *count. Zero padding follows the range's lower bound ([01-10]:
 * 01..10). 0, or -EINVAL with why[] naming what is wrong: an unmatched bracket, a range that is not digits or
 * runs backwards, an empty name, a name too long, more than max_hosts hosts. */
int hostlist_expand(const char *list, size_t max_hosts, size_t index, char *host, size_t size, size_t *count,
		    char *why, size_t why_size);

#endif
