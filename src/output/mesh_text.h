// SPDX-License-Identifier: GPL-2.0-only
/* mesh --plan's and --dry-run's text: the launcher's view (dry-run), the plan's summary and time, the rounds. */
#ifndef ROCE_DOCTOR_MESH_TEXT_H
#define ROCE_DOCTOR_MESH_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* Up to this many nodes the text lists every round's pairs; above, the summary alone. */
#define MESH_TEXT_ROUNDS_NODES_MAX 16

/* doc: a roce-doctor/mesh-plan/v1 document. */
void mesh_print_text(FILE *out, const json_t *doc);

/* A duration as people read it: "35 s", "12 min", "3.4 h", "2.1 days". */
void mesh_duration_text(double seconds, char *buf, size_t size);

#endif
