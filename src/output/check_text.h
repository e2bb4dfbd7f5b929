// SPDX-License-Identifier: GPL-2.0-only
/* check's text report: verdict, per-port table, the findings that are not ok, how many ok ones were folded. */
#ifndef ROCE_DOCTOR_CHECK_TEXT_H
#define ROCE_DOCTOR_CHECK_TEXT_H

#include <jansson.h>
#include <stdio.h>

#include "output/terminal.h"

/* Renders a roce-doctor/check/v1 document (with its "ports") as text. Prose wraps to style->width (never a
 * fix line: those must paste); style->verbose prints the ok findings too. */
void check_text_print(FILE *out, const json_t *doc, const struct text_style *style);

#endif
