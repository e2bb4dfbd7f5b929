// SPDX-License-Identifier: GPL-2.0-only
/* Three nfnetlink dumps — tables, chains, rules — into a bounded, validated nft_ruleset. */
#include "netcfg/nftables.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netcfg/nft_attr.h"
#include "netcfg/nl_reply.h"

#define TABLES_MAX 256
#define CHAINS_MAX 4096
#define RULES_MAX 16384
#define RECV_BUF (64 * 1024)
#define DUMP_TRIES 3

struct nft_ctx {
	struct mnl_socket *nl;
	unsigned portid, seq;
	char *buf;
	struct nft_ruleset *rs;
	bool *input_table;           /* per chain: its table has an input base chain (rules are kept) */
	size_t last_chain;
	bool interrupted;            /* the ruleset changed during a dump */
	const struct nft_dumps *replay;   /* replies given, not asked of the kernel (nft_ruleset_parse) */
};

static bool copy_name(char *dst, const struct nlattr *attr)
{
	const char *s = mnl_attr_get_str(attr);

	if (strlen(s) >= NFT_OBJ_NAME_MAX)
		return false;
	strcpy(dst, s);
	return true;
}

static int family_of(const struct nlmsghdr *nlh)
{
	const struct nfgenmsg *nfg = mnl_nlmsg_get_payload(nlh);

	return nfg->nfgen_family;
}

static int check_header(struct nft_ctx *c, const struct nlmsghdr *nlh)
{
	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		c->interrupted = true;
	return mnl_nlmsg_get_payload_len(nlh) < sizeof(struct nfgenmsg) ? -1 : 0;
}

