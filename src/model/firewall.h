// SPDX-License-Identifier: GPL-2.0-only
/* The firewall as check sees it, as data: what /proc tells (probe/firewall_proc.h) and the nftables ruleset
 * summarised (netcfg/nftables.h). */
#ifndef ROCE_DOCTOR_MODEL_FIREWALL_H
#define ROCE_DOCTOR_MODEL_FIREWALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IPTABLES_TABLES_MAX 8

struct firewall_procs {
	bool firewalld_running;
	int firewalld_pid;
	size_t processes_scanned;
	bool scan_truncated;         /* more processes than the scan looks at */
	bool iptables_known;         /* /proc/net/ip_tables_names readable (absent: ip_tables not loaded) */
	char iptables[IPTABLES_TABLES_MAX][32];   /* "filter", "nat", … */
	size_t iptables_count;
};

#define NFT_OBJ_NAME_MAX 128         /* longer table, chain and set names are skipped (truncated is set) */

enum chain_hook {
	CHAIN_HOOK_NONE,             /* a regular chain, reached only by jump/goto */
	CHAIN_HOOK_PREROUTING,
	CHAIN_HOOK_INPUT,
	CHAIN_HOOK_FORWARD,
	CHAIN_HOOK_OUTPUT,
	CHAIN_HOOK_POSTROUTING,
	CHAIN_HOOK_INGRESS,
	CHAIN_HOOK_EGRESS,
	CHAIN_HOOK_OTHER,
};

enum chain_policy { CHAIN_POLICY_NONE, CHAIN_POLICY_ACCEPT, CHAIN_POLICY_DROP };

enum rule_verdict {
	RULE_VERDICT_NONE,           /* no terminal statement (counter, log…): evaluation goes on */
	RULE_VERDICT_ACCEPT,
	RULE_VERDICT_DROP,
	RULE_VERDICT_REJECT,
	RULE_VERDICT_JUMP,
	RULE_VERDICT_GOTO,
	RULE_VERDICT_RETURN,
	RULE_VERDICT_QUEUE,
	RULE_VERDICT_OTHER,
};

struct nft_table {
	int family;                  /* NFPROTO_INET, NFPROTO_IPV4, … */
	char name[NFT_OBJ_NAME_MAX];
	bool dormant;                /* flags dormant: its chains are not hooked */
};

struct nft_chain {
	int family;
	char table[NFT_OBJ_NAME_MAX];
	char name[NFT_OBJ_NAME_MAX];
	enum chain_hook hook;        /* NONE for regular chains */
	int priority;
	enum chain_policy policy;    /* NONE for regular chains */
	char type[16];               /* "filter", "nat", "route" */
	size_t first_rule, rule_count;   /* into nft_ruleset.rules; 0 rules when its table has no input hook */
};

struct nft_rule {
	size_t chain;                /* index into nft_ruleset.chains */
	uint64_t handle;
	enum rule_verdict verdict;
	char target[NFT_OBJ_NAME_MAX];   /* jump/goto chain */
	int l4proto;                 /* 6 tcp, 17 udp; -1 when the rule does not compare it */
	int dport;                   /* -1 when the rule does not compare it */
	char dport_set[NFT_OBJ_NAME_MAX];   /* "dport { 4791, 5000 }" or "dport @name": the set; not inspected */
	bool other_matches;          /* also matches on things not modelled here: it may not apply to all */
};

struct nft_ruleset {
	bool known;                  /* false under --root, where no netlink is asked */
	struct nft_table *tables;
	size_t table_count;
	struct nft_chain *chains;    /* in kernel order: by table, then chain */
	size_t chain_count;
	struct nft_rule *rules;      /* grouped by chain, in evaluation order */
	size_t rule_count;
	bool truncated;              /* limits reached or names too long: something was left out */
};

const char *nft_family_name(int family);           /* "inet", "ip", "ip6", "arp", "bridge", "netdev" */
const char *chain_hook_name(enum chain_hook hook);  /* "input", …, "none" */
const char *rule_verdict_name(enum rule_verdict v); /* "drop", "reject", … */

#endif
