// SPDX-License-Identifier: GPL-2.0-only
/* firewall.*: firewalld, and nftables input paths that drop NCCL's TCP or RoCE v2's UDP 4791. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/checks.h"

#define ROCE_V2_PORT 4791

static bool has_soft_roce(const struct host *h)
{
	for (size_t i = 0; i < h->device_count; i++)
		if (strncmp(h->devices[i].name, "rxe", 3) == 0 || (!h->devices[i].pci_address[0] && h->devices[i].parent[0]))
			return true;
	return false;
}

/* NCCL's bootstrap and socket listeners bind port 0: the kernel picks them from ip_local_port_range. */
static const char *ephemeral(const struct check_input *in)
{
	return in->port_range[0] ? in->port_range : "32768-60999";
}

static const struct nft_table *nft_firewalld_table(const struct nft_ruleset *rs)
{
	for (size_t i = 0; rs && rs->known && i < rs->table_count; i++)
		if (strcmp(rs->tables[i].name, "firewalld") == 0)
			return &rs->tables[i];
	return NULL;
}

static void check_firewalld(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	const struct nft_table *table = nft_firewalld_table(in->nft);
	char fix[2048], evidence[96];
	size_t len;
	bool proc = in->fw_procs && in->fw_procs->firewalld_running;

	if (!in->fw_procs || !findings_wanted(out, "firewall.firewalld"))
		return;
	if (!proc && !table) {
		finding_add(out, "firewall.firewalld", SEVERITY_OK, "firewalld", NULL, "firewalld is not running%s",
			    in->nft && in->nft->known ? " and owns no nftables table" : "");
		return;
	}
	if (!proc) {
		/* Its table without its process: firewalld stopped without flushing, or running outside this PID
		 * namespace (a container sharing the host's network). Either way the table filters. */
		snprintf(fix, sizeof(fix), "nft delete table %s firewalld   # if firewalld runs outside this container or "
			 "PID namespace, stop it there instead: systemctl disable --now firewalld",
			 nft_family_name(table->family));
		finding_add(out, "firewall.firewalld", SEVERITY_WARN, "firewalld", fix, "firewalld's nftables table %s "
			    "firewalld is loaded but no firewalld process is seen here (stopped without flushing, or "
			    "running outside this PID namespace); firewall.rules judges its chains",
			    nft_family_name(table->family));
		return;
	}
	snprintf(evidence, sizeof(evidence), "process %d%s", in->fw_procs->firewalld_pid,
		 table ? ", nftables table firewalld" : "");
	/* Stopping it is the only fix this check can see; the firewall-cmd lines keep it and open the way. */
	len = (size_t)snprintf(fix, sizeof(fix), "systemctl disable --now firewalld   # it comes back at boot unless "
			       "disabled\n# or keep it and trust the RDMA interfaces:\n");
	for (size_t i = 0; i < h->device_count && len < sizeof(fix); i++)
		for (size_t j = 0; j < h->devices[i].port_count && len < sizeof(fix); j++)
			if (h->devices[i].ports[j].netdev[0])
				len += (size_t)snprintf(fix + len, sizeof(fix) - len,
							"firewall-cmd --permanent --zone=trusted --add-interface=%s\n",
							h->devices[i].ports[j].netdev);
	if (len < sizeof(fix))
		snprintf(fix + len, sizeof(fix) - len,
			 "# or open the ports (RoCE v2, torchrun's --master-port, NCCL's bootstrap and socket ports, "
			 "which come from the ephemeral range%s):\n"
			 "firewall-cmd --permanent --add-port=4791/udp --add-port=29500/tcp --add-port=%s/tcp\n"
			 "firewall-cmd --reload", in->port_range[0] ? " net.ipv4.ip_local_port_range" :
			 ", Linux's default: ip_local_port_range unread", ephemeral(in));
	finding_add(out, "firewall.firewalld", SEVERITY_WARN, "firewalld", fix,
		    "firewalld is running (%s): its default zone rejects NCCL's bootstrap TCP ports%s", evidence,
		    has_soft_roce(h) ? " and Soft-RoCE's UDP 4791" : "");
}

struct path_state {
	bool udp_accepted, tcp_accepted;
	bool udp_reported, tcp_reported;
};

static bool rule_matches(const struct nft_rule *r, int proto, int port)
{
	if (r->dport_set[0])
		return false;                  /* a set of ports: not inspected, never guessed */
	if (r->l4proto != -1 && r->l4proto != proto)
		return false;
	return r->dport == -1 || (port != -1 && r->dport == port);
}

static void report_rule(const struct check_input *in, const struct nft_chain *c, const struct nft_rule *r,
			bool udp, struct findings *out)
{
	char subject[300], fix[512];
	enum severity s = r->other_matches ? SEVERITY_WARN : SEVERITY_FAIL;

	snprintf(subject, sizeof(subject), "%s %s %s", nft_family_name(c->family), c->table, c->name);
	if (udp) {
		snprintf(fix, sizeof(fix), "nft insert rule %s %s %s udp dport %d accept", nft_family_name(c->family),
			 c->table, c->name, ROCE_V2_PORT);
		if (!has_soft_roce(in->host))
			s = SEVERITY_INFO;     /* hardware RoCE bypasses netfilter: only Soft-RoCE is cut */
	} else {
		snprintf(fix, sizeof(fix), "nft insert rule %s %s %s tcp dport { 29500, %s } accept   # "
			 "torchrun's port and the ephemeral range NCCL's bootstrap uses", nft_family_name(c->family),
			 c->table, c->name, ephemeral(in));
	}
	finding_add(out, "firewall.rules", s, subject, fix, "rule handle %llu %ss %s%s%s",
		    (unsigned long long)r->handle, rule_verdict_name(r->verdict),
		    udp ? "RoCE v2 (udp dport 4791)" : "TCP",
		    r->other_matches ? " (it also matches on something else: may apply to only part of the traffic)" : "",
		    udp && s == SEVERITY_INFO ? "; only Soft-RoCE traffic passes netfilter, hardware RoCE does not" : "");
}

