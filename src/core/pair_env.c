// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env --peer's decision. mpirun -x and a shared launcher push one value per variable to every node, so a
 * value goes into the common environment only when it is right on both; otherwise each node gets its own (in
 * its ~/.nccl.conf, which NCCL reads after the environment) and the notes say why. */
#include "core/pair_env.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "core/qos/nccl_tc.h"
#include "util/gidaddr.h"
#include "util/text_append.h"

static void add_var(struct nccl_var *vars, size_t *count, const char *name, const char *value, const char *comment)
{
	struct nccl_var *v = &vars[(*count)++];

	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->value, sizeof(v->value), "%.511s", value);
	snprintf(v->comment, sizeof(v->comment), "%s", comment);
}

static void add_note(struct pair_env *e, const char *text)
{
	if (e->note_count < PAIR_ENV_NOTES_MAX)
		snprintf(e->notes[e->note_count++], sizeof(e->notes[0]), "%s", text);
}

static bool rail_in_use(const struct pair_rail *r)
{
	return r->link != RAIL_LINK_MISSING && r->a.usable && r->b.usable;
}

/* Whether a device name of one node would select a port NCCL should not use on a node (a prefix of, or equal
 * to, one of its devices that is not on a usable rail): then a shared NCCL_IB_HCA list would pick it up. */
static bool hca_list_fits(const struct pair_side *s, const char *list, const struct pair_rails *rails, bool b_side)
{
	const struct host *h = s->in->host;

	for (size_t d = 0; d < h->device_count; d++)
		for (size_t p = 0; p < h->devices[d].port_count; p++) {
			char entry[96];
			bool used = false;

			snprintf(entry, sizeof(entry), "%s:%u", h->devices[d].name, h->devices[d].ports[p].num);
			for (size_t i = 0; i < rails->count; i++) {
				const struct pair_port *e = b_side ? &rails->items[i].b : &rails->items[i].a;

				used |= rail_in_use(&rails->items[i]) && strcmp(e->end.device, h->devices[d].name) == 0 &&
					e->end.port == h->devices[d].ports[p].num;
			}
			if (!used) {
				/* the list holds "=dev:port,..." exact entries: a whole entry equal to it selects it */
				char needle[100];
				size_t n = strlen(entry);
				const char *at;

				snprintf(needle, sizeof(needle), "%s", entry);
				for (at = strstr(list, needle); at; at = strstr(at + 1, needle))
					if ((at == list || at[-1] == ',' || at[-1] == '=') && (at[n] == ',' || !at[n]))
						return false;
			}
		}
	return true;
}

static void build_hca(const struct pair_side *side[2], const struct pair_rails *rails, struct pair_env *e)
{
	char list[2][512] = { "", "" }, both[1024] = "=";

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < rails->count; i++) {
			const struct pair_port *p = s ? &rails->items[i].b : &rails->items[i].a;

			if (rail_in_use(&rails->items[i]))
				text_append(list[s], sizeof(list[s]), "%s%s:%u", list[s][0] ? "," : "", p->end.device,
					    p->end.port);
		}
	text_append(both, sizeof(both), "%s", list[0]);
	if (strcmp(list[0], list[1]) != 0) {
		/* names differ between the nodes: the union, if no name of one node selects a port the other leaves out */
		for (char *item = list[1], *next; *item; item = next) {
			size_t n = strcspn(item, ",");
			char one[96];

			next = item + n + (item[n] == ',');
			snprintf(one, sizeof(one), "%.*s", (int)n, item);
			if (!strstr(both, one))
				text_append(both, sizeof(both), ",%s", one);
		}
	}
	if (hca_list_fits(side[0], both, rails, false) && hca_list_fits(side[1], both, rails, true)) {
		add_var(e->vars, &e->count, "NCCL_IB_HCA", both, strcmp(list[0], list[1]) == 0 ?
			"the rails both nodes use (= exact names)" : "both nodes' rail ports: each node uses the ones it has");
		return;
	}
	for (int s = 0; s < 2; s++)
		add_var(e->own[s], &e->own_count[s], "NCCL_IB_HCA", list[s], "this node's rail ports");
	add_note(e, "NCCL_IB_HCA: one node's device names would select a port the other must leave out: each node "
		 "sets its own");
}

