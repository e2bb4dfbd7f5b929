// SPDX-License-Identifier: GPL-2.0-only
/* The netlink reply decoders on buffers, as tests/fuzz/fuzz_netlink and fuzz_nft give them: well-formed replies
 * decode; a message length libmnl would follow out of the buffer is refused, and an error code that is no errno
 * is -EPROTO (two fuzz_netlink findings). */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <limits.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <rdma/rdma_netlink.h>
#include <stdlib.h>
#include <string.h>

#include "netcfg/ethtool_linkmodes.h"
#include "netcfg/nftables.h"
#include "netcfg/rdma_netlink.h"
#include "tap.h"

static union {
	char bytes[8192];   /* MNL_SOCKET_BUFFER_SIZE is not a constant */
	struct nlmsghdr align;
} buf;

/* The fuzzer's reproducer: 16 bytes of 0xa2, so nlmsg_len is 0xa2a2a2a2, negative as an int. */
static size_t huge_length_message(void)
{
	memset(buf.bytes, 0xa2, 16);
	buf.bytes[16] = '&';
	return 17;
}

static void rdma_ports_refuse_a_length_past_2_31(void)
{
	struct rdma_nl_port *ports = NULL;
	size_t count = 1;

	CHECK(rdma_netlink_parse_ports(buf.bytes, huge_length_message(), &ports, &count) == -EBADMSG);
	CHECK(ports == NULL && count == 0);
}

static void link_modes_refuse_a_length_past_2_31(void)
{
	struct link_modes lm;

	CHECK(ethtool_link_modes_parse(buf.bytes, huge_length_message(), &lm) == -EBADMSG);
}

static void nft_refuses_a_length_past_2_31(void)
{
	struct nft_dumps dumps = { { buf.bytes, NULL, NULL }, { huge_length_message(), 0, 0 } };
	struct nft_ruleset rs;

	CHECK(nft_ruleset_parse(&dumps, &rs) == -EBADMSG);
	CHECK(!rs.known && rs.tables == NULL);
}

/* An NLMSG_ERROR carrying code, as a reply to a request with sequence 0. */
static size_t error_message(int code)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
	struct nlmsgerr *err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));

	nlh->nlmsg_type = NLMSG_ERROR;
	err->error = code;
	return nlh->nlmsg_len;
}

static void an_error_code_that_is_no_errno_is_eproto(void)
{
	struct rdma_nl_port *ports = NULL;
	struct link_modes lm;
	size_t count;

	/* libmnl makes errno -INT_MIN, INT_MIN again; the caller's -errno overflowed (UBSan) */
	CHECK(ethtool_link_modes_parse(buf.bytes, error_message(INT_MIN), &lm) == -EPROTO);
	CHECK(rdma_netlink_parse_ports(buf.bytes, error_message(INT_MIN), &ports, &count) == -EPROTO);
	CHECK(ethtool_link_modes_parse(buf.bytes, error_message(-EPERM), &lm) == -EPERM);   /* a real one stays */
}

static void rdma_ports_decode_a_port_with_its_netdev(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
	struct rdma_nl_port *ports = NULL;
	size_t count = 0;

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_NDEV_INDEX, 7);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, "ens1f0np0");
	CHECK(rdma_netlink_parse_ports(buf.bytes, nlh->nlmsg_len, &ports, &count) == 0);
	CHECK(count == 1);
	if (count == 1) {
		CHECK_STR(ports[0].dev, "mlx5_0");
		CHECK(ports[0].port == 1 && ports[0].has_netdev && ports[0].netdev_index == 7);
		CHECK_STR(ports[0].netdev_name, "ens1f0np0");
	}
	free(ports);
}

static void link_modes_keep_speed_and_fastest_mode(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
	struct nlattr *ours, *bits, *bit;
	struct link_modes lm;
	static const char *const names[] = { "25000baseCR/Full", "100000baseCR4/Full", "Autoneg" };

	nlh->nlmsg_type = 0x20;   /* the family id the kernel gave ethtool: any data type */
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_u32(nlh, ETHTOOL_A_LINKMODES_SPEED, 25000);
	ours = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_OURS);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
	for (size_t i = 0; i < 3; i++) {
		bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);
		mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, names[i]);
		mnl_attr_nest_end(nlh, bit);
	}
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, ours);
	CHECK(ethtool_link_modes_parse(buf.bytes, nlh->nlmsg_len, &lm) == 0);
	CHECK(lm.speed_mbps == 25000 && lm.max_supported_mbps == 100000);
	CHECK_STR(lm.max_supported_mode, "100000baseCR4/Full");
}

int main(void)
{
	RUN(rdma_ports_refuse_a_length_past_2_31);
	RUN(link_modes_refuse_a_length_past_2_31);
	RUN(nft_refuses_a_length_past_2_31);
	RUN(an_error_code_that_is_no_errno_is_eproto);
	RUN(rdma_ports_decode_a_port_with_its_netdev);
	RUN(link_modes_keep_speed_and_fastest_mode);
	TAP_DONE();
}
