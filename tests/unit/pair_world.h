// SPDX-License-Identifier: GPL-2.0-only
/* Two hand-built nodes for the pair rules: the field notes' pair (two ConnectX-6 Lx ports each, 25 Gb/s, MTU
 * 9000, both rails in 192.168.88.0/24: a has .1 and .11, b has .2 and .22), each a check_input the test changes
 * case by case. Static storage: nothing to free. */
#ifndef ROCE_DOCTOR_PAIR_WORLD_H
#define ROCE_DOCTOR_PAIR_WORLD_H

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "core/pair.h"
#include "util/gidaddr.h"

#define WORLD_PORTS 2
#define WORLD_GIDS 8

struct world_node {
	struct host host;
	struct rdma_device dev[WORLD_PORTS];
	struct rdma_port port[WORLD_PORTS];
	struct gid_entry gids[WORLD_PORTS][WORLD_GIDS];
	struct netdev nd[WORLD_PORTS];
	struct ip_address addr[WORLD_PORTS][2];
	struct netdev_arp arp[WORLD_PORTS];
	struct nft_ruleset nft;
	struct nft_table table;
	struct nft_chain chain;
	struct nft_rule rules[2];
	struct firewall_procs fw;
	struct check_input in;
	struct pair_side side;
};

static inline void world_gid(struct gid_entry *e, unsigned index, const char *ip, enum gid_type type, const char *nd)
{
	memset(e, 0, sizeof(*e));
	e->index = index;
	ip_parse_as_gid(ip, &e->gid);
	e->type = type;
	snprintf(e->netdev, sizeof(e->netdev), "%s", nd);
}

/* Port i: fe80 at 0/1, the address at 4/5 (v1/v2); the netdev's address /prefix. */
static inline void world_port(struct world_node *w, size_t i, const char *ip, unsigned prefix)
{
	struct rdma_port *p = &w->port[i];
	struct netdev *nd = &w->nd[i];
	char name[16];

	snprintf(name, sizeof(name), "ens19f%zunp%zu", i, i);
	snprintf(w->dev[i].name, sizeof(w->dev[i].name), "mlx5_%zu", i);
	snprintf(w->dev[i].pci_address, sizeof(w->dev[i].pci_address), "0000:39:00.%zu", i);
	w->dev[i].ports = p;
	w->dev[i].port_count = 1;
	memset(p, 0, sizeof(*p));
	p->num = 1;
	p->state = 4;
	snprintf(p->state_name, sizeof(p->state_name), "ACTIVE");
	p->phys_state = 5;
	p->rate_gbps = 25;
	p->link_layer = LINK_LAYER_ETHERNET;
	snprintf(p->netdev, sizeof(p->netdev), "%s", name);
	p->active_mtu = 4096;
	p->max_mtu = 4096;
	world_gid(&w->gids[i][0], 0, "fe80::1", GID_TYPE_IB_ROCE_V1, name);
	world_gid(&w->gids[i][1], 1, "fe80::1", GID_TYPE_ROCE_V2, name);
	world_gid(&w->gids[i][2], 4, ip, GID_TYPE_IB_ROCE_V1, name);
	world_gid(&w->gids[i][3], 5, ip, GID_TYPE_ROCE_V2, name);
	p->gids = w->gids[i];
	p->gid_count = 4;
	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->ifindex = (int)i + 2;
	nd->mtu = 9000;
	snprintf(nd->operstate, sizeof(nd->operstate), "up");
	nd->carrier = 1;
	nd->speed_mbps = 25000;
	nd->addrs_known = true;
	nd->addrs = w->addr[i];
	nd->addr_count = 1;
	w->addr[i][0].family = AF_INET;
	ip_parse_as_gid(ip, &w->addr[i][0].addr);
	w->addr[i][0].prefix_len = prefix;
	snprintf(w->arp[i].netdev, sizeof(w->arp[i].netdev), "%s", name);
	w->arp[i].known = true;
	w->arp[i].value.ignore = 1;
	w->arp[i].value.announce = 2;
}

/* An address added before the RoCE one on port i: its GIDs take 4/5, the rail's address moves to 6/7. */
static inline void world_address_first(struct world_node *w, size_t i, const char *first, unsigned prefix)
{
	struct rdma_port *p = &w->port[i];
	char rail[64];

	gid_format_ip(&w->gids[i][3].gid, rail);
	world_gid(&w->gids[i][2], 4, first, GID_TYPE_IB_ROCE_V1, p->netdev);
	world_gid(&w->gids[i][3], 5, first, GID_TYPE_ROCE_V2, p->netdev);
	world_gid(&w->gids[i][4], 6, rail, GID_TYPE_IB_ROCE_V1, p->netdev);
	world_gid(&w->gids[i][5], 7, rail, GID_TYPE_ROCE_V2, p->netdev);
	p->gid_count = 6;
	w->addr[i][1] = w->addr[i][0];
	w->addr[i][0].family = AF_INET;
	ip_parse_as_gid(first, &w->addr[i][0].addr);
	w->addr[i][0].prefix_len = prefix;
	w->nd[i].addr_count = 2;
}

