// SPDX-License-Identifier: GPL-2.0-only
/* qos to JSON and back. Per priority values are arrays of 8; a table the NIC did not give is null, so "PFC off
 * everywhere" (all false) and "PFC not read" (null) stay apart across a snapshot. */
#include "model/qos_json.h"

#include <linux/dcbnl.h>
#include <stddef.h>
#include <string.h>

static const char *const trust_names[] = { "unknown", "pcp", "dscp" };
static const char *const source_names[] = { "none", "apptrust", "app table", "sysfs", "mlnx_qos" };

static json_t *counts_json(const uint64_t *v, bool known)
{
	json_t *list;

	if (!known)
		return json_null();
	list = json_array();
	for (unsigned i = 0; list && i < QOS_PRIOS; i++)
		if (!append(list, json_integer((json_int_t)(v[i] > INT64_MAX ? INT64_MAX : v[i])))) {
			json_decref(list);
			return NULL;
		}
	return list;
}

static json_t *bytes_json(const uint8_t *v, bool known)
{
	uint64_t wide[QOS_PRIOS];

	for (unsigned i = 0; i < QOS_PRIOS; i++)
		wide[i] = v[i];
	return counts_json(wide, known);
}

static json_t *words_json(const uint32_t *v, bool known)
{
	uint64_t wide[QOS_PRIOS];

	for (unsigned i = 0; i < QOS_PRIOS; i++)
		wide[i] = v[i];
	return counts_json(wide, known);
}

/* [[dscp, priority], ...] for the mapped DSCPs, ascending. */
static json_t *dscp_map_json(const struct qos_dcb *d)
{
	json_t *list;

	if (!d->app_known)
		return json_null();
	list = json_array();
	for (unsigned dscp = 0; list && dscp < QOS_DSCPS; dscp++)
		if ((d->dscp_mapped >> dscp & 1) && !append(list, json_pack("[ii]", (int)dscp, (int)d->dscp_prio[dscp]))) {
			json_decref(list);
			return NULL;
		}
	return list;
}

static json_t *dcb_json(const struct qos_dcb *d)
{
	json_t *o = json_object(), *pfc = NULL;
	bool ok = o != NULL;

	if (ok && d->pfc_known) {
		uint8_t on[QOS_PRIOS];
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			on[p] = (uint8_t)(d->pfc_enabled >> p & 1);
		pfc = bytes_json(on, true);
	}
	ok = ok && put(o, "known", json_boolean(d->known)) &&
	     put(o, "errno", d->error < 0 ? json_integer(-d->error) : json_null()) &&
	     put(o, "pfc", d->pfc_known ? pfc : json_null()) &&
	     put(o, "pfc_requests", counts_json(d->pfc_requests, d->pfc_known)) &&
	     put(o, "pfc_indications", counts_json(d->pfc_indications, d->pfc_known)) &&
	     put(o, "prio_tc", bytes_json(d->prio_tc, d->ets_known)) && put(o, "tc_bw", bytes_json(d->tc_bw, d->ets_known)) &&
	     put(o, "tc_tsa", bytes_json(d->tc_tsa, d->ets_known)) && put(o, "dscp_map", dscp_map_json(d)) &&
	     put(o, "app_entries", json_integer(d->app_entries)) &&
	     put(o, "trust", d->trust_known ? json_string(trust_names[d->trust]) : json_null()) &&
	     put(o, "trust_source", json_string(source_names[d->trust_source])) &&
	     put(o, "dcbx", d->dcbx_known ? json_integer(d->dcbx) : json_null()) &&
	     put(o, "prio_buffer", bytes_json(d->prio_buffer, d->buffer_known)) &&
	     put(o, "buffer_size", words_json(d->buffer_size, d->buffer_size_known)) &&
	     put(o, "buffer_xoff", words_json(d->buffer_xoff, d->buffer_xoff_known)) &&
	     put(o, "port_buffer_size", d->buffer_size_known ? json_integer(d->port_buffer_size) : json_null()) &&
	     put(o, "spare_buffer_size", d->buffer_size_known ? json_integer(d->spare_buffer_size) : json_null());
	return finished(o, ok);
}

