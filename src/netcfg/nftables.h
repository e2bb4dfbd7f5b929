// SPDX-License-Identifier: GPL-2.0-only
/* The live nftables ruleset over nfnetlink (the firewall firewalld and nft manage): tables, chains with their
 * hooks and policies, and for every table that hooks input, a summary of each rule — enough to say
 * "inet firewalld filter_INPUT drops udp dport 4791" or "input policy drop". Best effort by design: a rule is
 * reduced to its verdict, its transport protocol and destination port when it compares them for equality,
 * and a flag saying it also matches on something else (ct state, interface, address, …). */
#ifndef ROCE_DOCTOR_NFTABLES_H
#define ROCE_DOCTOR_NFTABLES_H

#include "model/firewall.h"
#include "util/rootfs.h"

/* Dumps the ruleset when root->live; otherwise leaves it unknown and returns 0. Needs CAP_NET_ADMIN:
 * -EPERM otherwise; -EOPNOTSUPP when the kernel has no nf_tables. 0 or -errno. */
int nft_ruleset_read(const struct rootfs *root, struct nft_ruleset *out);
void nft_ruleset_free(struct nft_ruleset *rs);

/* The replies of the three dumps (tables, chains, rules: netlink messages as the kernel sends them; len 0: none)
 * decoded as nft_ruleset_read decodes them, without a socket: for tests and tests/fuzz. 0 or -errno. */
struct nft_dumps {
	const void *buf[3];
	size_t len[3];
};
int nft_ruleset_parse(const struct nft_dumps *dumps, struct nft_ruleset *out);

#endif
