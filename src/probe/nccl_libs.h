// SPDX-License-Identifier: GPL-2.0-only
/* Finds the NCCL libraries and net plugins a job on this node could load, without loading any. */
#ifndef ROCE_DOCTOR_PROBE_NCCL_LIBS_H
#define ROCE_DOCTOR_PROBE_NCCL_LIBS_H

#include "model/nccl_libs.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* envp: the job's environment (live: ours; under --root the capture's proc/self/environ; NULL: none), for
 * LD_PRELOAD, LD_LIBRARY_PATH, PATH, VIRTUAL_ENV, CONDA_PREFIX, HOME and NCCL_NET_PLUGIN. Searches, in this
 * order: the entries of /etc/ld.so.cache, ld.so's trusted directories (libraries the cache did not give),
 * LD_LIBRARY_PATH, /usr/local/cuda{,-*}/lib64, conda prefixes ($CONDA_PREFIX, /opt/conda and its envs: lib/
 * and their Python), Python environments ($VIRTUAL_ENV, the prefixes of the python3 on PATH, /opt/NAME{,/.venv,
 * /venv}, in $HOME, /root and /home/NAME: .venv, venv, miniconda3, anaconda3, miniforge3, .conda/envs/NAME,
 * .local/lib/python3* /site-packages; /usr/lib/python3* /dist-packages, /usr/local/lib/python3* /dist-packages:
 * torch/lib and nvidia/nccl/lib), each prefix once; then which libnccl ld.so gives a plain program's
 * dlopen("libnccl.so.2") and each torch/lib/libtorch_cuda.so found (out->loads); then net plugins beside each
 * NCCL found. Each library once, by real path, with every (name, search) it was found by. Damaged files,
 * loops and caps become notes naming the file. 0, or -ENOMEM (*out empty). */
int nccl_libs_find(const struct rootfs *root, char *const *envp, struct nccl_libs *out, struct notes *notes);

#endif
