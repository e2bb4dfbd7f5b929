// SPDX-License-Identifier: GPL-2.0-only
/* The length walk libmnl should do before it trusts nlmsg_len. */
#include "netcfg/nl_reply.h"

#include <errno.h>
#include <limits.h>

int nl_reply_run(const void *buf, size_t len, unsigned seq, unsigned portid, mnl_cb_t cb, void *data)
{
	const char *p = buf;
	size_t left = len;
	int ret;

	/* The same walk as mnl_cb_run's, which ends at the first message that does not fit; only a length that
	 * does not fit in an int is one it would follow out of the buffer. */
	while (left >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		size_t step = NLMSG_ALIGN((size_t)nlh->nlmsg_len);

		if (nlh->nlmsg_len > INT_MAX) {
			errno = EBADMSG;
			return MNL_CB_ERROR;
		}
		if (nlh->nlmsg_len < sizeof(struct nlmsghdr) || nlh->nlmsg_len > left || step > left)
			break;
		p += step;
		left -= step;
	}
	ret = mnl_cb_run(buf, len, seq, portid, cb, data);
	/* An NLMSG_ERROR's code becomes errno as -error, unchecked: -INT_MIN is INT_MIN again, and the callers'
	 * -errno would overflow. Such a code is no errno the kernel sends. */
	if (ret < 0 && (errno <= 0 || errno > 4095))
		errno = EPROTO;
	return ret;
}
