// SPDX-License-Identifier: GPL-2.0-only
/* Firewall state that /proc can tell: a running firewalld (it owns the nftables ruleset and reloads it), and
 * legacy iptables tables loaded in the kernel. The rules themselves come from netcfg/nftables.h (live). */
#ifndef ROCE_DOCTOR_FIREWALL_PROC_H
#define ROCE_DOCTOR_FIREWALL_PROC_H

#include "model/firewall.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* Scans <root>/proc/PID/comm and reads <root>/proc/net/ip_tables_names. 0 or -errno. */
int firewall_procs_read(const struct rootfs *root, struct firewall_procs *out, struct notes *notes);

#endif
