// SPDX-License-Identifier: GPL-2.0-only
/* --from FILE: reads a snapshot document from a file or stdin ("-"), size-capped, and validates it whole. */
#ifndef ROCE_DOCTOR_CMD_SNAPSHOT_FILE_H
#define ROCE_DOCTOR_CMD_SNAPSHOT_FILE_H

#include <stddef.h>

#include "model/snapshot_json.h"

/* 0; or -errno when the file cannot be read (-EFBIG past SNAPSHOT_TEXT_MAX), -EINVAL when it is not a valid
 * snapshot, each with one line in why naming the file (and line) and the member. On error *s is empty. */
int snapshot_file_read(const char *path, struct snapshot *s, char *why, size_t why_size);

#endif