static void build_gid(const struct pair_side *side[2], const struct pair_rails *rails, int family,
		      struct pair_env *e)
{
	int idx[2] = { -1, -1 };
	bool agree[2] = { true, true };
	char text[512];

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < rails->count; i++) {
			const struct pair_port *p = s ? &rails->items[i].b : &rails->items[i].a;

			if (!rail_in_use(&rails->items[i]))
				continue;
			if (idx[s] == -1)
				idx[s] = p->end.gid_index;
			else if (idx[s] != p->end.gid_index)
				agree[s] = false;
		}
	if (agree[0] && agree[1] && idx[0] == idx[1] && idx[0] >= 0) {
		snprintf(text, sizeof(text), "%d", idx[0]);
		add_var(e->vars, &e->count, "NCCL_IB_GID_INDEX", text, "the RoCE v2 GID of every rail on both nodes");
		return;
	}
	e->unset_gid_index = true;
	add_var(e->vars, &e->count, "NCCL_IB_ADDR_FAMILY", family == AF_INET6 ? "AF_INET6" : "AF_INET",
		"NCCL >= 2.21 picks the GID per HCA: no single NCCL_IB_GID_INDEX is right on both nodes");
	add_var(e->vars, &e->count, "NCCL_IB_ROCE_VERSION_NUM", "2", "RoCE v2 (routable, UDP 4791)");
	if (agree[0] && agree[1] && idx[0] >= 0 && idx[1] >= 0) {
		for (int s = 0; s < 2; s++) {
			snprintf(text, sizeof(text), "%d", idx[s]);
			add_var(e->own[s], &e->own_count[s], "NCCL_IB_GID_INDEX", text, "for NCCL < 2.21 only: this node's index");
		}
		snprintf(text, sizeof(text), "NCCL_IB_GID_INDEX: a uses %d, b uses %d, so no single value exists; leave it "
			 "unset with NCCL >= 2.21, or set each node's own for older NCCL (never with mpirun -x)", idx[0], idx[1]);
	} else {
		snprintf(text, sizeof(text), "NCCL_IB_GID_INDEX: %s's rails use different indexes, which one value cannot "
			 "express: NCCL >= 2.21 is needed (leave it unset)", !agree[0] ? side[0]->node : side[1]->node);
	}
	add_note(e, text);
}

/* NCCL_IB_TC: the class that lands on the lossless priority, one for both nodes (mpirun -x pushes one value);
 * nodes whose DCB settings call for different classes get none, and the note points at check --peer. */
static void build_tc(const struct pair_side *side[2], const struct pair_rails *rails, struct pair_env *e)
{
	struct qos_tc_advice adv[2];
	bool known[2];
	char text[512];

	for (int s = 0; s < 2; s++) {
		struct qos_port_ref refs[PAIR_RAILS_MAX];
		size_t n = 0;

		for (size_t i = 0; i < rails->count; i++) {
			const struct pair_port *p = s ? &rails->items[i].b : &rails->items[i].a;

			if (rail_in_use(&rails->items[i]))
				refs[n++] = (struct qos_port_ref){ p->end.device, p->end.port };
		}
		qos_advise_tc(side[s]->in->qos, refs, n, &adv[s]);
		known[s] = adv[s].tc >= 0 || adv[s].note_count > 0;
	}
	if (adv[0].tc >= 0 && adv[0].tc == adv[1].tc) {
		snprintf(text, sizeof(text), "%d", adv[0].tc);
		add_var(e->vars, &e->count, "NCCL_IB_TC", text, adv[0].chain);
		text_append(e->vars[e->count - 1].comment, sizeof(e->vars[0].comment), "%s", " on both nodes");
		return;
	}
	if (adv[0].tc >= 0 && adv[1].tc >= 0) {
		text[0] = '\0';   /* the note is cut to its size anyway: text_append says so to the compiler */
		text_append(text, sizeof(text), "NCCL_IB_TC left unset: a's lossless priority needs %d (%s), b's %d (%s): the "
			 "nodes' DCB settings differ (`roce-doctor check --peer` names the node to fix: pair.pfc, "
			 "pair.dscp_map); align them and one class serves both", adv[0].tc, adv[0].chain, adv[1].tc,
			 adv[1].chain);
		add_note(e, text);
		return;
	}
	for (int s = 0; s < 2; s++) {
		if (adv[s].tc >= 0 && !known[!s]) {
			snprintf(text, sizeof(text), "%d", adv[s].tc);
			add_var(e->vars, &e->count, "NCCL_IB_TC", text, adv[s].chain);
			text_append(e->vars[e->count - 1].comment, sizeof(e->vars[0].comment), "; %s's DCB settings are "
				    "unknown", side[!s]->node);
		}
		for (size_t k = 0; k < adv[s].note_count; k++) {
			text[0] = '\0';
			text_append(text, sizeof(text), "%s: %s", side[s]->node, adv[s].notes[k]);
			add_note(e, text);
		}
	}
}

