// SPDX-License-Identifier: GPL-2.0-only
/* The layouts are glibc's (sysdeps/generic/dl-cache.h; elf/dl-cache.c reads them): a header, fixed-size
 * entries of string offsets, the strings. Old format: offsets from the end of its entry array; new format:
 * offsets from the start of the new header. */
#include "probe/ld_cache.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define OLD_MAGIC "ld.so-1.7.0"                 /* 11 bytes, padded to 12, then nlibs */
#define OLD_HEADER 16
#define OLD_ENTRY 12                            /* flags, key, value */
#define NEW_MAGIC "glibc-ld.so.cache1.1"        /* magic and version, 20 bytes */
#define NEW_HEADER 48                           /* + nlibs, len_strings, flags, pad, extension_offset, unused[3] */
#define NEW_ENTRY 24                            /* flags, key, value, osversion, hwcap (8) */

static uint32_t u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);   /* the cache is in the host's byte order */
	return v;
}

/* A NUL-terminated string at base+off inside [base, end). */
static const char *string_at(const unsigned char *base, const unsigned char *end, uint32_t off)
{
	const unsigned char *s = base + off;

	if (off >= (size_t)(end - base) || !memchr(s, '\0', (size_t)(end - s)))
		return NULL;
	return (const char *)s;
}

/* Validates every entry first (pass 0), then reports them (pass 1). */
static int walk(const unsigned char *table, uint32_t n, size_t entry, const unsigned char *strings,
		const unsigned char *end, int (*found)(const char *, const char *, void *), void *ctx)
{
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < n; i++) {
			const unsigned char *e = table + (size_t)i * entry;
			const char *name = string_at(strings, end, u32(e + 4));
			const char *path = string_at(strings, end, u32(e + 8));

			if (!name || !path)
				return -EBADMSG;
			if (pass && found(name, path, ctx))
				return 0;
		}
	return 0;
}

static int parse_new(const unsigned char *p, const unsigned char *end,
		     int (*found)(const char *, const char *, void *), void *ctx)
{
	size_t avail = (size_t)(end - p);
	uint32_t n;

	if (avail < NEW_HEADER || memcmp(p, NEW_MAGIC, strlen(NEW_MAGIC)) != 0)
		return -EBADMSG;
	n = u32(p + 20);
	if (n > (avail - NEW_HEADER) / NEW_ENTRY)
		return -EBADMSG;
	return walk(p + NEW_HEADER, n, NEW_ENTRY, p, end, found, ctx);
}

int ld_cache_parse(const unsigned char *buf, size_t len, int (*found)(const char *name, const char *path, void *ctx),
		   void *ctx)
{
	const unsigned char *end = buf + len;
	uint32_t n;
	size_t after;

	if (len >= strlen(NEW_MAGIC) && memcmp(buf, NEW_MAGIC, strlen(NEW_MAGIC)) == 0)
		return parse_new(buf, end, found, ctx);
	if (len < OLD_HEADER || memcmp(buf, OLD_MAGIC, strlen(OLD_MAGIC)) != 0)
		return -EBADMSG;
	n = u32(buf + 12);
	if (n > (len - OLD_HEADER) / OLD_ENTRY)
		return -EBADMSG;
	after = OLD_HEADER + (size_t)n * OLD_ENTRY;
	/* glibc 2.x wrote the new format after the old one, aligned to 8 (ALIGN_CACHE). */
	size_t aligned = (after + 7) & ~(size_t)7;
	if (aligned + strlen(NEW_MAGIC) <= len && memcmp(buf + aligned, NEW_MAGIC, strlen(NEW_MAGIC)) == 0)
		return parse_new(buf + aligned, end, found, ctx);
	return walk(buf + OLD_HEADER, n, OLD_ENTRY, buf + after, end, found, ctx);
}
