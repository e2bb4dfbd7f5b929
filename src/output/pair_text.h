// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor/pair/v1 as text: the verdict, the rail table, the bootstrap probes, then the findings that are not
 * ok (-v: all) by origin, each marked with its node. */
#ifndef ROCE_DOCTOR_PAIR_TEXT_H
#define ROCE_DOCTOR_PAIR_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

void pair_text_print(FILE *out, const json_t *doc, bool verbose);

#endif
