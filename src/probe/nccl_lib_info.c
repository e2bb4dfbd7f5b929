// SPDX-License-Identifier: GPL-2.0-only
/* A library's version from three witnesses that can disagree: the banner NCCL prints (in .rodata), the file
 * name the packager chose, and the package database. The banner is the one NCCL itself reports. */
#include "probe/nccl_lib_info.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/elf_nccl_version.h"
#include "probe/text_file.h"

#define DPKG_LISTS_MAX 65536          /* files in /var/lib/dpkg/info (a desktop has ~10,000) */
#define DPKG_LIST_BYTES (4u << 20)
#define DPKG_STATUS_BYTES (64u << 20)
#define SITE_ENTRIES_MAX 100000

void nccl_name_version(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/');
	struct elf_nccl_version v;
	char banner[96];

	out[0] = '\0';
	base = base ? base + 1 : path;
	if (strncmp(base, "libnccl.so.", 11) != 0)
		return;
	/* The same digits-and-dots rule as the banner's. */
	snprintf(banner, sizeof(banner), "NCCL version %s", base + 11);
	if (nccl_banner_parse(banner, strlen(banner), &v) == 0 && strlen(base + 11) == strlen(v.version))
		snprintf(out, size, "%s", v.version);
}

void nccl_lib_read_version(int fd, struct nccl_lib *lib, struct notes *notes)
{
	struct elf_nccl_version v;
	struct stat st;
	int ret;

	nccl_name_version(lib->real_path, lib->name_version, sizeof(lib->name_version));
	ret = fstat(fd, &st) < 0 ? -errno : 0;
	if (ret == 0 && lib->kind == NCCL_LIB_CORE)
		ret = elf_nccl_version_read(fd, (size_t)st.st_size, &v);
	if (ret == 0 && lib->kind == NCCL_LIB_CORE) {
		snprintf(lib->elf_version, sizeof(lib->elf_version), "%s", v.version);
		snprintf(lib->cuda, sizeof(lib->cuda), "%s", v.cuda);
	} else if (ret == -ENOEXEC) {
		notes_add(notes, "%s: not an ELF file; its NCCL version is not read from it", lib->real_path);
	} else if (ret == -EBADMSG) {
		notes_add(notes, "%s: truncated or damaged ELF headers; its NCCL version is not read from it",
			  lib->real_path);
	} else if (ret == -ENOENT) {
		notes_add(notes, "%s: no \"NCCL version X.Y.Z\" string in its .rodata", lib->real_path);
	} else if (ret < 0) {
		notes_add(notes, "cannot read %s: %s", lib->real_path, strerror(-ret));
	}
	snprintf(lib->version, sizeof(lib->version), "%s", lib->elf_version[0] ? lib->elf_version : lib->name_version);
}

/* "Name: x" / "Version: y" header lines of a METADATA file (RFC 822 style: the headers end at a blank line). */
static void metadata_fields(struct text_file *f, char *name, size_t name_size, char *version, size_t version_size)
{
	char *line;

	while ((line = text_file_next(f)) && line[0]) {
		if (strncmp(line, "Name: ", 6) == 0)
			snprintf(name, name_size, "%s", line + 6);
		else if (strncmp(line, "Version: ", 9) == 0)
			snprintf(version, version_size, "%s", line + 9);
	}
}

void nccl_lib_wheel(const struct rootfs *root, const char *site, struct nccl_lib *lib, struct notes *notes)
{
	char **names = NULL, rel[NCCL_LIB_PATH_MAX + 128];
	size_t count = 0;
	int ret = dir_names(root, site, ".dist-info", SITE_ENTRIES_MAX, &names, &count);

	if (ret == -E2BIG)
		notes_add(notes, "%s: more than %u .dist-info directories; only the first are looked at", site,
			  SITE_ENTRIES_MAX);
	for (size_t i = 0; i < count; i++) {
		char name[64] = "", version[64] = "";
		struct text_file f;

		/* nvidia_nccl_cu12-2.21.5.dist-info, nvidia_nccl_cu13-2.28.9.dist-info */
		if (strncmp(names[i], "nvidia_nccl_cu", 14) != 0)
			continue;
		snprintf(rel, sizeof(rel), "%s/%s/METADATA", site, names[i]);
		ret = text_file_read(root, rel, 1u << 20, &f);
		if (ret < 0) {
			notes_add(notes, "cannot read %s: %s", rel, strerror(-ret));
			continue;
		}
		metadata_fields(&f, name, sizeof(name), version, sizeof(version));
		text_file_free(&f);
		if (!name[0] || !version[0]) {
			notes_add(notes, "%s: no Name: or Version: line", rel);
			continue;
		}
		snprintf(lib->package_manager, sizeof(lib->package_manager), "pip");
		snprintf(lib->package_name, sizeof(lib->package_name), "%s", name);
		snprintf(lib->package_version, sizeof(lib->package_version), "%s", version);
		if (!lib->version[0])
			snprintf(lib->version, sizeof(lib->version), "%s", version);
		break;
	}
	names_free(names, count);
}

