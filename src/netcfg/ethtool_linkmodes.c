// SPDX-License-Identifier: GPL-2.0-only
/* One genetlink family lookup and one LINKMODES_GET, in the verbose bitset form whose bit names carry speeds. */
#include "netcfg/ethtool_linkmodes.h"
#include "netcfg/nl_reply.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BITS_MAX 1024

unsigned link_mode_speed(const char *name)
{
	char *end;
	unsigned long v;

	if (!name || name[0] < '1' || name[0] > '9')
		return 0;
	v = strtoul(name, &end, 10);
	return strncmp(end, "base", 4) == 0 && v <= 10000000UL ? (unsigned)v : 0;
}

struct nl_ctx {
	struct mnl_socket *nl;
	unsigned portid, seq;
	char buf[32768];   /* a whole verbose LINKMODES reply (MNL_SOCKET_BUFFER_SIZE is not a constant) */
};

static int transact(struct nl_ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	ssize_t n;
	int ret;

	nlh->nlmsg_seq = ++c->seq;
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(c->nl, c->buf, sizeof(c->buf));
		if (n < 0)
			return -errno;
		ret = nl_reply_run(c->buf, (size_t)n, c->seq, c->portid, cb, data);
	} while (ret > MNL_CB_STOP);
	return ret < 0 ? -errno : 0;
}

static struct nlmsghdr *put_genl(char *buf, unsigned type, unsigned cmd, unsigned version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = (uint8_t)cmd;
	g->version = (uint8_t)version;
	return nlh;
}

static int on_family_attr(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID && mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
		*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int on_family(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), on_family_attr, data);
}

/* One ETHTOOL_A_BITSET_BITS_BIT: supported (listed because it is in the mask) — keep the fastest. */
static int on_bit_attr(const struct nlattr *attr, void *data)
{
	const char **name = data;

	if (mnl_attr_get_type(attr) == ETHTOOL_A_BITSET_BIT_NAME && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		*name = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

static void read_bits(const struct nlattr *bits, struct link_modes *out)
{
	const struct nlattr *bit;
	unsigned seen = 0;

	mnl_attr_for_each_nested(bit, bits) {
		const char *name = NULL;
		unsigned speed;

		if (++seen > BITS_MAX)
			break;
		if (mnl_attr_get_type(bit) != ETHTOOL_A_BITSET_BITS_BIT || mnl_attr_validate(bit, MNL_TYPE_NESTED) < 0)
			continue;
		mnl_attr_parse_nested(bit, on_bit_attr, &name);
		speed = link_mode_speed(name);
		if (speed > out->max_supported_mbps) {
			out->max_supported_mbps = speed;
			snprintf(out->max_supported_mode, sizeof(out->max_supported_mode), "%s", name);
		}
	}
}

static int on_bitset_attr(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == ETHTOOL_A_BITSET_BITS && mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
		read_bits(attr, data);
	return MNL_CB_OK;
}

static int on_linkmodes_attr(const struct nlattr *attr, void *data)
{
	struct link_modes *out = data;

	switch (mnl_attr_get_type(attr)) {
	case ETHTOOL_A_LINKMODES_SPEED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0 && mnl_attr_get_u32(attr) != 0xffffffffu)
			out->speed_mbps = mnl_attr_get_u32(attr);
		break;
	case ETHTOOL_A_LINKMODES_OURS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
			mnl_attr_parse_nested(attr, on_bitset_attr, out);
		break;
	}
	return MNL_CB_OK;
}

static int on_linkmodes(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), on_linkmodes_attr, data);
}

int ethtool_link_modes_parse(const void *buf, size_t len, struct link_modes *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	errno = 0;
	ret = nl_reply_run(buf, len, 0, 0, on_linkmodes, out);
	return ret < 0 ? (errno ? -errno : -EPROTO) : 0;
}

int ethtool_link_modes(const char *ifname, struct link_modes *out)
{
	struct nl_ctx *c;
	struct nlmsghdr *nlh;
	struct nlattr *hdr;
	uint16_t family = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!c->nl) {
		ret = -errno;
		goto out_free;
	}
	if (mnl_socket_bind(c->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out_close;
	}
	c->portid = mnl_socket_get_portid(c->nl);
	c->seq = (unsigned)time(NULL);

	nlh = put_genl(c->buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	ret = transact(c, nlh, on_family, &family);
	if (ret < 0 || family == 0) {
		ret = ret == -ENOENT || family == 0 ? -EOPNOTSUPP : ret;
		goto out_close;
	}

	nlh = put_genl(c->buf, family, ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_GENL_VERSION);
	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, 0);   /* verbose bitsets: bit names carry the speeds */
	mnl_attr_nest_end(nlh, hdr);
	ret = transact(c, nlh, on_linkmodes, out);
out_close:
	mnl_socket_close(c->nl);
out_free:
	free(c);
	return ret;
}
