// SPDX-License-Identifier: GPL-2.0-only
/* explain's fast paths give the answers of the slow ones: the one-pass needle filter says what memmem says
 * for every row on every line of tests/logs and on crafted edges, and the match memo changes no fact, no
 * finding and no count of any log of tests/logs (each read with the memo and without it, and twice in a row,
 * so that the second reading is answered from the memo); nor do the kept answers of the walk over a job's
 * ranks change which rank a line is put to.
 *   log_match_test LOGS_DIR */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_needles.h"
#include "core/log/log_ranks.h"
#include "core/log/log_scan.h"
#include "tap.h"

#define LOGS_MAX 256
#define LOG_BYTES (4 << 20)

static const char *logs_dir;
static char *paths[LOGS_MAX];
static size_t path_count;

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every LOGS_DIR/SUB/NAME.log, in name order. */
static void list_logs(void)
{
	DIR *top = opendir(logs_dir);
	struct dirent *d;

	CHECK(top != NULL);
	while (top && (d = readdir(top)) && path_count < LOGS_MAX) {
		char sub[4096];
		DIR *dir;
		struct dirent *e;

		if (d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", logs_dir, d->d_name);
		dir = opendir(sub);
		while (dir && (e = readdir(dir)) && path_count < LOGS_MAX) {
			size_t n = strlen(e->d_name);

			if (n > 4 && strcmp(e->d_name + n - 4, ".log") == 0 &&
			    asprintf(&paths[path_count], "%s/%s", sub, e->d_name) > 0)
				path_count++;
		}
		if (dir)
			closedir(dir);
	}
	if (top)
		closedir(top);
	qsort(paths, path_count, sizeof(paths[0]), by_name);
	CHECK(path_count >= 20);
}

/* The file's bytes (at most LOG_BYTES), NUL-terminated; *len their count. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(LOG_BYTES + 1);

	*len = 0;
	if (f && buf)
		*len = fread(buf, 1, LOG_BYTES, f);
	if (f)
		fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

/* For each row, whether the filter's answer on text[0..len) is memmem's; the number of rows that differ. */
static size_t differences(struct log_needles *n, const struct log_pattern *rows, size_t count, const char *text,
			  size_t len)
{
	size_t bad = 0;

	log_needles_find(n, text, len);
	for (size_t i = 0; i < count; i++) {
		bool want = memmem(text, len, rows[i].needle, strlen(rows[i].needle)) != NULL;

		if (log_needles_row_found(n, i) != want) {
			printf("# row %zu needle '%s': %s in '%.*s'\n", i, rows[i].needle, want ? "missed" : "invented",
			       (int)(len < 120 ? len : 120), text);
			bad++;
		}
	}
	return bad;
}

static void log_needles_answer_as_memmem_on_every_line(void)
{
	struct log_needles n;
	size_t lines = 0, bad = 0;

	CHECK(log_needles_init(&n, log_patterns, log_pattern_count) == 0);
	for (size_t p = 0; p < path_count; p++) {
		size_t len;
		char *buf = slurp(paths[p], &len);

		for (char *line = buf, *end; buf && line < buf + len; line = end + 1) {
			end = memchr(line, '\n', (size_t)(buf + len - line));
			if (!end)
				end = buf + len;
			/* the whole line, and each suffix that starts inside a needle's first bytes */
			for (size_t skip = 0; skip < 4 && skip <= (size_t)(end - line); skip++)
				bad += differences(&n, log_patterns, log_pattern_count, line + skip,
						   (size_t)(end - line) - skip);
			lines++;
		}
		free(buf);
	}
	log_needles_free(&n);
	CHECK(lines > 1000 && bad == 0);
}

static void log_needles_answer_as_memmem_on_edges(void)
{
	/* needles under four bytes, an empty one, shared first bytes, one that is another's prefix */
	static const struct log_pattern rows[] = {
		{ .needle = "ab" }, { .needle = "" }, { .needle = "abcd" }, { .needle = "abcde" },
		{ .needle = "abcx" }, { .needle = "bcde" }, { .needle = "ab" }, { .needle = "NET/IB" },
		{ .needle = "x" },
	};
	static const char *const texts[] = {
		"", "a", "ab", "abc", "abcd", "abcde", "xabcdex", "zzzabcd", "abcabcx", "NET/I", "NET/IB", "bcd",
		"abcdabcde", "\377\376abcd", "NET/IBNET/IB",
	};
	const size_t count = sizeof(rows) / sizeof(rows[0]);
	struct log_needles n;
	size_t bad = 0;
	char random_text[64];

	CHECK(log_needles_init(&n, rows, count) == 0);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		bad += differences(&n, rows, count, texts[i], strlen(texts[i]));
	srand(30);
	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(rand() % (int)sizeof(random_text));

		for (size_t i = 0; i < len; i++)
			random_text[i] = "abcdex"[rand() % 6];
		bad += differences(&n, rows, count, random_text, len);
	}
	log_needles_free(&n);
	CHECK(bad == 0);
}

