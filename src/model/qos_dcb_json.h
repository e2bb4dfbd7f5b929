// SPDX-License-Identifier: GPL-2.0-only
/* The JSON iproute2's `dcb -j` prints (pfc, ets, app, apptrust, buffer, dcbx), read back into the lossless
 * chain's model: a paste of it judges a host as `dcb ... show` text does. */
#ifndef ROCE_DOCTOR_MODEL_QOS_DCB_JSON_H
#define ROCE_DOCTOR_MODEL_QOS_DCB_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "model/qos.h"

/* Reads one document (an object, as `dcb -j OBJECT show dev IF` prints it) into dcb. 0 when at least one
 * member is dcb's and all of them are well formed; -ENOENT when no member is dcb's (another tool's JSON,
 * nothing is changed); -EBADMSG with why filled ("prio_pfc[3]: expected true or false") when one is
 * malformed, and then nothing is changed either. */
int dcb_json_read(const json_t *doc, struct qos_dcb *dcb, char *why, size_t why_len);

#endif
