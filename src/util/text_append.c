// SPDX-License-Identifier: GPL-2.0-only
/* One bounded appender, so each message builder does not carry its own. */
#include "util/text_append.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void text_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}
