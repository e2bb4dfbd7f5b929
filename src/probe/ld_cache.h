// SPDX-License-Identifier: GPL-2.0-only
/* /etc/ld.so.cache, the dynamic linker's list of libraries: parsed from a buffer, every offset checked. */
#ifndef ROCE_DOCTOR_LD_CACHE_H
#define ROCE_DOCTOR_LD_CACHE_H

#include <stddef.h>

#define LD_CACHE_MAX_BYTES (64u << 20)   /* real ones are 30-300 KiB */

/* Calls found(name, path, ctx) for each entry (name: the soname "libnccl.so.2", path: the file the linker
 * opens), in the file's order; found returns non-zero to stop. Formats: glibc's "glibc-ld.so.cache" + "1.1"
 * (glibc >= 2.32 writes only this), the old "ld.so-1.7.0" (libc5 era), and the old one with the new one after it
 * (glibc 2.x compat); entries of the new one are used when present. 0; -EBADMSG: not a cache, or an entry or
 * string outside the file (nothing is reported then: a cache is taken whole or not at all). */
int ld_cache_parse(const unsigned char *buf, size_t len, int (*found)(const char *name, const char *path, void *ctx),
		   void *ctx);

#endif