/* Whether two scans of one log kept the same facts, findings and counts. */
static bool same_scan(const struct log_scan *a, const struct log_scan *b)
{
	if (a->lines != b->lines || a->blank != b->blank || a->recognised != b->recognised ||
	    a->truncated != b->truncated || a->binary != b->binary || a->fact_count != b->fact_count ||
	    a->facts_dropped != b->facts_dropped || a->hit_count != b->hit_count)
		return false;
	for (size_t i = 0; i < a->fact_count; i++)
		if (strcmp(a->facts[i].name, b->facts[i].name) != 0 ||
		    strcmp(a->facts[i].value, b->facts[i].value) != 0 || a->facts[i].line != b->facts[i].line ||
		    a->facts[i].count != b->facts[i].count)
			return false;
	for (size_t i = 0; i < a->hit_count; i++) {
		const struct log_hit *x = &a->hits[i], *y = &b->hits[i];

		if (x->pattern != y->pattern || x->count != y->count || x->line_count != y->line_count ||
		    memcmp(x->lines, y->lines, sizeof(x->lines)) != 0 || strcmp(x->quote, y->quote) != 0 ||
		    strcmp(x->message, y->message) != 0 || strcmp(x->fix, y->fix) != 0)
			return false;
	}
	return true;
}

/* The log read twice into one scan, with a memo of slots slots (0: none, every line is matched again). */
static void scan_twice(struct log_scan *scan, const char *buf, size_t len, size_t slots)
{
	CHECK(log_scan_init(scan) == 0);
	log_memo_free(&scan->memo);
	if (slots)
		CHECK(log_memo_init(&scan->memo, slots) == 0);
	log_scan_feed(scan, buf, len);
	log_scan_feed(scan, "\n", 1);
	log_scan_feed(scan, buf, len);
	log_scan_finish(scan);
}

static void log_memo_changes_nothing_on_any_log(void)
{
	size_t differ = 0;

	for (size_t p = 0; p < path_count; p++) {
		struct log_scan with, without, crowded;
		size_t len;
		char *buf = slurp(paths[p], &len);

		if (!buf)
			continue;
		scan_twice(&with, buf, len, LOG_MEMO_SLOTS);
		scan_twice(&without, buf, len, 0);
		/* three slots: texts evict each other and hash to one slot, which must never answer for another */
		scan_twice(&crowded, buf, len, 3);
		if (!same_scan(&with, &without) || !same_scan(&crowded, &without)) {
			printf("# %s: the memo changed the result\n", paths[p]);
			differ++;
		}
		log_scan_free(&with);
		log_scan_free(&without);
		log_scan_free(&crowded);
		free(buf);
	}
	CHECK(path_count > 0 && differ == 0);
}

