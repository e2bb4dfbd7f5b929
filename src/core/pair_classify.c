// SPDX-License-Identifier: GPL-2.0-only
/* What a failed probe between two nodes usually means, from both sides' data: a rail whose RDMA write failed
 * (a GID of the wrong family or link-local, a pinned GID index, no route, udp 4791 filtered on the side whose
 * firewall drops it, the path MTU, ARP flux), NCCL's bootstrap TCP that did not arrive (a firewall on b), and
 * a short bw per rail against the link rate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pair.h"
#include "model/firewall.h"
#include "util/gidaddr.h"
#include "util/text_append.h"

#define ROCE_V2_PORT 4791

struct drop {
	const struct nft_chain *chain;
	const struct nft_rule *rule;      /* NULL: the chain's drop policy */
};

static bool rule_hits(const struct nft_rule *r, int proto, int port)
{
	if (r->dport_set[0])
		return false;                  /* a set: not inspected, never guessed */
	if (r->l4proto != -1 && r->l4proto != proto)
		return false;
	return r->dport == -1 || r->dport == port;
}

/* The first input-chain rule of a side that drops proto/port before anything accepts it (a rule with other
 * matches counts: on a failed rail it is the likely one), or a drop policy with no accept. */
static bool side_drops(const struct check_input *in, int proto, int port, struct drop *d)
{
	const struct nft_ruleset *rs = in->nft;

	for (size_t i = 0; rs && rs->known && i < rs->chain_count; i++) {
		const struct nft_chain *c = &rs->chains[i];
		bool accepted = false, dormant = false;

		for (size_t t = 0; t < rs->table_count; t++)
			if (rs->tables[t].family == c->family && strcmp(rs->tables[t].name, c->table) == 0)
				dormant = rs->tables[t].dormant;
		if (c->hook != CHAIN_HOOK_INPUT || dormant)
			continue;
		for (size_t k = c->first_rule; k < c->first_rule + c->rule_count && k < rs->rule_count; k++) {
			const struct nft_rule *r = &rs->rules[k];

			if (!rule_hits(r, proto, port))
				continue;
			if (r->verdict == RULE_VERDICT_ACCEPT && !r->other_matches) {
				accepted = true;
				break;
			}
			if (r->verdict == RULE_VERDICT_DROP || r->verdict == RULE_VERDICT_REJECT) {
				d->chain = c;
				d->rule = r;
				return true;
			}
		}
		if (!accepted && c->policy == CHAIN_POLICY_DROP) {
			d->chain = c;
			d->rule = NULL;
			return true;
		}
	}
	return false;
}

static const struct rdma_port *find_port(const struct host *h, const struct pair_port *p)
{
	const struct rdma_device *d = host_find_device(h, p->end.device);

	for (size_t i = 0; d && i < d->port_count; i++)
		if (d->ports[i].num == p->end.port)
			return &d->ports[i];
	return NULL;
}

static const struct gid_entry *entry_at(const struct rdma_port *p, long index)
{
	for (size_t i = 0; p && i < p->gid_count; i++)
		if ((long)p->gids[i].index == index)
			return &p->gids[i];
	return NULL;
}

/* A pinned NCCL_IB_GID_INDEX on the side that is not the rail end's index: what NCCL would use instead. */
static bool pinned_wrong(const struct pair_side *s, const struct pair_port *p, long *pinned)
{
	const char *v = s->in->gid_index_value;
	char *end;

	if (!v || !*v)
		return false;
	*pinned = strtol(v, &end, 10);
	return !*end && *pinned != p->end.gid_index;
}

/* The entry at index on the end's port, described: "10.0.0.2 (RoCE v2)", "fe80:: link-local", "an empty slot". */
static void entry_text(const struct rdma_port *port, long index, char *buf, size_t size)
{
	const struct gid_entry *e = entry_at(port, index);
	char ip[64];

	if (!e) {
		snprintf(buf, size, "an empty slot");
		return;
	}
	gid_format_ip(&e->gid, ip);
	snprintf(buf, size, "%s (%s%s)", ip, e->type == GID_TYPE_ROCE_V2 ? "RoCE v2" : "RoCE v1",
		 gid_is_link_local(&e->gid) ? ", link-local: it does not route" : "");
}

struct cause {
	char node;                        /* whose fix: 'a', 'b' or 0 */
	char text[1024];
	char fix[1024];
};

