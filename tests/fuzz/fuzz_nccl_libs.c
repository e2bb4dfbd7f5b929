// SPDX-License-Identifier: GPL-2.0-only
/* The binary files `nccl` reads to find NCCL: /etc/ld.so.cache (every format ld_cache_parse knows) and a
 * libnccl's ELF headers and .rodata banner (elf_nccl_version_read, from an fd as it reads a library). Input
 * starting with the ELF magic goes to the ELF reader, anything else to the cache parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probe/elf_nccl_version.h"
#include "probe/ld_cache.h"

static int found(const char *name, const char *path, void *ctx)
{
	size_t *count = ctx;

	/* the parser promises NUL-terminated strings inside the buffer: touch every byte of them */
	if (strlen(name) + strlen(path) == (size_t)-1)
		abort();
	return ++*count > 100000;
}

static void read_elf(const uint8_t *data, size_t size)
{
	struct elf_nccl_version v;
	int fd = memfd_create("libnccl", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size && elf_nccl_version_read(fd, size, &v) == 0 &&
	    (!memchr(v.version, 0, sizeof(v.version)) || !memchr(v.cuda, 0, sizeof(v.cuda))))
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t count = 0;

	if (size >= 4 && memcmp(data, "\177ELF", 4) == 0)
		read_elf(data, size);
	else
		(void)ld_cache_parse(data, size, found, &count);
	return 0;
}