static json_t *count_or_null(uint64_t v, bool known)
{
	return known ? json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v)) : json_null();
}

/* Arrays and numbers of a group the driver does not have are null, so "no pause frames" (zeros) and "no pause
 * counters" (null) stay apart across a snapshot. */
static json_t *counters_json(const struct qos_counters *c)
{
	json_t *o = json_object();
	bool phy = c->present & QOS_CTR_PHY, storm = c->present & QOS_CTR_STORM;
	bool ok = o && put(o, "known", json_boolean(c->known)) &&
		  put(o, "errno", c->error < 0 ? json_integer(-c->error) : json_null()) &&
		  put(o, "rx_packets", counts_json(c->rx_packets, c->present & QOS_CTR_PACKETS)) &&
		  put(o, "tx_packets", counts_json(c->tx_packets, c->present & QOS_CTR_PACKETS)) &&
		  put(o, "rx_pause", counts_json(c->rx_pause, c->present & QOS_CTR_PAUSE)) &&
		  put(o, "tx_pause", counts_json(c->tx_pause, c->present & QOS_CTR_PAUSE)) &&
		  put(o, "rx_pause_us", counts_json(c->rx_pause_us, c->present & QOS_CTR_DURATION)) &&
		  put(o, "tx_pause_us", counts_json(c->tx_pause_us, c->present & QOS_CTR_DURATION)) &&
		  put(o, "prio_discards", counts_json(c->prio_discards, c->present & QOS_CTR_PRIO_DISCARD)) &&
		  put(o, "rx_packets_phy", count_or_null(c->rx_packets_phy, phy)) &&
		  put(o, "rx_discards_phy", count_or_null(c->rx_discards_phy, phy)) &&
		  put(o, "storm_warnings", count_or_null(c->storm_warnings, storm)) &&
		  put(o, "storm_errors", count_or_null(c->storm_errors, storm));
	return finished(o, ok);
}

json_t *qos_host_to_json(const struct qos_host *q)
{
	json_t *o = json_object(), *ports = json_array();
	bool ok = o && ports && put(o, "ports", ports);

	if (!ok)
		json_decref(ports);
	for (size_t i = 0; ok && i < q->count; i++) {
		const struct qos_port *p = &q->ports[i];
		json_t *j = json_object(), *ecn = json_array();

		for (unsigned k = 0; ecn && k < QOS_PRIOS; k++)
			if (!append(ecn, p->ecn[k] == QOS_UNKNOWN ? json_null() : json_boolean(p->ecn[k] == QOS_ON)))
				ecn = (json_decref(ecn), NULL);
		ok = append(ports, finished(j, j && put(j, "device", json_string(p->device)) &&
					       put(j, "port", json_integer(p->port)) && put(j, "netdev", json_string(p->netdev)) &&
					       put(j, "forced_tc", p->forced_tc >= 0 ? json_integer(p->forced_tc) : json_null()) &&
					       put(j, "default_roce_tos", p->default_roce_tos >= 0 ?
								json_integer(p->default_roce_tos) : json_null()) &&
					       put(j, "vlan", json_boolean(p->vlan)) &&
					       put(j, "vlan_netdev", p->vlan_netdev[0] ? json_string(p->vlan_netdev) : json_null()) &&
					       put(j, "vlan_egress", bytes_json(p->vlan_egress, p->vlan_egress_known)) &&
					       put(j, "ecn", ecn) &&
					       put(j, "dcb", dcb_json(&p->dcb)) && put(j, "counters", counters_json(&p->counters))));
	}
	return finished(o, ok);
}

/* ---- reader ---- */