static const char *netdev_of_address(const struct host *h, const char *addr)
{
	char text[64];

	for (size_t n = 0; addr && *addr && n < h->netdev_count; n++)
		for (size_t k = 0; h->netdevs[n].addrs_known && k < h->netdevs[n].addr_count; k++) {
			gid_format_ip(&h->netdevs[n].addrs[k].addr, text);
			if (strcmp(text, addr) == 0)
				return h->netdevs[n].name;
		}
	return NULL;
}

static void build_socket(const struct pair_side *side[2], const char *const addr[2], struct pair_env *e)
{
	const char *nd[2] = { netdev_of_address(side[0]->in->host, addr[0]), netdev_of_address(side[1]->in->host, addr[1]) };
	char value[64];

	if (!nd[0] || !nd[1]) {
		add_note(e, "NCCL_SOCKET_IFNAME: a node's bootstrap netdev is unknown (addresses not recorded): set it on "
			 "each node to the netdev of its address on the bootstrap network");
		return;
	}
	if (strcmp(nd[0], nd[1]) == 0) {
		snprintf(value, sizeof(value), "=%s", nd[0]);
		add_var(e->vars, &e->count, "NCCL_SOCKET_IFNAME", value, "the bootstrap netdev on both nodes");
	} else if (!host_find_netdev(side[0]->in->host, nd[1]) && !host_find_netdev(side[1]->in->host, nd[0])) {
		snprintf(value, sizeof(value), "=%s,%s", nd[0], nd[1]);
		add_var(e->vars, &e->count, "NCCL_SOCKET_IFNAME", value, "each node's bootstrap netdev (the other name "
			"does not exist there)");
	} else {
		for (int s = 0; s < 2; s++) {
			snprintf(value, sizeof(value), "=%s", nd[s]);
			add_var(e->own[s], &e->own_count[s], "NCCL_SOCKET_IFNAME", value, "this node's bootstrap netdev");
		}
		add_note(e, "NCCL_SOCKET_IFNAME: the bootstrap netdevs differ and each name exists on the other node: each "
			 "node sets its own");
	}
}

static unsigned gpus_of(const struct pair_side *s)
{
	return s->in->gpus && s->in->gpus->count ? (unsigned)s->in->gpus->count : 1;
}

static void build_launch(const struct pair_side *side[2], const char *const addr[2], unsigned master_port,
			 struct pair_env *e)
{
	size_t len;

	snprintf(e->master_addr, sizeof(e->master_addr), "%s", addr[0][0] ? addr[0] : "A_ADDRESS");
	for (int s = 0; s < 2; s++)
		snprintf(e->torchrun[s], sizeof(e->torchrun[s]), "torchrun --nnodes=2 --nproc-per-node=%u --node-rank=%d "
			 "--master-addr=%s --master-port=%u train.py", gpus_of(side[s]), s, e->master_addr, master_port);
	len = (size_t)snprintf(e->mpirun, sizeof(e->mpirun), "mpirun -np %u -H %s:%u,%s:%u --map-by slot",
			       gpus_of(side[0]) + gpus_of(side[1]), e->master_addr, gpus_of(side[0]),
			       addr[1][0] ? addr[1] : "B_ADDRESS", gpus_of(side[1]));
	for (size_t i = 0; i < e->count && len < sizeof(e->mpirun); i++)
		len += (size_t)snprintf(e->mpirun + len, sizeof(e->mpirun) - len, " -x %s=%s", e->vars[i].name,
					e->vars[i].value);
	if (len < sizeof(e->mpirun))
		snprintf(e->mpirun + len, sizeof(e->mpirun) - len, " ./your_program");
}

int pair_env_build(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		   const char *const addr[2], unsigned master_port, struct pair_env *out, char *why, size_t why_size)
{
	const struct pair_side *side[2] = { a, b };
	size_t used = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < rails->count; i++)
		used += rail_in_use(&rails->items[i]);
	if (!used) {
		snprintf(why, why_size, "no rail is usable on both nodes: `roce-doctor check --peer` says why");
		return -ENODEV;
	}
	build_hca(side, rails, out);
	build_socket(side, addr, out);
	build_gid(side, rails, a->in->family ? a->in->family : AF_INET, out);
	build_tc(side, rails, out);
	add_var(out->vars, &out->count, "NCCL_IB_DISABLE", "0", "use RDMA, not TCP sockets");
	snprintf(out->summary, sizeof(out->summary), "%zu rail(s) usable on both nodes; %zu variable(s) right on both%s",
		 used, out->count, out->own_count[0] || out->own_count[1] ? ", the rest per node" : "");
	build_launch(side, addr, master_port, out);
	return 0;
}
