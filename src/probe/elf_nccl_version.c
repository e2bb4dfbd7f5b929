// SPDX-License-Identifier: GPL-2.0-only
/* ELF just far enough to find .rodata (NCCL keeps its banner there, and a 200 MB library need not be read
 * whole) and .dynamic (what a library NEEDs and where the loader looks for it). Every offset and size is
 * checked against the file before it is used. */
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
#define DYNAMIC_MAX 4096           /* entries of .dynamic: libtorch_cuda.so has ~60 */
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

/* The ELF header's section table, checked against the file. */
struct elf_file {
	struct elf_reader e;
	uint64_t shoff;
	size_t shentsize, shnum, shstrndx;
};

struct elf_section {
	uint64_t name, type, link, off, len;
};

/* 0; -ENOEXEC: not ELF; -EBADMSG: headers that do not fit the file; -ENOENT: no section table. */
static int elf_open(int fd, size_t size, struct elf_file *f)
{
	unsigned char ident[EI_NIDENT], hdr[sizeof(Elf64_Ehdr)];
	struct elf_reader *e = &f->e;
	size_t ehsize;
	int ret;

	memset(f, 0, sizeof(*f));
	e->fd = fd;
	e->size = size;
	if (size < EI_NIDENT)
		return -ENOEXEC;
	ret = read_at(e, ident, sizeof(ident), 0);
	if (ret < 0)
		return ret;
	if (memcmp(ident, ELFMAG, SELFMAG) != 0 || (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) ||
	    (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB))
		return -ENOEXEC;
	e->is64 = ident[EI_CLASS] == ELFCLASS64;
	e->big = ident[EI_DATA] == ELFDATA2MSB;
	ehsize = e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	ret = read_at(e, hdr, ehsize, 0);
	if (ret < 0)
		return ret;
	if (e->is64) {
		f->shoff = get(e, hdr + offsetof(Elf64_Ehdr, e_shoff), 8);
		f->shentsize = get(e, hdr + offsetof(Elf64_Ehdr, e_shentsize), 2);
		f->shnum = get(e, hdr + offsetof(Elf64_Ehdr, e_shnum), 2);
		f->shstrndx = get(e, hdr + offsetof(Elf64_Ehdr, e_shstrndx), 2);
	} else {
		f->shoff = get(e, hdr + offsetof(Elf32_Ehdr, e_shoff), 4);
		f->shentsize = get(e, hdr + offsetof(Elf32_Ehdr, e_shentsize), 2);
		f->shnum = get(e, hdr + offsetof(Elf32_Ehdr, e_shnum), 2);
		f->shstrndx = get(e, hdr + offsetof(Elf32_Ehdr, e_shstrndx), 2);
	}
	/* Extended numbering (shnum 0 or shstrndx SHN_XINDEX) is for objects with 65280+ sections: not a libnccl. */
	if (f->shoff == 0 || f->shnum == 0)
		return -ENOENT;
	if (f->shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) || f->shnum > SECTIONS_MAX ||
	    f->shstrndx >= f->shnum || f->shoff > size || (uint64_t)f->shnum * f->shentsize > size - f->shoff)
		return -EBADMSG;
	return 0;
}

/* Section i's header; its contents must lie inside the file. */
static int elf_section(const struct elf_file *f, size_t i, struct elf_section *s)
{
	const struct elf_reader *e = &f->e;
	unsigned char sh[sizeof(Elf64_Shdr)];
	int ret = read_at(e, sh, f->shentsize, f->shoff + i * f->shentsize);

	if (ret < 0)
		return ret;
	s->name = get(e, sh, 4);
	s->type = get(e, sh + 4, 4);
	s->off = e->is64 ? get(e, sh + offsetof(Elf64_Shdr, sh_offset), 8)
			 : get(e, sh + offsetof(Elf32_Shdr, sh_offset), 4);
	s->len = e->is64 ? get(e, sh + offsetof(Elf64_Shdr, sh_size), 8) : get(e, sh + offsetof(Elf32_Shdr, sh_size), 4);
	s->link = e->is64 ? get(e, sh + offsetof(Elf64_Shdr, sh_link), 4) : get(e, sh + offsetof(Elf32_Shdr, sh_link), 4);
	if (s->type != SHT_NOBITS && (s->off > e->size || s->len > e->size - s->off))
		return -EBADMSG;
	return 0;
}

