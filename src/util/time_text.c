// SPDX-License-Identifier: GPL-2.0-only
/* The one timestamp format: RFC 3339, UTC, seconds, Z. */
#include "util/time_text.h"

void time_text(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (gmtime_r(&t, &tm) && strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		buf[0] = '\0';
}
