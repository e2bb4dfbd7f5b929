// SPDX-License-Identifier: GPL-2.0-only
/* Reading --from's file: the one place the snapshot's text comes in, capped so a wrong file (a disk image, a
 * device) costs at most SNAPSHOT_TEXT_MAX of memory before it is refused. */
#include "cmd/snapshot_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_capped(int fd, char **text, size_t *len)
{
	size_t size = 64 * 1024, used = 0;
	char *buf = malloc(size);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (used == size) {
			char *bigger;

			if (size > SNAPSHOT_TEXT_MAX) {
				free(buf);
				return -EFBIG;
			}
			bigger = realloc(buf, size * 2);
			if (!bigger) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + used, size - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > SNAPSHOT_TEXT_MAX) {
			free(buf);
			return -EFBIG;
		}
	}
	*text = buf;
	*len = used;
	return 0;
}

int snapshot_file_read(const char *path, struct snapshot *s, char *why, size_t why_size)
{
	const bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "(stdin)" : path;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char detail[768];
	char *text = NULL;
	size_t len = 0;
	int ret;

	struct stat st;

	memset(s, 0, sizeof(*s));
	if (fd < 0)
		ret = -errno;
	else if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)SNAPSHOT_TEXT_MAX)
		ret = -EFBIG;   /* refused before reading: a pipe is capped while it is read */
	else
		ret = read_capped(fd, &text, &len);
	if (fd >= 0 && !is_stdin)
		close(fd);
	if (ret == -EFBIG) {
		snprintf(why, why_size, "cannot read snapshot %s: larger than %u MiB", name, SNAPSHOT_TEXT_MAX >> 20);
		return ret;
	}
	if (ret < 0) {
		snprintf(why, why_size, "cannot read snapshot %s: %s", name, strerror(-ret));
		return ret;
	}
	ret = snapshot_parse(text, len, s, detail, sizeof(detail));
	free(text);
	if (ret < 0)
		snprintf(why, why_size, "snapshot %s: %s", name, ret == -EINVAL ? detail : strerror(-ret));
	return ret;
}
