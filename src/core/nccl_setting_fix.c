// SPDX-License-Identifier: GPL-2.0-only
/* An NCCL setting's fix, by where it was set: the environment or a line of a file. */
#include "core/nccl_setting_fix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "environment", or a captured /proc/PID/environ (the job's environment as a --root tree or snapshot holds it). */
bool nccl_source_is_environment(const char *source)
{
	size_t len = source ? strlen(source) : 0;

	return !source || strcmp(source, "environment") == 0 ||
	       (len >= 8 && strcmp(source + len - 8, "/environ") == 0);
}

bool nccl_source_file_line(const char *source, char *file, size_t size, unsigned *line)
{
	const char *colon = source ? strrchr(source, ':') : NULL;
	char *end = NULL;
	unsigned long n = 0;

	if (nccl_source_is_environment(source))
		return false;
	if (colon && colon[1] >= '0' && colon[1] <= '9')
		n = strtoul(colon + 1, &end, 10);
	if (!end || *end || n == 0 || n > 0xffffffffUL) {
		colon = source + strlen(source);   /* a file without a line: the setting is found by its name */
		n = 0;
	}
	snprintf(file, size, "%.*s", (int)(colon - source), source);
	*line = (unsigned)n;
	return true;
}

void nccl_setting_fix(const char *source, const char *name, const char *value, char *buf, size_t size)
{
	char file[300];
	unsigned line;

	if (nccl_source_file_line(source, file, sizeof(file), &line)) {
		if (value && line)
			snprintf(buf, size, "sed -i '%us|.*|%s=%s|' %s", line, name, value, file);
		else if (value)
			snprintf(buf, size, "sed -i 's|^%s=.*|%s=%s|' %s", name, name, value, file);
		else if (line)
			snprintf(buf, size, "sed -i '%ud' %s", line, file);
		else
			snprintf(buf, size, "sed -i '/^%s=/d' %s", name, file);
	} else if (value) {
		snprintf(buf, size, "export %s=%s", name, value);
	} else {
		snprintf(buf, size, "unset %s   # in the job's launcher: its shell, sbatch script or pod spec", name);
	}
}