static bool cause_pinned(const struct pair_side *s, char node, const struct pair_port *p, struct cause *c)
{
	const struct rdma_port *port = find_port(s->in->host, p);
	char name[96], what[160];
	long pinned;

	if (!pinned_wrong(s, p, &pinned))
		return false;
	pair_node_name(s, name, sizeof(name));
	entry_text(port, pinned, what, sizeof(what));
	c->node = node;
	snprintf(c->text, sizeof(c->text), "%s pins NCCL_IB_GID_INDEX=%ld (%s), which on %s/%u is %s; the rail's GID "
		 "there is %d (%s)", name, pinned, s->in->gid_index_source ? s->in->gid_index_source : "environment",
		 p->end.device, p->end.port, what, p->end.gid_index, p->end.address);
	snprintf(c->fix, sizeof(c->fix), "export NCCL_IB_GID_INDEX=%d   # on %s, or unset it (NCCL >= 2.21 picks per "
		 "HCA); pair.gid_index says where it was set", p->end.gid_index, name);
	return true;
}

static bool cause_udp(const struct pair_side *s, char node, const struct pair_port *p, struct cause *c)
{
	struct drop d;
	char name[96];

	/* Only Soft-RoCE (rxe) sends RoCE v2 through netfilter; a NIC's RoCE traffic bypasses it. */
	if (!p->soft || !side_drops(s->in, 17, ROCE_V2_PORT, &d))
		return false;
	pair_node_name(s, name, sizeof(name));
	c->node = node;
	snprintf(c->text, sizeof(c->text), "%s's nftables %s %s %s %s udp 4791 (RoCE v2)%s", name,
		 nft_family_name(d.chain->family), d.chain->table, d.chain->name,
		 d.rule ? "has a rule that drops" : "drops by policy, with no rule accepting",
		 d.rule && d.rule->other_matches ? " (the rule also matches something else, such as an interface: "
		 "it may cut this rail only)" : "");
	snprintf(c->fix, sizeof(c->fix), "nft insert rule %s %s %s udp dport 4791 accept   # on %s",
		 nft_family_name(d.chain->family), d.chain->table, d.chain->name, name);
	return true;
}

static bool cause_mtu(const struct pair_side *a, const struct pair_side *b, const struct pair_rail *r,
		      const struct rail_rdma_probe *probe, struct cause *c)
{
	bool a_low = r->a.netdev_mtu < r->b.netdev_mtu;
	const struct pair_port *lo = a_low ? &r->a : &r->b, *hi = a_low ? &r->b : &r->a;
	char name[96], na[96], nb[96];

	if (lo->netdev_mtu <= 0 || hi->netdev_mtu <= 0)
		return false;
	/* RoCE v2 adds about 60 bytes of headers and the ICRC to a payload of the path MTU */
	if (lo->netdev_mtu == hi->netdev_mtu && !(probe->path_mtu_bytes && (int)probe->path_mtu_bytes + 100 > lo->netdev_mtu))
		return false;
	pair_node_name(a_low ? a : b, name, sizeof(name));
	c->node = a_low ? 'a' : 'b';
	pair_node_name(a, na, sizeof(na));
	pair_node_name(b, nb, sizeof(nb));
	snprintf(c->text, sizeof(c->text), "path MTU: %s has netdev MTU %d on %s, %s has %d on %s%s", na,
		 r->a.netdev_mtu, r->a.netdev, nb, r->b.netdev_mtu, r->b.netdev,
		 probe->path_mtu_bytes ? "; the QPs ran with a larger RoCE MTU than the smaller carries" : "");
	snprintf(c->fix, sizeof(c->fix), "ip link set dev %s mtu %d   # on %s\n# to keep it: nmcli connection modify %s "
		 "802-3-ethernet.mtu %d", lo->netdev, hi->netdev_mtu > lo->netdev_mtu ? hi->netdev_mtu : 9000, name,
		 lo->netdev, hi->netdev_mtu > lo->netdev_mtu ? hi->netdev_mtu : 9000);
	return true;
}

static bool arp_ok(const struct check_input *in, const char *netdev)
{
	for (size_t i = 0; i < in->arp_count; i++)
		if (strcmp(in->arp[i].netdev, netdev) == 0)
			return in->arp[i].known && in->arp[i].value.ignore >= 1 && in->arp[i].value.announce >= 2;
	return true;   /* unknown: never blamed */
}

static bool cause_arp(const struct pair_side *s, char node, const struct pair_rails *rails, const struct pair_port *p,
		      struct cause *c)
{
	char name[96];