/* The SONAME link beside a library's real file ("/usr/lib/x86_64-linux-gnu/libnccl.so.2"); "" when it has
 * no SONAME or its file cannot be read (its notes were given when it was found). */
static void soname_link(const struct rootfs *root, const struct nccl_lib *lib, char *out, size_t size)
{
	static struct elf_dynamic dyn;   /* 16 KB: not on the stack */
	const char *slash = strrchr(lib->real_path, '/');
	struct stat st;
	int fd = rootfs_open_file(root, lib->real_path, NULL, 0);

	out[0] = '\0';
	if (fd < 0)
		return;
	if (slash && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    elf_dynamic_read(fd, (size_t)st.st_size, &dyn) == 0 && dyn.soname[0] && !strchr(dyn.soname, '/'))
		snprintf(out, size, "%.*s/%s", (int)(slash - lib->real_path), lib->real_path, dyn.soname);
	close(fd);
}

/* The Version: of package's paragraph in dpkg's status file. */
static void dpkg_version(const struct rootfs *root, const char *package, char *out, size_t size,
			 struct notes *notes)
{
	struct text_file f;
	bool in = false;
	char *line;
	int ret = text_file_read(root, "/var/lib/dpkg/status", DPKG_STATUS_BYTES, &f);

	if (ret < 0) {
		notes_add(notes, "cannot read /var/lib/dpkg/status: %s", strerror(-ret));
		return;
	}
	while ((line = text_file_next(&f))) {
		if (strncmp(line, "Package: ", 9) == 0)
			in = strcmp(line + 9, package) == 0;
		else if (in && strncmp(line, "Version: ", 9) == 0) {
			snprintf(out, size, "%s", line + 9);
			break;
		}
	}
	text_file_free(&f);
}

static void set_owner(const struct rootfs *root, struct nccl_lib *lib, const char *package, struct notes *notes)
{
	snprintf(lib->package_manager, sizeof(lib->package_manager), "dpkg");
	snprintf(lib->package_name, sizeof(lib->package_name), "%s", package);
	dpkg_version(root, package, lib->package_version, sizeof(lib->package_version), notes);
	/* "2.28.3-1+cuda13.0": the upstream version is what precedes the Debian revision. */
	if (!lib->version[0])
		snprintf(lib->version, sizeof(lib->version), "%.*s", (int)strcspn(lib->package_version, "-"),
			 lib->package_version);
}

/* The owner of a library is the package that owns its real file, else the one that owns its SONAME link: never
 * one that ships only another link to it (libnccl-dev's libnccl.so), however the library was found. */
void nccl_libs_dpkg(const struct rootfs *root, struct nccl_libs *libs, struct notes *notes)
{
	char **names = NULL, (*links)[NCCL_LIB_PATH_MAX] = NULL, (*by_link)[64] = NULL;
	size_t count = 0;
	int ret;

	if (libs->count == 0)
		return;
	links = calloc(libs->count, sizeof(*links));
	by_link = calloc(libs->count, sizeof(*by_link));
	if (!links || !by_link)
		goto out;
	for (size_t i = 0; i < libs->count; i++)
		if (!libs->items[i].package_manager[0])
			soname_link(root, &libs->items[i], links[i], sizeof(links[i]));
	ret = dir_names(root, "/var/lib/dpkg/info", ".list", DPKG_LISTS_MAX, &names, &count);
	if (ret == -E2BIG)
		notes_add(notes, "/var/lib/dpkg/info: more than %u .list files; only the first are looked at",
			  DPKG_LISTS_MAX);
	for (size_t i = 0; i < count; i++) {
		char rel[512], package[64];
		struct text_file f;
		char *line;

		if (strncmp(names[i], "libnccl", 7) != 0)
			continue;
		/* libnccl2.list, or libnccl2:amd64.list on a multi-arch system */
		snprintf(package, sizeof(package), "%.*s", (int)strcspn(names[i], ":."), names[i]);
		snprintf(rel, sizeof(rel), "/var/lib/dpkg/info/%s", names[i]);
		if (text_file_read(root, rel, DPKG_LIST_BYTES, &f) < 0)
			continue;
		while ((line = text_file_next(&f)))
			for (size_t j = 0; j < libs->count; j++) {
				struct nccl_lib *lib = &libs->items[j];

				if (lib->package_manager[0])
					continue;
				if (strcmp(lib->real_path, line) == 0)
					set_owner(root, lib, package, notes);
				else if (links[j][0] && !by_link[j][0] && strcmp(links[j], line) == 0)
					snprintf(by_link[j], sizeof(by_link[j]), "%s", package);
			}
		text_file_free(&f);
	}
	for (size_t j = 0; j < libs->count; j++)
		if (!libs->items[j].package_manager[0] && by_link[j][0])
			set_owner(root, &libs->items[j], by_link[j], notes);
	names_free(names, count);
out:
	free(links);
	free(by_link);
}
