// SPDX-License-Identifier: GPL-2.0-only
/* explain's text layout, from its JSON document. */
#ifndef ROCE_DOCTOR_EXPLAIN_TEXT_H
#define ROCE_DOCTOR_EXPLAIN_TEXT_H

#include <jansson.h>
#include <stdio.h>

void explain_text_print(FILE *out, const json_t *doc);
void explain_list_print(FILE *out, const json_t *doc);

#endif
