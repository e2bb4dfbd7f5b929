// SPDX-License-Identifier: GPL-2.0-only
/* Every host file read goes through here, so a whole host can be replayed from a directory (--root). */
#ifndef ROCE_DOCTOR_ROOTFS_H
#define ROCE_DOCTOR_ROOTFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

struct rootfs {
	int fd;             /* directory fd of the root */
	bool live;          /* true when the root is "/": netlink and verbs data describe this host */
	char prefix[4096];  /* shown in messages before each path; empty for the live host */
};

/* dir == NULL means the running host ("/"). */
int rootfs_open(struct rootfs *root, const char *dir);
void rootfs_close(struct rootfs *root);

/* Reads a small text file (sysfs attribute, config file) relative to the root, symlinks resolved inside it.
 * Strips one trailing newline. Returns its length, or -errno; -EOVERFLOW when it does not fit in buf. */
int rootfs_read(const struct rootfs *root, char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* 0 when fd is a regular file; -EISDIR for a directory; -EINVAL for anything else (FIFO, socket, device): what
 * a reader of a replayed tree checks after an O_NONBLOCK open, before it reads. */
int rootfs_regular_file(int fd);

/* The last path component of a symlink's target (a PCI address, a driver name). */
int rootfs_link_name(const struct rootfs *root, char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Opens a directory relative to the root; NULL with errno set on failure. */
DIR *rootfs_opendir(const struct rootfs *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether a path exists (no follow of the final component needed). */
bool rootfs_exists(const struct rootfs *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens a file (read-only, symlinks resolved inside the root) for reading it whole or in parts (a library, a
 * binary cache). real (NULL: not wanted) gets the path the links led to, as seen inside the root ("/usr/lib/..").
 * The fd, or -errno (-ELOOP: a symlink loop). */
int rootfs_open_file(const struct rootfs *root, const char *rel, char *real, size_t real_size);

/* The path as the user should see it in a message: the root prefix plus "/rel". */
const char *rootfs_display(const struct rootfs *root, char *buf, size_t size, const char *rel);

#endif
