// SPDX-License-Identifier: GPL-2.0-only
/* One rule's expressions, reduced to what a firewall check needs. nft compiles "udp dport 4791 drop" to
 * meta l4proto → reg, cmp eq 17; payload transport+2 len 2 → reg, cmp eq 0x12b7; immediate verdict drop.
 * Registers are followed so that a cmp is understood only when the load before it was. */
#include "netcfg/nft_attr.h"

#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <stdio.h>
#include <string.h>

#define EXPRS_MAX 128
#define REGS_MAX 32

enum reg_kind { REG_UNKNOWN, REG_L4PROTO, REG_DPORT };

struct summary {
	struct nft_rule *rule;
	int family;
	enum reg_kind regs[REGS_MAX];
};

struct attr_spec {
	const enum mnl_attr_data_type *types;
	unsigned max;
	const struct nlattr **tb;
};

static int collect(const struct nlattr *attr, void *data)
{
	const struct attr_spec *s = data;
	unsigned type = mnl_attr_get_type(attr);

	if (type == 0 || type > s->max || s->types[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, s->types[type]) < 0)
		return MNL_CB_ERROR;
	s->tb[type] = attr;
	return MNL_CB_OK;
}

int nft_attrs_msg(const struct nlmsghdr *nlh, size_t offset, const enum mnl_attr_data_type *types, unsigned max,
		  const struct nlattr **tb)
{
	struct attr_spec s = { types, max, tb };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_nlmsg_get_payload_len(nlh) < offset)
		return -1;
	return mnl_attr_parse(nlh, (unsigned)offset, collect, &s) == MNL_CB_OK ? 0 : -1;
}

int nft_attrs_nested(const struct nlattr *nest, const enum mnl_attr_data_type *types, unsigned max,
		     const struct nlattr **tb)
{
	struct attr_spec s = { types, max, tb };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse_nested(nest, collect, &s) == MNL_CB_OK ? 0 : -1;
}

static uint32_t be32(const struct nlattr *a)
{
	return ntohl(mnl_attr_get_u32(a));
}

static void set_reg(struct summary *s, const struct nlattr *reg, enum reg_kind kind)
{
	uint32_t r = reg ? be32(reg) : REGS_MAX;

	if (r < REGS_MAX)
		s->regs[r] = kind;
	else
		memset(s->regs, 0, sizeof(s->regs));   /* a register we do not track: forget them all */
}

static enum reg_kind get_reg(const struct summary *s, const struct nlattr *reg)
{
	uint32_t r = reg ? be32(reg) : REGS_MAX;

	return r < REGS_MAX ? s->regs[r] : REG_UNKNOWN;
}

