/* Firewall state that /proc can tell: a running firewalld (it owns the nftables ruleset and reloads it), and
 * legacy iptables tables loaded in the kernel. The rules themselves come from netcfg/nftables.h (live). */
#ifndef ROCE_DOCTOR_FIREWALL_PROC_H
#define ROCE_DOCTOR_FIREWALL_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/notes.h"
#include "util/rootfs.h"

#define IPTABLES_TABLES_MAX 8

struct firewall_procs {
	bool firewalld_running;
	int firewalld_pid;
	size_t processes_scanned;
	bool scan_truncated;         /* more processes than the scan looks at */
	bool iptables_known;         /* /proc/net/ip_tables_names readable (absent: ip_tables not loaded) */
	char iptables[IPTABLES_TABLES_MAX][32];   /* "filter", "nat", … */
	size_t iptables_count;
};

/* Scans <root>/proc/PID/comm and reads <root>/proc/net/ip_tables_names. 0 or -errno. */
int firewall_procs_read(const struct rootfs *root, struct firewall_procs *out, struct notes *notes);

#endif
