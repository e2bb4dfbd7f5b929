// SPDX-License-Identifier: GPL-2.0-only
/* Netlink replies as the kernel (or anything that answers on the socket) sends them, through the decoders
 * roce-doctor runs on them: RDMA netlink's PORT_GET dump (rdma_netlink_parse_ports), ethtool's LINKMODES_GET
 * reply (ethtool_link_modes_parse), and one rule's NFTA_RULE_EXPRESSIONS nest (nft_rule_summarize; the whole
 * nftables dump has its own harness, fuzz_nft), and dcbnl's IEEE_GET reply (dcb_parse_ieee). The first byte picks the decoder; the rest, copied to an
 * aligned buffer as a socket read would give it, is the reply. */
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "netcfg/dcb.h"
#include "netcfg/ethtool_linkmodes.h"
#include "netcfg/nft_attr.h"
#include "netcfg/rdma_netlink.h"

static void rdma_ports(const void *buf, size_t len)
{
	struct rdma_nl_port *ports;
	size_t count;

	if (rdma_netlink_parse_ports(buf, len, &ports, &count) == 0) {
		for (size_t i = 0; i < count; i++)
			if (!memchr(ports[i].dev, 0, sizeof(ports[i].dev)) ||
			    (ports[i].has_netdev && !memchr(ports[i].netdev_name, 0, sizeof(ports[i].netdev_name))))
				abort();
		free(ports);
	}
}

static void link_modes(const void *buf, size_t len)
{
	struct link_modes lm;

	if (ethtool_link_modes_parse(buf, len, &lm) == 0 && !memchr(lm.max_supported_mode, 0, sizeof(lm.max_supported_mode)))
		abort();
}

/* One attribute, its length checked against the buffer as mnl_attr_parse checks it before a callback sees it. */
static void rule_expressions(const void *buf, size_t len)
{
	const struct nlattr *attr = buf;
	struct nft_rule rule;
	static const int families[] = { NFPROTO_INET, NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP, NFPROTO_NETDEV };

	if (len < sizeof(*attr) + 1 || !mnl_attr_ok(attr, (int)len - 1))
		return;
	memset(&rule, 0, sizeof(rule));
	nft_rule_summarize(attr, families[((const uint8_t *)buf)[len - 1] % 5], &rule);
}

/* A decoded reply is whole or not at all: known with an error set, or a DSCP mapped to a priority past 7, is a bug. */
static void dcb_ieee(const void *buf, size_t len)
{
	struct qos_dcb dcb;
	int ret = dcb_parse_ieee(buf, len, &dcb);

	if ((ret == 0) != dcb.known || (ret < 0 && dcb.error != ret))
		abort();
	for (unsigned d = 0; d < QOS_DSCPS; d++)
		if ((dcb.dscp_mapped >> d & 1) && dcb.dscp_prio[d] >= QOS_PRIOS)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *buf;

	if (size < 1 || size > 64 * 1024)
		return 0;
	buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	switch (data[0] % 4) {
	case 0:
		rdma_ports(buf, size - 1);
		break;
	case 1:
		link_modes(buf, size - 1);
		break;
	case 2:
		rule_expressions(buf, size - 1);
		break;
	case 3:
		dcb_ieee(buf, size - 1);
		break;
	}
	free(buf);
	return 0;
}
