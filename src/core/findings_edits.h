// SPDX-License-Identifier: GPL-2.0-only
/* Two findings of one report never give two different edits of one line or one variable: pure, on the findings'
 * fix text alone. */
#ifndef ROCE_DOCTOR_FINDINGS_EDITS_H
#define ROCE_DOCTOR_FINDINGS_EDITS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/findings.h"

/* What one fix line edits: "export NAME=V" and "unset NAME" the variable NAME of the job's environment,
 * "sed -i 'Ns|.*|TEXT|' FILE" and "sed -i 'Nd' FILE" line N of FILE. key: "NAME" or "FILE:N"; value: what the line
 * becomes ("" for unset or deleted). false for any other line. */
bool fix_line_edit(const char *line, char *key, size_t key_size, char *value, size_t value_size);

/* Where two non-ok findings edit one target differently, the edit of the worse finding (the earlier of equals)
 * stands and the other's line becomes a '#' comment that names that finding and what this one would have
 * written, to be checked again after that fix. 0 or -ENOMEM (a fix then stays as it was). */
int findings_unify_edits(struct findings *f);

#endif