	if (!rails->one_subnet || arp_ok(s->in, p->netdev))
		return false;
	pair_node_name(s, name, sizeof(name));
	c->node = node;
	snprintf(c->text, sizeof(c->text), "ARP flux: the rails share one subnet and %s's %s has no "
		 "arp_ignore=1/arp_announce=2, so its address may be answered from the other port", name, p->netdev);
	snprintf(c->fix, sizeof(c->fix), "printf 'net.ipv4.conf.all.arp_ignore=1\\nnet.ipv4.conf.all.arp_announce=2\\n' "
		 "> /etc/sysctl.d/90-roce-arp.conf && sysctl --system   # on %s (pair.same_subnet has the per-port lines)",
		 name);
	return true;
}

/* The most likely reason a rail's RDMA probe failed, from both sides' models. */
static void explain_rail(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
			 const struct pair_rail *r, const struct rail_rdma_probe *probe, struct cause *c)
{
	char na[96], nb[96];

	memset(c, 0, sizeof(*c));
	if (cause_pinned(b, 'b', &r->b, c) || cause_pinned(a, 'a', &r->a, c))
		return;
	if (r->link == RAIL_LINK_ROUTED) {
		pair_node_name(a, na, sizeof(na));
		pair_node_name(b, nb, sizeof(nb));
		c->node = 'b';
		snprintf(c->text, sizeof(c->text), "no route: %s (%s) and %s (%s) are in different subnets", r->a.end.address,
			 na, r->b.end.address, nb);
		snprintf(c->fix, sizeof(c->fix), "# on %s: put %s into %s's subnet (pair.rail has the ip addr lines), "
			 "or add a route to it on both nodes", nb, r->b.netdev, na);
		return;
	}
	if (cause_udp(b, 'b', &r->b, c) || cause_udp(a, 'a', &r->a, c) || cause_mtu(a, b, r, probe, c) ||
	    cause_arp(b, 'b', rails, &r->b, c) || cause_arp(a, 'a', rails, &r->a, c))
		return;
	snprintf(c->text, sizeof(c->text), "neither node's data explains it (GIDs, subnets, MTUs and firewalls agree): "
		 "look at the path between them (cable, switch port, PFC/ECN)");
	snprintf(c->fix, sizeof(c->fix), "ping -I %s %s   # on a: the IP path; then roce-doctor bw %s -d %s/%u   # "
		 "against roce-doctor serve on b, for the completion error", r->a.netdev, r->b.end.address,
		 r->b.end.address, r->a.end.device, r->a.end.port);
}

static const char *outcome_text(const struct rail_rdma_probe *p)
{
	switch (p->outcome) {
	case RAIL_RDMA_TIMEOUT:
		return "no completion within the probe's timeout";
	case RAIL_RDMA_WC_ERROR:
		return "a work completion failed";
	case RAIL_RDMA_SETUP_FAILED:
		return "the queue pair could not be connected";
	case RAIL_RDMA_REFUSED:
		return "b's serve refused the rail";
	case RAIL_RDMA_PEER_GONE:
		return "b's serve stopped answering";
	default:
		return "not run";
	}
}

/* The GID index the probe used on an end: a pinned NCCL_IB_GID_INDEX, as NCCL would, else the rail's. */
static long used_index(const struct pair_side *s, const struct pair_port *p)
{
	long pinned;

	return pinned_wrong(s, p, &pinned) ? pinned : p->end.gid_index;
}

static void rail_subject(const struct pair_rail *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%u<->%s/%u", r->a.end.device, r->a.end.port, r->b.end.device, r->b.end.port);
}

