// SPDX-License-Identifier: GPL-2.0-only
/* Run by tests/probes/netns_probes.sh inside a network namespace of its own: the nftables and ip-rule
 * readers against a ruleset and rules the script set up with nft and ip. Modes: empty, loaded, unprivileged. */
#include <arpa/inet.h>
#include <linux/netfilter.h>

#include "netcfg/ip_rules.h"
#include "netcfg/nftables.h"
#include "probe_tree.h"
#include "tap.h"

static const char *mode = "empty";

static const struct nft_chain *find_chain(const struct nft_ruleset *rs, int family, const char *table, const char *name)
{
	for (size_t i = 0; i < rs->chain_count; i++)
		if (rs->chains[i].family == family && !strcmp(rs->chains[i].table, table) &&
		    !strcmp(rs->chains[i].name, name))
			return &rs->chains[i];
	return NULL;
}

static const struct nft_table *find_table(const struct nft_ruleset *rs, int family, const char *name)
{
	for (size_t i = 0; i < rs->table_count; i++)
		if (rs->tables[i].family == family && !strcmp(rs->tables[i].name, name))
			return &rs->tables[i];
	return NULL;
}

static struct in6_addr mapped(const char *ip)
{
	struct in6_addr a = { 0 };

	if (strchr(ip, ':')) {
		inet_pton(AF_INET6, ip, &a);
	} else {
		a.s6_addr[10] = a.s6_addr[11] = 0xff;
		inet_pton(AF_INET, ip, &a.s6_addr[12]);
	}
	return a;
}

static void replayed_root_leaves_netlink_unknown(void)
{
	struct nft_ruleset rs;
	struct ip_rule_list rules;
	struct rootfs root;

	if (open_fixture(&root, "check-seed000") < 0) {
		CHECK(0);
		return;
	}
	CHECK(nft_ruleset_read(&root, &rs) == 0 && !rs.known && rs.table_count == 0);
	CHECK(ip_rules_read(&root, &rules) == 0 && !rules.known && rules.count == 0);
	nft_ruleset_free(&rs);
	ip_rule_list_free(&rules);
	rootfs_close(&root);
}

static void empty_namespace_has_no_tables_and_default_rules(void)
{
	struct ip_rule_list rules;
	struct nft_ruleset rs;
	struct in6_addr a = mapped("10.99.0.1");
	struct rootfs root;
	int ret;

	CHECK(rootfs_open(&root, NULL) == 0);
	ret = nft_ruleset_read(&root, &rs);
	CHECK(ret == 0 && rs.known && rs.table_count == 0 && rs.chain_count == 0);
	CHECK(ip_rules_read(&root, &rules) == 0 && rules.known);
	CHECK(rules.count >= 3);   /* local, main, default (and IPv6's local, main) */
	for (size_t i = 0; i < rules.count; i++)
		CHECK(rules.items[i].src_len == 0);
	CHECK(ip_rule_for_source(&rules, AF_INET, &a) == NULL);
	nft_ruleset_free(&rs);
	ip_rule_list_free(&rules);
	rootfs_close(&root);
}

static void firewalld_style_input_chain_is_summarized(void)
{
	const struct nft_chain *in, *pub;
	const struct nft_rule *r;
	struct nft_ruleset rs;
	struct rootfs root;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(nft_ruleset_read(&root, &rs) == 0 && rs.known && !rs.truncated);
	in = find_chain(&rs, NFPROTO_INET, "firewalld", "filter_INPUT");
	pub = find_chain(&rs, NFPROTO_INET, "firewalld", "filter_IN_public");
	CHECK(find_table(&rs, NFPROTO_INET, "firewalld") != NULL);
	CHECK(in && in->hook == CHAIN_HOOK_INPUT && in->policy == CHAIN_POLICY_DROP && in->priority == 10);
	CHECK(in && !strcmp(in->type, "filter") && in->rule_count == 5);
	if (in && in->rule_count == 5) {
		r = &rs.rules[in->first_rule];
		CHECK(r[0].verdict == RULE_VERDICT_ACCEPT && r[0].other_matches);            /* ct state */
		CHECK(r[1].verdict == RULE_VERDICT_DROP && r[1].l4proto == 17 && r[1].dport == 4791 &&
		      !r[1].other_matches);
		CHECK(r[2].verdict == RULE_VERDICT_ACCEPT && r[2].l4proto == 6 && r[2].dport == 22);
		CHECK(r[3].verdict == RULE_VERDICT_REJECT && r[3].l4proto == 17 && r[3].dport == -1 &&
		      r[3].dport_set[0] && !r[3].other_matches);
		CHECK(r[4].verdict == RULE_VERDICT_JUMP && !strcmp(r[4].target, "filter_IN_public") &&
		      r[4].l4proto == -1 && !r[4].other_matches);
		for (size_t i = 0; i < 5; i++)
			CHECK(r[i].chain == (size_t)(in - rs.chains) && r[i].handle != 0);
	}
	CHECK(pub && pub->hook == CHAIN_HOOK_NONE && pub->policy == CHAIN_POLICY_NONE && pub->rule_count == 1);
	if (pub && pub->rule_count == 1) {
		r = &rs.rules[pub->first_rule];
		CHECK(r->verdict == RULE_VERDICT_REJECT && r->l4proto == 17 && r->dport == -1);
	}
	nft_ruleset_free(&rs);
	rootfs_close(&root);
}

