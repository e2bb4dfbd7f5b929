// SPDX-License-Identifier: GPL-2.0-only
/* Slurm's hostlist expansion, bounded: a range is walked only as far as the host count allows, so
 * "n[0-999999999]" costs max_hosts steps, not a billion. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/mesh/hostlist.h"

struct walk {
	size_t max, index, count;
	char *host;
	size_t size;
	char *why;
	size_t why_size;
};

static int fail(struct walk *w, const char *fmt, const char *item)
{
	snprintf(w->why, w->why_size, fmt, item);
	return -EINVAL;
}

static int emit(struct walk *w, const char *name, size_t len)
{
	if (len == 0)
		return fail(w, "an empty host name%s", "");
	if (w->count >= w->max) {
		snprintf(w->why, w->why_size, "more than %zu hosts", w->max);
		return -EINVAL;
	}
	if (w->count == w->index && w->host)
		snprintf(w->host, w->size, "%.*s", (int)len, name);
	w->count++;
	return 0;
}

/* Digits only, at most 9 of them (the value fits an unsigned long everywhere). */
static bool parse_number(const char *s, size_t len, unsigned long *v)
{
	*v = 0;
	if (len == 0 || len > 9)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (unsigned long)(s[i] - '0');
	}
	return true;
}

/* prefix (len bytes, already expanded) followed by the unexpanded rest of one item, up to end. */
static int expand(struct walk *w, char *prefix, size_t len, const char *rest, const char *end, unsigned depth)
{
	const char *open = memchr(rest, '[', (size_t)(end - rest)), *close, *r;
	size_t head;

	if (!open) {
		if (memchr(rest, ']', (size_t)(end - rest)))
			return fail(w, "a ']' without its '['%s", "");
		head = (size_t)(end - rest);
		if (len + head >= HOSTLIST_HOST_MAX)
			return fail(w, "a host name longer than 255 bytes%s", "");
		memcpy(prefix + len, rest, head);
		return emit(w, prefix, len + head);
	}
	close = memchr(open, ']', (size_t)(end - open));
	if (!close)
		return fail(w, "a '[' without its ']'%s", "");
	if (depth >= 8)
		return fail(w, "more than 8 bracketed ranges in one name%s", "");
	head = (size_t)(open - rest);
	if (len + head >= HOSTLIST_HOST_MAX)
		return fail(w, "a host name longer than 255 bytes%s", "");
	memcpy(prefix + len, rest, head);
	len += head;
	for (r = open + 1; r < close;) {
		const char *comma = memchr(r, ',', (size_t)(close - r)), *stop = comma ? comma : close;
		const char *dash = memchr(r, '-', (size_t)(stop - r));
		size_t lo_len = (size_t)((dash ? dash : stop) - r);
		unsigned long lo, hi;

		if (!parse_number(r, lo_len, &lo) ||
		    (dash ? !parse_number(dash + 1, (size_t)(stop - dash - 1), &hi) : (hi = lo, false)))
			return fail(w, "a range that is not NUMBER or NUMBER-NUMBER inside [...]%s", "");
		if (hi < lo)
			return fail(w, "a range that runs backwards inside [...]%s", "");
		for (unsigned long v = lo; v <= hi; v++) {
			char num[16];
			int n = snprintf(num, sizeof(num), "%0*lu", (int)lo_len, v);
			int rc;

			if (len + (size_t)n >= HOSTLIST_HOST_MAX)
				return fail(w, "a host name longer than 255 bytes%s", "");
			memcpy(prefix + len, num, (size_t)n);
			rc = expand(w, prefix, len + (size_t)n, close + 1, end, depth + 1);
			if (rc < 0)
				return rc;
		}
		r = stop + (comma ? 1 : 0);
		if (comma && r == close)
			return fail(w, "an empty range inside [...]%s", "");
	}
	if (open + 1 == close)
		return fail(w, "empty brackets []%s", "");
	return 0;
}

int hostlist_expand(const char *list, size_t max_hosts, size_t index, char *host, size_t size, size_t *count,
		    char *why, size_t why_size)
{
	struct walk w = { max_hosts, index, 0, host, size, why, why_size };
	char prefix[HOSTLIST_HOST_MAX];
	size_t total = strnlen(list, HOSTLIST_TEXT_MAX + 1);
	const char *p = list, *end = list + total;
	int rc = 0;

	*count = 0;
	if (host && size)
		host[0] = 0;
	if (total > HOSTLIST_TEXT_MAX)
		return fail(&w, "a list longer than 65536 bytes%s", "");
	if (total == 0)
		return fail(&w, "an empty list%s", "");
	while (p <= end && rc == 0) {
		/* Items are split at commas outside brackets. */
		const char *q = p;
		int level = 0;

		while (q < end && (*q != ',' || level > 0)) {
			level += *q == '[' ? 1 : *q == ']' ? -1 : 0;
			q++;
		}
		rc = expand(&w, prefix, 0, p, q, 0);
		p = q + 1;
	}
	*count = w.count;
	return rc;
}
