// SPDX-License-Identifier: GPL-2.0-only
/* dcb -j's members, as dcb/dcb_*.c print them: eight-entry arrays (prio_pfc of booleans, tc_tsa of names,
 * the rest numbers), the APP table as [key, priority, " "] triples (dcb_app_print_filtered), apptrust's
 * order of selector names and DCBX's flags as booleans. Validated into a copy first: never a partial model. */
#include "model/qos_dcb_json.h"

#include <errno.h>
#include <linux/dcbnl.h>
#include <stdio.h>
#include <string.h>


struct reader {
	struct qos_dcb dcb;
	char *why;
	size_t why_len;
	bool any;
};

static int bad(struct reader *r, const char *member, long index, const char *expected)
{
	if (index >= 0)
		snprintf(r->why, r->why_len, "%s[%ld]: expected %s", member, index, expected);
	else
		snprintf(r->why, r->why_len, "%s: expected %s", member, expected);
	return -EBADMSG;
}

/* member as an array of exactly eight entries, each checked by its kind into out. */
enum kind { K_BOOL, K_U64, K_PRIO, K_PERCENT, K_TSA };

static int eight(struct reader *r, const json_t *doc, const char *member, enum kind kind, uint64_t out[QOS_PRIOS],
		 bool *present)
{
	const json_t *a = json_object_get(doc, member);

	*present = false;
	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) != QOS_PRIOS)
		return bad(r, member, -1, "an array of 8 values");
	for (size_t i = 0; i < QOS_PRIOS; i++) {
		const json_t *v = json_array_get(a, i);
		json_int_t x;

		if (kind == K_BOOL) {
			if (!json_is_boolean(v))
				return bad(r, member, (long)i, "true or false");
			out[i] = json_is_true(v);
			continue;
		}
		if (kind == K_TSA) {
			const char *s = json_string_value(v);
			if (!s)
				return bad(r, member, (long)i, "a selection algorithm name");
			out[i] = !strcmp(s, "strict") ? IEEE_8021QAZ_TSA_STRICT : !strcmp(s, "ets") ? IEEE_8021QAZ_TSA_ETS
				 : !strcmp(s, "cbs") ? IEEE_8021QAZ_TSA_CB_SHAPER : IEEE_8021QAZ_TSA_VENDOR;
			continue;
		}
		if (!json_is_integer(v) || (x = json_integer_value(v)) < 0)
			return bad(r, member, (long)i, "a number, 0 or more");
		if ((kind == K_PRIO && x >= QOS_PRIOS) || (kind == K_PERCENT && x > 100))
			return bad(r, member, (long)i, kind == K_PRIO ? "0-7" : "0-100");
		out[i] = (uint64_t)x;
	}
	*present = true;
	r->any = true;
	return 0;
}

/* [[key, priority, " "], ...]; dscp: the keys are DSCPs, stored as the map; any other selector counts. */
static int app_table(struct reader *r, const json_t *doc, const char *member, bool dscp)
{
	const json_t *a = json_object_get(doc, member);
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > 1024)
		return bad(r, member, -1, "an array of at most 1024 entries");
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *e = json_array_get(a, i), *k = json_array_get(e, 0), *p = json_array_get(e, 1);
		json_int_t prio;

		if (!json_is_array(e) || json_array_size(e) < 2 || !json_is_integer(p) ||
		    (prio = json_integer_value(p)) < 0 || prio >= QOS_PRIOS)
			return bad(r, member, (long)i, "[key, priority 0-7]");
		if (dscp) {
			json_int_t d = json_is_integer(k) ? json_integer_value(k) : -1;
			if (d < 0 || d >= QOS_DSCPS)
				return bad(r, member, (long)i, "[DSCP 0-63, priority]");
			r->dcb.dscp_mapped |= UINT64_C(1) << d;
			r->dcb.dscp_prio[d] = (uint8_t)prio;
		} else if (!json_is_integer(k) && !json_is_string(k)) {
			return bad(r, member, (long)i, "[key, priority]");
		}
		r->dcb.app_entries++;
	}
	r->dcb.app_known = true;
	r->any = true;
	return 0;
}

static int apptrust(struct reader *r, const json_t *doc)
{
	const json_t *a = json_object_get(doc, "order"), *first;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > 16)
		return bad(r, "order", -1, "an array of selector names");
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!json_is_string(json_array_get(a, i)))
			return bad(r, "order", (long)i, "a selector name");
	first = json_array_get(a, 0);
	r->dcb.trust_known = true;
	r->dcb.trust_source = QOS_TRUST_FROM_APPTRUST;
	r->dcb.trust = first && !strcmp(json_string_value(first), "dscp") ? QOS_TRUST_DSCP
		     : first && !strcmp(json_string_value(first), "pcp") ? QOS_TRUST_PCP : QOS_TRUST_UNKNOWN;
	r->any = true;
	return 0;
}

