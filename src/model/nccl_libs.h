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
#define NCCL_LOADS_MAX 8           /* programs whose loader's choice is kept: a plain one, then each torch */

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
	/* Every (path, search) it was found by; places[0] is its home: the environment that holds it (venv, conda
	 * env, CUDA) when one does, else the first search that found it. */
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

/* How ld.so searches for a NEEDED name, in its order; which step gave the library. */
enum nccl_load_by {
	NCCL_LOAD_NONE,            /* nothing found: the program does not start */
	NCCL_LOAD_PRELOAD,         /* LD_PRELOAD or /etc/ld.so.preload: loaded first, whatever the rest says */
	NCCL_LOAD_RPATH,           /* DT_RPATH of the object that NEEDs it (ignored when it has a DT_RUNPATH) */
	NCCL_LOAD_LD_LIBRARY_PATH,
	NCCL_LOAD_RUNPATH,         /* DT_RUNPATH: after LD_LIBRARY_PATH */
	NCCL_LOAD_CACHE,           /* /etc/ld.so.cache */
	NCCL_LOAD_SYSTEM_DIR,      /* ld.so's trusted directories (/lib/<triplet>, /usr/lib/<triplet>, ...) */
};

/* Which libnccl the dynamic loader gives one program in the job's environment. */
struct nccl_load {
	char program[NCCL_LIB_PATH_MAX];    /* the object that NEEDs it (".../torch/lib/libtorch_cuda.so"); "" for
					     * a plain program's dlopen() */
	char where[NCCL_LIB_PATH_MAX];      /* the program's environment ("venv /opt/torch/.venv"); "" for plain */
	char needed[64];                    /* "libnccl.so.2" */
	enum nccl_load_by by;
	char path[NCCL_LIB_PATH_MAX];       /* the name ld.so opens; "" with NCCL_LOAD_NONE */
	char real_path[NCCL_LIB_PATH_MAX];  /* the library among items; "" with NCCL_LOAD_NONE */
};

struct nccl_libs {
	struct nccl_lib *items;
	size_t count;
	bool truncated;                     /* more than NCCL_LIBS_MAX */
	bool net_plugin_set;                /* NCCL_NET_PLUGIN in the job's environment */
	char net_plugin[256];
	struct nccl_load loads[NCCL_LOADS_MAX];
	size_t load_count;
};

/* The JSON name of a load step ("DT_RPATH", "ld.so.cache"); NULL for NCCL_LOAD_NONE. */
const char *nccl_load_by_name(enum nccl_load_by by);

void nccl_libs_free(struct nccl_libs *libs);

#endif
