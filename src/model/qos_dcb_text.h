// SPDX-License-Identifier: GPL-2.0-only
/* The text iproute2's `dcb` prints (`dcb pfc|ets|app|apptrust|buffer|dcbx show dev IF`), read back into the
 * lossless chain's model, one line at a time: a host nobody can log in to is judged from its paste. */
#ifndef ROCE_DOCTOR_MODEL_QOS_DCB_TEXT_H
#define ROCE_DOCTOR_MODEL_QOS_DCB_TEXT_H

#include <stdbool.h>

#include "model/qos.h"

/* Whether line (without its newline, any leading space) is one of dcb's; what it states goes into dcb, each
 * section's *_known flag set as it is read. A line of dcb's keyword with a value out of range is refused. */
bool dcb_text_line(struct qos_dcb *dcb, const char *line);

/* DSCP by the name `dcb app show` prints for it (rt_dsfield: "CS3", "AF31", "EF", "default") or its number;
 * -1 when neither. */
int dcb_dscp_by_name(const char *name, size_t len);

/* What dcb.c decides once a table is read: with no apptrust, DSCP entries in the APP table are how mlx5 says
 * "trust dscp"; and the settings are known once any section is. */
void dcb_settings_finish(struct qos_dcb *dcb);

#endif
