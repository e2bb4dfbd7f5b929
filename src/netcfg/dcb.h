// SPDX-License-Identifier: GPL-2.0-only
/* A netdev's DCB settings through rtnetlink's dcbnl (RTM_GETDCB, DCB_CMD_IEEE_GET), as iproute2's `dcb` reads
 * them: PFC with its pause counters, ETS, the APP table, the apptrust order, DCBX and the buffer map. */
#ifndef ROCE_DOCTOR_NETCFG_DCB_H
#define ROCE_DOCTOR_NETCFG_DCB_H

#include <stddef.h>

#include "model/qos.h"

/* Decodes one reply buffer (as recv gives it) to an IEEE_GET request with sequence 0 into dcb. Returns 0 with
 * dcb->known set; the request's -errno with dcb->error set when the kernel refused (-EOPNOTSUPP: the driver
 * has no dcbnl); -EBADMSG for a reply cut short or an attribute shorter than its structure. */
int dcb_parse_ieee(const void *buf, size_t len, struct qos_dcb *dcb);

/* Asks the kernel about ifname. Same returns as dcb_parse_ieee, plus socket errors. */
int dcb_query(const char *ifname, struct qos_dcb *dcb);

#endif
