// SPDX-License-Identifier: GPL-2.0-only
/* The `ethtool -S` line reader. Strict on purpose: a pasted line with a remark after the value, or a queue's
 * "rxq0: rx_bytes: 1", is not a statistic, so it never lands in a per-priority counter by accident. */
#include "model/ethtool_text.h"

#include <ctype.h>

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

bool ethtool_text_stat(const char *line, struct ethtool_text_stat *out)
{
	const char *s = line, *name;
	uint64_t v = 0;
	size_t n = 0, digits = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	name = s;
	if (!isalpha((unsigned char)*name))
		return false;
	while (name_char(name[n]) && n <= ETHTOOL_TEXT_NAME_MAX)
		n++;
	if (n > ETHTOOL_TEXT_NAME_MAX || name[n] != ':')
		return false;
	for (s = name + n + 1; *s == ' ' || *s == '\t'; s++)
		;
	for (; isdigit((unsigned char)*s); s++, digits++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;   /* over 64 bits */
		v = v * 10 + d;
	}
	if (digits == 0)
		return false;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (*s)
		return false;
	out->name = name;
	out->len = n;
	out->value = v;
	out->indented = name != line;
	return true;
}
