// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's findings, rails and probes as one JSON document; pair_text renders the same document. */
#include "cmd/pair_report.h"

#include <string.h>

#include "cmd/check_report.h"
#include "output/render.h"

static const char *const rdma_names[] = {
	[RAIL_RDMA_NOT_RUN] = "not_run", [RAIL_RDMA_OK] = "ok", [RAIL_RDMA_TIMEOUT] = "timeout",
	[RAIL_RDMA_WC_ERROR] = "wc_error", [RAIL_RDMA_SETUP_FAILED] = "setup_failed", [RAIL_RDMA_REFUSED] = "refused",
	[RAIL_RDMA_PEER_GONE] = "peer_gone",
};
static const char *const tcp_names[] = {
	[TCP_REACH_NOT_RUN] = "not_run", [TCP_REACH_ARRIVED] = "arrived", [TCP_REACH_NOT_ARRIVED] = "not_arrived",
	[TCP_REACH_REFUSED_BY_PEER] = "refused", [TCP_REACH_ERROR] = "error",
};
static const char *const link_names[] = {
	[RAIL_LINK_SAME_SUBNET] = "same_subnet", [RAIL_LINK_ROUTED] = "routed", [RAIL_LINK_MISSING] = "missing",
};

static json_t *end_json(const struct pair_port *p)
{
	if (!p->present)
		return json_null();
	return json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "device", p->end.device, "port",
			 (int)p->end.port, "netdev", json_str_or_null(p->netdev), "address",
			 json_str_or_null(p->end.address), "gid_index",
			 p->end.gid_index >= 0 ? json_integer(p->end.gid_index) : json_null(), "netdev_mtu",
			 p->netdev_mtu > 0 ? json_integer(p->netdev_mtu) : json_null(), "active_mtu",
			 p->active_mtu > 0 ? json_integer(p->active_mtu) : json_null(), "rate_gbps",
			 p->rate_gbps > 0 ? json_real(p->rate_gbps) : json_null(), "usable", p->usable, "why",
			 json_str_or_null(p->usable ? NULL : p->why));
}

static json_t *rail_json(const struct pair_rails *rails, const struct pair_probes *probes, size_t i)
{
	const struct pair_rail *r = &rails->items[i];
	const struct rail_rdma_probe *rdma = &probes->rdma[i];
	const struct rail_bw_probe *bw = &probes->bw[i];
	double rate = r->a.rate_gbps < r->b.rate_gbps ? r->a.rate_gbps : r->b.rate_gbps;
	bool probed = probes->rdma_run && r->link != RAIL_LINK_MISSING && r->a.usable && r->b.usable;
	bool measured = probes->bw_run && bw->run && bw->ok;

	return json_pack("{s:o, s:o, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o}", "a", end_json(&r->a), "b",
			 end_json(&r->b), "link", link_names[r->link], "crossed", r->crossed, "subnet",
			 json_str_or_null(r->subnet), "rdma", probed ? json_string(rdma_names[rdma->outcome]) : json_null(),
			 "rdma_detail", json_str_or_null(probed ? rdma->detail : NULL), "path_mtu",
			 probed && rdma->path_mtu_bytes ? json_integer(rdma->path_mtu_bytes) : json_null(), "bw_gbps",
			 measured ? json_real(bw->gbps) : json_null(), "link_percent",
			 measured && rate > 0 ? json_real(100 * bw->gbps / rate) : json_null());
}

static json_t *reach_json(const struct tcp_reach_probe *t)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:o}", "purpose", t->purpose, "local_address", t->local_address,
			 "remote_address", t->remote_address, "port", (int)t->port, "outcome", tcp_names[t->outcome],
			 "detail", json_str_or_null(t->detail));
}

/* Where each finding of the report comes from: its list, origin and node. */
struct item {
	const struct finding *f;
	const char *origin;               /* "check", "compare", "pair" */
	const struct pair_side *node;     /* NULL: compare's, or the pair's own */
};

static struct item item_of(const struct pair_report *r, enum pair_list l, size_t i)
{
	static const char *const origins[PAIR_LISTS] = { "check", "check", "compare", "pair" };
	const struct findings *lists[PAIR_LISTS] = { &r->own[0], &r->own[1], r->compare, &r->pair->list };
	struct item it = { &lists[l]->items[i], origins[l], NULL };

	if (l == PAIR_LIST_A || l == PAIR_LIST_B)
		it.node = &r->side[l == PAIR_LIST_B];
	else if (l == PAIR_LIST_PAIR && r->pair->node[i])
		it.node = &r->side[r->pair->node[i] == 'b'];
	return it;
}

static size_t list_count(const struct pair_report *r, enum pair_list l)
{
	return l == PAIR_LIST_A ? r->own[0].count : l == PAIR_LIST_B ? r->own[1].count :
	       l == PAIR_LIST_COMPARE ? r->compare->count : r->pair->list.count;
}

