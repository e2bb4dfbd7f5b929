// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL libraries and net plugins on a node, as data: probe/nccl_libs.c finds them (live or under --root),
 * nccl_libs_json.c carries them in the system document (member "nccl_libs"), cmd/nccl.c and the GID advice read
 * them. */
#ifndef ROCE_DOCTOR_MODEL_NCCL_LIBS_H
#define ROCE_DOCTOR_MODEL_NCCL_LIBS_H

#include <stdbool.h>
#include <stddef.h>

#define NCCL_LIBS_MAX 256          /* libraries kept per node; more gives a warning */
#define NCCL_LIB_FOUND_MAX 8       /* places one library was found under (symlinks, several search paths) */
#define NCCL_LIB_PATH_MAX 512

enum nccl_lib_kind { NCCL_LIB_CORE, NCCL_LIB_NET_PLUGIN };

/* One name a library was found under, and which search found it. */
struct nccl_lib_place {
	char path[NCCL_LIB_PATH_MAX];   /* as found: "/usr/lib/x86_64-linux-gnu/libnccl.so.2" */
	char where[NCCL_LIB_PATH_MAX];  /* "ld.so.cache", "LD_LIBRARY_PATH", "conda env train (/opt/conda/envs/train)",
					 * "venv /opt/torch/.venv", "CUDA /usr/local/cuda-12.4", ... */
};

struct nccl_lib {
	enum nccl_lib_kind kind;
	char real_path[NCCL_LIB_PATH_MAX];  /* symlinks resolved: the identity of the library */
	struct nccl_lib_place places[NCCL_LIB_FOUND_MAX];
	size_t place_count;
	char version[32];                   /* the one used: ELF banner, else file name, else package; "" unknown */
	char cuda[16];                      /* "13.0" from the banner; "" unknown */
	char elf_version[32];               /* from "NCCL version X.Y.Z" in .rodata; "" none */
	char name_version[32];              /* from libnccl.so.X.Y.Z; "" none */
	char package_manager[8];            /* "dpkg", "pip"; "" none */
	char package_name[64];              /* "libnccl2", "nvidia-nccl-cu13" */
	char package_version[64];           /* "2.28.3-1+cuda13.0", "2.28.9" */
};

struct nccl_libs {
	struct nccl_lib *items;
	size_t count;
	bool truncated;                     /* more than NCCL_LIBS_MAX */
	bool net_plugin_set;                /* NCCL_NET_PLUGIN in the job's environment */
	char net_plugin[256];
};

void nccl_libs_free(struct nccl_libs *libs);

#endif
