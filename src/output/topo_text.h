// SPDX-License-Identifier: GPL-2.0-only
/* topo's text layout: the GPU x NIC matrix (nvidia-smi topo -m's), the NICs' roles, then the PCIe trouble. */
#ifndef ROCE_DOCTOR_TOPO_TEXT_H
#define ROCE_DOCTOR_TOPO_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* doc: a roce-doctor/topo/v1 document. */
void topo_print_text(FILE *out, const json_t *doc);

#endif
