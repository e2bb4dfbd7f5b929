// SPDX-License-Identifier: GPL-2.0-only
/* The PCIe placement model (model/pci.h) to JSON and back: the system document's `pci` member. */
#ifndef ROCE_DOCTOR_MODEL_PCI_JSON_H
#define ROCE_DOCTOR_MODEL_PCI_JSON_H

#include <jansson.h>

#include "model/json_io.h"
#include "model/json_tree.h"
#include "model/pci.h"

/* A new object, or NULL when out of memory. */
json_t *pci_topology_to_json(const struct pci_topology *t);

/* v: the member's value (an object). Validates in the reader's first pass, fills t in its build pass (t's
 * arrays are then allocated: pci_topology_json_free). 0 or -EINVAL / -ENOMEM with the reader's message. */
int pci_topology_from_json(struct reader *r, const struct jnode *v, struct pci_topology *t);

void pci_topology_json_free(struct pci_topology *t);

#endif
