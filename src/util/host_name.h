// SPDX-License-Identifier: GPL-2.0-only
/* Whether a peer given on the command line can be a host at all, before asking the resolver. */
#ifndef ROCE_DOCTOR_HOST_NAME_H
#define ROCE_DOCTOR_HOST_NAME_H

/* 0 for an IPv4 or IPv6 address (an IPv6 one may carry %SCOPE) or a host name (RFC 1123 labels of letters,
 * digits, '-' and '_', not all digits at the end); -EINVAL for anything else: empty, blanks, "10.0.0". */
int host_name_check(const char *text);

#endif
