// SPDX-License-Identifier: GPL-2.0-only
/* The archive of fuzz_tree.h unpacked into a directory that is emptied before each input. */
#include "fuzz_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_MAX_LEN 512
#define DEPTH_MAX 24

static char tree_dir[256];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

static void empty_tree(void)
{
	nftw(tree_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_tree(void)
{
	empty_tree();
	rmdir(tree_dir);
}

static int make_tree(void)
{
	const char *tmp = getenv("TMPDIR");

	if (tree_dir[0])
		return 0;
	snprintf(tree_dir, sizeof(tree_dir), "%s/roce-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tree_dir)) {
		tree_dir[0] = '\0';
		return -errno;
	}
	atexit(remove_tree);
	return 0;
}

/* Whether rel is a path we may create: relative, no "." or ".." or empty components, bounded. */
static bool path_ok(const char *rel)
{
	unsigned depth = 0;

	if (!*rel || strlen(rel) >= PATH_MAX_LEN)
		return false;
	for (const char *p = rel; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.') || ++depth > DEPTH_MAX)
			return false;
		p += n;
		if (*p == '/')
			p++;
	}
	return rel[strlen(rel) - 1] != '/';
}

/* mkdir -p of rel's parents inside the tree. A parent that is a file, or a symlink (which could lead out of the
 * tree: the fuzzer writes links too), makes the record fail. */
static int make_parents(int dirfd, const char *rel)
{
	char path[PATH_MAX_LEN];
	struct stat st;

	snprintf(path, sizeof(path), "%s", rel);
	for (char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdirat(dirfd, path, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		*slash = '/';
	}
	return 0;
}

static void add_record(int dirfd, const char *header, size_t header_len, const uint8_t *content, size_t len)
{
	char line[2 * PATH_MAX_LEN], *arrow;
	int fd;

	if (header_len >= sizeof(line))
		return;
	memcpy(line, header, header_len);
	line[header_len] = '\0';
	if (strlen(line) != header_len)
		return;   /* a NUL in a name */
	arrow = strstr(line, " -> ");
	if (arrow)
		*arrow = '\0';
	while (line[0] == '/')
		memmove(line, line + 1, strlen(line));
	if (!path_ok(line) || make_parents(dirfd, line) < 0)
		return;
	if (arrow) {
		(void)symlinkat(arrow + 4, dirfd, line);
		return;
	}
	fd = openat(dirfd, line, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, content, len) != (ssize_t)len)
		perror("fuzz_tree: write");
	close(fd);
}

/* The start of the next header line at or after pos (pos at a line start), or size. */
static size_t next_header(const uint8_t *data, size_t size, size_t pos)
{
	while (pos < size) {
		const uint8_t *nl;

		if (size - pos >= 3 && memcmp(data + pos, "== ", 3) == 0)
			return pos;
		nl = memchr(data + pos, '\n', size - pos);
		if (!nl)
			return size;
		pos = (size_t)(nl - data) + 1;
	}
	return size;
}

const char *fuzz_tree_unpack(const uint8_t *data, size_t size, const uint8_t **preamble, size_t *preamble_len)
{
	size_t pos, records = 0;
	int dirfd;

	if (make_tree() < 0)
		return NULL;
	empty_tree();
	dirfd = open(tree_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return NULL;
	pos = next_header(data, size, 0);
	*preamble = data;
	*preamble_len = pos;
	while (pos < size && records++ < FUZZ_TREE_RECORDS_MAX) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t header_end = nl ? (size_t)(nl - data) : size;
		size_t content = header_end < size ? header_end + 1 : size;
		size_t end = next_header(data, size, content);

		add_record(dirfd, (const char *)data + pos + 3, header_end - pos - 3, data + content, end - content);
		pos = end;
	}
	close(dirfd);
	return tree_dir;
}
