// SPDX-License-Identifier: GPL-2.0-only
/* What a NIC counter means: the RDMA port's hw_counters and counters, the netdev's ethtool statistics and
 * rxe's own, grouped by what their moving says about the fabric, each with one line of meaning and the check
 * that looks at its cause. A pure table lookup, shared by counters and bw. */
#ifndef ROCE_DOCTOR_MODEL_COUNTER_MEANING_H
#define ROCE_DOCTOR_MODEL_COUNTER_MEANING_H

enum counter_group {
	COUNTER_TRAFFIC,        /* packets and bytes: the work itself */
	COUNTER_PATH_LOSS,      /* retransmits, sequence errors, timeouts: packets lost on the path */
	COUNTER_ECN,            /* ECN marks and CNPs: congestion control at work */
	COUNTER_PFC,            /* pause frames: PFC at work */
	COUNTER_RECEIVER,       /* out_of_buffer, RNR: the receiver ran out of posted buffers */
	COUNTER_DROPS,          /* discards and drops in the NIC or its port */
	COUNTER_ERRORS,         /* completions in error, remote access and protection errors */
	COUNTER_GROUPS
};

struct counter_meaning {
	enum counter_group group;
	const char *meaning;    /* one line for people */
	const char *check;      /* the check id that looks at the cause; NULL when none */
};

/* The meaning of a counter by its name (the file name, "device/NAME" for device-wide hw_counters, or an
 * ethtool statistic's string such as "rx_prio3_pause"). Never NULL: an unknown name is traffic. */
const struct counter_meaning *counter_meaning_of(const char *name);

const char *counter_group_title(enum counter_group g);   /* "packets lost on the path" */
const char *counter_group_key(enum counter_group g);     /* "path_loss", for JSON */

#endif
