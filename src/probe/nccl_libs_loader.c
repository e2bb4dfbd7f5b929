// SPDX-License-Identifier: GPL-2.0-only
/* ld.so's search for one NEEDED name, replayed on a tree (see nccl_libs_loader.h). The glibc-hwcaps and legacy
 * hwcap subdirectories ld.so tries first in each directory are left out: no NCCL package installs there. */
#include "probe/nccl_libs_loader.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/text_file.h"

/* Debian's multiarch triplets NCCL is built for first, with the loader each one's programs name (PT_INTERP). */
static const struct {
	const char *triplet, *loader;
} triplets[] = {
	{ "x86_64-linux-gnu", "/lib64/ld-linux-x86-64.so.2" },
	{ "aarch64-linux-gnu", "/lib/ld-linux-aarch64.so.1" },
	{ "powerpc64le-linux-gnu", "/lib64/ld64.so.2" },
	{ "s390x-linux-gnu", "/lib/ld64.so.1" },
	{ "riscv64-linux-gnu", "/lib/ld-linux-riscv64-lp64d.so.1" },
};

static void trusted(struct ld_search *s, const char *dir)
{
	if (s->trusted_count < LD_TRUSTED_MAX)
		snprintf(s->trusted[s->trusted_count++], sizeof(s->trusted[0]), "%s", dir);
}

void ld_search_init(struct ld_search *s, const struct rootfs *root, const char *preload, const char *library_path)
{
	int best = -1, best_score = 0;
	struct text_file f;

	s->root = root;
	s->preload = preload;
	s->library_path = library_path;
	s->trusted_count = 0;
	s->preload_file[0] = '\0';
	for (size_t i = 0; i < sizeof(triplets) / sizeof(triplets[0]); i++) {
		const char *t = triplets[i].triplet;
		int score = rootfs_exists(root, "/etc/ld.so.conf.d/%s.conf", t) || rootfs_exists(root, "/usr/lib/%s", t) ||
			    rootfs_exists(root, "/lib/%s", t);

		if (score && rootfs_exists(root, "%s", triplets[i].loader))
			score++;
		if (score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	if (best >= 0) {
		char dir[64];

		snprintf(dir, sizeof(dir), "/lib/%s", triplets[best].triplet);
		trusted(s, dir);
		snprintf(dir, sizeof(dir), "/usr/lib/%s", triplets[best].triplet);
		trusted(s, dir);
		trusted(s, "/lib");
		trusted(s, "/usr/lib");
	} else if (rootfs_exists(root, "/lib64") || rootfs_exists(root, "/usr/lib64")) {
		trusted(s, "/lib64");
		trusted(s, "/usr/lib64");
	} else {
		trusted(s, "/lib");
		trusted(s, "/usr/lib");
	}
	if (text_file_read(root, "/etc/ld.so.preload", sizeof(s->preload_file) - 1, &f) == 0) {
		snprintf(s->preload_file, sizeof(s->preload_file), "%.*s", (int)f.len, f.data);
		text_file_free(&f);
	}
}

/* An ELF object at path inside the root (ld.so's open_verify skips anything else and searches on); its
 * dynamic section into dyn when wanted. */
static bool loadable(const struct ld_search *s, const char *path, struct elf_dynamic *dyn)
{
	unsigned char ident[EI_NIDENT];
	struct stat st;
	bool ok = false;
	int fd = rootfs_open_file(s->root, path, NULL, 0);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, ident, sizeof(ident), 0) == (ssize_t)sizeof(ident) &&
	    memcmp(ident, ELFMAG, SELFMAG) == 0)
		ok = !dyn || elf_dynamic_read(fd, (size_t)st.st_size, dyn) == 0;
	close(fd);
	return ok;
}

/* dir/name, $ORIGIN and ${ORIGIN} replaced by origin; false for what ld.so would not search here: an empty or
 * relative element (relative to the job's working directory), $LIB or $PLATFORM (not known for a tree). */
static bool candidate(const char *dir, size_t len, const char *origin, const char *name, char *out, size_t size)
{
	size_t n = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len && n < size; ) {
		size_t skip = 0;

		if (dir[i] == '$') {
			/* $ORIGIN ends where a name character cannot continue it ($ORIGINAL is another token) */
			if (len - i >= 7 && strncmp(dir + i, "$ORIGIN", 7) == 0 &&
			    (len - i == 7 || !(isalnum((unsigned char)dir[i + 7]) || dir[i + 7] == '_')))
				skip = 7;
			else if (len - i >= 9 && strncmp(dir + i, "${ORIGIN}", 9) == 0)
				skip = 9;
			if (!skip || !origin)
				return false;
			n += (size_t)snprintf(out + n, size - n, "%s", origin);
			i += skip;
			continue;
		}
		out[n++] = dir[i++];
	}
	if (n >= size || out[0] != '/')
		return false;
	return (size_t)snprintf(out + n, size - n, "/%s", name) < size - n;
}

