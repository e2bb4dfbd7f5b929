// SPDX-License-Identifier: GPL-2.0-only
/* Finds the NCCL libraries and net plugins a job on this node could load, without loading any. */
#ifndef ROCE_DOCTOR_PROBE_NCCL_LIBS_H
#define ROCE_DOCTOR_PROBE_NCCL_LIBS_H

#include "model/nccl_libs.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* envp: the job's environment (live: ours; under --root the capture's proc/self/environ; NULL: none), for
 * LD_LIBRARY_PATH, PATH, VIRTUAL_ENV, CONDA_PREFIX, HOME and NCCL_NET_PLUGIN. Searches, in this order: the
 * entries of /etc/ld.so.cache, LD_LIBRARY_PATH, /usr/local/cuda{,-*}/lib64, conda prefixes ($CONDA_PREFIX,
 * ~/miniconda3, ~/anaconda3, ~/miniforge3, /opt/conda and each of their envs: lib/ and their Python), Python
 * environments ($VIRTUAL_ENV, the prefixes of the python3 on PATH, /usr/lib/python3* /dist-packages,
 * /usr/local/lib/python3* /dist-packages, ~/.local/lib/python3* /site-packages: torch/lib and nvidia/nccl/lib),
 * then net plugins beside each NCCL found. Each library once, by real path, with every place it was found.
 * Damaged files, loops and caps become notes naming the file. 0, or -ENOMEM (*out empty). */
int nccl_libs_find(const struct rootfs *root, char *const *envp, struct nccl_libs *out, struct notes *notes);

#endif
