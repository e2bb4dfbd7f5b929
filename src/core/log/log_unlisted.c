// SPDX-License-Identifier: GPL-2.0-only
/* An NCCL WARN that no pattern row reads, named by the catalogue of NCCL's own WARN wordings. */
#include "core/log/log_unlisted.h"

#include <stdio.h>
#include <string.h>

#include "core/log/log_line.h"
#include "core/log/log_scan.h"

const struct log_nccl_warning log_nccl_warnings[] = {
#include "core/log/nccl_warnings.inc"
};

const size_t log_nccl_warning_count = sizeof(log_nccl_warnings) / sizeof(log_nccl_warnings[0]);

/* A format that is a conversion or two and little else ("%s", "%s:%d") would claim any line: it names
 * nothing, so a wording needs this many literal characters to be named. */
#define LITERAL_MIN 6
/* Backtracking over %s is bounded: a long line against a format of many %s gives up, as no match. */
#define MATCH_STEPS 200000

static const char *conversion_end(const char *f)
{
	f += strspn(f, "-+ #0123456789.*");
	f += strspn(f, "hlqjzt");
	return f;
}

static size_t run_of(const char *t, const char *set)
{
	return strspn(t, set);
}

/* "<name>" where NCCL's macros paste a function's name: its length, else 0. */
static size_t placeholder(const char *f)
{
	size_t n = 1;

	if (*f != '<')
		return 0;
	while ((f[n] >= 'a' && f[n] <= 'z') || (f[n] >= 'A' && f[n] <= 'Z') || f[n] == '_')
		n++;
	return f[n] == '>' && n > 1 ? n + 1 : 0;
}

static bool match_from(const char *f, const char *t, unsigned *steps)
{
	while (*f) {
		const char *c;
		size_t n;

		if (++*steps > MATCH_STEPS)
			return false;
		if ((n = placeholder(f)) != 0) {
			f += n;
			n = strcspn(t, " ");
			if (!n)
				return false;
			/* a pasted name is one word: try its ends, longest first */
			for (; n; n--)
				if (match_from(f, t + n, steps))
					return true;
			return false;
		}
		if (*f != '%' || f[1] == '%') {
			if (*t != *f)
				return false;
			f += *f == '%' ? 2 : 1;
			t++;
			continue;
		}
		c = conversion_end(f + 1);
		if (!*c)
			return false;
		f = c + 1;
		switch (*c) {
		case 'd': case 'i': case 'u':
			t += *t == '-' && *c != 'u';
			n = run_of(t, "0123456789");
			break;
		case 'x': case 'X':
			n = run_of(t, "0123456789abcdefABCDEF");
			break;
		case 'p':
			n = strncmp(t, "(nil)", 5) == 0 ? 5 : strncmp(t, "0x", 2) == 0 ? 2 + run_of(t + 2, "0123456789abcdef") : 0;
			break;
		case 'c':
			n = *t ? 1 : 0;
			break;
		case 'e': case 'E': case 'f': case 'g': case 'G':
			n = run_of(t, "-+0123456789.eE");
			break;
		default:   /* %s, %m and the rest: any text, shortest first */
			for (;; t++) {
				if (match_from(f, t, steps))
					return true;
				if (!*t || *steps > MATCH_STEPS)
					return false;
			}
		}
		if (!n)
			return false;
		t += n;
	}
	t += strspn(t, " ");
	return *t == '\0';
}

bool log_format_matches(const char *format, const char *text)
{
	unsigned steps = 0;

	return match_from(format, text, &steps);
}

/* The characters of format that print as themselves. */
static size_t literal_count(const char *f)
{
	size_t count = 0, n;

	while (*f) {
		if ((n = placeholder(f)) != 0)
			f += n;
		else if (*f == '%' && f[1] != '%' && *conversion_end(f + 1))
			f = conversion_end(f + 1) + 1;
		else {
			count++;
			f += *f == '%' ? 2 : 1;
		}
	}
	return count;
}

const struct log_nccl_warning *log_nccl_warning_find(const char *text)
{
	const struct log_nccl_warning *best = NULL;
	size_t best_count = LITERAL_MIN - 1;

	for (size_t i = 0; i < log_nccl_warning_count; i++) {
		const char *f = log_nccl_warnings[i].format;
		size_t lead = strcspn(f, "%<"), count;

		/* the words before the first conversion rule out nearly every wording at once */
		if (strncmp(f, text, lead) != 0)
			continue;
		count = literal_count(f);
		if (count > best_count && log_format_matches(f, text)) {
			best = &log_nccl_warnings[i];
			best_count = count;
		}
	}
	return best;
}

void log_unlisted_describe(struct log_hit *hit, const char *text, size_t len)
{
	const struct log_nccl_warning *w = log_nccl_warning_find(text);

	hit->pattern = log_unlisted_nccl_warn;
	log_text_clean(hit->quote, sizeof(hit->quote), text, len);
	if (w) {
		snprintf(hit->message, sizeof(hit->message), "NCCL printed this WARN from %s (the wording \"%s\", in "
			 "NCCL %s to %s of the releases catalogued); explain has no rule of its own for it. NCCL prints "
			 "WARN where a call failed: the job's first WARN, on whichever rank, is most often the cause of "
			 "what follows (ncclSystemError, ncclInternalError, a peer's \"remote process exited\")", w->file,
			 w->format, w->first, w->last);
		snprintf(hit->fix, sizeof(hit->fix), "https://github.com/NVIDIA/nccl/blob/%s/%s    # the code that "
			 "prints it (search it for the message's words)\ngrep -n 'NCCL WARN' EVERY-RANK.log | head    # "
			 "the job's earliest WARN", w->last, w->file);
	} else {
		snprintf(hit->message, sizeof(hit->message), "NCCL printed a WARN in a wording no catalogued NCCL "
			 "release (2.4 to the newest) prints: a net plugin's, or a newer or patched NCCL's; explain has no "
			 "rule for it. NCCL prints WARN where a call failed: the job's first WARN, on whichever rank, is "
			 "most often the cause of what follows");
		snprintf(hit->fix, sizeof(hit->fix), "grep -n 'NCCL WARN' EVERY-RANK.log | head    # the job's earliest "
			 "WARN\nNCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV    # rerun with these: the INFO lines "
			 "before it say what NCCL was doing");
	}
}
