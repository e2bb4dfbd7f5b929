// SPDX-License-Identifier: GPL-2.0-only
/* The names the firewall rules print for the nftables model's numbers: pure functions. */
#include "model/firewall.h"

#include <linux/netfilter.h>

const char *nft_family_name(int family)
{
	switch (family) {
	case NFPROTO_INET:
		return "inet";
	case NFPROTO_IPV4:
		return "ip";
	case NFPROTO_IPV6:
		return "ip6";
	case NFPROTO_ARP:
		return "arp";
	case NFPROTO_BRIDGE:
		return "bridge";
	case NFPROTO_NETDEV:
		return "netdev";
	default:
		return "unknown";
	}
}

const char *chain_hook_name(enum chain_hook hook)
{
	static const char *const names[] = { "none", "prerouting", "input", "forward", "output", "postrouting",
					     "ingress", "egress", "other" };

	return (unsigned)hook < sizeof(names) / sizeof(names[0]) ? names[hook] : "other";
}

const char *rule_verdict_name(enum rule_verdict v)
{
	static const char *const names[] = { "none", "accept", "drop", "reject", "jump", "goto", "return", "queue",
					     "other" };

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "other";
}
