// SPDX-License-Identifier: GPL-2.0-only
/* pam_limits' precedence for one user over the memlock lines read (probe/pam_limits.c reads them): a pure
 * function of the model, which the memlock rule asks. */
#include "model/memlock.h"

#include <string.h>

/* pam_limits' "source" of a value: a lower number wins. */
enum { SRC_USER = 0, SRC_GROUP = 1, SRC_DEFAULT = 4, SRC_NONE = 6 };

static bool range_has(const struct limits_line *l, unsigned id)
{
	switch (l->range) {
	case ID_RANGE_ONE:
		return id == l->range_max;
	case ID_RANGE_MIN:
		return id >= l->range_min;
	case ID_RANGE_MIN_MAX:
		return id >= l->range_min && id <= l->range_max;
	default:
		return false;
	}
}

/* "@group" or "@gid-range": membership by name, ":gid" by any group, other ranges by the primary gid. */
static bool group_domain_applies(const struct limits_line *l, const struct user_info *u)
{
	if (l->range == ID_RANGE_NONE)
		return user_in_group(u, l->domain + 1);
	if (l->range == ID_RANGE_ONE)
		return user_in_gid(u, l->range_max);
	return range_has(l, u->gid);
}

/* pam_limits' source for a memlock line, or -1 when it does not apply to the user. */
static int line_source(const struct limits_line *l, const struct user_info *u)
{
	if (strcmp(l->domain, u->name) == 0)
		return SRC_USER;
	if (l->domain[0] == '@')
		return group_domain_applies(l, u) ? SRC_GROUP : -1;
	if (l->range == ID_RANGE_NONE)
		return strcmp(l->domain, "*") == 0 ? SRC_DEFAULT : -1;
	return range_has(l, u->uid) ? SRC_USER : -1;
}

/* A "<domain> -" line: by name, @group or uid range, but never "*" or other plain words. */
static bool no_limits_applies(const struct limits_line *l, const struct user_info *u)
{
	if (strcmp(l->domain, u->name) == 0)
		return true;
	if (l->domain[0] == '@')
		return group_domain_applies(l, u);
	return l->range != ID_RANGE_NONE && range_has(l, u->uid);
}

void pam_limits_memlock(const struct pam_limits *conf, const struct user_info *user, struct pam_memlock *out)
{
	int src_soft = SRC_NONE, src_hard = SRC_NONE;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < conf->count; i++) {
		const struct limits_line *l = &conf->lines[i];
		int src;

		if (l->kind == LIMITS_LINE_NO_LIMITS) {
			if (!no_limits_applies(l, user))
				continue;
			memset(out, 0, sizeof(*out));
			out->no_limits = l;
			return;
		}
		src = line_source(l, user);
		if (src < 0)
			continue;
		if (l->type & MEMLOCK_SOFT) {
			if (src_soft < src)
				continue;   /* pam_limits returns here: a "-" line loses its hard half too */
			src_soft = src;
			out->soft = l->value;
			out->soft_line = l;
		}
		if (l->type & MEMLOCK_HARD) {
			if (src_hard < src)
				continue;
			src_hard = src;
			out->hard = l->value;
			out->hard_line = l;
		}
	}
	if (out->soft_line && out->hard_line && !out->hard.unlimited &&
	    (out->soft.unlimited || out->soft.bytes > out->hard.bytes)) {
		out->soft = out->hard;
		out->soft_clamped = true;
	}
}