/* An array of 8 integers in [0, max], or null (*known false). */
static int read_eight(struct reader *r, const struct jnode *obj, const char *key, long long max, uint64_t out[QOS_PRIOS],
		      bool *known)
{
	const struct jnode *list = NULL;
	int ret = read_array(r, obj, key, true, QOS_PRIOS, &list);
	size_t mark;

	*known = false;
	if (ret < 0 || !list)
		return ret;
	mark = path_member(r, key);
	if (jnode_array_size(list) != QOS_PRIOS)
		ret = invalid(r, "expected 8 values (one per priority), got %zu", jnode_array_size(list));
	for (size_t i = 0; ret == 0 && i < QOS_PRIOS; i++) {
		const struct jnode *v = jnode_array_get(list, i);
		if (!jnode_is_integer(v) || jnode_integer_value(v) < 0 || jnode_integer_value(v) > max) {
			size_t at = path_index(r, i);
			ret = invalid(r, "expected an integer from 0 to %lld, got %s", max, type_name(v));
			path_leave(r, at);
		} else {
			out[i] = (uint64_t)jnode_integer_value(v);
		}
	}
	path_leave(r, mark);
	*known = ret == 0;
	return ret;
}

static int read_bytes(struct reader *r, const struct jnode *obj, const char *key, long long max, uint8_t out[QOS_PRIOS],
		      bool *known)
{
	uint64_t v[QOS_PRIOS];
	int ret = read_eight(r, obj, key, max, v, known);

	for (unsigned i = 0; ret == 0 && *known && i < QOS_PRIOS; i++)
		out[i] = (uint8_t)v[i];
	return ret;
}

