// SPDX-License-Identifier: GPL-2.0-only
/* The pastes as JSON: the blocks read (what, where, for which port), the ports' settings, check's findings
 * on them, the counters worth a line with their meaning, which priorities carried traffic, and what could
 * not be used (a paste cut short). */
#include "cmd/explain_pastes.h"

#include "cmd/check_report.h"
#include "model/counter_meaning.h"

static json_t *name_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static void port_names(json_t *obj, const struct paste_port *p)
{
	json_object_set_new(obj, "device", name_or_null(p->device));
	json_object_set_new(obj, "port", p->port ? json_integer(p->port) : json_null());
	json_object_set_new(obj, "netdev", name_or_null(p->netdev));
}

static json_t *blocks_json(const struct paste_scan *ps)
{
	json_t *list = json_array();

	for (size_t i = 0; i < ps->block_count; i++) {
		const struct paste_block *b = &ps->blocks[i];
		json_t *one = json_pack("{s:s, s:I, s:I}", "kind", paste_kind_name(b->kind), "line", (json_int_t)b->line,
					"lines", (json_int_t)b->lines);

		port_names(one, &ps->ports[b->port]);
		json_array_append_new(list, one);
	}
	return list;
}

static json_t *counter_json(const struct paste_scan *ps, const struct paste_counter *c)
{
	const struct counter_meaning *m = counter_meaning_of(c->name);
	json_t *one = json_pack("{s:s, s:I, s:I, s:i, s:I, s:s, s:s, s:s, s:o}", "name", c->name, "value",
				(json_int_t)c->last, "first", (json_int_t)c->first, "seen", (int)c->seen, "line",
				(json_int_t)c->line, "group", counter_group_key(m->group), "title",
				counter_group_title(m->group), "meaning", m->meaning, "check", name_or_null(m->check));

	port_names(one, &ps->ports[c->port]);
	return one;
}

/* Per port, the priorities whose packet or byte counters are not zero: where the traffic rides. */
static json_t *traffic_json(const struct paste_scan *ps)
{
	json_t *list = json_array();

	for (size_t p = 0; p < ps->port_count; p++) {
		unsigned prios = 0, any = 0;
		json_t *one, *with;

		for (size_t i = 0; i < ps->counters.count; i++) {
			const struct paste_counter *c = &ps->counters.items[i];
			int prio = paste_counter_traffic_priority(c->name);
			if (c->port != (int)p || prio < 0)
				continue;
			any = 1;
			if (c->seen > 1 ? c->last != c->first : c->last != 0)
				prios |= 1u << prio;
		}
		if (!any)
			continue;
		with = json_array();
		for (unsigned prio = 0; prio < QOS_PRIOS; prio++)
			if (prios >> prio & 1)
				json_array_append_new(with, json_integer(prio));
		one = json_pack("{s:o}", "priorities", with);
		port_names(one, &ps->ports[p]);
		json_array_append_new(list, one);
	}
	return list;
}

/* What was read of each pasted port, as the rules see it: null where the pastes did not say. */
static json_t *ports_json(const struct paste_scan *ps)
{
	json_t *list = json_array();
	struct qos_host q;
	const char *tc, *sl;

	if (paste_scan_model(ps, &q, &tc, &sl) < 0)
		return list;
	for (size_t i = 0; i < q.count; i++) {
		const struct qos_port *p = &q.ports[i];
		json_t *pfc = json_null(), *ecn = json_array();

		if (p->dcb.pfc_known) {
			pfc = json_array();
			for (unsigned prio = 0; prio < QOS_PRIOS; prio++)
				if (p->dcb.pfc_enabled >> prio & 1)
					json_array_append_new(pfc, json_integer(prio));
		}
		for (unsigned prio = 0; prio < QOS_PRIOS; prio++)
			if (p->ecn[prio] == QOS_ON)
				json_array_append_new(ecn, json_integer(prio));
		/* the model's placeholders for a port no paste named ("<device>", "<netdev>") are null here */
		json_array_append_new(list, json_pack("{s:o, s:i, s:o, s:b, s:o, s:o, s:o, s:o, s:o}", "device",
						      name_or_null(p->device[0] == '<' ? NULL : p->device), "port",
						      (int)p->port, "netdev",
						      name_or_null(p->netdev[0] == '<' ? NULL : p->netdev), "read",
						      p->dcb.known, "trust", p->dcb.trust_known ?
						      json_string(qos_trust_name(p->dcb.trust)) : json_null(),
						      "pfc", pfc, "ecn", ecn, "forced_tc", p->forced_tc >= 0 ?
						      json_integer(p->forced_tc) : json_null(), "default_roce_tos",
						      p->default_roce_tos >= 0 ? json_integer(p->default_roce_tos) : json_null()));
	}
	qos_host_free(&q);
	return list;
}

json_t *explain_pastes_json(const struct paste_scan *ps, const struct findings *findings)
{
	json_t *doc, *list, *counters, *notes;
	struct notes missing = { 0 };

	if (!paste_scan_any(ps))
		return json_null();
	list = json_array();
	counters = json_array();
	notes = json_array();
	for (size_t i = 0; findings && i < findings->count; i++)
		json_array_append_new(list, finding_json(&findings->items[i]));
	for (size_t i = 0; i < ps->counters.count; i++)
		if (paste_counter_worth(&ps->counters.items[i]))
			json_array_append_new(counters, counter_json(ps, &ps->counters.items[i]));
	for (size_t i = 0; i < ps->note_count; i++)
		json_array_append_new(notes, json_string(ps->notes[i]));
	paste_scan_missing(ps, &missing);
	for (size_t i = 0; i < missing.count; i++)
		json_array_append_new(notes, json_string(missing.items[i]));
	notes_free(&missing);
	doc = json_pack("{s:I, s:o, s:I, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o}", "lines", (json_int_t)ps->lines,
			"blocks", blocks_json(ps), "blocks_more", (json_int_t)ps->blocks_more, "ports", ports_json(ps),
			"nccl_ib_tc",
			name_or_null(ps->nccl_tc), "findings", list, "counters", counters, "counters_read",
			(json_int_t)ps->counters.count, "counters_dropped", (json_int_t)ps->counters.dropped,
			"traffic", traffic_json(ps), "notes", notes);
	return doc;
}
