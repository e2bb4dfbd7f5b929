// SPDX-License-Identifier: GPL-2.0-only
/* iproute2 dcb's text: a keyword, then KEY:VALUE pairs (dcb_print_array_* in dcb/dcb.c), or the few scalar
 * lines (pfc-cap, willing, order:, total-size, the DCBX words). Older iproute2 printed pg-pfc for prio-pfc.
 * Every key and value is range-checked before it is stored; a line that is not dcb's changes nothing. */
#include "model/qos_dcb_text.h"

#include <ctype.h>
#include <linux/dcbnl.h>
#include <stdlib.h>
#include <string.h>

/* iproute2's rt_dsfield names, by the TOS byte it lists (DSCP << 2) */
static const struct {
	const char *name;
	unsigned dscp;
} dsfield[] = {
	{ "default", 0 }, { "AF11", 10 }, { "AF12", 12 }, { "AF13", 14 }, { "AF21", 18 }, { "AF22", 20 },
	{ "AF23", 22 }, { "AF31", 26 }, { "AF32", 28 }, { "AF33", 30 }, { "AF41", 34 }, { "AF42", 36 },
	{ "AF43", 38 }, { "CS1", 8 }, { "CS2", 16 }, { "CS3", 24 }, { "CS4", 32 }, { "CS5", 40 }, { "CS6", 48 },
	{ "CS7", 56 }, { "EF", 46 },
};

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* An unsigned decimal of s[0..len), at most max; -1 when it is not one. */
static long number(const char *s, size_t len, long max)
{
	long v = 0;

	if (len == 0 || len > 20)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -1;
	}
	return v;
}

int dcb_dscp_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(dsfield) / sizeof(dsfield[0]); i++)
		if (strlen(dsfield[i].name) == len && strncmp(dsfield[i].name, name, len) == 0)
			return (int)dsfield[i].dscp;
	return (int)number(name, len, QOS_DSCPS - 1);
}

/* The line's first word is keyword, followed by a space (or the end): what follows it, else NULL. */
static const char *after(const char *line, const char *keyword)
{
	size_t n = strlen(keyword);

	if (strncmp(line, keyword, n) != 0 || (line[n] != ' ' && line[n] != '\t' && line[n] != '\0'))
		return NULL;
	return skip_space(line + n);
}

/* KEY:VALUE pairs to the end of the line; each is given to take, which refuses what it cannot store. How many
 * pairs were taken; -1 when a word is not a pair or take refused one (the line is then not dcb's). */
typedef bool (*pair_fn)(struct qos_dcb *dcb, const char *key, size_t klen, const char *val, size_t vlen, void *ctx);

static int pairs(struct qos_dcb *dcb, const char *s, pair_fn take, void *ctx)
{
	int count = 0;

	for (s = skip_space(s); *s; s = skip_space(s)) {
		size_t word = strcspn(s, " \t"), colon;

		colon = strcspn(s, ":");
		if (colon >= word || colon == 0 || colon + 1 == word)
			return -1;
		if (!take(dcb, s, colon, s + colon + 1, word - colon - 1, ctx))
			return -1;
		count++;
		s += word;
	}
	return count;
}

static bool on_off(const char *v, size_t len, bool *out)
{
	if (len == 2 && strncmp(v, "on", 2) == 0)
		*out = true;
	else if (len == 3 && strncmp(v, "off", 3) == 0)
		*out = false;
	else
		return false;
	return true;
}

/* Staging for an eight-entry array: the line is stored only when all of it parsed. */
struct prio_array {
	uint64_t v[QOS_PRIOS];
	uint8_t seen;            /* bit k: key k was given */
	long max;
	enum { VAL_NUMBER, VAL_ON_OFF, VAL_TSA } kind;
};

static bool take_prio(struct qos_dcb *dcb, const char *k, size_t kl, const char *v, size_t vl, void *ctx)
{
	struct prio_array *a = ctx;
	long key = number(k, kl, QOS_PRIOS - 1);
	bool on;

	(void)dcb;
	if (key < 0)
		return false;
	if (a->kind == VAL_ON_OFF) {
		if (!on_off(v, vl, &on))
			return false;
		a->v[key] = on;
	} else if (a->kind == VAL_TSA) {
		if (vl == 6 && strncmp(v, "strict", 6) == 0)
			a->v[key] = IEEE_8021QAZ_TSA_STRICT;
		else if (vl == 3 && strncmp(v, "ets", 3) == 0)
			a->v[key] = IEEE_8021QAZ_TSA_ETS;
		else if (vl == 3 && strncmp(v, "cbs", 3) == 0)
			a->v[key] = IEEE_8021QAZ_TSA_CB_SHAPER;
		else
			a->v[key] = IEEE_8021QAZ_TSA_VENDOR;   /* "???" or a vendor's */
	} else {
		/* counters are 64-bit; number() caps at max, so a value past it is refused, not wrapped */
		uint64_t x = 0;
		if (vl == 0 || vl > 20)
			return false;
		for (size_t i = 0; i < vl; i++) {
			if (!isdigit((unsigned char)v[i]) || x > (UINT64_MAX - 9) / 10)
				return false;
			x = x * 10 + (uint64_t)(v[i] - '0');
		}
		if (a->max >= 0 && x > (uint64_t)a->max)
			return false;
		a->v[key] = x;
	}
	a->seen |= (uint8_t)(1u << key);
	return true;
}

