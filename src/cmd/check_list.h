// SPDX-License-Identifier: GPL-2.0-only
/* check --list: every id check can emit, with its area and what it looks at. */
#ifndef ROCE_DOCTOR_CHECK_LIST_H
#define ROCE_DOCTOR_CHECK_LIST_H

#include "cmd/common.h"
#include "core/findings.h"

/* Prints the catalog ids that --only/--skip (in wanted) keep, as text or JSON. Returns the exit code. */
int check_list_emit(const struct app *app, const struct findings *wanted);

#endif
