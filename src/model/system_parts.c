// SPDX-License-Identifier: GPL-2.0-only
/* The names of the sources a system model is read from, as snapshots write them. */
#include "model/system_parts.h"

#include <string.h>

static const char *const names[SYSTEM_PART_COUNT] = {
	[SYSTEM_PART_MODULES] = "modules",
	[SYSTEM_PART_UVERBS] = "uverbs",
	[SYSTEM_PART_VERBS_PROVIDERS] = "verbs_providers",
	[SYSTEM_PART_PAM] = "pam_limits",
	[SYSTEM_PART_SYSTEMD] = "systemd",
	[SYSTEM_PART_FIREWALL] = "firewall",
	[SYSTEM_PART_GPUS] = "gpus",
	[SYSTEM_PART_PCI] = "pci",
	[SYSTEM_PART_NCCL] = "nccl",
	[SYSTEM_PART_NCCL_LIBS] = "nccl_libs",
};

const char *system_part_name(unsigned part)
{
	return part < SYSTEM_PART_COUNT ? names[part] : NULL;
}

int system_part_from_name(const char *name)
{
	for (unsigned i = 1; i < SYSTEM_PART_COUNT; i++)
		if (strcmp(name, names[i]) == 0)
			return (int)i;
	return -1;
}
