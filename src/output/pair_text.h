// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor/pair/v1 as text: the verdict, the rail table, the bootstrap probes, then the findings that are not
 * ok (-v: all) by origin, each marked with its node. */
#ifndef ROCE_DOCTOR_PAIR_TEXT_H
#define ROCE_DOCTOR_PAIR_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "output/terminal.h"

/* Prose wraps to style->width as check's does (fix lines never); style->verbose shows the ok and covered ones. */
void pair_text_print(FILE *out, const json_t *doc, const struct text_style *style);

#endif