/* keyword KEY:VALUE... for the priorities 0..7: true when the line was it and all of it parsed. */
static bool prio_line(const char *line, const char *keyword, struct prio_array *a)
{
	const char *s = after(line, keyword);

	return s && pairs(NULL, s, take_prio, a) > 0;
}

/* The APP table's lines: dscp-prio entries are the map; every other selector only counts. */
struct app_ctx {
	bool dscp;
	uint64_t mapped;
	uint8_t prio[QOS_DSCPS];
	unsigned entries;
};

static bool take_app(struct qos_dcb *dcb, const char *k, size_t kl, const char *v, size_t vl, void *ctx)
{
	struct app_ctx *a = ctx;
	long prio = number(v, vl, QOS_PRIOS - 1);
	int dscp;

	(void)dcb;
	if (prio < 0)
		return false;
	if (a->dscp) {
		dscp = dcb_dscp_by_name(k, kl);
		if (dscp < 0)
			return false;
		a->mapped |= UINT64_C(1) << dscp;
		a->prio[dscp] = (uint8_t)prio;
	}
	a->entries++;
	return true;
}

static bool app_line(struct qos_dcb *dcb, const char *line)
{
	static const char *const others[] = { "pcp-prio", "ethtype-prio", "stream-port-prio", "dgram-port-prio",
					      "port-prio" };
	struct app_ctx a = { 0 };
	const char *s = after(line, "dscp-prio");

	if (s) {
		a.dscp = true;
		if (pairs(NULL, s, take_app, &a) <= 0)
			return false;
		for (unsigned d = 0; d < QOS_DSCPS; d++)
			if (a.mapped >> d & 1) {
				dcb->dscp_prio[d] = a.prio[d];   /* the last entry for a DSCP wins, as mlx5 keeps it */
			}
		dcb->dscp_mapped |= a.mapped;
		dcb->app_entries += a.entries;
		dcb->app_known = true;
		return true;
	}
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		/* pcp-prio keys are "1nd", "2de"; ports and ethertypes are numbers: only the priority is checked */
		if ((s = after(line, others[i]))) {
			struct app_ctx any = { 0 };
			if (pairs(NULL, s, take_app, &any) <= 0)
				return false;
			dcb->app_entries += any.entries;
			dcb->app_known = true;
			return true;
		}
	}
	if ((s = after(line, "default-prio"))) {
		size_t n = 0;
		for (; *s; s = skip_space(s + n)) {
			n = strcspn(s, " \t");
			if (number(s, n, QOS_PRIOS - 1) < 0)
				return false;
			dcb->app_entries++;
		}
		dcb->app_known = true;
		return true;
	}
	return false;
}

/* "order: dscp pcp": the first trusted selector decides how a RoCE packet is classified. */
static bool apptrust_line(struct qos_dcb *dcb, const char *line)
{
	const char *s;
	size_t n;

	if (strncmp(line, "order:", 6) != 0)
		return false;
	s = skip_space(line + 6);
	n = strcspn(s, " \t");
	dcb->trust_known = true;
	dcb->trust_source = QOS_TRUST_FROM_APPTRUST;
	dcb->trust = n == 4 && strncmp(s, "dscp", 4) == 0 ? QOS_TRUST_DSCP
		   : n == 3 && strncmp(s, "pcp", 3) == 0 ? QOS_TRUST_PCP : QOS_TRUST_UNKNOWN;
	return true;
}

