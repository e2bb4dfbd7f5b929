// SPDX-License-Identifier: GPL-2.0-only
/* What one NCCL library says about its version: its bytes, its file name, the package that installed it. */
#ifndef ROCE_DOCTOR_PROBE_NCCL_LIB_INFO_H
#define ROCE_DOCTOR_PROBE_NCCL_LIB_INFO_H

#include "model/nccl_libs.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* The ELF banner (core libraries only) of the open file, and the version in lib's real file name; fills
 * elf_version, cuda, name_version and version. A file that is not ELF, is damaged or has no banner is a note
 * naming it. */
void nccl_lib_read_version(int fd, struct nccl_lib *lib, struct notes *notes);

/* The dist-info METADATA of the nvidia-nccl-cu* wheel in site (a site-packages directory): pip's name and
 * version into lib when site holds one. */
void nccl_lib_wheel(const struct rootfs *root, const char *site, struct nccl_lib *lib, struct notes *notes);

/* dpkg's ownership (/var/lib/dpkg/info/libnccl*.list) and status (Version:) of each library: fills the
 * package members of those a Debian package installed. */
void nccl_libs_dpkg(const struct rootfs *root, struct nccl_libs *libs, struct notes *notes);

/* "X.Y.Z" at the end of a "libnccl.so.X.Y.Z" name into out (size bytes); "" when the name has none. */
void nccl_name_version(const char *path, char *out, size_t size);

#endif
