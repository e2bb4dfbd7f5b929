// SPDX-License-Identifier: GPL-2.0-only
/* explain's line reader and matcher. Memory is fixed once init has run: one line buffer, the compiled table,
 * LOG_FACTS_MAX facts and one hit per pattern row, whatever the size of the log. */
#include "core/log/log_scan.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_causes.h"
#include "core/log/log_decode.h"
#include "core/log/log_line.h"
#include "core/log/log_ranks.h"
#include "core/log/log_unlisted.h"
#include "core/log/paste_scan.h"

#define GROUPS LOG_MEMO_GROUPS   /* the whole match and {1}..{4} */

int log_scan_init(struct log_scan *scan)
{
	memset(scan, 0, sizeof(*scan));
	scan->compiled = calloc(log_pattern_count, sizeof(*scan->compiled));
	scan->has_regex = calloc(log_pattern_count, sizeof(*scan->has_regex));
	scan->hits = calloc(log_pattern_count + log_cause_count, sizeof(*scan->hits));
	scan->found = calloc(log_pattern_count, sizeof(*scan->found));
	scan->until = calloc(log_pattern_count, sizeof(*scan->until));
	scan->has_until = calloc(log_pattern_count, sizeof(*scan->has_until));
	if (!scan->compiled || !scan->has_regex || !scan->hits || !scan->found || !scan->until || !scan->has_until ||
	    paste_scan_init(&scan->pastes) < 0) {
		log_scan_free(scan);
		return -ENOMEM;
	}
	if (log_needles_init(&scan->needles, log_patterns, log_pattern_count) < 0 ||
	    log_memo_init(&scan->memo, LOG_MEMO_SLOTS) < 0) {
		log_scan_free(scan);
		return -ENOMEM;
	}
	for (size_t i = 0; i < log_pattern_count; i++) {
		int rc = 0;

		if (log_patterns[i].regex) {
			rc = regcomp(&scan->compiled[i], log_patterns[i].regex, REG_EXTENDED);
			scan->has_regex[i] = rc == 0;
		}
		if (rc == 0 && log_patterns[i].until) {
			rc = regcomp(&scan->until[i], log_patterns[i].until, REG_EXTENDED | REG_NOSUB);
			scan->has_until[i] = rc == 0;
		}
		if (rc != 0) {
			log_scan_free(scan);
			return rc == REG_ESPACE ? -ENOMEM : -EINVAL;
		}
	}
	return 0;
}

void log_scan_free(struct log_scan *scan)
{
	for (size_t i = 0; scan->has_regex && i < log_pattern_count; i++)
		if (scan->has_regex[i])
			regfree(&scan->compiled[i]);
	for (size_t i = 0; scan->has_until && i < log_pattern_count; i++)
		if (scan->has_until[i])
			regfree(&scan->until[i]);
	log_needles_free(&scan->needles);
	log_memo_free(&scan->memo);
	free(scan->found);
	scan->found = NULL;
	free(scan->compiled);
	free(scan->has_regex);
	free(scan->hits);
	free(scan->until);
	free(scan->has_until);
	paste_scan_free(scan->pastes);
	scan->pastes = NULL;
	scan->compiled = NULL;
	scan->has_regex = NULL;
	scan->hits = NULL;
	scan->until = NULL;
	scan->has_until = NULL;
}

/* {KIND:N}: group N decoded as a KIND number (log_decode.h), "" when the group did not match. Returns the
 * template characters it took, 0 when t is no such token. */
static size_t fill_decoded(char *out, size_t size, const char *t, const char *text, const regmatch_t *groups)
{
	char kind[8], value[96];
	size_t k = 0, len;
	const regmatch_t *g;

	while (k < sizeof(kind) - 1 && t[1 + k] >= 'a' && t[1 + k] <= 'z')
		kind[k] = t[1 + k], k++;
	kind[k] = '\0';
	if (!k || t[1 + k] != ':' || t[2 + k] < '1' || t[2 + k] > '4' || t[3 + k] != '}')
		return 0;
	g = &groups[t[2 + k] - '0'];
	out[0] = '\0';
	if (g->rm_so >= 0 && g->rm_eo > g->rm_so) {
		len = (size_t)(g->rm_eo - g->rm_so);
		snprintf(value, sizeof(value), "%.*s", (int)(len < sizeof(value) ? len : sizeof(value) - 1),
			 text + g->rm_so);
		log_decode(out, size, kind, value);
	}
	return k + 4;
}

