// SPDX-License-Identifier: GPL-2.0-only
/* Internal to the nftables reader: attribute tables checked by type before use (the ethtool way), and the
 * reduction of one rule's expression list to a summary. */
#ifndef ROCE_DOCTOR_NFT_ATTR_H
#define ROCE_DOCTOR_NFT_ATTR_H

#include <libmnl/libmnl.h>

#include "netcfg/nftables.h"

/* Fills tb[1..max] from the attributes of a message (after offset bytes of family header) or of a nest.
 * Attributes with no expected type in types[] are ignored; one of the wrong type fails the whole parse. */
int nft_attrs_msg(const struct nlmsghdr *nlh, size_t offset, const enum mnl_attr_data_type *types, unsigned max,
		  const struct nlattr **tb);
int nft_attrs_nested(const struct nlattr *nest, const enum mnl_attr_data_type *types, unsigned max,
		     const struct nlattr **tb);

/* Reads NFTA_RULE_EXPRESSIONS into verdict, l4proto, dport, dport_set and other_matches of rule. */
void nft_rule_summarize(const struct nlattr *expressions, int family, struct nft_rule *rule);

#endif