/* The first directory of a colon list (';' too, as ld.so accepts) holding a loadable name. */
static bool in_list(const struct ld_search *s, const char *list, const char *origin, const char *name, char *path,
		    size_t size)
{
	while (list && *list) {
		size_t len = strcspn(list, ":;");

		if (candidate(list, len, origin, name, path, size) && loadable(s, path, NULL))
			return true;
		list += len + (list[len] != '\0');
	}
	path[0] = '\0';
	return false;
}

static bool in_cache(const struct ld_search *s, const char *name, char *path, size_t size)
{
	for (size_t i = 0; i < s->cache_count; i++)
		if (strcmp(s->cache_names[i], name) == 0) {
			/* ld.so takes the first entry of the name; a stale one falls through to the trusted dirs */
			if (!loadable(s, s->cache_paths[i], NULL))
				return false;
			snprintf(path, size, "%s", s->cache_paths[i]);
			return true;
		}
	return false;
}

static bool in_trusted(const struct ld_search *s, const char *name, char *path, size_t size)
{
	for (size_t i = 0; i < s->trusted_count; i++)
		if (candidate(s->trusted[i], strlen(s->trusted[i]), NULL, name, path, size) && loadable(s, path, NULL))
			return true;
	return false;
}

/* The last two places ld.so looks, for every program: the cache, then its trusted directories. */
static enum nccl_load_by system_search(const struct ld_search *s, const char *name, char *path, size_t size)
{
	if (in_cache(s, name, path, size))
		return NCCL_LOAD_CACHE;
	if (in_trusted(s, name, path, size))
		return NCCL_LOAD_SYSTEM_DIR;
	path[0] = '\0';
	return NCCL_LOAD_NONE;
}

/* A plain search (no RPATH): what a preloaded bare name or a plain program's dlopen() gets. */
static enum nccl_load_by plain(const struct ld_search *s, const char *name, char *path, size_t size)
{
	if (in_list(s, s->library_path, NULL, name, path, size))
		return NCCL_LOAD_LD_LIBRARY_PATH;
	return system_search(s, name, path, size);
}

/* A preloaded object satisfies NEEDED name when its SONAME is name (ld.so's _dl_name_match_p). Entries are
 * separated by spaces or colons (LD_PRELOAD) or also by newlines and tabs (/etc/ld.so.preload). */
static bool preloaded(const struct ld_search *s, const char *list, const char *name, char *path, size_t size)
{
	static struct elf_dynamic dyn;   /* 16 KB: not on the stack */
	char entry[NCCL_LIB_PATH_MAX];

	while (list && *list) {
		size_t len = strcspn(list, " :\t\n");

		if (len > 0 && len < sizeof(entry)) {
			snprintf(entry, sizeof(entry), "%.*s", (int)len, list);
			if (strchr(entry, '/'))
				snprintf(path, size, "%s", entry);
			else if (plain(s, entry, path, size) == NCCL_LOAD_NONE)
				path[0] = '\0';
			if (path[0] == '/' && loadable(s, path, &dyn) && strcmp(dyn.soname[0] ? dyn.soname : entry, name) == 0)
				return true;
		}
		list += len + (list[len] != '\0');
	}
	path[0] = '\0';
	return false;
}

enum nccl_load_by ld_search_find(const struct ld_search *s, const char *name, const struct elf_dynamic *dyn,
				 const char *origin, char *path, size_t size)
{
	bool runpath = dyn && dyn->has_runpath;

	if (preloaded(s, s->preload, name, path, size) || preloaded(s, s->preload_file, name, path, size))
		return NCCL_LOAD_PRELOAD;
	/* DT_RPATH counts only where there is no DT_RUNPATH */
	if (dyn && dyn->has_rpath && !runpath && in_list(s, dyn->rpath, origin, name, path, size))
		return NCCL_LOAD_RPATH;
	if (in_list(s, s->library_path, NULL, name, path, size))
		return NCCL_LOAD_LD_LIBRARY_PATH;
	if (runpath && in_list(s, dyn->runpath, origin, name, path, size))
		return NCCL_LOAD_RUNPATH;
	return system_search(s, name, path, size);
}
