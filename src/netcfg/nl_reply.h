// SPDX-License-Identifier: GPL-2.0-only
/* Netlink replies into callbacks: mnl_cb_run with every message's length checked first. */
#ifndef ROCE_DOCTOR_NL_REPLY_H
#define ROCE_DOCTOR_NL_REPLY_H

#include <libmnl/libmnl.h>
#include <stddef.h>

/* mnl_cb_run(buf, len, seq, portid, cb, data), refusing a buffer with a message of 2^31 bytes or more, which
 * libmnl 1.0.4's mnl_nlmsg_ok takes for a negative int, accepts, and then steps outside the buffer by
 * (tests/fuzz found it). Returns what mnl_cb_run returns; MNL_CB_ERROR with errno EBADMSG for such a buffer, and
 * errno EPROTO for an NLMSG_ERROR whose code is no errno (INT_MIN), so the caller's -errno cannot overflow. */
int nl_reply_run(const void *buf, size_t len, unsigned seq, unsigned portid, mnl_cb_t cb, void *data);

#endif
