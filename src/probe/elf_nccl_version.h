// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL version a libnccl carries in its own bytes, read without loading it. */
#ifndef ROCE_DOCTOR_ELF_NCCL_VERSION_H
#define ROCE_DOCTOR_ELF_NCCL_VERSION_H

#include <stddef.h>

struct elf_nccl_version {
	char version[32];   /* "2.28.9" */
	char cuda[16];      /* "13.0" from "+cuda13.0"; empty when the string has no suffix */
};

/* Parses the ELF header and section table of the open file (size bytes), then scans .rodata in bounded chunks
 * for "NCCL version X.Y.Z[+cudaA.B]" (NCCL's banner, src/init.cc's VERSION_STRING). A string with the CUDA
 * suffix wins over a bare one. 0; -ENOEXEC: not ELF (or not 32/64-bit little/big endian as declared);
 * -EBADMSG: truncated or inconsistent headers; -ENOENT: no .rodata or no version string in it; other -errno
 * from reading. */
int elf_nccl_version_read(int fd, size_t size, struct elf_nccl_version *out);

/* "NCCL version 2.28.9+cuda13.0" at text[0..len) (no NUL needed): fills out. 0, or -EINVAL. Exposed for tests. */
int nccl_banner_parse(const char *text, size_t len, struct elf_nccl_version *out);

#endif
