// SPDX-License-Identifier: GPL-2.0-only
/* Writing a rendered document so that no reader ever sees half of it: the rename for files, exit 3 for a
 * stdout that cannot take it. */
#include "output/document_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool stdout_was_closed;

void sink_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int null;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* open() returns the lowest free descriptor: this one. */
		null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (null >= 0 && null != fd)
			close(null);
		if (fd == STDOUT_FILENO)
			stdout_was_closed = true;
	}
}

/* Every byte, or -errno; EINTR retried. */
static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_stdout(const char *data, size_t len, char *why, size_t why_size)
{
	struct stat st;
	off_t start = -1;
	int ret;

	if (stdout_was_closed) {
		snprintf(why, why_size, "cannot write the output: stdout is closed");
		return -EBADF;
	}
	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode))
		start = lseek(STDOUT_FILENO, 0, SEEK_CUR);
	ret = write_all(STDOUT_FILENO, data, len);
	if (ret < 0) {
		/* A file keeps no half document: what this run wrote is cut off again (best effort). */
		if (start >= 0 && ftruncate(STDOUT_FILENO, start) < 0)
			snprintf(why, why_size, "cannot write the output to stdout: %s (and cannot remove the part "
				 "written: %s)", strerror(-ret), strerror(errno));
		else
			snprintf(why, why_size, "cannot write the output to stdout: %s", strerror(-ret));
	}
	return ret;
}

/* The mode a plain creat() would give: 0666 less the umask (mkstemp makes 0600, which a collector running as
 * another user could not read). */
static mode_t file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

static int write_file(const char *path, const char *data, size_t len, char *why, size_t why_size)
{
	char *copy_dir = strdup(path), *copy_base = strdup(path), *tmp = NULL;
	const char *step = "create a temporary file for";
	int fd = -1, ret = 0;

	if (!copy_dir || !copy_base || asprintf(&tmp, "%s/.%s.XXXXXX", dirname(copy_dir), basename(copy_base)) < 0) {
		tmp = NULL;
		ret = -ENOMEM;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		tmp = NULL;   /* nothing to remove */
		goto out;
	}
	step = "write";
	ret = write_all(fd, data, len);
	if (ret == 0 && fchmod(fd, file_mode()) < 0)
		ret = -errno;
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	/* close() is where some filesystems (NFS) report a failed write first. */
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	fd = -1;
	if (ret == 0) {
		step = "rename the temporary file onto";
		if (rename(tmp, path) < 0)
			ret = -errno;
	}
out:
	if (ret < 0) {
		snprintf(why, why_size, "cannot %s %s: %s", step, path, strerror(-ret));
		if (tmp)
			unlink(tmp);
	}
	if (fd >= 0)
		close(fd);
	free(tmp);
	free(copy_dir);
	free(copy_base);
	return ret;
}

int sink_write(const char *path, const char *data, size_t len, char *why, size_t why_size)
{
	signal(SIGPIPE, SIG_IGN);
	return path ? write_file(path, data, len, why, why_size) : write_stdout(data, len, why, why_size);
}
