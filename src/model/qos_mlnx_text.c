// SPDX-License-Identifier: GPL-2.0-only
/* mlnx_qos -i's text: "DCBX mode", "Priority trust state", the dscp2prio rows, the PFC table (enabled, and
 * buffer in newer versions) and the "tc: N ... tsa: T, bw: B%" blocks with their "priority:" lines. Any amount
 * of leading space, as pastes re-indent it; every number is range-checked before it is stored. */
#include "model/qos_mlnx_text.h"

#include <ctype.h>
#include <linux/dcbnl.h>
#include <stdlib.h>
#include <string.h>

void mlnx_qos_begin(struct mlnx_qos_reader *r)
{
	memset(r, 0, sizeof(*r));
	r->tc = -1;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* "word" then up to 8 small numbers separated by spaces or commas into v; how many were read. */
static int numbers_after(const char *s, const char *word, unsigned max, unsigned v[QOS_PRIOS])
{
	size_t n = strlen(word);
	int count = 0;

	s = skip_space(s);
	if (strncmp(s, word, n) != 0 || (s[n] && !isspace((unsigned char)s[n]) && s[n] != ':'))
		return -1;
	s += n;
	while (*s && count < QOS_PRIOS) {
		char *end;
		unsigned long x;

		while (*s == ' ' || *s == '\t' || *s == ',' || *s == ':')
			s++;
		if (!isdigit((unsigned char)*s))
			break;
		x = strtoul(s, &end, 10);
		if (x > max)
			return -1;
		v[count++] = (unsigned)x;
		s = end;
	}
	return count;
}

static bool trust_line(struct mlnx_qos_reader *r, const char *s)
{
	const char *v;

	if (!strncmp(s, "Priority trust state:", 21))
		v = s + 21;
	else if (!strncmp(s, "Trust state:", 12))
		v = s + 12;
	else
		return false;
	v = skip_space(v);
	r->dcb.trust_known = true;
	r->dcb.trust_source = QOS_TRUST_FROM_MLNX_QOS;
	r->dcb.trust = !strncmp(v, "dscp", 4) ? QOS_TRUST_DSCP : !strncmp(v, "pcp", 3) ? QOS_TRUST_PCP
									      : QOS_TRUST_UNKNOWN;
	return true;
}

/* "prio:3 dscp:31,30,29,28,27,26,25,24," */
static bool dscp_line(struct mlnx_qos_reader *r, const char *s)
{
	char *end;
	unsigned long prio;

	if (strncmp(s, "prio:", 5) != 0)
		return false;
	prio = strtoul(s + 5, &end, 10);
	if (end == s + 5 || prio >= QOS_PRIOS)
		return false;
	s = skip_space(end);
	if (strncmp(s, "dscp:", 5) != 0)
		return false;
	s += 5;
	while (isdigit((unsigned char)*s)) {
		unsigned long d = strtoul(s, &end, 10);
		if (d >= QOS_DSCPS)
			return false;
		r->dcb.dscp_mapped |= UINT64_C(1) << d;
		r->dcb.dscp_prio[d] = (uint8_t)prio;
		r->dcb.app_known = true;
		s = end;
		while (*s == ',' || *s == ' ')
			s++;
	}
	return true;
}

/* "tc: 3 ratelimit: unlimited, tsa: ets, bw: 10%" */
static bool tc_line(struct mlnx_qos_reader *r, const char *s)
{
	char *end;
	unsigned long tc;
	const char *p;

	if (strncmp(s, "tc:", 3) != 0)
		return false;
	tc = strtoul(s + 3, &end, 10);
	if (end == s + 3 || tc >= QOS_PRIOS)
		return false;
	r->tc = (int)tc;
	r->dcb.ets_known = true;
	if ((p = strstr(end, "tsa:"))) {
		p = skip_space(p + 4);
		r->dcb.tc_tsa[tc] = !strncmp(p, "strict", 6) ? IEEE_8021QAZ_TSA_STRICT
				  : !strncmp(p, "ets", 3) ? IEEE_8021QAZ_TSA_ETS : IEEE_8021QAZ_TSA_VENDOR;
	}
	if ((p = strstr(end, "bw:"))) {
		unsigned long bw = strtoul(skip_space(p + 3), NULL, 10);
		if (bw <= 100)
			r->dcb.tc_bw[tc] = (uint8_t)bw;
	}
	return true;
}

bool mlnx_qos_line(struct mlnx_qos_reader *r, const char *line)
{
	const char *s = skip_space(line);
	unsigned v[QOS_PRIOS];
	int n;

	if (!strncmp(s, "DCBX mode:", 10)) {
		r->dcb.dcbx_known = true;
		r->dcb.dcbx = strstr(s, "OS controlled") ? DCB_CAP_DCBX_HOST : DCB_CAP_DCBX_LLD_MANAGED;
		return r->any = true;
	}
	if (trust_line(r, s) || dscp_line(r, s) || tc_line(r, s))
		return r->any = true;
	if (!strncmp(s, "PFC configuration:", 18)) {
		r->pfc_header = true;
		return r->any = true;
	}
	if (r->pfc_header && (n = numbers_after(s, "enabled", 1, v)) == QOS_PRIOS) {
		r->dcb.pfc_known = true;
		for (int p = 0; p < QOS_PRIOS; p++)
			if (v[p])
				r->dcb.pfc_enabled |= (uint8_t)(1u << p);
		return r->any = true;
	}
	if (r->pfc_header && (n = numbers_after(s, "buffer", QOS_PRIOS - 1, v)) == QOS_PRIOS) {
		r->dcb.buffer_known = true;
		for (int p = 0; p < QOS_PRIOS; p++)
			r->dcb.prio_buffer[p] = (uint8_t)v[p];
		return r->any = true;
	}
	if (r->pfc_header && numbers_after(s, "priority", QOS_PRIOS - 1, v) == QOS_PRIOS)
		return r->any = true;   /* the PFC table's header row */
	/* "priority: 3" (or several) under a tc block: those priorities go to that traffic class */
	if (r->tc >= 0 && (n = numbers_after(s, "priority:", QOS_PRIOS - 1, v)) > 0) {
		for (int i = 0; i < n; i++)
			r->dcb.prio_tc[v[i]] = (uint8_t)r->tc;
		return r->any = true;
	}
	return false;
}

bool mlnx_qos_finish(struct mlnx_qos_reader *r, struct qos_dcb *out)
{
	if (!r->any || !r->dcb.trust_known || !r->dcb.pfc_known)
		return false;
	*out = r->dcb;
	out->known = true;
	return true;
}
