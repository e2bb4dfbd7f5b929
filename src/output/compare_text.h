// SPDX-License-Identifier: GPL-2.0-only
/* compare/v1 as text: the node x attribute table (odd cells end in !), the findings, the verdict line. */
#ifndef ROCE_DOCTOR_COMPARE_TEXT_H
#define ROCE_DOCTOR_COMPARE_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* verbose: also the ok findings. */
void compare_text_print(FILE *out, const json_t *doc, bool verbose);

#endif
