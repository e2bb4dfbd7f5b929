// SPDX-License-Identifier: GPL-2.0-only
/* Root-relative file access: openat2(RESOLVE_IN_ROOT) keeps even absolute symlinks inside a replayed tree. */
#include "util/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int rootfs_open(struct rootfs *root, const char *dir)
{
	const char *path = dir ? dir : "/";
	char real[PATH_MAX];

	root->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root->fd < 0)
		return -errno;
	if (!realpath(path, real)) {
		int err = -errno;
		close(root->fd);
		root->fd = -1;
		return err;
	}
	root->live = strcmp(real, "/") == 0;
	snprintf(root->prefix, sizeof(root->prefix), "%s", root->live ? "" : real);
	return 0;
}

void rootfs_close(struct rootfs *root)
{
	if (root->fd >= 0)
		close(root->fd);
	root->fd = -1;
}

static int format_rel(char *rel, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(rel, size, fmt, ap);

	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Kernels before 5.6 (and valgrind 3.19) lack openat2; then a plain openat of the relative path is the best
 * we can do: relative links still resolve inside the tree, absolute ones would not. Asked once per process. */
static int open_in_root(const struct rootfs *root, const char *rel, int flags)
{
	static bool no_openat2;
	struct open_how how = { .flags = (unsigned long long)(flags | O_CLOEXEC), .resolve = RESOLVE_IN_ROOT };
	int fd = -1;

	while (*rel == '/')
		rel++;
	/* EAGAIN: a rename elsewhere raced a ".." of the fixtures' relative links, and the kernel could not
	 * prove the walk stayed inside the root; openat2(2) says to retry. Bounded, so an attack cannot spin us. */
	for (int tries = 0; !no_openat2 && tries < 16; tries++) {
		fd = (int)syscall(SYS_openat2, root->fd, rel, &how, sizeof(how));
		if (fd < 0 && errno == ENOSYS)
			no_openat2 = true;
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (no_openat2)
		fd = openat(root->fd, rel, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int read_fd(int fd, char *buf, size_t size)
{
	size_t len = 0;
	char extra;

	if (size == 0)
		return -EINVAL;
	for (;;) {
		ssize_t n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == size - 1) {
			n = read(fd, &extra, 1);
			if (n > 0)
				return -EOVERFLOW;
			break;
		}
	}
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return (int)len;
}

int rootfs_regular_file(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return 0;
	return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
}

int rootfs_read(const struct rootfs *root, char *buf, size_t size, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int fd, ret;

	va_start(ap, fmt);
	ret = format_rel(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return ret;
	/* A FIFO in a replayed tree, or a hostile one in /etc, would block the open and then the read for ever:
	 * open without blocking and read regular files only (the kernel's sysfs and proc files are). A directory
	 * keeps read(2)'s EISDIR, which callers listing config directories skip. */
	fd = open_in_root(root, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return fd;
	ret = rootfs_regular_file(fd);
	if (ret == 0)
		ret = read_fd(fd, buf, size);
	close(fd);
	return ret;
}

int rootfs_link_name(const struct rootfs *root, char *buf, size_t size, const char *fmt, ...)
{
	char rel[PATH_MAX], target[PATH_MAX];
	const char *base, *name;
	char *slash;
	va_list ap;
	int dirfd, ret;
	ssize_t n;

	va_start(ap, fmt);
	ret = format_rel(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return ret;
	slash = strrchr(rel, '/');
	if (slash) {
		*slash = '\0';
		dirfd = open_in_root(root, rel, O_RDONLY | O_DIRECTORY | O_PATH);
		name = slash + 1;
	} else {
		dirfd = dup(root->fd);
		name = rel;
		if (dirfd < 0)
			dirfd = -errno;
	}
	if (dirfd < 0)
		return dirfd;
	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	ret = n < 0 ? -errno : 0;
	close(dirfd);
	if (ret < 0)
		return ret;
	if ((size_t)n >= sizeof(target))
		return -EOVERFLOW;
	target[n] = '\0';
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= size)
		return -EOVERFLOW;
	strcpy(buf, base);
	return (int)strlen(buf);
}

DIR *rootfs_opendir(const struct rootfs *root, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	DIR *dir;
	int fd, ret;

	va_start(ap, fmt);
	ret = format_rel(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	fd = open_in_root(root, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	dir = fdopendir(fd);
	if (!dir) {
		ret = errno;
		close(fd);
		errno = ret;
	}
	return dir;
}

bool rootfs_exists(const struct rootfs *root, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int fd, ret;

	va_start(ap, fmt);
	ret = format_rel(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return false;
	fd = open_in_root(root, rel, O_PATH);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

const char *rootfs_display(const struct rootfs *root, char *buf, size_t size, const char *rel)
{
	while (*rel == '/')
		rel++;
	snprintf(buf, size, "%s/%s", root->prefix, rel);
	return buf;
}

int rootfs_open_file(const struct rootfs *root, const char *rel, char *real, size_t real_size)
{
	char link[64], target[PATH_MAX];
	size_t plen = strlen(root->prefix);
	ssize_t n;
	int fd = open_in_root(root, rel, O_RDONLY | O_NOCTTY | O_NONBLOCK);

	if (fd < 0 || !real)
		return fd;
	/* The kernel knows where the links led: its name for the fd, less the root's own path. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0 || (size_t)n >= sizeof(target) - 1) {
		int err = n < 0 ? -errno : -ENAMETOOLONG;
		close(fd);
		return err;
	}
	target[n] = '\0';
	if (plen && (strncmp(target, root->prefix, plen) != 0 || (target[plen] != '/' && target[plen] != '\0'))) {
		close(fd);
		return -EXDEV;
	}
	if (snprintf(real, real_size, "%s", target[plen] ? target + plen : "/") >= (int)real_size) {
		close(fd);
		return -ENAMETOOLONG;
	}
	return fd;
}
