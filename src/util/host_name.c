// SPDX-License-Identifier: GPL-2.0-only
/* A malformed peer is the user's typo, not a resolver failure: it gets a usage error, not "cannot resolve". */
#include "util/host_name.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_ipv6(const char *text)
{
	char copy[64];
	struct in6_addr a;
	size_t len = strcspn(text, "%");

	if (len >= sizeof(copy) || (text[len] && !text[len + 1]))
		return false;
	memcpy(copy, text, len);
	copy[len] = '\0';
	return inet_pton(AF_INET6, copy, &a) == 1;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

int host_name_check(const char *text)
{
	struct in_addr a4;
	size_t total = strlen(text);
	const char *label = text;
	bool numeric = true;

	if (inet_pton(AF_INET, text, &a4) == 1 || is_ipv6(text))
		return 0;
	if (total > 1 && text[total - 1] == '.')
		total--;                     /* "node1." is the fully qualified "node1" */
	if (total == 0 || total > 253)
		return -EINVAL;
	for (size_t i = 0; i <= total; i++) {
		size_t len = (size_t)(text + i - label);

		if (i < total && text[i] != '.') {
			if (!name_char(text[i]))
				return -EINVAL;
			numeric &= text[i] >= '0' && text[i] <= '9';
			continue;
		}
		if (len == 0 || len > 63 || label[0] == '-' || label[len - 1] == '-')
			return -EINVAL;
		if (i < total) {
			label = text + i + 1;
			numeric = true;
		}
	}
	/* "10.0.0" or "1.2.3.999": an all-digit last label means an address was meant, and it is not one. */
	return numeric ? -EINVAL : 0;
}