/* An nftables input chain with one rule: proto/dport (-1 any) dropped; other: the rule also matches an iif. */
static inline void world_drop(struct world_node *w, int proto, int dport, bool other)
{
	w->nft.known = true;
	w->table.family = 1;
	snprintf(w->table.name, sizeof(w->table.name), "filter");
	w->chain.family = 1;
	snprintf(w->chain.table, sizeof(w->chain.table), "filter");
	snprintf(w->chain.name, sizeof(w->chain.name), "input");
	w->chain.hook = CHAIN_HOOK_INPUT;
	w->chain.policy = CHAIN_POLICY_ACCEPT;
	w->chain.first_rule = 0;
	w->chain.rule_count = 1;
	memset(&w->rules[0], 0, sizeof(w->rules[0]));
	w->rules[0].handle = 7;
	w->rules[0].verdict = RULE_VERDICT_DROP;
	w->rules[0].l4proto = proto;
	w->rules[0].dport = dport;
	w->rules[0].other_matches = other;
	w->nft.tables = &w->table;
	w->nft.table_count = 1;
	w->nft.chains = &w->chain;
	w->nft.chain_count = 1;
	w->nft.rules = w->rules;
	w->nft.rule_count = 1;
}

static inline void world_node_init(struct world_node *w, const char *node, const char *host, const char *ip0,
			    const char *ip1, unsigned prefix)
{
	memset(w, 0, sizeof(*w));
	world_port(w, 0, ip0, prefix);
	world_port(w, 1, ip1, prefix);
	w->host.devices = w->dev;
	w->host.device_count = WORLD_PORTS;
	w->host.netdevs = w->nd;
	w->host.netdev_count = WORLD_PORTS;
	w->host.live = true;
	w->in.host = &w->host;
	w->in.family = AF_INET;
	w->in.live = true;
	w->in.arp = w->arp;
	w->in.arp_count = WORLD_PORTS;
	w->in.nft = &w->nft;
	w->in.fw_procs = &w->fw;
	snprintf(w->in.port_range, sizeof(w->in.port_range), "32768-60999");
	w->side.node = node;
	w->side.hostname = host;
	w->side.in = &w->in;
}

/* The field notes' pair: both rails in one /24. */
static inline void world_pair(struct world_node *a, struct world_node *b)
{
	world_node_init(a, "a", "node-a", "192.168.88.1", "192.168.88.11", 24);
	world_node_init(b, "b", "node-b", "192.168.88.2", "192.168.88.22", 24);
}

/* One /24 per rail. */
static inline void world_pair_per_rail(struct world_node *a, struct world_node *b)
{
	world_node_init(a, "a", "node-a", "10.0.1.1", "10.0.2.1", 24);
	world_node_init(b, "b", "node-b", "10.0.1.2", "10.0.2.2", 24);
}

/* The findings of id with severity (or any severity: -1), for node ('a', 'b', 0 pair, '*' any). */
static inline size_t world_count(const struct pair_findings *f, const char *id, int severity, char node)
{
	size_t n = 0;

	for (size_t i = 0; i < f->list.count; i++)
		if (strcmp(f->list.items[i].id, id) == 0 && (severity < 0 || (int)f->list.items[i].severity == severity) &&
		    (node == '*' || f->node[i] == node))
			n++;
	return n;
}

static inline const struct finding *world_find(const struct pair_findings *f, const char *id, int severity)
{
	for (size_t i = 0; i < f->list.count; i++)
		if (strcmp(f->list.items[i].id, id) == 0 && (int)f->list.items[i].severity == severity)
			return &f->list.items[i];
	return NULL;
}

static inline void world_dump(const struct pair_findings *f)
{
	for (size_t i = 0; i < f->list.count; i++)
		printf("# [%c] %s %s %s: %s | fix: %s\n", f->node[i] ? f->node[i] : '-', f->list.items[i].id,
		       severity_name(f->list.items[i].severity), f->list.items[i].subject, f->list.items[i].message,
		       f->list.items[i].fix ? f->list.items[i].fix : "");
}

#endif
