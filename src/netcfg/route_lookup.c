// SPDX-License-Identifier: GPL-2.0-only
/* One RTM_GETROUTE request and its reply's RTA_OIF: which netdev owns the route to a peer. */
#include "netcfg/route_lookup.h"
#include "netcfg/nl_reply.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <time.h>

#include "util/gidaddr.h"

static int collect_oif(const struct nlattr *attr, void *data)
{
	int *ifindex = data;

	if (mnl_attr_get_type(attr) != RTA_OIF)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	*ifindex = (int)mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int on_route_reply(const struct nlmsghdr *nlh, void *data)
{
	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	return mnl_attr_parse(nlh, sizeof(struct rtmsg), collect_oif, data);
}

int route_lookup_oif(const struct in6_addr *dst, int *ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	bool v4 = gid_is_ipv4_mapped(dst);
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	unsigned seq, portid;
	ssize_t n;
	int ret;

	*ifindex = 0;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq = (unsigned)time(NULL);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = v4 ? AF_INET : AF_INET6;
	rtm->rtm_dst_len = v4 ? 32 : 128;
	mnl_attr_put(nlh, RTA_DST, v4 ? 4 : 16, v4 ? &dst->s6_addr[12] : dst->s6_addr);
	portid = mnl_socket_get_portid(nl);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	/* an NLMSG_ERROR reply (no route) makes mnl_cb_run fail with its errno */
	ret = nl_reply_run(buf, (size_t)n, seq, portid, on_route_reply, ifindex) < 0 ? -errno : 0;
	if (ret == 0 && *ifindex <= 0)
		ret = -ENETUNREACH;   /* a route without an interface: blackhole, unreachable, prohibit */
out:
	mnl_socket_close(nl);
	return ret;
}
