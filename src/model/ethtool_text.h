// SPDX-License-Identifier: GPL-2.0-only
/* One line of `ethtool -S IF` text ("     rx_prio3_pause: 1523", and show_counters' "out_of_sequence: 5" of the
 * same shape): the one reader of that text, shared by the probe's captured statistics (model/qos_counters) and
 * explain's pastes (core/log/paste_scan). Pure. */
#ifndef ROCE_DOCTOR_MODEL_ETHTOOL_TEXT_H
#define ROCE_DOCTOR_MODEL_ETHTOOL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ETH_GSTRING_LEN: a driver's statistic name is at most 32 characters */
#define ETHTOOL_TEXT_NAME_MAX 32

struct ethtool_text_stat {
	const char *name;    /* within the line, len characters, not terminated */
	size_t len;
	uint64_t value;
	bool indented;       /* the line starts with blanks, as ethtool prints every statistic */
};

/* Whether line is one statistic: blanks, a name of letters, digits and _.- (starting with a letter, at most
 * ETHTOOL_TEXT_NAME_MAX), a colon, a decimal value that fits 64 bits, and only blanks after it. Any other line
 * (the "NIC statistics:" header, a queue's "rxq0: rx_bytes: 1", an annotated paste, a shell prompt) is not. */
bool ethtool_text_stat(const char *line, struct ethtool_text_stat *out);

#endif
