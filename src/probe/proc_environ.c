// SPDX-License-Identifier: GPL-2.0-only
/* /proc/PID/environ into an envp array that points into the file's own buffer. */
#include "probe/proc_environ.h"

#include <string.h>

int proc_environ_read(const struct rootfs *root, const char *rel, char *buf, size_t size, char **envp, size_t max)
{
	size_t n = 0;
	int len;

	envp[0] = NULL;
	if (size < 2)
		return 0;
	len = rootfs_read(root, buf, size - 1, "%s", rel);
	if (len < 0)
		return len;
	buf[len] = '\0';   /* a last string without its NUL (a truncated read) still ends */
	for (char *s = buf; s < buf + len && n < max; s += strlen(s) + 1)
		if (*s)
			envp[n++] = s;
	envp[n] = NULL;
	return (int)n;
}
