// SPDX-License-Identifier: GPL-2.0-only
/* --secret-file: like ssh with a private key, a secret that others on the host can read is refused rather
 * than warned about: a warning scrolls by, and the secret would already be shared with every local user. */
#include "util/secret_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/hmac.h"

int secret_read(const char *path, struct secret *out, char *why, size_t why_size)
{
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot open --secret-file %s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot stat --secret-file %s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(why, why_size, "--secret-file %s is not a regular file", path);
	} else if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		ret = -EPERM;
		snprintf(why, why_size, "--secret-file %s can be %s by %s (mode %04o): refused; run chmod 600 %s", path,
			 st.st_mode & (S_IRGRP | S_IROTH) ? "read" : "written",
			 (st.st_mode & S_IRWXG) && (st.st_mode & S_IRWXO) ? "group and others" :
			 st.st_mode & S_IRWXG ? "its group" : "others", (unsigned)(st.st_mode & 07777), path);
	}
	if (ret)
		goto out;
	/* a full buffer: one more byte tells "at the limit" from "over it" */
	n = read(fd, out->bytes, sizeof(out->bytes));
	if (n < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot read --secret-file %s: %s", path, strerror(errno));
	} else if (n == (ssize_t)sizeof(out->bytes) && read(fd, &(char){ 0 }, 1) > 0) {
		ret = -EINVAL;
		snprintf(why, why_size, "--secret-file %s is over %d bytes", path, SECRET_MAX);
	} else if (n < SECRET_MIN) {
		ret = -EINVAL;
		snprintf(why, why_size, "--secret-file %s holds %zd bytes, at least %d are needed (head -c 32 "
			 "/dev/urandom | base64 > %s makes one)", path, n, SECRET_MIN, path);
	} else {
		out->len = (size_t)n;
	}
out:
	close(fd);
	if (ret)
		secret_clear(out);
	return ret;
}

int secret_from_text(const char *name, const char *text, struct secret *out, char *why, size_t why_size)
{
	size_t n = strlen(text);

	memset(out, 0, sizeof(*out));
	if (n < SECRET_MIN || n > SECRET_MAX) {
		snprintf(why, why_size, "%s holds %zu bytes: expected %d to %d (export %s=$(head -c 32 /dev/urandom | "
			 "base64) makes one)", name, n, SECRET_MIN, SECRET_MAX, name);
		return -EINVAL;
	}
	memcpy(out->bytes, text, n);
	out->len = n;
	return 0;
}

void secret_clear(struct secret *s)
{
	wipe(s, sizeof(*s));
}