/* Whether two jobs' ranks are the same: hosts, ranks, pids, files, lines, first failures. */
static bool same_ranks(const struct log_ranks *a, const struct log_ranks *b)
{
	if (a->count != b->count || a->cut_lines != b->cut_lines || a->first != b->first)
		return false;
	for (size_t i = 0; i < a->count; i++) {
		const struct log_rank *x = &a->items[i], *y = &b->items[i];

		if (strcmp(x->host, y->host) != 0 || x->rank != y->rank || x->pid != y->pid || x->file != y->file ||
		    x->lines != y->lines || x->failure != y->failure || x->failure_line != y->failure_line)
			return false;
	}
	return true;
}

/* One line of a job of 90 ranks whose labels name them in part and in changing ways, so that ranks merge and
 * walks' answers change: torchrun's, NCCL's alone, srun's, pdsh's host, both, none; the host not always the
 * rank's own. */
static void job_line(char *line, size_t size, int n)
{
	int r = rand() % 90, node = rand() % 3 ? r / 8 : rand() % 12, how = rand() % 7;

	if (how == 0)
		snprintf(line, size, "[rank%d]:node-%d:%d:%d [0] NCCL INFO NET/IB : No device found.\n", r, node,
			 1000 + r, 2000 + r);
	else if (how == 1)
		snprintf(line, size, "node-%d:%d:%d [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n", node,
			 1000 + r, 2000 + r);
	else if (how == 2)
		snprintf(line, size, "%d: Traceback (most recent call last):\n", r);
	else if (how == 3)
		snprintf(line, size, "[rank%d]: RuntimeError: NCCL error\n", r);
	else if (how == 4)
		snprintf(line, size, "node-%d: Couldn't connect to node-%d:18515\n", node, r);
	else if (how == 5)
		snprintf(line, size, "node-%d: node-%d:%d:%d [1] NCCL INFO NCCL version 2.%d.3\n", node, rand() % 12,
			 1000 + r, 2000 + r, 18 + rand() % 3);
	else
		snprintf(line, size, "    at frame %d\n", n);
}

/* Every log of tests/logs as one job's files, then ten files of job_line's; with the kept walks (walks) or
 * without. */
static void read_job(struct log_scan *scan, struct log_ranks *ranks, bool walks)
{
	char line[256];

	CHECK(log_scan_init(scan) == 0 && log_ranks_init(ranks) == 0);
	if (!walks) {
		free(ranks->walks);
		ranks->walks = NULL;
	}
	scan->ranks = ranks;
	for (size_t p = 0; p < path_count; p++) {
		size_t len;
		char *buf = slurp(paths[p], &len);

		log_ranks_file(ranks, paths[p], scan->lines);
		scan->line_base = scan->lines;
		if (buf)
			log_scan_feed(scan, buf, len);
		log_scan_end_file(scan);
		free(buf);
	}
	srand(30);
	for (int n = 0; n < 60000; n++) {
		if (n % 6000 == 0) {
			snprintf(line, sizeof(line), "job-%d.log", n / 6000);
			log_ranks_file(ranks, line, scan->lines);
			scan->line_base = scan->lines;
		}
		job_line(line, sizeof(line), n);
		log_scan_feed(scan, line, strlen(line));
	}
	log_scan_finish(scan);
}

static void log_ranks_kept_walks_change_nothing(void)
{
	struct log_ranks with, without;
	struct log_scan a, b;

	read_job(&a, &with, true);
	read_job(&b, &without, false);
	CHECK(with.count > 100 && same_ranks(&with, &without) && same_scan(&a, &b));
	log_ranks_free(&with);
	log_ranks_free(&without);
	log_scan_free(&a);
	log_scan_free(&b);
}

int main(int argc, char **argv)
{
	logs_dir = argc > 1 ? argv[1] : "tests/logs";
	list_logs();
	RUN(log_needles_answer_as_memmem_on_every_line);
	RUN(log_needles_answer_as_memmem_on_edges);
	RUN(log_memo_changes_nothing_on_any_log);
	RUN(log_ranks_kept_walks_change_nothing);
	for (size_t i = 0; i < path_count; i++)
		free(paths[i]);
	TAP_DONE();
}
