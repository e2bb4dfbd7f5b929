// SPDX-License-Identifier: GPL-2.0-only
/* An NCCL WARN or UCX ERROR that no pattern row reads, named by the catalogue of their own wordings. */
#include "core/log/log_unlisted.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/log/log_line.h"
#include "core/log/log_scan.h"

const struct log_wording log_nccl_warnings[] = {
#include "core/log/nccl_warnings.inc"
};
const struct log_wording log_ucx_errors[] = {
#include "core/log/ucx_errors.inc"
};

const size_t log_nccl_warning_count = sizeof(log_nccl_warnings) / sizeof(log_nccl_warnings[0]);
const size_t log_ucx_error_count = sizeof(log_ucx_errors) / sizeof(log_ucx_errors[0]);

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

const struct log_wording *log_wording_find(const struct log_wording *table, size_t n, const char *text)
{
	const struct log_wording *best = NULL;
	size_t best_count = LITERAL_MIN - 1;

	for (size_t i = 0; i < n; i++) {
		const char *f = table[i].format;
		size_t lead = strcspn(f, "%<"), count;

		/* the words before the first conversion rule out nearly every wording at once */
		if (strncmp(f, text, lead) != 0)
			continue;
		count = literal_count(f);
		if (count > best_count && log_format_matches(f, text)) {
			best = &table[i];
			best_count = count;
		}
	}
	return best;
}

size_t log_ucx_failure_message(const char *text, size_t len)
{
	static const char *const levels[] = { "UCX  ERROR ", "UCX  FATAL " };
	size_t n = 0, word;

	while (n < len && text[n] == ' ')
		n++;
	/* ucs_log's "%s:%-4d " (the file and line), then "UCX  " and the level padded to five */
	word = n;
	while (word < len && text[word] != ' ')
		word++;
	if (word == n || word - n < 3 || text[word - 1] < '0' || text[word - 1] > '9' || !memchr(text + n, ':', word - n))
		return 0;
	while (word < len && text[word] == ' ')
		word++;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (len - word > strlen(levels[i]) && memcmp(text + word, levels[i], strlen(levels[i])) == 0) {
			word += strlen(levels[i]);
			while (word < len && text[word] == ' ')
				word++;
			return word < len ? word : 0;
		}
	return 0;
}

/* "in NCCL v2.4.2-1 to v2.30.7-1", "in UCX v1.22.0" */
static void releases(char *out, size_t size, const char *program, const struct log_wording *w)
{
	if (strcmp(w->first, w->last) == 0)
		snprintf(out, size, "in %s %s", program, w->first);
	else
		snprintf(out, size, "in %s %s to %s", program, w->first, w->last);
}

void log_unlisted_describe(struct log_hit *hit, const struct log_pattern *p, const char *text, size_t len)
{
	bool nccl = p == log_unlisted_nccl_warn;
	const char *program = nccl ? "NCCL" : "UCX", *level = nccl ? "WARN" : "ERROR";
	const struct log_wording *w = nccl ? log_wording_find(log_nccl_warnings, log_nccl_warning_count, text) :
					     log_wording_find(log_ucx_errors, log_ucx_error_count, text);
	char when[96];

	hit->pattern = p;
	log_text_clean(hit->quote, sizeof(hit->quote), text, len);
	if (w) {
		releases(when, sizeof(when), program, w);
		snprintf(hit->message, sizeof(hit->message), "%s printed this %s from %s (the wording \"%s\", %s of the "
			 "releases catalogued); explain has no rule of its own for it. %s prints %s where a call failed: "
			 "the job's first %s, on whichever rank, is most often the cause of what follows%s", program, level,
			 w->file, w->format, when, program, level, level, nccl ? " (ncclSystemError, ncclInternalError, a "
			 "peer's \"remote process exited\")" : " (the MPI or NCCL error that wraps it, the other ranks' "
			 "timeouts)");
		snprintf(hit->fix, sizeof(hit->fix), "https://github.com/%s/blob/%s/%s    # the code that prints it "
			 "(search it for the message's words)\ngrep -n '%s' EVERY-RANK.log | head    # the job's earliest",
			 nccl ? "NVIDIA/nccl" : "openucx/ucx", w->last, w->file, nccl ? "NCCL WARN" : "UCX  ERROR");
	} else {
		snprintf(hit->message, sizeof(hit->message), "%s printed %s %s in a wording no catalogued release prints "
			 "(%s): explain has no rule for it. %s prints %s where a call failed: the job's first %s, on "
			 "whichever rank, is most often the cause of what follows", program, nccl ? "a" : "an", level,
			 nccl ? "NCCL 2.4 to the newest; a net plugin's, or a newer or patched NCCL's" : "UCX 1.12 and "
			 "1.22; another release's", program, level, level);
		snprintf(hit->fix, sizeof(hit->fix), "grep -n '%s' EVERY-RANK.log | head    # the job's earliest\n%s",
			 nccl ? "NCCL WARN" : "UCX  ERROR", nccl ? "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV    # rerun "
			 "with these: the INFO lines before it say what NCCL was doing" : "UCX_LOG_LEVEL=debug    # rerun "
			 "with this: the lines before it say what UCX was doing");
	}
}
