// SPDX-License-Identifier: GPL-2.0-only
/* MLNX_OFED's per-netdev QoS files (/sys/class/net/IF/qos/: prio2buffer, buffer_size, and trust in the releases
 * that had it) to the lossless chain's model. Pure: the probe reads the files (live or under --root), these read
 * their text as the driver's en_sysfs.c prints it. */
#ifndef ROCE_DOCTOR_MODEL_QOS_OFED_SYSFS_H
#define ROCE_DOCTOR_MODEL_QOS_OFED_SYSFS_H

#include <stdbool.h>

#include "model/qos.h"

/* "Priority\tBuffer" then "P\t\tB" for the 8 priorities: into dcb's prio_buffer (buffer_known) when all 8 are
 * there and each buffer is 0-7; whether they were. */
bool qos_ofed_prio2buffer(const char *text, struct qos_dcb *dcb);

/* "Port buffer size = N", "Spare buffer size = N", "Buffer\tSize\txoff_threshold\txon_threshold" and one row per
 * buffer 0-7: into dcb's buffer sizes and xoff thresholds when all 8 rows are there; whether they were. */
bool qos_ofed_buffer_size(const char *text, struct qos_dcb *dcb);

/* "pcp" or "dscp" (MLNX_OFED 4.x's qos/trust): the trust mode, or QOS_TRUST_UNKNOWN. */
enum qos_trust qos_ofed_trust(const char *text);

#endif
