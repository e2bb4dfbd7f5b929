// SPDX-License-Identifier: GPL-2.0-only
/* For tests: which rows of explain's pattern table each line of stdin meets, with explain's own rules (the
 * prefixes stripped by log_line_message, the needle, the regex, one problem row per line: the first).
 * Prints "LINE ROW ID" per row met, so a test can tell which wordings a row reads and which row no wording
 * reaches (explain's findings keep only a few lines per id, and facts no row).
 *   log_rows < SAMPLES
 *   log_rows --ids          every row's id and needle, tab separated, one row a line, in the table's order */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_line.h"
#include "core/log/log_scan.h"

int main(int argc, char **argv)
{
	struct log_scan scan;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	unsigned long n = 0;

	if (argc == 2 && strcmp(argv[1], "--ids") == 0) {
		for (size_t i = 0; i < log_pattern_count; i++)
			printf("%s\t%s\n", log_patterns[i].id, log_patterns[i].needle);
		return fflush(stdout) == 0 ? 0 : 3;
	}
	if (log_scan_init(&scan) != 0) {
		fprintf(stderr, "log_rows: the pattern table does not compile\n");
		return 3;
	}
	while ((len = getline(&line, &size, stdin)) >= 0) {
		size_t at;
		bool problem = false;

		n++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		at = log_line_message(line, (size_t)len);
		for (size_t i = 0; i < log_pattern_count; i++) {
			const struct log_pattern *p = &log_patterns[i];
			bool is_problem = p->severity > SEVERITY_INFO;

			if ((is_problem && problem) || !strstr(line + at, p->needle) ||
			    (scan.has_regex[i] && regexec(&scan.compiled[i], line + at, 0, NULL, 0) != 0))
				continue;
			printf("%lu %zu %s\n", n, i, p->id);
			problem = problem || is_problem;
		}
	}
	free(line);
	log_scan_free(&scan);
	return fflush(stdout) == 0 ? 0 : 3;
}
