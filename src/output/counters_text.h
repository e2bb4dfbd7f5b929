// SPDX-License-Identifier: GPL-2.0-only
/* counters' document (roce-doctor/counters/v1) as text for people and as Prometheus samples. */
#ifndef ROCE_DOCTOR_OUTPUT_COUNTERS_TEXT_H
#define ROCE_DOCTOR_OUTPUT_COUNTERS_TEXT_H

#include <jansson.h>
#include <stdio.h>

#include "output/machine_text.h"

/* Per port: the groups that moved, trouble first, each counter with its delta, rate and meaning, and the
 * check that looks at the group's cause; plain traffic as one count. */
void counters_text_print(FILE *out, const json_t *doc);

/* The last reading's deltas and rates, one sample per counter that moved, labelled by device, port, netdev,
 * source, counter and group. */
void counters_prometheus_print(FILE *out, const json_t *doc, const struct run_meta *meta);

#endif
