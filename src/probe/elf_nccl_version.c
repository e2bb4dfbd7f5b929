// SPDX-License-Identifier: GPL-2.0-only
/* ELF just far enough to find .rodata: NCCL keeps its banner there, and a 200 MB library need not be read
 * whole. Every offset and size is checked against the file before it is used. */
#include "probe/elf_nccl_version.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BANNER "NCCL version "
#define SECTIONS_MAX 4096          /* real libnccl has 40-50 */
#define CHUNK (1u << 20)
#define OVERLAP 64                 /* longer than any banner, so one cut by a chunk edge is seen whole */

struct elf_reader {
	int fd;
	size_t size;
	bool is64, big;
};

static int read_at(const struct elf_reader *e, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	if (off > e->size || len > e->size - off)
		return -EBADMSG;
	while (done < len) {
		ssize_t n = pread(e->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG;   /* shrank under us */
		done += (size_t)n;
	}
	return 0;
}

static uint64_t get(const struct elf_reader *e, const unsigned char *p, size_t width)
{
	uint64_t v = 0;

	for (size_t i = 0; i < width; i++)
		v |= (uint64_t)p[e->big ? width - 1 - i : i] << (8 * i);
	return v;
}

static bool is_digits(const char *s, size_t len)
{
	if (len == 0 || len > 4)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Digits separated by dots, want_parts of them (or at least min_parts); returns the length consumed or 0. */
static size_t dotted(const char *s, size_t len, unsigned min_parts, unsigned max_parts)
{
	size_t i = 0;
	unsigned parts = 0;

	while (parts < max_parts) {
		size_t start = i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (!is_digits(s + start, i - start))
			return 0;
		parts++;
		if (parts == max_parts || i + 1 >= len || s[i] != '.' || s[i + 1] < '0' || s[i + 1] > '9')
			break;
		i++;
	}
	return parts >= min_parts ? i : 0;
}

int nccl_banner_parse(const char *text, size_t len, struct elf_nccl_version *out)
{
	size_t blen = strlen(BANNER), v, c = 0;

	memset(out, 0, sizeof(*out));
	if (len < blen || memcmp(text, BANNER, blen) != 0)
		return -EINVAL;
	text += blen;
	len -= blen;
	v = dotted(text, len, 3, 3);
	if (!v)
		return -EINVAL;
	snprintf(out->version, sizeof(out->version), "%.*s", (int)v, text);
	if (len - v > 5 && memcmp(text + v, "+cuda", 5) == 0) {
		c = dotted(text + v + 5, len - v - 5, 2, 2);
		if (c)
			snprintf(out->cuda, sizeof(out->cuda), "%.*s", (int)c, text + v + 5);
	}
	return 0;
}

/* Scans [off, off+len) for the banner; a hit with the CUDA suffix ends the scan. */
static int scan_rodata(const struct elf_reader *e, uint64_t off, uint64_t len, struct elf_nccl_version *out)
{
	static char buf[CHUNK + OVERLAP];
	bool found = false;
	uint64_t pos = 0;

	while (pos < len) {
		size_t n = len - pos > sizeof(buf) ? sizeof(buf) : (size_t)(len - pos);
		int ret = read_at(e, buf, n, off + pos);

		if (ret < 0)
			return ret;
		for (char *p = memmem(buf, n, BANNER, strlen(BANNER)); p;
		     p = memmem(p + 1, n - (size_t)(p + 1 - buf), BANNER, strlen(BANNER))) {
			struct elf_nccl_version v;
			size_t room = n - (size_t)(p - buf);

			/* A banner cut by the chunk's end is read again at the start of the next chunk. */
			if (room < OVERLAP && pos + n < len)
				break;
			if (nccl_banner_parse(p, strnlen(p, room), &v) < 0)
				continue;
			if (!found || (v.cuda[0] && !out->cuda[0]))
				*out = v;
			found = true;
			if (v.cuda[0])
				return 0;
		}
		if (pos + n >= len)
			break;
		pos += n - OVERLAP;
	}
	return found ? 0 : -ENOENT;
}

int elf_nccl_version_read(int fd, size_t size, struct elf_nccl_version *out)
{
	unsigned char ident[EI_NIDENT], hdr[sizeof(Elf64_Ehdr)], sh[sizeof(Elf64_Shdr)];
	struct elf_reader e = { .fd = fd, .size = size };
	uint64_t shoff, shstr_off = 0, shstr_size = 0;
	size_t shentsize, shnum, shstrndx, ehsize;
	int ret;

	memset(out, 0, sizeof(*out));
	if (size < EI_NIDENT)
		return -ENOEXEC;
	ret = read_at(&e, ident, sizeof(ident), 0);
	if (ret < 0)
		return ret;
	if (memcmp(ident, ELFMAG, SELFMAG) != 0 || (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) ||
	    (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB))
		return -ENOEXEC;
	e.is64 = ident[EI_CLASS] == ELFCLASS64;
	e.big = ident[EI_DATA] == ELFDATA2MSB;
	ehsize = e.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	ret = read_at(&e, hdr, ehsize, 0);
	if (ret < 0)
		return ret;
	if (e.is64) {
		shoff = get(&e, hdr + offsetof(Elf64_Ehdr, e_shoff), 8);
		shentsize = get(&e, hdr + offsetof(Elf64_Ehdr, e_shentsize), 2);
		shnum = get(&e, hdr + offsetof(Elf64_Ehdr, e_shnum), 2);
		shstrndx = get(&e, hdr + offsetof(Elf64_Ehdr, e_shstrndx), 2);
	} else {
		shoff = get(&e, hdr + offsetof(Elf32_Ehdr, e_shoff), 4);
		shentsize = get(&e, hdr + offsetof(Elf32_Ehdr, e_shentsize), 2);
		shnum = get(&e, hdr + offsetof(Elf32_Ehdr, e_shnum), 2);
		shstrndx = get(&e, hdr + offsetof(Elf32_Ehdr, e_shstrndx), 2);
	}
	/* Extended numbering (shnum 0 or shstrndx SHN_XINDEX) is for objects with 65280+ sections: not a libnccl. */
	if (shoff == 0 || shnum == 0)
		return -ENOENT;
	if (shentsize != (e.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) || shnum > SECTIONS_MAX ||
	    shstrndx >= shnum || shoff > size || (uint64_t)shnum * shentsize > size - shoff)
		return -EBADMSG;

	/* Two passes over the section table: the names' string table first, then .rodata by name. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = pass ? 0 : shstrndx; i < (pass ? shnum : shstrndx + 1); i++) {
			uint64_t name, off, len;
			char sname[16];

			ret = read_at(&e, sh, shentsize, shoff + i * shentsize);
			if (ret < 0)
				return ret;
			name = get(&e, sh, 4);
			off = e.is64 ? get(&e, sh + offsetof(Elf64_Shdr, sh_offset), 8)
				     : get(&e, sh + offsetof(Elf32_Shdr, sh_offset), 4);
			len = e.is64 ? get(&e, sh + offsetof(Elf64_Shdr, sh_size), 8)
				     : get(&e, sh + offsetof(Elf32_Shdr, sh_size), 4);
			if (off > size || len > size - off)
				return -EBADMSG;
			if (!pass) {
				shstr_off = off;
				shstr_size = len;
				continue;
			}
			if (name >= shstr_size)
				return -EBADMSG;
			memset(sname, 0, sizeof(sname));
			ret = read_at(&e, sname, shstr_size - name < sizeof(sname) - 1 ? shstr_size - name : sizeof(sname) - 1,
				      shstr_off + name);
			if (ret < 0)
				return ret;
			if (strcmp(sname, ".rodata") == 0)
				return scan_rodata(&e, off, len, out);
		}
	}
	return -ENOENT;
}
