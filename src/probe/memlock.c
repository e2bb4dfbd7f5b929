// SPDX-License-Identifier: GPL-2.0-only
/* The process's RLIMIT_MEMLOCK as the kernel reports it in /proc/self/limits. */
#include "probe/memlock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define LIMITS_FILE_MAX 8192

static int parse_limit_word(const char *word, struct memlock_value *v)
{
	char *end;

	memset(v, 0, sizeof(*v));
	if (strcmp(word, "unlimited") == 0) {
		v->unlimited = true;
		return 0;
	}
	if (word[0] < '0' || word[0] > '9')
		return -EINVAL;
	errno = 0;
	v->bytes = strtoull(word, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int memlock_rlimit_read(const struct rootfs *root, struct memlock_rlimit *out)
{
	static const char key[] = "Max locked memory";
	struct text_file f;
	char soft[32], hard[32], *line;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = text_file_read(root, "proc/self/limits", LIMITS_FILE_MAX, &f);
	if (ret < 0)
		return ret;
	ret = -ENODATA;
	while ((line = text_file_next(&f))) {
		if (strncmp(line, key, sizeof(key) - 1) != 0)
			continue;
		if (sscanf(line + sizeof(key) - 1, "%31s %31s", soft, hard) != 2 ||
		    parse_limit_word(soft, &out->soft) < 0 || parse_limit_word(hard, &out->hard) < 0) {
			ret = -EINVAL;
			break;
		}
		out->known = true;
		ret = 0;
		break;
	}
	text_file_free(&f);
	return ret;
}
