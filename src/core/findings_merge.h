// SPDX-License-Identifier: GPL-2.0-only
/* One finding per root cause: a rail's port-level symptom folds into the netdev finding with the same fix. */
#ifndef ROCE_DOCTOR_FINDINGS_MERGE_H
#define ROCE_DOCTOR_FINDINGS_MERGE_H

#include "core/findings.h"

/* The command a fix starts with: its first line without a trailing "   # comment", blanks trimmed. */
void fix_first_command(const char *fix, char *buf, size_t size);

/* After findings_locate(). A non-ok finding about a port (subject "DEV/PORT": port.state, port.active_mtu,
 * gid.rocev2 ...) whose fix starts with the same command as a non-ok finding about that port's netdev
 * (netdev.state, netdev.mtu, netdev.ipv4/ipv6) is the same cause seen from the port: it is removed, and the
 * netdev finding keeps its id, its fix and its place, takes the worse severity, appends
 * "; DEV/PORT: message" to its message and lists the removed id in covers. Fixes that differ (a port down
 * for want of a carrier gets advice, not "ip link set IF up") are never merged.
 * 0, or -ENOMEM (the list is then unchanged). */
int findings_merge_root_causes(struct findings *f);

#endif
