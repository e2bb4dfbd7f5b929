// SPDX-License-Identifier: GPL-2.0-only
/* Which file the dynamic loader opens for a NEEDED name, searched as glibc's ld.so searches (elf/dl-load.c,
 * _dl_map_object): objects already preloaded, the requester's DT_RPATH, LD_LIBRARY_PATH, its DT_RUNPATH,
 * /etc/ld.so.cache, then ld.so's trusted directories. Nothing is loaded: each candidate is opened through the
 * root and its ELF header looked at. */
#ifndef ROCE_DOCTOR_PROBE_NCCL_LIBS_LOADER_H
#define ROCE_DOCTOR_PROBE_NCCL_LIBS_LOADER_H

#include "model/nccl_libs.h"
#include "probe/elf_nccl_version.h"
#include "util/rootfs.h"

#define LD_TRUSTED_MAX 4
#define LD_CACHE_NAMES_MAX 32

struct ld_search {
	const struct rootfs *root;
	const char *preload;                 /* the job's LD_PRELOAD; NULL: unset */
	char preload_file[4096];             /* /etc/ld.so.preload's contents (read by ld_search_init) */
	const char *library_path;            /* the job's LD_LIBRARY_PATH; NULL: unset */
	/* the cache's libnccl* entries in the cache's order (ld.so takes the first of a name) */
	char cache_names[LD_CACHE_NAMES_MAX][64];
	char cache_paths[LD_CACHE_NAMES_MAX][NCCL_LIB_PATH_MAX];
	size_t cache_count;
	char trusted[LD_TRUSTED_MAX][64];    /* ld.so's built-in directories for this tree */
	size_t trusted_count;
};

/* Fills the trusted directories from the tree: a Debian-style multiarch triplet (x86_64-linux-gnu, ...) named
 * by /etc/ld.so.conf.d/T.conf or a /usr/lib/T directory, tied by whose loader is present, gives /lib/T,
 * /usr/lib/T, /lib, /usr/lib (what Debian's ld.so --help lists); else /lib64 and /usr/lib64 where present
 * (Fedora, RHEL, SUSE); else /lib, /usr/lib. Reads /etc/ld.so.preload. */
void ld_search_init(struct ld_search *s, const struct rootfs *root, const char *preload, const char *library_path);

/* Where ld.so finds name for an object whose dynamic section is dyn, found at origin (the directory $ORIGIN
 * stands for); dyn NULL: a plain program's dlopen(name). path gets the name ld.so opens. The step, or
 * NCCL_LOAD_NONE (path ""). */
enum nccl_load_by ld_search_find(const struct ld_search *s, const char *name, const struct elf_dynamic *dyn,
				 const char *origin, char *path, size_t size);

#endif