static int dcbx(struct reader *r, const json_t *doc)
{
	static const struct {
		const char *key;
		uint8_t bit;
	} flags[] = { { "host", DCB_CAP_DCBX_HOST }, { "lld_managed", DCB_CAP_DCBX_LLD_MANAGED },
		      { "cee", DCB_CAP_DCBX_VER_CEE }, { "ieee", DCB_CAP_DCBX_VER_IEEE }, { "static", DCB_CAP_DCBX_STATIC } };

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const json_t *v = json_object_get(doc, flags[i].key);
		if (!v)
			continue;
		if (!json_is_boolean(v))
			return bad(r, flags[i].key, -1, "true or false");
		r->dcb.dcbx_known = true;
		if (json_is_true(v))
			r->dcb.dcbx |= flags[i].bit;
		r->any = true;
	}
	return 0;
}

int dcb_json_read(const json_t *doc, struct qos_dcb *dcb, char *why, size_t why_len)
{
	struct reader r = { .dcb = *dcb, .why = why, .why_len = why_len };
	uint64_t v[QOS_PRIOS];
	const json_t *cap;
	bool present;
	int rc;

	if (!json_is_object(doc))
		return -ENOENT;
	if ((cap = json_object_get(doc, "pfc_cap"))) {
		if (!json_is_integer(cap) || json_integer_value(cap) < 0 || json_integer_value(cap) > QOS_PRIOS)
			return bad(&r, "pfc_cap", -1, "a number 0-8");
		r.dcb.pfc_cap = (uint8_t)json_integer_value(cap);
		r.any = true;
	}
	if ((rc = eight(&r, doc, "prio_pfc", K_BOOL, v, &present)) < 0)
		return rc;
	if (present) {
		r.dcb.pfc_known = true;
		r.dcb.pfc_enabled = 0;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			r.dcb.pfc_enabled |= (uint8_t)(v[p] << p);
	}
	if ((rc = eight(&r, doc, "requests", K_U64, r.dcb.pfc_requests, &present)) < 0 ||
	    (rc = eight(&r, doc, "indications", K_U64, r.dcb.pfc_indications, &present)) < 0)
		return rc;
	if ((rc = eight(&r, doc, "prio_tc", K_PRIO, v, &present)) < 0)
		return rc;
	for (unsigned p = 0; present && p < QOS_PRIOS; p++) {
		r.dcb.prio_tc[p] = (uint8_t)v[p];
		r.dcb.ets_known = true;
	}
	if ((rc = eight(&r, doc, "tc_bw", K_PERCENT, v, &present)) < 0)
		return rc;
	for (unsigned p = 0; present && p < QOS_PRIOS; p++) {
		r.dcb.tc_bw[p] = (uint8_t)v[p];
		r.dcb.ets_known = true;
	}
	if ((rc = eight(&r, doc, "tc_tsa", K_TSA, v, &present)) < 0)
		return rc;
	for (unsigned p = 0; present && p < QOS_PRIOS; p++) {
		r.dcb.tc_tsa[p] = (uint8_t)v[p];
		r.dcb.ets_known = true;
	}
	if ((rc = eight(&r, doc, "prio_buffer", K_PRIO, v, &present)) < 0)
		return rc;
	for (unsigned p = 0; present && p < QOS_PRIOS; p++) {
		r.dcb.prio_buffer[p] = (uint8_t)v[p];
		r.dcb.buffer_known = true;
	}
	if ((rc = app_table(&r, doc, "dscp_prio", true)) < 0 || (rc = app_table(&r, doc, "pcp_prio", false)) < 0 ||
	    (rc = app_table(&r, doc, "ethtype_prio", false)) < 0 || (rc = app_table(&r, doc, "stream_port_prio", false)) < 0 ||
	    (rc = app_table(&r, doc, "dgram_port_prio", false)) < 0 || (rc = app_table(&r, doc, "port_prio", false)) < 0)
		return rc;
	if ((rc = apptrust(&r, doc)) < 0 || (rc = dcbx(&r, doc)) < 0)
		return rc;
	/* members that say nothing the chain needs still make it dcb's document */
	r.any = r.any || json_object_get(doc, "willing") || json_object_get(doc, "ets_cap") ||
		json_object_get(doc, "macsec_bypass") || json_object_get(doc, "total_size") ||
		json_object_get(doc, "tc_maxrate") || json_object_get(doc, "default_prio");
	if (json_object_get(doc, "default_prio"))
		r.dcb.app_known = true;
	if (!r.any)
		return -ENOENT;
	*dcb = r.dcb;
	return 0;
}
