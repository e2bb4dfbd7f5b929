// SPDX-License-Identifier: GPL-2.0-only
/* For tests: renders a recorded bw/v1 or lat/v1 document (a real run's --json output) as junit or prometheus
 * through the renderers bw and lat use, since this machine has no RDMA device to run them.
 *   render_doc junit|prometheus FILE */
#include <stdio.h>
#include <string.h>

#include "output/perf_machine.h"

int main(int argc, char **argv)
{
	const struct run_meta meta = { "0.1.0-test", 1.5, "2026-11-25T00:00:00", "node-a" };
	json_error_t error;
	json_t *doc;

	if (argc != 3 || (strcmp(argv[1], "junit") && strcmp(argv[1], "prometheus"))) {
		fprintf(stderr, "usage: render_doc junit|prometheus FILE\n");
		return 64;
	}
	doc = json_load_file(argv[2], 0, &error);
	if (!doc) {
		fprintf(stderr, "render_doc: %s: %s\n", argv[2], error.text);
		return 3;
	}
	if (strcmp(argv[1], "junit") == 0)
		perf_junit_print(stdout, doc, &meta);
	else
		perf_prometheus_print(stdout, doc, &meta);
	json_decref(doc);
	return fflush(stdout) == 0 ? 0 : 3;
}