static void classify_rdma(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
			  const struct pair_probes *probes, struct pair_findings *out)
{
	for (size_t i = 0; probes->rdma_run && i < rails->count; i++) {
		const struct pair_rail *r = &rails->items[i];
		const struct rail_rdma_probe *p = &probes->rdma[i];
		char subject[160];
		struct cause c;

		if (r->link == RAIL_LINK_MISSING || !r->a.usable || !r->b.usable)
			continue;   /* pair.rail or pair.gid already says why nothing could run */
		rail_subject(r, subject, sizeof(subject));
		if (p->outcome == RAIL_RDMA_OK) {
			pair_add(out, 0, "pair.rdma", SEVERITY_OK, subject, NULL, "RDMA write and read-back between %s "
				 "(GID %d) and %s (GID %d): %.0f us, path MTU %u", r->a.end.address, r->a.end.gid_index,
				 r->b.end.address, r->b.end.gid_index, p->round_trip_us, p->path_mtu_bytes);
			continue;
		}
		if (p->outcome == RAIL_RDMA_NOT_RUN) {
			pair_add(out, 0, "pair.rdma", SEVERITY_INFO, subject, NULL, "RDMA probe not run%s%s",
				 p->detail[0] ? ": " : "", p->detail);
			continue;
		}
		/* a serve that refused the pinned index (another family, or no GID there) refused NCCL's mistake */
		memset(&c, 0, sizeof(c));
		if (p->outcome == RAIL_RDMA_REFUSED && (cause_pinned(b, 'b', &r->b, &c) || cause_pinned(a, 'a', &r->a, &c))) {
			pair_add(out, c.node, "pair.rdma", SEVERITY_FAIL, subject, c.fix, "%s%s%s; what it usually means: %s",
				 outcome_text(p), p->detail[0] ? ": " : "", p->detail, c.text);
			continue;
		}
		if (p->outcome == RAIL_RDMA_PEER_GONE || p->outcome == RAIL_RDMA_REFUSED) {
			pair_add(out, 'b', "pair.rdma", SEVERITY_FAIL, subject, "roce-doctor serve   # on b: start it "
				 "again, then roce-doctor check --peer on a", "%s%s%s", outcome_text(p),
				 p->detail[0] ? ": " : "", p->detail);
			continue;
		}
		explain_rail(a, b, rails, r, p, &c);
		pair_add(out, c.node, "pair.rdma", SEVERITY_FAIL, subject, c.fix, "RDMA between %s (GID %ld) and %s (GID "
			 "%ld) failed%s: %s%s%s; what it usually means: %s", r->a.end.address, used_index(a, &r->a),
			 r->b.end.address, used_index(b, &r->b), p->seen_by_peer ? " on b" : "", outcome_text(p),
			 p->detail[0] ? ": " : "", p->detail, c.text);
	}
}

/* b's fix for TCP that did not arrive: its nftables rule, firewalld, or the plain rule to add. */
static void bootstrap_fix(const struct pair_side *b, const struct tcp_reach_probe *t, unsigned master_port, char *fix,
			  size_t size)
{
	const char *range = b->in->port_range[0] ? b->in->port_range : "32768-60999";
	struct drop d;
	char name[96];

	pair_node_name(b, name, sizeof(name));
	if (b->in->fw_procs && b->in->fw_procs->firewalld_running) {
		snprintf(fix, size, "firewall-cmd --permanent --add-port=%u/tcp --add-port=%s/tcp && firewall-cmd "
			 "--reload   # on %s; or systemctl disable --now firewalld", master_port, range, name);
		return;
	}
	if (side_drops(b->in, 6, t->port, &d)) {
		snprintf(fix, size, "nft insert rule %s %s %s tcp dport { %u, %s } accept   # on %s: torchrun's port and "
			 "the ephemeral range NCCL's bootstrap uses", nft_family_name(d.chain->family), d.chain->table,
			 d.chain->name, master_port, range, name);
		return;
	}
	snprintf(fix, size, "nft list ruleset; iptables -S INPUT   # on %s: find what drops TCP to port %u, then "
		 "accept it (nft insert rule inet filter input tcp dport { %u, %s } accept)", name, t->port, master_port,
		 range);
}

