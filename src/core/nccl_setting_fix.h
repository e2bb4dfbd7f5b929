// SPDX-License-Identifier: GPL-2.0-only
/* How an NCCL setting is changed where it comes from: the job's environment is changed in its launcher (the shell,
 * the sbatch script, the pod spec) with export or unset, a line of nccl.conf in place with sed. One place that
 * builds that text for check, check --peer and compare. Pure. */
#ifndef ROCE_DOCTOR_NCCL_SETTING_FIX_H
#define ROCE_DOCTOR_NCCL_SETTING_FIX_H

#include <stdbool.h>
#include <stddef.h>

/* Whether source ("environment", "/etc/nccl.conf:3", "/proc/self/environ") is the job's environment. A captured
 * /proc/PID/environ (a --root tree, a snapshot of one) is the environment the job had, never a file to edit. NULL:
 * not set anywhere, so the environment is where to set it. */
bool nccl_source_is_environment(const char *source);

/* "/etc/nccl.conf:3" -> file "/etc/nccl.conf", line 3 (0 when the source names no line); false for the
 * environment. */
bool nccl_source_file_line(const char *source, char *file, size_t size, unsigned *line);

/* One shell line that makes NCCL see name=value where source set it (value NULL: unset it there):
 * "export NAME=VALUE", "unset NAME   # in the job's launcher ...", "sed -i '3s|.*|NAME=VALUE|' /etc/nccl.conf",
 * "sed -i '3d' /etc/nccl.conf". */
void nccl_setting_fix(const char *source, const char *name, const char *value, char *buf, size_t size);

#endif
