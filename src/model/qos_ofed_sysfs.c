// SPDX-License-Identifier: GPL-2.0-only
/* MLNX_OFED's qos sysfs texts (mlx5_core's en_sysfs.c: mlx5e_show_prio2buffer, mlx5e_show_buffer_size). A row
 * out of place, a value out of range or a table short of 8 rows leaves the model as it was: half a buffer map
 * would let a rule judge a priority by a buffer nobody read. */
#include "model/qos_ofed_sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Up to max unsigned numbers from s, each at most limit; -1 when something else is on the line. */
static int numbers(const char *s, unsigned long long limit, unsigned long long *v, int max)
{
	int n = 0;

	for (;;) {
		char *end;

		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\0' || *s == '\n')
			return n;
		if (!isdigit((unsigned char)*s) || n == max)
			return -1;
		errno = 0;
		v[n] = strtoull(s, &end, 10);
		if (errno || v[n] > limit)
			return -1;
		n++;
		s = end;
	}
}

/* The next line of *text into line (cut at its size), advancing *text; false at the end. */
static bool next_line(const char **text, char *line, size_t size)
{
	size_t n;

	if (!**text)
		return false;
	n = strcspn(*text, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(line, *text, n);
	line[n] = '\0';
	*text += strcspn(*text, "\n");
	if (**text == '\n')
		++*text;
	return true;
}

bool qos_ofed_prio2buffer(const char *text, struct qos_dcb *dcb)
{
	uint8_t map[QOS_PRIOS];
	unsigned seen = 0;
	char line[128];

	while (next_line(&text, line, sizeof(line))) {
		unsigned long long v[2];
		int n = numbers(line, UINT32_MAX, v, 2);

		if (n == 0 || isalpha((unsigned char)line[0]))   /* the "Priority\tBuffer" header */
			continue;
		if (n != 2 || v[0] >= QOS_PRIOS || v[1] >= QOS_PRIOS || (seen >> v[0] & 1))
			return false;
		map[v[0]] = (uint8_t)v[1];
		seen |= 1u << v[0];
	}
	if (seen != (1u << QOS_PRIOS) - 1)
		return false;
	memcpy(dcb->prio_buffer, map, sizeof(map));
	dcb->buffer_known = true;
	return true;
}

/* "Port buffer size = 262016": the number after '=' when line starts with name. */
static bool named_size(const char *line, const char *name, uint32_t *out)
{
	unsigned long long v;
	const char *eq;

	if (strncmp(line, name, strlen(name)) != 0 || !(eq = strchr(line, '=')))
		return false;
	if (numbers(eq + 1, UINT32_MAX, &v, 1) != 1)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool qos_ofed_buffer_size(const char *text, struct qos_dcb *dcb)
{
	uint32_t size[QOS_PRIOS], xoff[QOS_PRIOS], port = 0, spare = 0;
	unsigned seen = 0;
	char line[160];

	while (next_line(&text, line, sizeof(line))) {
		unsigned long long v[4];
		int n;

		/* the sizes above the table, its header, and any line a later release adds there */
		if (named_size(line, "Port buffer size", &port) || named_size(line, "Spare buffer size", &spare) ||
		    isalpha((unsigned char)line[0]))
			continue;
		n = numbers(line, UINT32_MAX, v, 4);
		if (n == 0)
			continue;
		if (n != 4 || v[0] >= QOS_PRIOS || (seen >> v[0] & 1))
			return false;
		size[v[0]] = (uint32_t)v[1];
		xoff[v[0]] = (uint32_t)v[2];
		seen |= 1u << v[0];
	}
	if (seen != (1u << QOS_PRIOS) - 1)
		return false;
	memcpy(dcb->buffer_size, size, sizeof(size));
	memcpy(dcb->buffer_xoff, xoff, sizeof(xoff));
	dcb->buffer_size_known = dcb->buffer_xoff_known = true;
	dcb->port_buffer_size = port;
	dcb->spare_buffer_size = spare;
	return true;
}

enum qos_trust qos_ofed_trust(const char *text)
{
	size_t n;

	while (*text == ' ' || *text == '\t')
		text++;
	n = strcspn(text, " \t\r\n");
	if (n == 3 && !strncmp(text, "pcp", 3))
		return QOS_TRUST_PCP;
	if (n == 4 && !strncmp(text, "dscp", 4))
		return QOS_TRUST_DSCP;
	return QOS_TRUST_UNKNOWN;
}
