// SPDX-License-Identifier: GPL-2.0-only
/* The sources read around the RDMA host (limits files, firewall, GPUs, NCCL...), named so that a warning can say
 * which one it came from: a snapshot keeps every warning, and a command replaying it (`nccl --from`) says only
 * those of the sources it reads itself, as it would under --root. */
#ifndef ROCE_DOCTOR_SYSTEM_PARTS_H
#define ROCE_DOCTOR_SYSTEM_PARTS_H

enum system_part {
	SYSTEM_PART_UNSAID,   /* a warning of an older snapshot: its source is not known, every command says it */
	SYSTEM_PART_MODULES,
	SYSTEM_PART_UVERBS,
	SYSTEM_PART_VERBS_PROVIDERS,
	SYSTEM_PART_PAM,
	SYSTEM_PART_SYSTEMD,
	SYSTEM_PART_FIREWALL,
	SYSTEM_PART_GPUS,
	SYSTEM_PART_PCI,
	SYSTEM_PART_NCCL,     /* nccl.conf files and the environment: every command reads them */
	SYSTEM_PART_NCCL_LIBS,
	SYSTEM_PART_COUNT
};

/* The name in a snapshot's system.warning_sources; NULL for SYSTEM_PART_UNSAID or out of range */
const char *system_part_name(unsigned part);
/* The part of that name, or -1 */
int system_part_from_name(const char *name);

#endif
