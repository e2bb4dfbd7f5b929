// SPDX-License-Identifier: GPL-2.0-only
/* The PFC counters of the lossless chain's model (struct qos_counters) from a driver statistic's name and value,
 * as the kernel lists them or as `ethtool -S IF` prints them (whole, grepped or pasted), and the growth between
 * two readings. Pure: the live reader (netcfg/ethtool_stats) and the capture reader feed it names and values. */
#ifndef ROCE_DOCTOR_MODEL_QOS_COUNTERS_H
#define ROCE_DOCTOR_MODEL_QOS_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/qos.h"

/* Stores value when name is one of the statistics the model keeps; whether it was. */
bool qos_counters_take(struct qos_counters *c, const char *name, uint64_t value);

/* One line of `ethtool -S` text ("     rx_prio3_pause: 1523"): whether it was a statistic the model keeps. Any
 * other line (the "NIC statistics:" header, other counters, a shell prompt) is left alone. */
bool qos_counters_text_line(struct qos_counters *c, const char *line);

/* after - before, field by field, into growth (known, present: what both have). A field smaller after than
 * before was reset (driver reload, counters cleared): its growth is 0, never a wrapped huge number. Returns how
 * many fields were reset. */
unsigned qos_counters_growth(const struct qos_counters *before, const struct qos_counters *after,
			     struct qos_counters *growth);

#endif
