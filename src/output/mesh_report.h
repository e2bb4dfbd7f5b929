// SPDX-License-Identifier: GPL-2.0-only
/* mesh's answer from its roce-doctor/mesh/v1 document: the text report (verdict, missing nodes, odd links,
 * suspect nodes, failed and unmeasured pairs, the N x N matrix per rail for a small mesh) and the SVG heatmap. */
#ifndef ROCE_DOCTOR_MESH_REPORT_H
#define ROCE_DOCTOR_MESH_REPORT_H

#include <jansson.h>
#include <stdio.h>

/* Up to this many nodes the text shows each rail's matrix; the SVG draws any size up to MESH_PLOT_NODES_MAX. */
#define MESH_MATRIX_NODES_MAX 16
#define MESH_PLOT_NODES_MAX 1024
/* At most this many lines of each list (odd, failed, not measured) in text: the JSON has them all. */
#define MESH_TEXT_LIST_MAX 20

void mesh_print_run(FILE *out, const json_t *doc);

/* The heatmap of doc into path (written whole, then renamed over it). 0, or -1 with why. */
int mesh_plot_write(const char *path, const json_t *doc, char *why, size_t why_size);

#endif