static void ip_family_protocol_and_interface_matches(void)
{
	const struct nft_chain *in, *post;
	const struct nft_table *dormant;
	struct nft_ruleset rs;
	struct rootfs root;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(nft_ruleset_read(&root, &rs) == 0 && rs.known);
	in = find_chain(&rs, NFPROTO_IPV4, "t4", "in");
	CHECK(in && in->hook == CHAIN_HOOK_INPUT && in->policy == CHAIN_POLICY_ACCEPT && in->rule_count == 3);
	if (in && in->rule_count == 3) {
		const struct nft_rule *r = &rs.rules[in->first_rule];

		CHECK(r[0].verdict == RULE_VERDICT_DROP && r[0].l4proto == 17 && r[0].dport == -1 && !r[0].other_matches);
		CHECK(r[1].verdict == RULE_VERDICT_DROP && r[1].dport == 4791 && r[1].other_matches);   /* iifname */
		/* ct loads into the register that held l4proto: its compare must not be taken for one */
		CHECK(r[2].verdict == RULE_VERDICT_DROP && r[2].l4proto == 17 && r[2].other_matches);
	}
	post = find_chain(&rs, NFPROTO_IPV4, "nat", "postrouting");
	CHECK(post && post->hook == CHAIN_HOOK_POSTROUTING && post->priority == 100 && !strcmp(post->type, "nat"));
	CHECK(post && post->rule_count == 0);   /* no input chain in that table: its rules are not kept */
	dormant = find_table(&rs, NFPROTO_IPV6, "sleeping");
	CHECK(dormant && dormant->dormant);
	CHECK(!find_table(&rs, NFPROTO_INET, "firewalld")->dormant);
	nft_ruleset_free(&rs);
	rootfs_close(&root);
}

static void source_rule_found_for_its_address_only(void)
{
	struct ip_rule_list rules;
	struct in6_addr a = mapped("10.99.0.1"), b = mapped("10.99.0.2"), c = mapped("2001:db8:99::1");
	struct in6_addr d = mapped("10.98.7.7");
	const struct ip_rule *r;
	struct rootfs root;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(ip_rules_read(&root, &rules) == 0 && rules.known);
	r = ip_rule_for_source(&rules, AF_INET, &a);
	CHECK(r && r->priority == 10000 && r->table == 100 && r->src_len == 32);
	CHECK(ip_rule_for_source(&rules, AF_INET, &b) == NULL);
	r = ip_rule_for_source(&rules, AF_INET, &d);
	CHECK(r && r->table == 102 && r->src_len == 16);
	r = ip_rule_for_source(&rules, AF_INET6, &c);
	CHECK(r && r->table == 101 && r->src_len == 128);
	CHECK(ip_rule_for_source(&rules, AF_INET, &c) == NULL);
	for (size_t i = 1; i < rules.count; i++)
		CHECK(rules.items[i - 1].family != rules.items[i].family ||
		      rules.items[i - 1].priority <= rules.items[i].priority);
	ip_rule_list_free(&rules);
	rootfs_close(&root);
}

static void without_cap_net_admin_nftables_is_refused(void)
{
	struct nft_ruleset rs;
	struct rootfs root;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(nft_ruleset_read(&root, &rs) == -EPERM);
	CHECK(!rs.known && rs.tables == NULL);
	rootfs_close(&root);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		mode = argv[1];
	if (argc > 2)
		fixtures_dir = argv[2];
	if (!strcmp(mode, "unprivileged")) {
		RUN(without_cap_net_admin_nftables_is_refused);
	} else if (!strcmp(mode, "loaded")) {
		RUN(firewalld_style_input_chain_is_summarized);
		RUN(ip_family_protocol_and_interface_matches);
		RUN(source_rule_found_for_its_address_only);
	} else {
		RUN(replayed_root_leaves_netlink_unknown);
		RUN(empty_namespace_has_no_tables_and_default_rules);
	}
	TAP_DONE();
}