static void classify_bootstrap(const struct pair_side *a, const struct pair_side *b, const struct pair_probes *probes,
			       unsigned master_port, struct pair_findings *out)
{
	char na[96], nb[96];

	pair_node_name(a, na, sizeof(na));
	pair_node_name(b, nb, sizeof(nb));
	for (size_t i = 0; i < probes->reach_count && i < PAIR_REACH_MAX; i++) {
		const struct tcp_reach_probe *t = &probes->reach[i];
		char subject[96], fix[1024], what[192];

		if (t->outcome == TCP_REACH_NOT_RUN)
			continue;
		snprintf(what, sizeof(what), strcmp(t->purpose, "master_port") == 0 ? "torchrun's MASTER_PORT %u" :
			 "port %u of %s's ephemeral range", t->port, nb);
		if (strcmp(t->purpose, "master_port") == 0 && t->port != master_port)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " (asked %u)", master_port);
		snprintf(subject, sizeof(subject), "%.40s->%.40s", t->local_address, t->remote_address);
		switch (t->outcome) {
		case TCP_REACH_ARRIVED:
			pair_add(out, 0, "pair.bootstrap", SEVERITY_OK, subject, NULL, "TCP from %s (%s) to %s:%u arrived: "
				 "%s", t->local_address, na, t->remote_address, t->port, what);
			break;
		case TCP_REACH_NOT_ARRIVED:
			bootstrap_fix(b, t, master_port, fix, sizeof(fix));
			pair_add(out, 'b', "pair.bootstrap", SEVERITY_FAIL, subject, fix, "TCP from %s (%s) to %s:%u, %s, "
				 "never arrived on %s%s%s: a firewall on %s drops NCCL's bootstrap, so the job hangs at init",
				 t->local_address, na, t->remote_address, t->port, what, nb, t->connect_failed ? "; connect: " :
				 "", t->connect_failed ? strerror(t->connect_errno) : "", nb);
			break;
		case TCP_REACH_REFUSED_BY_PEER:
			snprintf(fix, sizeof(fix), "ss -ltnp 'sport = :%u'   # on %s: what holds the port; or launch with "
				 "another --master-port", t->port, nb);
			pair_add(out, 'b', "pair.bootstrap", SEVERITY_WARN, subject, fix, "%s would not listen on %s:%u "
				 "(%s)%s%s", nb, t->remote_address, t->port, what, t->detail[0] ? ": " : "", t->detail);
			break;
		default:
			pair_add(out, 0, "pair.bootstrap", SEVERITY_FAIL, subject, NULL, "the reachability probe of %s "
				 "failed%s%s", what, t->detail[0] ? ": " : "", t->detail);
			break;
		}
	}
}

static void classify_bw(const struct pair_rails *rails, const struct pair_probes *probes, struct pair_findings *out)
{
	for (size_t i = 0; probes->bw_run && i < rails->count; i++) {
		const struct pair_rail *r = &rails->items[i];
		const struct rail_bw_probe *p = &probes->bw[i];
		double rate = r->a.rate_gbps < r->b.rate_gbps ? r->a.rate_gbps : r->b.rate_gbps;
		char subject[160], fix[512];

		if (!p->run || r->link == RAIL_LINK_MISSING)
			continue;
		rail_subject(r, subject, sizeof(subject));
		if (!p->ok && p->serve_gone) {
			pair_add(out, 'b', "pair.bw", SEVERITY_FAIL, subject, "roce-doctor serve   # on b: start it again, "
				 "then roce-doctor check --peer on a", "b's serve stopped answering during the short bw run: %s",
				 p->detail);
			continue;
		}
		if (!p->ok) {
			pair_add(out, 0, "pair.bw", SEVERITY_WARN, subject, NULL, "the short bw run failed: %s", p->detail);
			continue;
		}
		if (rate <= 0) {
			pair_add(out, 0, "pair.bw", SEVERITY_INFO, subject, NULL, "%.2f Gb/s (link rate unknown)", p->gbps);
			continue;
		}
		if (r->a.soft || r->b.soft) {
			pair_add(out, 0, "pair.bw", SEVERITY_INFO, subject, NULL, "%.2f Gb/s, %.0f%% of %g Gb/s: reported, "
				 "not judged (a software RDMA device: the CPU is the NIC)", p->gbps, 100 * p->gbps / rate, rate);
			continue;
		}
		if (p->gbps >= PAIR_BW_PASS_SHARE * rate) {
			pair_add(out, 0, "pair.bw", SEVERITY_OK, subject, NULL, "%.2f Gb/s, %.0f%% of %g Gb/s", p->gbps,
				 100 * p->gbps / rate, rate);
			continue;
		}
		snprintf(fix, sizeof(fix), "ethtool -S %s | grep -iE 'discard|pause|err'   # on a, and on b for %s: drops "
			 "and pauses; then PFC/ECN on the switch and roce-doctor bw %s -D 10", r->a.netdev, r->b.netdev,
			 r->b.end.address);
		pair_add(out, 0, "pair.bw", SEVERITY_WARN, subject, fix, "%.2f Gb/s, %.0f%% of %g Gb/s: below the %.0f%% "
			 "a healthy rail reaches", p->gbps, 100 * p->gbps / rate, rate, 100 * PAIR_BW_PASS_SHARE);
	}
}

void pair_classify(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		   const struct pair_probes *probes, unsigned master_port, struct pair_findings *out)
{
	classify_rdma(a, b, rails, probes, out);
	classify_bootstrap(a, b, probes, master_port, out);
	classify_bw(rails, probes, out);
}
