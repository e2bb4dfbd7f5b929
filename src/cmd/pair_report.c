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

/* A finding with where it comes from ("check", "compare", "pair") and whose node it is. */
static int add_finding(json_t *list, const struct finding *f, const char *origin, const struct pair_side *node,
		       size_t counts[4])
{
	json_t *o = finding_json(f);

	if (!o)
		return -1;
	counts[f->severity]++;
	json_object_set_new(o, "origin", json_string(origin));
	json_object_set_new(o, "node", node ? json_string(node->node) : json_null());
	json_object_set_new(o, "hostname", json_str_or_null(node ? node->hostname : NULL));
	return json_array_append_new(list, o);
}

static json_t *node_json(const struct pair_side *s, const struct findings *own)
{
	return json_pack("{s:s, s:o, s:s}", "node", s->node, "hostname", json_str_or_null(s->hostname), "verdict",
			 severity_name(findings_worst(own)));
}

json_t *pair_report_doc(const struct pair_report *r)
{
	json_t *doc = doc_new("pair"), *list = json_array(), *rails = json_array(), *boot = json_array();
	size_t counts[4] = { 0 };
	enum severity worst = SEVERITY_OK;

	if (!doc || !list || !rails || !boot)
		goto fail;
	for (int n = 0; n < 2; n++)
		for (size_t i = 0; i < r->own[n].count; i++)
			if (add_finding(list, &r->own[n].items[i], "check", &r->side[n], counts) < 0)
				goto fail;
	for (size_t i = 0; i < r->compare->count; i++)
		if (add_finding(list, &r->compare->items[i], "compare", NULL, counts) < 0)
			goto fail;
	for (size_t i = 0; i < r->pair->list.count; i++) {
		char node = r->pair->node[i];

		if (add_finding(list, &r->pair->list.items[i], "pair", node ? &r->side[node == 'b'] : NULL, counts) < 0)
			goto fail;
	}
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
	return doc;
fail:
	json_decref(doc);
	json_decref(list);
	json_decref(rails);
	json_decref(boot);
	return NULL;
}

int pair_report_exit_code(const json_t *doc)
{
	const char *v = json_string_value(json_object_get(doc, "verdict"));

	return v && strcmp(v, "fail") == 0 ? 2 : v && strcmp(v, "warn") == 0 ? 1 : 0;
}