static int read_dscp_map(struct reader *r, const struct jnode *obj, struct qos_dcb *d)
{
	const struct jnode *list = NULL;
	int ret = read_array(r, obj, "dscp_map", true, QOS_DSCPS, &list);
	size_t mark;

	if (ret < 0 || !list)
		return ret;
	d->app_known = true;
	mark = path_member(r, "dscp_map");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		const struct jnode *e = jnode_array_get(list, i), *dscp = jnode_array_get(e, 0), *prio = jnode_array_get(e, 1);
		size_t at = path_index(r, i);

		if (!jnode_is_array(e) || jnode_array_size(e) != 2 || !jnode_is_integer(dscp) || !jnode_is_integer(prio) ||
		    jnode_integer_value(dscp) < 0 || jnode_integer_value(dscp) >= QOS_DSCPS || jnode_integer_value(prio) < 0 ||
		    jnode_integer_value(prio) >= QOS_PRIOS)
			ret = invalid(r, "expected [DSCP 0-63, priority 0-7]");
		else if (d->dscp_mapped >> jnode_integer_value(dscp) & 1)
			ret = invalid(r, "DSCP %lld mapped twice", jnode_integer_value(dscp));
		else {
			d->dscp_mapped |= UINT64_C(1) << jnode_integer_value(dscp);
			d->dscp_prio[jnode_integer_value(dscp)] = (uint8_t)jnode_integer_value(prio);
		}
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const dcb_members[] = { "known", "errno", "pfc", "pfc_requests", "pfc_indications", "prio_tc",
					   "tc_bw", "tc_tsa", "dscp_map", "app_entries", "trust", "trust_source", "dcbx",
					   "prio_buffer", "buffer_size", "buffer_xoff", "port_buffer_size", "spare_buffer_size" };

/* The buffers' sizes and thresholds: absent in a snapshot written before they were kept (read as not known). */
static int read_buffers(struct reader *r, const struct jnode *o, struct qos_dcb *d)
{
	uint64_t v[QOS_PRIOS];
	json_int_t port = 0, spare = 0;
	int ret = 0;

	if (jnode_object_get(o, "buffer_size"))
		ret = read_eight(r, o, "buffer_size", UINT32_MAX, v, &d->buffer_size_known);
	for (unsigned i = 0; ret == 0 && d->buffer_size_known && i < QOS_PRIOS; i++)
		d->buffer_size[i] = (uint32_t)v[i];
	if (ret == 0 && jnode_object_get(o, "buffer_xoff"))
		ret = read_eight(r, o, "buffer_xoff", UINT32_MAX, v, &d->buffer_xoff_known);
	for (unsigned i = 0; ret == 0 && d->buffer_xoff_known && i < QOS_PRIOS; i++)
		d->buffer_xoff[i] = (uint32_t)v[i];
	if (ret == 0 && jnode_object_get(o, "port_buffer_size"))
		ret = read_integer(r, o, "port_buffer_size", 0, UINT32_MAX, true, 0, &port);
	if (ret == 0 && jnode_object_get(o, "spare_buffer_size"))
		ret = read_integer(r, o, "spare_buffer_size", 0, UINT32_MAX, true, 0, &spare);
	d->port_buffer_size = (uint32_t)port;
	d->spare_buffer_size = (uint32_t)spare;
	return ret;
}

static int read_dcb(struct reader *r, const struct jnode *obj, struct qos_dcb *d)
{
	const struct jnode *o;
	size_t mark = path_member(r, "dcb");
	json_int_t err = 0, entries = 0, dcbx = -1;
	int known = 0, trust = -1, source = 0, ret;
	bool pfc_known = false, b;
	uint8_t pfc[QOS_PRIOS] = { 0 };

	ret = member(r, obj, "dcb", "an object", &o);
	if (ret == 0 && !jnode_is_object(o))
		ret = invalid(r, "expected an object, got %s", type_name(o));
	if (ret == 0)
		ret = check_object(r, o, dcb_members, COUNT(dcb_members));
	if (ret == 0)
		ret = read_bool(r, o, "known", false, &known);
	if (ret == 0)
		ret = read_integer(r, o, "errno", 1, 4095, true, 0, &err);
	if (ret == 0)
		ret = read_bytes(r, o, "pfc", 1, pfc, &pfc_known);
	if (ret == 0)
		ret = read_eight(r, o, "pfc_requests", INT64_MAX, d->pfc_requests, &b);
	if (ret == 0)
		ret = read_eight(r, o, "pfc_indications", INT64_MAX, d->pfc_indications, &b);
	if (ret == 0)
		ret = read_bytes(r, o, "prio_tc", QOS_PRIOS - 1, d->prio_tc, &d->ets_known);
	if (ret == 0)
		ret = read_bytes(r, o, "tc_bw", 100, d->tc_bw, &b);
	if (ret == 0)
		ret = read_bytes(r, o, "tc_tsa", IEEE_8021QAZ_TSA_VENDOR, d->tc_tsa, &b);
	if (ret == 0)
		ret = read_dscp_map(r, o, d);
	if (ret == 0)
		ret = read_integer(r, o, "app_entries", 0, 1024, false, 0, &entries);
	if (ret == 0)
		ret = read_name(r, o, "trust", trust_names, COUNT(trust_names), "\"pcp\", \"dscp\", \"unknown\" or null", &trust);
	if (ret == 0)
		ret = read_name(r, o, "trust_source", source_names, COUNT(source_names), "a trust source", &source);
	if (ret == 0)
		ret = read_integer(r, o, "dcbx", 0, 255, true, -1, &dcbx);
	if (ret == 0)
		ret = read_bytes(r, o, "prio_buffer", QOS_PRIOS - 1, d->prio_buffer, &d->buffer_known);
	if (ret == 0)
		ret = read_buffers(r, o, d);
	path_leave(r, mark);
	d->known = known == 1;
	d->error = (int)-err;
	d->pfc_known = pfc_known;
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		d->pfc_enabled |= (uint8_t)(pfc[p] << p);
	d->app_entries = (unsigned)entries;
	d->trust_known = trust >= 0;
	d->trust = trust >= 0 ? (enum qos_trust)trust : QOS_TRUST_UNKNOWN;
	d->trust_source = (enum qos_trust_source)source;
	d->dcbx_known = dcbx >= 0;
	d->dcbx = dcbx >= 0 ? (uint8_t)dcbx : 0;
	return ret;
}

static const char *const counters_members[] = { "known", "errno", "rx_packets", "tx_packets", "rx_pause", "tx_pause",
						"rx_pause_us", "tx_pause_us", "prio_discards", "rx_packets_phy",
						"rx_discards_phy", "storm_warnings", "storm_errors" };

/* A pair of numbers that are both there or both null; *known says which. */
static int read_pair(struct reader *r, const struct jnode *o, const char *a, const char *b, uint64_t *va, uint64_t *vb,
		     bool *known)
{
	json_int_t x = -1, y = -1;
	int ret = read_integer(r, o, a, 0, INT64_MAX, true, -1, &x);

	if (ret == 0)
		ret = read_integer(r, o, b, 0, INT64_MAX, true, -1, &y);
	if (ret == 0 && (x < 0) != (y < 0)) {
		size_t mark = path_member(r, b);
		ret = invalid(r, "expected a number when %s is one, null when it is null", a);
		path_leave(r, mark);
	}
	*known = ret == 0 && x >= 0;
	*va = x >= 0 ? (uint64_t)x : 0;
	*vb = y >= 0 ? (uint64_t)y : 0;
	return ret;
}

/* Optional: a snapshot written before the counters were kept has none (read as not known). */
static int read_counters(struct reader *r, const struct jnode *obj, struct qos_counters *c)
{
	static const struct {
		const char *name;
		size_t offset;
		unsigned group;
	} arrays[] = {
		{ "rx_packets", offsetof(struct qos_counters, rx_packets), QOS_CTR_PACKETS },
		{ "tx_packets", offsetof(struct qos_counters, tx_packets), QOS_CTR_PACKETS },
		{ "rx_pause", offsetof(struct qos_counters, rx_pause), QOS_CTR_PAUSE },
		{ "tx_pause", offsetof(struct qos_counters, tx_pause), QOS_CTR_PAUSE },
		{ "rx_pause_us", offsetof(struct qos_counters, rx_pause_us), QOS_CTR_DURATION },
		{ "tx_pause_us", offsetof(struct qos_counters, tx_pause_us), QOS_CTR_DURATION },
		{ "prio_discards", offsetof(struct qos_counters, prio_discards), QOS_CTR_PRIO_DISCARD },
	};
	const struct jnode *o = jnode_object_get(obj, "counters");
	json_int_t err = 0;
	int known = 0, ret;
	size_t mark;
	bool b;

	memset(c, 0, sizeof(*c));
	if (!o)
		return 0;
	mark = path_member(r, "counters");
	ret = jnode_is_object(o) ? check_object(r, o, counters_members, COUNT(counters_members))
				 : invalid(r, "expected an object, got %s", type_name(o));
	if (ret == 0)
		ret = read_bool(r, o, "known", false, &known);
	if (ret == 0)
		ret = read_integer(r, o, "errno", 1, 4095, true, 0, &err);
	for (size_t i = 0; ret == 0 && i < COUNT(arrays); i++) {
		ret = read_eight(r, o, arrays[i].name, INT64_MAX, (uint64_t *)((char *)c + arrays[i].offset), &b);
		/* the two arrays of a group come and go together, as the writer writes them */
		if (ret == 0 && i % 2 == 1 && i < 6 && b != !!(c->present & arrays[i].group)) {
			size_t at = path_member(r, arrays[i].name);
			ret = invalid(r, "expected null exactly when %s is null", arrays[i - 1].name);
			path_leave(r, at);
		}
		if (ret == 0 && b)
			c->present |= arrays[i].group;
	}
	if (ret == 0 && (ret = read_pair(r, o, "rx_packets_phy", "rx_discards_phy", &c->rx_packets_phy,
					 &c->rx_discards_phy, &b)) == 0 && b)
		c->present |= QOS_CTR_PHY;
	if (ret == 0 && (ret = read_pair(r, o, "storm_warnings", "storm_errors", &c->storm_warnings, &c->storm_errors,
					 &b)) == 0 && b)
		c->present |= QOS_CTR_STORM;
	path_leave(r, mark);
	c->known = known == 1;
	c->error = (int)-err;
	return ret;
}

static const char *const port_members[] = { "device", "port", "netdev", "forced_tc", "default_roce_tos", "vlan",
					    "vlan_netdev", "vlan_egress", "ecn", "dcb", "counters" };

static int read_port(struct reader *r, const struct jnode *j, struct qos_port *p)
{
	const struct jnode *ecn = NULL;
	json_int_t num = 0, tc = -1, tos = -1;
	int vlan = 0, ret = jnode_is_object(j) ? check_object(r, j, port_members, COUNT(port_members))
					       : invalid(r, "expected an object, got %s", type_name(j));

	if (ret == 0)
		ret = read_string(r, j, "device", false, p->device, sizeof(p->device));
	if (ret == 0)
		ret = read_integer(r, j, "port", 1, 65535, false, 0, &num);
	if (ret == 0)
		ret = read_string(r, j, "netdev", false, p->netdev, sizeof(p->netdev));
	if (ret == 0)
		ret = read_integer(r, j, "forced_tc", 0, 255, true, -1, &tc);
	if (ret == 0 && jnode_object_get(j, "default_roce_tos"))   /* absent in snapshots older than it: unknown */
		ret = read_integer(r, j, "default_roce_tos", 0, 255, true, -1, &tos);
	if (ret == 0)
		ret = read_bool(r, j, "vlan", false, &vlan);
	if (ret == 0 && jnode_object_get(j, "vlan_netdev"))   /* absent in snapshots older than it: none */
		ret = read_string(r, j, "vlan_netdev", true, p->vlan_netdev, sizeof(p->vlan_netdev));
	if (ret == 0 && jnode_object_get(j, "vlan_egress"))   /* absent in snapshots older than it: unknown */
		ret = read_bytes(r, j, "vlan_egress", QOS_PRIOS - 1, p->vlan_egress, &p->vlan_egress_known);
	if (ret == 0)
		ret = read_array(r, j, "ecn", false, QOS_PRIOS, &ecn);
	for (unsigned k = 0; ret == 0 && k < QOS_PRIOS; k++) {
		const struct jnode *v = jnode_array_get(ecn, k);
		p->ecn[k] = jnode_is_true(v) ? QOS_ON : jnode_is_type((v), JSON_FALSE) ? QOS_OFF : QOS_UNKNOWN;
		if (!v || !(jnode_is_true(v) || jnode_is_type((v), JSON_FALSE) || jnode_is_null(v))) {
			size_t mark = path_member(r, "ecn");
			ret = invalid(r, "expected 8 of true, false or null");
			path_leave(r, mark);
		}
	}
	if (ret == 0)
		ret = read_dcb(r, j, &p->dcb);
	if (ret == 0)
		ret = read_counters(r, j, &p->counters);
	p->port = (unsigned)num;
	p->forced_tc = (int)tc;
	p->default_roce_tos = (int)tos;
	p->vlan = vlan == 1;
	return ret;
}

int qos_host_from_json(struct reader *r, const struct jnode *v, struct qos_host *q)
{
	const struct jnode *ports = NULL;
	static const char *const members[] = { "ports" };
	int ret = jnode_is_object(v) ? check_object(r, v, members, COUNT(members))
				     : invalid(r, "expected an object, got %s", type_name(v));

	memset(q, 0, sizeof(*q));
	if (ret == 0)
		ret = read_array(r, v, "ports", false, QOS_PORTS_MAX, &ports);
	if (ret == 0 && jnode_array_size(ports)) {
		size_t mark = path_member(r, "ports");
		q->ports = calloc(jnode_array_size(ports), sizeof(*q->ports));
		if (!q->ports)
			ret = out_of_memory(r);
		for (size_t i = 0; ret == 0 && i < jnode_array_size(ports); i++) {
			size_t at = path_index(r, i);
			ret = read_port(r, jnode_array_get(ports, i), &q->ports[i]);
			q->count = i + 1;
			path_leave(r, at);
		}
		path_leave(r, mark);
	}
	if (ret < 0)
		qos_host_free(q);
	return ret;
}