int elf_nccl_version_read(int fd, size_t size, struct elf_nccl_version *out)
{
	struct elf_section strtab, s;
	struct elf_file f;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = elf_open(fd, size, &f);
	if (ret == 0)
		ret = elf_section(&f, f.shstrndx, &strtab);
	for (size_t i = 0; ret == 0 && i < f.shnum; i++) {
		char sname[16];

		ret = elf_section(&f, i, &s);
		if (ret < 0)
			return ret;
		if (s.name >= strtab.len)
			return -EBADMSG;
		memset(sname, 0, sizeof(sname));
		ret = read_at(&f.e, sname, strtab.len - s.name < sizeof(sname) - 1 ? strtab.len - s.name : sizeof(sname) - 1,
			      strtab.off + s.name);
		if (ret == 0 && strcmp(sname, ".rodata") == 0)
			return s.type == SHT_NOBITS ? -EBADMSG : scan_rodata(&f.e, s.off, s.len, out);
	}
	return ret < 0 ? ret : -ENOENT;
}

/* The NUL-terminated string at off of the string table into dst; -EBADMSG when it is not there or does not
 * fit. */
static int dyn_string(const struct elf_file *f, const struct elf_section *strtab, uint64_t off, char *dst,
		      size_t size)
{
	size_t n;
	int ret;

	if (off >= strtab->len)
		return -EBADMSG;
	n = strtab->len - off < size ? (size_t)(strtab->len - off) : size;
	ret = read_at(&f->e, dst, n, strtab->off + off);
	if (ret < 0)
		return ret;
	if (!memchr(dst, '\0', n))
		return -EBADMSG;
	return 0;
}

int elf_dynamic_read(int fd, size_t size, struct elf_dynamic *out)
{
	struct elf_section dyn = { 0 }, strtab, s;
	size_t entsize, count;
	bool found = false;
	struct elf_file f;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = elf_open(fd, size, &f);
	for (size_t i = 0; ret == 0 && !found && i < f.shnum; i++) {
		ret = elf_section(&f, i, &s);
		if (ret == 0 && s.type == SHT_DYNAMIC) {
			dyn = s;
			found = true;
		}
	}
	if (ret < 0)
		return ret;
	if (!found)
		return -ENOENT;
	/* The dynamic section's sh_link is its string table (.dynstr). */
	if (dyn.link >= f.shnum)
		return -EBADMSG;
	ret = elf_section(&f, dyn.link, &strtab);
	if (ret < 0)
		return ret;
	if (strtab.type != SHT_STRTAB)
		return -EBADMSG;
	entsize = f.e.is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	count = dyn.len / entsize;
	if (count > DYNAMIC_MAX)
		return -EBADMSG;
	for (size_t i = 0; i < count; i++) {
		unsigned char d[sizeof(Elf64_Dyn)];
		size_t w = f.e.is64 ? 8 : 4;
		uint64_t tag, val;
		char name[ELF_NAME_MAX];

		ret = read_at(&f.e, d, entsize, dyn.off + i * entsize);
		if (ret < 0)
			return ret;
		tag = get(&f.e, d, w);
		val = get(&f.e, d + w, w);
		if (tag == DT_NULL)
			break;
		if (tag == DT_RPATH || tag == DT_RUNPATH) {
			ret = dyn_string(&f, &strtab, val, tag == DT_RPATH ? out->rpath : out->runpath, sizeof(out->rpath));
			*(tag == DT_RPATH ? &out->has_rpath : &out->has_runpath) = ret == 0;
		} else if (tag == DT_SONAME) {
			ret = dyn_string(&f, &strtab, val, out->soname, sizeof(out->soname));
		} else if (tag == DT_NEEDED && out->needed_count < ELF_NEEDED_MAX) {
			ret = dyn_string(&f, &strtab, val, name, sizeof(name));
			if (ret == 0)
				snprintf(out->needed[out->needed_count++], sizeof(out->needed[0]), "%s", name);
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}