/* "host ieee": every word one of dcb dcbx's flags. */
static bool dcbx_line(struct qos_dcb *dcb, const char *line)
{
	static const struct {
		const char *word;
		uint8_t bit;
	} flags[] = { { "host", DCB_CAP_DCBX_HOST }, { "lld-managed", DCB_CAP_DCBX_LLD_MANAGED },
		      { "cee", DCB_CAP_DCBX_VER_CEE }, { "ieee", DCB_CAP_DCBX_VER_IEEE }, { "static", DCB_CAP_DCBX_STATIC } };
	uint8_t bits = 0;
	const char *s = line;

	while (*s) {
		size_t n = strcspn(s, " \t"), i;

		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (strlen(flags[i].word) == n && strncmp(s, flags[i].word, n) == 0)
				break;
		if (i == sizeof(flags) / sizeof(flags[0]))
			return false;
		bits |= flags[i].bit;
		s = skip_space(s + n);
	}
	if (!bits)
		return false;
	dcb->dcbx_known = true;
	dcb->dcbx = bits;
	return true;
}

/* "pfc-cap 8 macsec-bypass off delay 4096" and ETS's "willing on ets-cap 8 cbs off": scalar words. */
static bool scalar_line(struct qos_dcb *dcb, const char *line)
{
	const char *s;
	size_t n;
	long cap;

	if ((s = after(line, "pfc-cap"))) {
		n = strcspn(s, " \t");
		if ((cap = number(s, n, QOS_PRIOS)) < 0)
			return false;
		dcb->pfc_cap = (uint8_t)cap;
		return true;
	}
	return after(line, "willing") != NULL && (strstr(line, "ets-cap") || strstr(line, "ets_cap"));
}

/* Lines that are dcb's and say nothing the chain needs: recognised, not stored. */
static bool other_line(const char *line)
{
	static const char *const words[] = { "pg-bw", "reco-tc-bw", "reco-tc-tsa", "reco-prio-tc", "buffer-size",
					     "total-size", "tc-maxrate" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (after(line, words[i]) && *after(line, words[i]))
			return true;
	return false;
}

bool dcb_text_line(struct qos_dcb *dcb, const char *line)
{
	struct prio_array a;
	const char *s = skip_space(line);

	memset(&a, 0, sizeof(a));
	a.kind = VAL_ON_OFF;
	if (prio_line(s, "prio-pfc", &a) || prio_line(s, "pg-pfc", &a)) {
		dcb->pfc_known = true;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (a.seen >> p & 1)
				dcb->pfc_enabled = (uint8_t)(a.v[p] ? dcb->pfc_enabled | 1u << p : dcb->pfc_enabled & ~(1u << p));
		return true;
	}
	a.kind = VAL_NUMBER;
	a.max = -1;
	if (prio_line(s, "requests", &a) || prio_line(s, "indications", &a)) {
		uint64_t *to = strncmp(s, "requests", 8) == 0 ? dcb->pfc_requests : dcb->pfc_indications;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (a.seen >> p & 1)
				to[p] = a.v[p];
		return true;
	}
	memset(&a, 0, sizeof(a));
	a.kind = VAL_NUMBER;
	a.max = QOS_PRIOS - 1;
	if (prio_line(s, "prio-tc", &a)) {
		dcb->ets_known = true;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (a.seen >> p & 1)
				dcb->prio_tc[p] = (uint8_t)a.v[p];
		return true;
	}
	memset(&a, 0, sizeof(a));
	a.kind = VAL_NUMBER;
	a.max = QOS_PRIOS - 1;
	if (prio_line(s, "prio-buffer", &a)) {
		dcb->buffer_known = true;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (a.seen >> p & 1)
				dcb->prio_buffer[p] = (uint8_t)a.v[p];
		return true;
	}
	memset(&a, 0, sizeof(a));
	a.kind = VAL_NUMBER;
	a.max = 100;
	if (prio_line(s, "tc-bw", &a)) {
		dcb->ets_known = true;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (a.seen >> p & 1)
				dcb->tc_bw[p] = (uint8_t)a.v[p];
		return true;
	}
	memset(&a, 0, sizeof(a));
	a.kind = VAL_TSA;
	if (prio_line(s, "tc-tsa", &a)) {
		dcb->ets_known = true;
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (a.seen >> p & 1)
				dcb->tc_tsa[p] = (uint8_t)a.v[p];
		return true;
	}
	return app_line(dcb, s) || apptrust_line(dcb, s) || scalar_line(dcb, s) || other_line(s) || dcbx_line(dcb, s);
}

void dcb_settings_finish(struct qos_dcb *dcb)
{
	if (!dcb->trust_known && dcb->app_known) {
		dcb->trust_known = true;
		dcb->trust_source = QOS_TRUST_FROM_APP_TABLE;
		dcb->trust = dcb->dscp_mapped ? QOS_TRUST_DSCP : QOS_TRUST_PCP;
	}
	if (dcb->pfc_known || dcb->ets_known || dcb->app_known || dcb->trust_known || dcb->buffer_known) {
		dcb->known = true;
		dcb->error = 0;
	}
}