static int on_table(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[NFTA_TABLE_MAX + 1] = {
		[NFTA_TABLE_NAME] = MNL_TYPE_NUL_STRING, [NFTA_TABLE_FLAGS] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[NFTA_TABLE_MAX + 1];
	struct nft_ctx *c = data;
	struct nft_table *t;

	if (check_header(c, nlh) < 0 || nft_attrs_msg(nlh, sizeof(struct nfgenmsg), types, NFTA_TABLE_MAX, tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[NFTA_TABLE_NAME])
		return MNL_CB_OK;
	if (c->rs->table_count >= TABLES_MAX) {
		c->rs->truncated = true;
		return MNL_CB_OK;
	}
	t = &c->rs->tables[c->rs->table_count];
	memset(t, 0, sizeof(*t));
	if (!copy_name(t->name, tb[NFTA_TABLE_NAME])) {
		c->rs->truncated = true;
		return MNL_CB_OK;
	}
	t->family = family_of(nlh);
	t->dormant = tb[NFTA_TABLE_FLAGS] && (ntohl(mnl_attr_get_u32(tb[NFTA_TABLE_FLAGS])) & NFT_TABLE_F_DORMANT);
	c->rs->table_count++;
	return MNL_CB_OK;
}

static enum chain_hook hook_of(int family, uint32_t num)
{
	static const enum chain_hook inet[] = { CHAIN_HOOK_PREROUTING, CHAIN_HOOK_INPUT, CHAIN_HOOK_FORWARD,
						CHAIN_HOOK_OUTPUT, CHAIN_HOOK_POSTROUTING, CHAIN_HOOK_INGRESS };
	static const enum chain_hook arp[] = { CHAIN_HOOK_INPUT, CHAIN_HOOK_OUTPUT, CHAIN_HOOK_FORWARD };
	static const enum chain_hook netdev[] = { CHAIN_HOOK_INGRESS, CHAIN_HOOK_EGRESS };

	switch (family) {
	case NFPROTO_ARP:
		return num < 3 ? arp[num] : CHAIN_HOOK_OTHER;
	case NFPROTO_NETDEV:
		return num < 2 ? netdev[num] : CHAIN_HOOK_OTHER;
	default:
		return num < 6 ? inet[num] : CHAIN_HOOK_OTHER;
	}
}

static void read_hook(const struct nlattr *nest, int family, struct nft_chain *ch)
{
	static const enum mnl_attr_data_type types[NFTA_HOOK_MAX + 1] = {
		[NFTA_HOOK_HOOKNUM] = MNL_TYPE_U32, [NFTA_HOOK_PRIORITY] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[NFTA_HOOK_MAX + 1];

	if (nft_attrs_nested(nest, types, NFTA_HOOK_MAX, tb) < 0 || !tb[NFTA_HOOK_HOOKNUM]) {
		ch->hook = CHAIN_HOOK_OTHER;
		return;
	}
	ch->hook = hook_of(family, ntohl(mnl_attr_get_u32(tb[NFTA_HOOK_HOOKNUM])));
	if (tb[NFTA_HOOK_PRIORITY])
		ch->priority = (int32_t)ntohl(mnl_attr_get_u32(tb[NFTA_HOOK_PRIORITY]));
}

static int on_chain(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[NFTA_CHAIN_MAX + 1] = {
		[NFTA_CHAIN_TABLE] = MNL_TYPE_NUL_STRING, [NFTA_CHAIN_NAME] = MNL_TYPE_NUL_STRING,
		[NFTA_CHAIN_HOOK] = MNL_TYPE_NESTED, [NFTA_CHAIN_POLICY] = MNL_TYPE_U32,
		[NFTA_CHAIN_TYPE] = MNL_TYPE_NUL_STRING,
	};
	const struct nlattr *tb[NFTA_CHAIN_MAX + 1];
	struct nft_ctx *c = data;
	struct nft_chain *ch;

	if (check_header(c, nlh) < 0 || nft_attrs_msg(nlh, sizeof(struct nfgenmsg), types, NFTA_CHAIN_MAX, tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[NFTA_CHAIN_TABLE] || !tb[NFTA_CHAIN_NAME])
		return MNL_CB_OK;
	if (c->rs->chain_count >= CHAINS_MAX) {
		c->rs->truncated = true;
		return MNL_CB_OK;
	}
	ch = &c->rs->chains[c->rs->chain_count];
	memset(ch, 0, sizeof(*ch));
	if (!copy_name(ch->table, tb[NFTA_CHAIN_TABLE]) || !copy_name(ch->name, tb[NFTA_CHAIN_NAME])) {
		c->rs->truncated = true;
		return MNL_CB_OK;
	}
	ch->family = family_of(nlh);
	if (tb[NFTA_CHAIN_HOOK])
		read_hook(tb[NFTA_CHAIN_HOOK], ch->family, ch);
	if (tb[NFTA_CHAIN_POLICY])
		ch->policy = ntohl(mnl_attr_get_u32(tb[NFTA_CHAIN_POLICY])) == NF_DROP ? CHAIN_POLICY_DROP :
			CHAIN_POLICY_ACCEPT;
	if (tb[NFTA_CHAIN_TYPE]) {
		const char *type = mnl_attr_get_str(tb[NFTA_CHAIN_TYPE]);

		if (strlen(type) < sizeof(ch->type))
			strcpy(ch->type, type);
	}
	c->rs->chain_count++;
	return MNL_CB_OK;
}

static bool find_chain(struct nft_ctx *c, int family, const char *table, const char *name, size_t *idx)
{
	const struct nft_ruleset *rs = c->rs;

	for (size_t k = 0; k < rs->chain_count; k++) {
		size_t i = (c->last_chain + k) % rs->chain_count;   /* rules arrive grouped by chain */

		if (rs->chains[i].family == family && strcmp(rs->chains[i].name, name) == 0 &&
		    strcmp(rs->chains[i].table, table) == 0) {
			c->last_chain = *idx = i;
			return true;
		}
	}
	return false;
}

static int on_rule(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[NFTA_RULE_MAX + 1] = {
		[NFTA_RULE_TABLE] = MNL_TYPE_NUL_STRING, [NFTA_RULE_CHAIN] = MNL_TYPE_NUL_STRING,
		[NFTA_RULE_HANDLE] = MNL_TYPE_U64, [NFTA_RULE_EXPRESSIONS] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[NFTA_RULE_MAX + 1];
	struct nft_ctx *c = data;
	struct nft_rule *r;
	size_t chain;

	if (check_header(c, nlh) < 0 || nft_attrs_msg(nlh, sizeof(struct nfgenmsg), types, NFTA_RULE_MAX, tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[NFTA_RULE_TABLE] || !tb[NFTA_RULE_CHAIN] ||
	    !find_chain(c, family_of(nlh), mnl_attr_get_str(tb[NFTA_RULE_TABLE]), mnl_attr_get_str(tb[NFTA_RULE_CHAIN]),
			&chain) ||
	    !c->input_table[chain])
		return MNL_CB_OK;
	if (c->rs->rule_count >= RULES_MAX) {
		c->rs->truncated = true;
		return MNL_CB_OK;
	}
	r = &c->rs->rules[c->rs->rule_count++];
	memset(r, 0, sizeof(*r));
	r->chain = chain;
	if (tb[NFTA_RULE_HANDLE])
		r->handle = be64toh(mnl_attr_get_u64(tb[NFTA_RULE_HANDLE]));
	if (tb[NFTA_RULE_EXPRESSIONS])
		nft_rule_summarize(tb[NFTA_RULE_EXPRESSIONS], family_of(nlh), r);
	else
		r->l4proto = r->dport = -1;
	return MNL_CB_OK;
}

/* The given replies of one dump through the same callback, as mnl_cb_run would see them from the socket. */
static int replay_dump(struct nft_ctx *c, uint16_t msg, mnl_cb_t cb)
{
	unsigned i = msg == NFT_MSG_GETTABLE ? 0 : msg == NFT_MSG_GETCHAIN ? 1 : 2;
	int ret;

	if (!c->replay->len[i])
		return 0;
	errno = 0;
	ret = nl_reply_run(c->replay->buf[i], c->replay->len[i], 0, 0, cb, c);
	return ret < 0 ? (errno ? -errno : -EPROTO) : 0;
}

static int dump(struct nft_ctx *c, uint16_t msg, mnl_cb_t cb)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(c->buf);
	struct nfgenmsg *nfg;
	int ret;

	if (c->replay)
		return replay_dump(c, msg, cb);
	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | msg;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++c->seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = NFPROTO_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = 0;
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ssize_t n = mnl_socket_recvfrom(c->nl, c->buf, RECV_BUF);

		if (n < 0)
			return -errno;
		ret = nl_reply_run(c->buf, (size_t)n, c->seq, c->portid, cb, c);
	} while (ret > MNL_CB_STOP);
	if (ret < 0)
		return errno ? -errno : -EPROTO;
	return 0;
}

/* Rules are kept only for tables with an input base chain: that is where RoCE and NCCL traffic is dropped. */
static void mark_input_tables(struct nft_ctx *c)
{
	const struct nft_ruleset *rs = c->rs;

	for (size_t i = 0; i < rs->chain_count; i++) {
		if (rs->chains[i].hook != CHAIN_HOOK_INPUT)
			continue;
		for (size_t j = 0; j < rs->chain_count; j++)
			if (rs->chains[j].family == rs->chains[i].family &&
			    strcmp(rs->chains[j].table, rs->chains[i].table) == 0)
				c->input_table[j] = true;
	}
}

/* Counting sort by chain, stable: each chain's rules become one run, first_rule/rule_count point at it. */
static int group_rules(struct nft_ruleset *rs)
{
	struct nft_rule *sorted;
	size_t *next;

	if (!rs->rule_count)
		return 0;
	sorted = calloc(rs->rule_count, sizeof(*sorted));
	next = calloc(rs->chain_count, sizeof(*next));
	if (!sorted || !next) {
		free(sorted);
		free(next);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rs->rule_count; i++)
		rs->chains[rs->rules[i].chain].rule_count++;
	for (size_t c = 0, pos = 0; c < rs->chain_count; c++) {
		rs->chains[c].first_rule = next[c] = pos;
		pos += rs->chains[c].rule_count;
	}
	for (size_t i = 0; i < rs->rule_count; i++)
		sorted[next[rs->rules[i].chain]++] = rs->rules[i];
	free(next);
	free(rs->rules);
	rs->rules = sorted;
	return 0;
}

static int read_once(struct nft_ctx *c)
{
	struct nft_ruleset *rs = c->rs;
	int ret;

	rs->table_count = rs->chain_count = rs->rule_count = 0;
	rs->truncated = c->interrupted = false;
	c->last_chain = 0;
	ret = dump(c, NFT_MSG_GETTABLE, on_table);
	if (ret == 0)
		ret = dump(c, NFT_MSG_GETCHAIN, on_chain);
	if (ret < 0)
		return ret;
	memset(c->input_table, 0, CHAINS_MAX * sizeof(bool));
	mark_input_tables(c);
	ret = dump(c, NFT_MSG_GETRULE, on_rule);
	if (ret < 0)
		return ret;
	return c->interrupted ? -EAGAIN : 0;
}

static int alloc_ruleset(struct nft_ruleset *rs, struct nft_ctx *c)
{
	rs->tables = calloc(TABLES_MAX, sizeof(*rs->tables));
	rs->chains = calloc(CHAINS_MAX, sizeof(*rs->chains));
	rs->rules = calloc(RULES_MAX, sizeof(*rs->rules));
	c->input_table = calloc(CHAINS_MAX, sizeof(bool));
	c->buf = malloc(RECV_BUF);
	return rs->tables && rs->chains && rs->rules && c->input_table && c->buf ? 0 : -ENOMEM;
}

int nft_ruleset_read(const struct rootfs *root, struct nft_ruleset *out)
{
	struct nft_ctx c = { .rs = out };
	int ret;

	memset(out, 0, sizeof(*out));
	if (!root->live)
		return 0;
	ret = alloc_ruleset(out, &c);
	if (ret < 0)
		goto out;
	c.nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!c.nl) {
		ret = -errno;
		goto out;
	}
	if (mnl_socket_bind(c.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out_close;
	}
	c.portid = mnl_socket_get_portid(c.nl);
	c.seq = (unsigned)time(NULL);
	for (int i = 0; i < DUMP_TRIES; i++) {
		ret = read_once(&c);
		if (ret != -EAGAIN)
			break;
	}
	if (ret == 0)
		ret = group_rules(out);
	if (ret == 0)
		out->known = true;
out_close:
	mnl_socket_close(c.nl);
out:
	free(c.buf);
	free(c.input_table);
	if (ret < 0)
		nft_ruleset_free(out);
	return ret;
}

int nft_ruleset_parse(const struct nft_dumps *dumps, struct nft_ruleset *out)
{
	struct nft_ctx c = { .rs = out, .replay = dumps };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = alloc_ruleset(out, &c);
	if (ret == 0)
		ret = read_once(&c);
	if (ret == 0)
		ret = group_rules(out);
	if (ret == 0)
		out->known = true;
	free(c.buf);
	free(c.input_table);
	if (ret < 0)
		nft_ruleset_free(out);
	return ret;
}

void nft_ruleset_free(struct nft_ruleset *rs)
{
	free(rs->tables);
	free(rs->chains);
	free(rs->rules);
	memset(rs, 0, sizeof(*rs));
}