static void on_meta(struct summary *s, const struct nlattr *data)
{
	static const enum mnl_attr_data_type types[NFTA_META_MAX + 1] = {
		[NFTA_META_DREG] = MNL_TYPE_U32, [NFTA_META_KEY] = MNL_TYPE_U32, [NFTA_META_SREG] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[NFTA_META_MAX + 1];

	if (nft_attrs_nested(data, types, NFTA_META_MAX, tb) < 0) {
		s->rule->other_matches = true;
		return;
	}
	if (!tb[NFTA_META_DREG])
		return;   /* "meta mark set …": a statement, not a match */
	set_reg(s, tb[NFTA_META_DREG],
		tb[NFTA_META_KEY] && be32(tb[NFTA_META_KEY]) == NFT_META_L4PROTO ? REG_L4PROTO : REG_UNKNOWN);
}

static void on_payload(struct summary *s, const struct nlattr *data)
{
	static const enum mnl_attr_data_type types[NFTA_PAYLOAD_MAX + 1] = {
		[NFTA_PAYLOAD_DREG] = MNL_TYPE_U32, [NFTA_PAYLOAD_BASE] = MNL_TYPE_U32,
		[NFTA_PAYLOAD_OFFSET] = MNL_TYPE_U32, [NFTA_PAYLOAD_LEN] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[NFTA_PAYLOAD_MAX + 1];
	uint32_t base, offset, len;
	enum reg_kind kind = REG_UNKNOWN;

	if (nft_attrs_nested(data, types, NFTA_PAYLOAD_MAX, tb) < 0) {
		s->rule->other_matches = true;
		return;
	}
	if (!tb[NFTA_PAYLOAD_DREG])
		return;   /* payload set: rewrites the packet */
	if (tb[NFTA_PAYLOAD_BASE] && tb[NFTA_PAYLOAD_OFFSET] && tb[NFTA_PAYLOAD_LEN]) {
		base = be32(tb[NFTA_PAYLOAD_BASE]);
		offset = be32(tb[NFTA_PAYLOAD_OFFSET]);
		len = be32(tb[NFTA_PAYLOAD_LEN]);
		if (base == NFT_PAYLOAD_TRANSPORT_HEADER && offset == 2 && len == 2)
			kind = REG_DPORT;
		else if (base == NFT_PAYLOAD_NETWORK_HEADER && len == 1 &&
			 ((s->family == NFPROTO_IPV4 && offset == 9) || (s->family == NFPROTO_IPV6 && offset == 6)))
			kind = REG_L4PROTO;   /* "ip protocol" / "ip6 nexthdr" */
	}
	set_reg(s, tb[NFTA_PAYLOAD_DREG], kind);
}

static const void *data_value(const struct nlattr *nest, size_t *len)
{
	static const enum mnl_attr_data_type types[NFTA_DATA_MAX + 1] = {
		[NFTA_DATA_VALUE] = MNL_TYPE_BINARY, [NFTA_DATA_VERDICT] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[NFTA_DATA_MAX + 1];

	if (nft_attrs_nested(nest, types, NFTA_DATA_MAX, tb) < 0 || !tb[NFTA_DATA_VALUE])
		return NULL;
	*len = mnl_attr_get_payload_len(tb[NFTA_DATA_VALUE]);
	return mnl_attr_get_payload(tb[NFTA_DATA_VALUE]);
}

static void on_cmp(struct summary *s, const struct nlattr *data)
{
	static const enum mnl_attr_data_type types[NFTA_CMP_MAX + 1] = {
		[NFTA_CMP_SREG] = MNL_TYPE_U32, [NFTA_CMP_OP] = MNL_TYPE_U32, [NFTA_CMP_DATA] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[NFTA_CMP_MAX + 1];
	const uint8_t *value = NULL;
	enum reg_kind kind;
	size_t len = 0;

	if (nft_attrs_nested(data, types, NFTA_CMP_MAX, tb) < 0 || !tb[NFTA_CMP_OP] || !tb[NFTA_CMP_DATA] ||
	    be32(tb[NFTA_CMP_OP]) != NFT_CMP_EQ || !(value = data_value(tb[NFTA_CMP_DATA], &len))) {
		s->rule->other_matches = true;
		return;
	}
	kind = get_reg(s, tb[NFTA_CMP_SREG]);
	if (kind == REG_L4PROTO && len == 1)
		s->rule->l4proto = value[0];
	else if (kind == REG_DPORT && len == 2)
		s->rule->dport = value[0] << 8 | value[1];
	else
		s->rule->other_matches = true;
}

static void on_lookup(struct summary *s, const struct nlattr *data)
{
	static const enum mnl_attr_data_type types[NFTA_LOOKUP_MAX + 1] = {
		[NFTA_LOOKUP_SET] = MNL_TYPE_NUL_STRING, [NFTA_LOOKUP_SREG] = MNL_TYPE_U32,
		[NFTA_LOOKUP_DREG] = MNL_TYPE_U32, [NFTA_LOOKUP_FLAGS] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[NFTA_LOOKUP_MAX + 1];
	const char *set;

	if (nft_attrs_nested(data, types, NFTA_LOOKUP_MAX, tb) < 0 || !tb[NFTA_LOOKUP_SET] || tb[NFTA_LOOKUP_DREG] ||
	    (tb[NFTA_LOOKUP_FLAGS] && (be32(tb[NFTA_LOOKUP_FLAGS]) & NFT_LOOKUP_F_INV)) ||
	    get_reg(s, tb[NFTA_LOOKUP_SREG]) != REG_DPORT) {
		s->rule->other_matches = true;   /* maps, inverted sets, sets of addresses… */
		if (tb[NFTA_LOOKUP_DREG])
			set_reg(s, tb[NFTA_LOOKUP_DREG], REG_UNKNOWN);
		return;
	}
	set = mnl_attr_get_str(tb[NFTA_LOOKUP_SET]);
	if (strlen(set) < sizeof(s->rule->dport_set))
		strcpy(s->rule->dport_set, set);
	else
		s->rule->other_matches = true;
}

static enum rule_verdict verdict_of(int32_t code)
{
	switch (code) {
	case NF_DROP:
		return RULE_VERDICT_DROP;
	case NF_ACCEPT:
		return RULE_VERDICT_ACCEPT;
	case NF_QUEUE:
		return RULE_VERDICT_QUEUE;
	case NFT_JUMP:
		return RULE_VERDICT_JUMP;
	case NFT_GOTO:
		return RULE_VERDICT_GOTO;
	case NFT_RETURN:
		return RULE_VERDICT_RETURN;
	case NFT_CONTINUE:
		return RULE_VERDICT_NONE;
	default:
		return RULE_VERDICT_OTHER;
	}
}

static void on_verdict(struct summary *s, const struct nlattr *data_nest)
{
	static const enum mnl_attr_data_type data_types[NFTA_DATA_MAX + 1] = {
		[NFTA_DATA_VALUE] = MNL_TYPE_BINARY, [NFTA_DATA_VERDICT] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type types[NFTA_VERDICT_MAX + 1] = {
		[NFTA_VERDICT_CODE] = MNL_TYPE_U32, [NFTA_VERDICT_CHAIN] = MNL_TYPE_NUL_STRING,
	};
	const struct nlattr *dt[NFTA_DATA_MAX + 1], *tb[NFTA_VERDICT_MAX + 1];

	if (nft_attrs_nested(data_nest, data_types, NFTA_DATA_MAX, dt) < 0 || !dt[NFTA_DATA_VERDICT] ||
	    nft_attrs_nested(dt[NFTA_DATA_VERDICT], types, NFTA_VERDICT_MAX, tb) < 0 || !tb[NFTA_VERDICT_CODE]) {
		s->rule->verdict = RULE_VERDICT_OTHER;
		return;
	}
	s->rule->verdict = verdict_of((int32_t)be32(tb[NFTA_VERDICT_CODE]));
	if (tb[NFTA_VERDICT_CHAIN]) {
		const char *chain = mnl_attr_get_str(tb[NFTA_VERDICT_CHAIN]);

		snprintf(s->rule->target, sizeof(s->rule->target), "%s", chain);
	}
}

static void on_immediate(struct summary *s, const struct nlattr *data)
{
	static const enum mnl_attr_data_type types[NFTA_IMMEDIATE_MAX + 1] = {
		[NFTA_IMMEDIATE_DREG] = MNL_TYPE_U32, [NFTA_IMMEDIATE_DATA] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[NFTA_IMMEDIATE_MAX + 1];

	if (nft_attrs_nested(data, types, NFTA_IMMEDIATE_MAX, tb) < 0 || !tb[NFTA_IMMEDIATE_DREG] ||
	    !tb[NFTA_IMMEDIATE_DATA]) {
		s->rule->verdict = RULE_VERDICT_OTHER;
		return;
	}
	if (be32(tb[NFTA_IMMEDIATE_DREG]) == NFT_REG_VERDICT)
		on_verdict(s, tb[NFTA_IMMEDIATE_DATA]);
	else
		set_reg(s, tb[NFTA_IMMEDIATE_DREG], REG_UNKNOWN);
}

static void on_expr(struct summary *s, const char *name, const struct nlattr *data)
{
	if (strcmp(name, "counter") == 0 || strcmp(name, "log") == 0)
		return;
	if (strcmp(name, "reject") == 0) {
		s->rule->verdict = RULE_VERDICT_REJECT;
		return;
	}
	if (!data) {
		s->rule->other_matches = true;
		return;
	}
	if (strcmp(name, "meta") == 0)
		on_meta(s, data);
	else if (strcmp(name, "payload") == 0)
		on_payload(s, data);
	else if (strcmp(name, "cmp") == 0)
		on_cmp(s, data);
	else if (strcmp(name, "lookup") == 0)
		on_lookup(s, data);
	else if (strcmp(name, "immediate") == 0)
		on_immediate(s, data);
	else {
		/* ct, bitwise, limit, fib, …: a condition we do not model, and registers we cannot follow */
		s->rule->other_matches = true;
		memset(s->regs, 0, sizeof(s->regs));
	}
}

void nft_rule_summarize(const struct nlattr *expressions, int family, struct nft_rule *rule)
{
	static const enum mnl_attr_data_type types[NFTA_EXPR_MAX + 1] = {
		[NFTA_EXPR_NAME] = MNL_TYPE_NUL_STRING, [NFTA_EXPR_DATA] = MNL_TYPE_NESTED,
	};
	struct summary s = { .rule = rule, .family = family };
	const struct nlattr *elem;
	unsigned seen = 0;

	rule->verdict = RULE_VERDICT_NONE;
	rule->l4proto = rule->dport = -1;
	mnl_attr_for_each_nested(elem, expressions) {
		const struct nlattr *tb[NFTA_EXPR_MAX + 1];

		if (++seen > EXPRS_MAX) {
			rule->other_matches = true;
			break;
		}
		if (mnl_attr_get_type(elem) != NFTA_LIST_ELEM || mnl_attr_validate(elem, MNL_TYPE_NESTED) < 0 ||
		    nft_attrs_nested(elem, types, NFTA_EXPR_MAX, tb) < 0 || !tb[NFTA_EXPR_NAME]) {
			rule->other_matches = true;
			continue;
		}
		on_expr(&s, mnl_attr_get_str(tb[NFTA_EXPR_NAME]), tb[NFTA_EXPR_DATA]);
	}
}