static struct pair_finding_ref covered_by(const struct pair_report *r, enum pair_list l, size_t i)
{
	return r->causes ? r->causes->by[l][i] : (struct pair_finding_ref){ PAIR_LISTS, 0 };
}

static json_t *ref_json(const struct item *it, bool subject)
{
	json_t *o = json_pack("{s:s, s:o}", "id", it->f->id, "node", it->node ? json_string(it->node->node) : json_null());

	if (o && subject)
		json_object_set_new(o, "subject", json_string(it->f->subject));
	return o;
}

/* A finding with where it comes from ("check", "compare", "pair") and whose node it is. */
static json_t *item_json(const struct item *it)
{
	json_t *o = finding_json(it->f);

	if (!o)
		return NULL;
	json_object_set_new(o, "origin", json_string(it->origin));
	json_object_set_new(o, "node", it->node ? json_string(it->node->node) : json_null());
	json_object_set_new(o, "hostname", json_str_or_null(it->node ? it->node->hostname : NULL));
	return o;
}

/* The findings one cause each into list, each with what it covers; the covered ones into covered. */
static int add_findings(const struct pair_report *r, json_t *list, json_t *covered, size_t counts[4])
{
	for (int l = 0; l < PAIR_LISTS; l++)
		for (size_t i = 0; i < list_count(r, l); i++) {
			struct pair_finding_ref by = covered_by(r, l, i);
			struct item it = item_of(r, l, i);
			json_t *o = item_json(&it), *covers = json_array();

			if (!o || !covers || json_object_set_new(o, "covers", covers) < 0) {
				json_decref(o);
				return -1;
			}
			if (by.list != PAIR_LISTS) {
				struct item lead = item_of(r, by.list, by.index);

				json_object_set_new(o, "covered_by", ref_json(&lead, false));
				if (json_array_append_new(covered, o) < 0)
					return -1;
				continue;
			}
			counts[it.f->severity]++;
			for (int cl = 0; r->causes && cl < PAIR_LISTS; cl++)
				for (size_t k = 0; k < list_count(r, cl); k++) {
					struct pair_finding_ref c = covered_by(r, cl, k);
					struct item sub = item_of(r, cl, k);

					if (c.list == (enum pair_list)l && c.index == i &&
					    json_array_append_new(covers, ref_json(&sub, true)) < 0) {
						json_decref(o);
						return -1;
					}
				}
			if (json_array_append_new(list, o) < 0)
				return -1;
		}
	return 0;
}

static json_t *node_json(const struct pair_side *s, const struct findings *own)
{
	return json_pack("{s:s, s:o, s:s}", "node", s->node, "hostname", json_str_or_null(s->hostname), "verdict",
			 severity_name(findings_worst(own)));
}

json_t *pair_report_doc(const struct pair_report *r)
{
	json_t *doc = doc_new("pair"), *list = json_array(), *covered = json_array(), *rails = json_array();
	json_t *boot = json_array();
	size_t counts[4] = { 0 };
	enum severity worst = SEVERITY_OK;

	if (!doc || !list || !covered || !rails || !boot || add_findings(r, list, covered, counts) < 0)
		goto fail;
	for (size_t i = 0; i < r->rails->count; i++)
		if (json_array_append_new(rails, rail_json(r->rails, r->probes, i)) < 0)
			goto fail;
	for (size_t i = 0; i < r->probes->reach_count; i++)
		if (json_array_append_new(boot, reach_json(&r->probes->reach[i])) < 0)
			goto fail;
	for (int s = SEVERITY_FAIL; s > SEVERITY_OK; s--)
		if (counts[s]) {
			worst = (enum severity)s;
			break;
		}
	json_object_set_new(doc, "verdict", json_string(severity_name(worst)));
	json_object_set_new(doc, "counts", severity_counts_json(counts));
	json_object_set_new(doc, "peer", json_string(r->peer));
	json_object_set_new(doc, "master_port", json_integer(r->master_port));
	json_object_set_new(doc, "nodes", json_pack("[o, o]", node_json(&r->side[0], &r->own[0]),
						    node_json(&r->side[1], &r->own[1])));
	json_object_set_new(doc, "rails", rails);
	json_object_set_new(doc, "bootstrap", boot);
	json_object_set_new(doc, "findings", list);
	json_object_set_new(doc, "covered", covered);
	return doc;
fail:
	json_decref(doc);
	json_decref(list);
	json_decref(covered);
	json_decref(rails);
	json_decref(boot);
	return NULL;
}

int pair_report_exit_code(const json_t *doc)
{
	const char *v = json_string_value(json_object_get(doc, "verdict"));

	return v && strcmp(v, "fail") == 0 ? 2 : v && strcmp(v, "warn") == 0 ? 1 : 0;
}