/* template with {1}..{4} replaced by the groups of the match in text, {KIND:N} by group N decoded. The
 * template is ours (its newlines separate fix lines); only the groups, taken from the log, are cleaned. */
static void fill(char *out, size_t size, const char *template, const char *text, const regmatch_t *groups)
{
	size_t o = 0, took;

	for (const char *t = template; *t && o + 1 < size; t++) {
		if (t[0] == '{' && (took = fill_decoded(out + o, size - o, t, text, groups))) {
			o += strlen(out + o);
			t += took - 1;
		} else if (t[0] == '{' && t[1] >= '1' && t[1] <= '4' && t[2] == '}') {
			const regmatch_t *g = &groups[t[1] - '0'];

			if (g->rm_so >= 0 && g->rm_eo > g->rm_so) {
				log_text_clean(out + o, size - o, text + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
				o += strlen(out + o);
			}
			t += 2;
		} else
			out[o++] = *t;
	}
	out[o] = '\0';
}

static void add_fact(struct log_scan *scan, const struct log_pattern *p, const char *text, const regmatch_t *groups)
{
	char value[sizeof(scan->facts[0].value)];
	size_t start = 0;

	fill(value, sizeof(value), p->value, text, groups);
	while (value[start] == ' ')
		start++;
	if (!value[start])
		return;
	if (scan->ranks)
		log_ranks_fact(scan->ranks, p->fact, value + start, scan->lines - scan->line_base);
	for (size_t i = 0; i < scan->fact_count; i++) {
		struct log_fact *f = &scan->facts[i];

		if (strcmp(f->name, p->fact) == 0 && strcmp(f->value, value + start) == 0) {
			f->count++;
			return;
		}
	}
	if (scan->fact_count == LOG_FACTS_MAX) {
		scan->facts_dropped++;
		return;
	}
	scan->facts[scan->fact_count].name = p->fact;
	snprintf(scan->facts[scan->fact_count].value, sizeof(value), "%s", value + start);
	scan->facts[scan->fact_count].line = scan->lines - scan->line_base;
	scan->facts[scan->fact_count].count = 1;
	scan->fact_count++;
}

/* The rank of the line being read showed hit. */
static void hit_rank(struct log_scan *scan, struct log_hit *hit)
{
	int at;

	if (!scan->ranks || scan->ranks->current < 0)
		return;
	at = (int)scan->ranks->current;
	for (size_t i = 0; i < hit->rank_count; i++)
		if (hit->ranks[i] == at)
			return;
	if (hit->rank_count < LOG_HIT_RANKS)
		hit->ranks[hit->rank_count++] = at;
	else
		hit->ranks_more++;   /* a rank counted again when it repeats: "more" is at most this */
}

static void describe(struct log_hit *hit, const struct log_pattern *p, const char *text, size_t len,
		     const regmatch_t *groups)
{
	hit->pattern = p;
	log_text_clean(hit->quote, sizeof(hit->quote), text, len);
	fill(hit->message, sizeof(hit->message), p->meaning, text, groups);
	fill(hit->fix, sizeof(hit->fix), p->fix, text, groups);
}

/* One more line of problem p; described by its first line, or by *first when given (a suspect's line). */
static void count_problem(struct log_scan *scan, const struct log_pattern *p, const struct log_hit *first,
			  unsigned long line, const char *text, size_t len, const regmatch_t *groups)
{
	struct log_hit *hit = NULL;

	for (size_t i = 0; i < scan->hit_count; i++)
		if (strcmp(scan->hits[i].pattern->id, p->id) == 0)
			hit = &scan->hits[i];
	if (!hit) {
		hit = &scan->hits[scan->hit_count++];
		if (first)
			*hit = *first;
		else
			describe(hit, p, text, len, groups);
	}
	if (hit->line_count < LOG_HIT_LINES)
		hit->lines[hit->line_count++] = line;
	hit->count++;
	hit_rank(scan, hit);
	if (scan->ranks && !first)
		log_ranks_problem(scan->ranks, p, text, len, line);
	else if (scan->ranks)
		log_ranks_problem(scan->ranks, p, first->quote, strlen(first->quote), line);
}

static void add_problem(struct log_scan *scan, const struct log_pattern *p, const char *text, size_t len,
			const regmatch_t *groups)
{
	scan->suspect = false;   /* the log said what went wrong after the suspect line */
	count_problem(scan, p, NULL, scan->lines - scan->line_base, text, len, groups);
}

/* An NCCL WARN or UCX ERROR (p) no row reads: the first is looked up in the catalogue and described, the
 * later ones counted under it (one lookup per log, not per line). */
static void add_unlisted(struct log_scan *scan, const struct log_pattern *p, const char *text, size_t len)
{
	struct log_hit first;
	bool seen = false;

	for (size_t i = 0; i < scan->hit_count && !seen; i++)
		seen = scan->hits[i].pattern == p;
	scan->suspect = false;
	memset(&first, 0, sizeof(first));
	if (!seen)
		log_unlisted_describe(&first, p, text, len);
	else
		log_text_clean(first.quote, sizeof(first.quote), text, len);
	first.pattern = p;
	count_problem(scan, p, &first, scan->lines - scan->line_base, NULL, 0, NULL);
}

/* A suspect row's line: held until the log ends (log_scan_finish) or a line clears it. */
static void add_suspect(struct log_scan *scan, const struct log_pattern *p, const char *text, size_t len,
			const regmatch_t *groups)
{
	memset(&scan->suspect_hit, 0, sizeof(scan->suspect_hit));
	describe(&scan->suspect_hit, p, text, len, groups);
	scan->suspect_line = scan->lines - scan->line_base;
	scan->suspect = true;
}

/* Whether text clears the suspect: it matches its row's until. */
static bool clears_suspect(const struct log_scan *scan, const char *text)
{
	size_t row = (size_t)(scan->suspect_hit.pattern - log_patterns);

	return scan->has_until[row] && regexec(&scan->until[row], text, 0, NULL, 0) == 0;
}

/* The rows that match the message text[0..len) (NUL-terminated, no NUL inside), in table order, into
 * scan->found: every fact row, and the first problem row (the most specific: a line gives one problem). A
 * function of the text alone, which is what lets log_memo keep it. The needle filter has read the text. */
static size_t rows_matching(struct log_scan *scan, const char *text)
{
	bool problem = false;
	size_t count = 0;

	for (size_t i = 0; i < log_pattern_count; i++) {
		struct log_match *m = &scan->found[count];
		bool is_problem = log_patterns[i].severity > SEVERITY_INFO;

		if ((is_problem && problem) || !log_needles_row_found(&scan->needles, i))
			continue;
		if (scan->has_regex[i]) {
			if (regexec(&scan->compiled[i], text, GROUPS, m->groups, 0) != 0)
				continue;
		} else {
			for (size_t g = 0; g < GROUPS; g++)
				m->groups[g].rm_so = m->groups[g].rm_eo = -1;
		}
		m->row = i;
		count++;
		problem = problem || is_problem;
	}
	return count;
}

/* Whether any row matched the message text[0..len) (NUL-terminated, no NUL inside); *problem: whether a
 * problem row did. */
static bool match_line(struct log_scan *scan, const char *text, size_t len, bool *problem)
{
	bool recognised = false;
	const struct log_match *found;
	size_t count;
	uint64_t hash = 0;

	if (scan->suspect && clears_suspect(scan, text)) {
		scan->suspect = false;
		recognised = true;
	}
	/* Most lines hold no needle: those are answered by the needle filter alone, with no hash. */
	log_needles_find(&scan->needles, text, len);
	if (!log_needles_any(&scan->needles))
		return recognised;
	hash = log_memo_hash(text, len);
	found = log_memo_get(&scan->memo, hash, text, len, &count);
	if (!found) {
		count = rows_matching(scan, text);
		found = scan->found;
		log_memo_put(&scan->memo, hash, text, len, found, count);
	}
	for (size_t k = 0; k < count; k++) {
		const struct log_pattern *p = &log_patterns[found[k].row];
		bool is_problem = p->severity > SEVERITY_INFO;

		recognised = true;
		*problem = *problem || is_problem;
		if (p->fact)
			add_fact(scan, p, text, found[k].groups);
		if (is_problem && scan->has_until[found[k].row])
			add_suspect(scan, p, text, len, found[k].groups);
		else if (is_problem)
			add_problem(scan, p, text, len, found[k].groups);
	}
	return recognised;
}

/* Whether s[0..len) holds a byte below 0x20 or 0x7f, eight bytes at a time (a byte b < 0x20 makes
 * (b - 0x20) & ~b & 0x80 non-zero; 0x7f is the zero byte of b ^ 0x7f). */
static bool has_control(const char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w, d;

		memcpy(&w, s + i, sizeof(w));
		d = w ^ (ones * 0x7f);
		if (((w - ones * 0x20) & ~w & highs) || ((d - ones) & ~d & highs))
			return true;
	}
	for (; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

static bool only_spaces(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ')
			return false;
	return true;
}

static void end_line(struct log_scan *scan)
{
	char *line = scan->line;
	size_t len = scan->len, at;
	bool binary = false, blank = true, control;

	scan->lines++;
	if (scan->overflow)
		scan->truncated++;
	if (len && line[len - 1] == '\r')
		len--;
	/* nearly every line has no byte below 0x20: only those that do are looked at byte by byte */
	control = has_control(line, len);
	for (size_t i = 0; control && i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		/* regexec and strstr stop at NUL: it would hide the rest of the line */
		if (c == '\0') {
			line[i] = '?';
			binary = true;
		} else if ((c < 0x20 && c != '\t' && c != 0x1b) || c == 0x7f)
			binary = true;
		if (c != ' ' && c != '\t')
			blank = false;
	}
	if (!control)
		blank = only_spaces(line, len);
	line[len] = '\0';
	if (binary)
		scan->binary++;
	if (blank)
		scan->blank++;
	else {
		struct log_origin origin;

		/* A line of a pasted command's output (mlnx_qos, dcb, ethtool -S...) is the paste's, whole: its
		 * "prio:3" or "rx_prio3_pause: 0" is no pdsh label, and no log pattern is about it. */
		if (paste_scan_line(scan->pastes, line, len, scan->lines - scan->line_base)) {
			scan->recognised++;
		} else {
			bool problem = false, recognised;
			size_t ucx;

			at = log_line_origin(line, len, scan->ranks ? &origin : NULL);
			if (scan->ranks)
				log_ranks_line(scan->ranks, &origin, scan->lines);
			recognised = match_line(scan, line + at, len - at, &problem);
			/* NCCL's WARN, UCX's ERROR that no row reads: still a problem, named from the catalogue */
			if (!problem && at >= 10 && memcmp(line + at - 10, "NCCL WARN ", 10) == 0) {
				add_unlisted(scan, log_unlisted_nccl_warn, line + at, len - at);
				recognised = true;
			} else if (!problem && (ucx = log_ucx_failure_message(line + at, len - at)) != 0) {
				add_unlisted(scan, log_unlisted_ucx_error, line + at + ucx, len - at - ucx);
				recognised = true;
			}
			if (recognised)
				scan->recognised++;
		}
	}
	scan->len = 0;
	scan->pending = false;
	scan->overflow = false;
}

void log_scan_feed(struct log_scan *scan, const char *buf, size_t len)
{
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t take = nl ? (size_t)(nl - buf) : len, room = LOG_LINE_MAX - scan->len;

		if (take > room)
			scan->overflow = true;
		memcpy(scan->line + scan->len, buf, take < room ? take : room);
		scan->len += take < room ? take : room;
		scan->pending = true;
		if (!nl)
			return;
		end_line(scan);
		buf = nl + 1;
		len -= take + 1;
	}
}

void log_scan_end_file(struct log_scan *scan)
{
	if (scan->pending)
		end_line(scan);
	paste_scan_end_file(scan->pastes);
	if (scan->suspect) {
		scan->suspect = false;
		count_problem(scan, scan->suspect_hit.pattern, &scan->suspect_hit, scan->suspect_line, NULL, 0, NULL);
	}
}

void log_scan_finish(struct log_scan *scan)
{
	log_scan_end_file(scan);
	log_causes_derive(scan);
	if (scan->ranks)
		log_ranks_finish(scan->ranks, scan);
}

int log_scan_buffer(struct log_scan *scan, const char *buf, size_t len)
{
	int rc = log_scan_init(scan);

	if (rc < 0)
		return rc;
	log_scan_feed(scan, buf, len);
	log_scan_finish(scan);
	return 0;
}

enum severity log_scan_worst(const struct log_scan *scan)
{
	enum severity worst = SEVERITY_OK;

	for (size_t i = 0; i < scan->hit_count; i++)
		if (scan->hits[i].pattern->severity > worst)
			worst = scan->hits[i].pattern->severity;
	return worst;
}
