// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL version a libnccl carries in its own bytes, read without loading it. */
#ifndef ROCE_DOCTOR_ELF_NCCL_VERSION_H
#define ROCE_DOCTOR_ELF_NCCL_VERSION_H

#include <stdbool.h>
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

#define ELF_NEEDED_MAX 64
#define ELF_NAME_MAX 128

/* What the dynamic loader reads of a shared object: its name, what it NEEDs, where it looks first. */
struct elf_dynamic {
	char soname[ELF_NAME_MAX];                   /* "" when it has none */
	char needed[ELF_NEEDED_MAX][ELF_NAME_MAX];   /* DT_NEEDED in order; the first ELF_NEEDED_MAX */
	size_t needed_count;
	char rpath[4096], runpath[4096];             /* colon lists, $ORIGIN unexpanded */
	bool has_rpath, has_runpath;
};

/* The open file's .dynamic (found by type through the section table) read through its string table. 0;
 * -ENOEXEC: not ELF; -EBADMSG: truncated or inconsistent headers, a string outside its table or longer than
 * out holds; -ENOENT: no section table or no .dynamic (a static object); other -errno from reading. */
int elf_dynamic_read(int fd, size_t size, struct elf_dynamic *out);

/* "NCCL version 2.28.9+cuda13.0" at text[0..len) (no NUL needed): fills out. 0, or -EINVAL. Exposed for tests. */
int nccl_banner_parse(const char *text, size_t len, struct elf_nccl_version *out);

#endif