static void check_chain(const struct check_input *in, const struct nft_chain *c, struct findings *out, size_t *bad)
{
	const struct nft_ruleset *rs = in->nft;
	struct path_state st = { 0 };

	for (size_t k = c->first_rule; k < c->first_rule + c->rule_count && k < rs->rule_count; k++) {
		const struct nft_rule *r = &rs->rules[k];
		bool udp = rule_matches(r, 17, ROCE_V2_PORT), tcp = rule_matches(r, 6, -1) && r->dport == -1;

		if (r->verdict == RULE_VERDICT_ACCEPT && !r->other_matches) {
			st.udp_accepted |= udp;
			st.tcp_accepted |= tcp;
		}
		if (r->verdict != RULE_VERDICT_DROP && r->verdict != RULE_VERDICT_REJECT)
			continue;
		if (udp && !st.udp_accepted && !st.udp_reported) {
			report_rule(in, c, r, true, out);
			st.udp_reported = true;
			(*bad)++;
		}
		if (tcp && !st.tcp_accepted && !st.tcp_reported) {
			report_rule(in, c, r, false, out);
			st.tcp_reported = true;
			(*bad)++;
		}
	}
	st.udp_accepted |= st.udp_reported;   /* already reported: say the policy part once */
	st.tcp_accepted |= st.tcp_reported;
	if (c->policy == CHAIN_POLICY_DROP && (!st.udp_accepted || !st.tcp_accepted)) {
		char subject[300], fix[1024];

		snprintf(subject, sizeof(subject), "%s %s %s", nft_family_name(c->family), c->table, c->name);
		snprintf(fix, sizeof(fix), "nft insert rule %s %s %s udp dport 4791 accept\n"
			 "nft insert rule %s %s %s tcp dport { 29500, %s } accept",
			 nft_family_name(c->family), c->table, c->name, nft_family_name(c->family), c->table, c->name,
			 ephemeral(in));
		finding_add(out, "firewall.rules", SEVERITY_WARN, subject, fix, "input policy drop; no plain rule "
			    "accepts %s before it (rules with other matches or port sets are not inspected)",
			    !st.udp_accepted && !st.tcp_accepted ? "udp 4791 or TCP" : !st.udp_accepted ? "udp 4791" : "TCP");
		(*bad)++;
	}
}

static void check_rules(const struct check_input *in, struct findings *out)
{
	const struct nft_ruleset *rs = in->nft;
	size_t bad = 0, inputs = 0;

	if (!rs || !findings_wanted(out, "firewall.rules"))
		return;
	if (!rs->known) {
		if (in->live)
			finding_add(out, "firewall.rules", SEVERITY_INFO, "nftables", in->recorded ?
				    "sudo roce-doctor snapshot > FILE   # as root the snapshot records the ruleset" :
				    "sudo roce-doctor check --only firewall", "%snftables ruleset not read: %s",
				    in->recorded ? "recorded in the snapshot: " : "", in->nft_err == -EPERM ?
				    "reading it needs CAP_NET_ADMIN (run as root)" : strerror(-in->nft_err));
		else
			finding_add(out, "firewall.rules", SEVERITY_INFO, "nftables", NULL,
				    "unknown: the nftables ruleset comes from netlink on the live host, not from a --root tree");
	} else {
		for (size_t i = 0; i < rs->chain_count; i++) {
			const struct nft_chain *c = &rs->chains[i];
			bool dormant = false;

			for (size_t t = 0; t < rs->table_count; t++)
				if (rs->tables[t].family == c->family && strcmp(rs->tables[t].name, c->table) == 0)
					dormant = rs->tables[t].dormant;
			if (c->hook != CHAIN_HOOK_INPUT || dormant)
				continue;
			inputs++;
			check_chain(in, c, out, &bad);
		}
		if (!bad)
			finding_add(out, "firewall.rules", SEVERITY_OK, "nftables", NULL,
				    "%zu input chain(s), none drops TCP or udp 4791%s", inputs,
				    rs->truncated ? " (ruleset truncated: some rules were not read)" : "");
	}
	if (in->fw_procs && in->fw_procs->iptables_count)
		finding_add(out, "firewall.rules", SEVERITY_INFO, "iptables", "iptables-legacy -S INPUT   # look for DROP/REJECT of udp 4791 or TCP",
			    "legacy iptables table(s) loaded (%s%s): their rules are not read", in->fw_procs->iptables[0],
			    in->fw_procs->iptables_count > 1 ? ", ..." : "");
}

void check_firewall(const struct check_input *in, struct findings *out)
{
	check_firewalld(in, out);
	check_rules(in, out);
}
