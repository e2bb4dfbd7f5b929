// SPDX-License-Identifier: GPL-2.0-only
/* Byte sizes with binary suffixes. Every suffix is a power of 1024: a message size of "64KB" that meant
 * 64000 bytes would be a size nobody tests with, so KB is read as the KiB people mean by it. */
#include "util/byte_size.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

int byte_size_parse(const char *text, uint64_t max, uint64_t *bytes)
{
	static const struct { const char *suffix; unsigned shift; } units[] = {
		{ "", 0 },     { "B", 0 },    { "K", 10 },  { "KB", 10 }, { "KiB", 10 },
		{ "M", 20 },   { "MB", 20 },  { "MiB", 20 },
	};
	unsigned long long v;
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno)
		return -ERANGE;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suffix) != 0)
			continue;
		if (v > max >> units[i].shift)
			return -ERANGE;
		*bytes = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}
