// SPDX-License-Identifier: GPL-2.0-only
/* mesh's answer as rank 0 prints it, from measured-looking results (this machine cannot measure): 8 nodes, two
 * rails, node 5's rail 1 at half rate and one rank that never came. The mesh/v1 document's verdict, counts,
 * suspects and matrix; the text's verdict, odd links with the commands that show them again, the suspect with
 * its device, the missing node, the matrix's marks; the SVG's marks. Given roce-doctor's path, every command the
 * text suggests goes through that command's own option parser (with --help, so nothing runs).
 *   mesh_report_test [ROCE_DOCTOR] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#include "cmd/mesh_doc.h"
#include "output/mesh_report.h"
#include "tap.h"

#define NODES 8

static struct mesh_register regs[NODES];
static struct mesh_node_view views[NODES];
static struct mesh_result res[2 * NODES * NODES];
static size_t count;
static char addrs[NODES][2][64];

static void setup(void)
{
	count = 0;
	for (unsigned n = 0; n < NODES; n++) {
		struct mesh_register *r = &regs[n];

		memset(r, 0, sizeof(*r));
		snprintf(r->host, sizeof(r->host), "gpu%02u", n);
		r->rail_count = 2;
		for (unsigned k = 0; k < 2; k++) {
			snprintf(r->rails[k].device, sizeof(r->rails[k].device), "mlx5_%u", k);
			r->rails[k].port = 1;
			snprintf(r->rails[k].address, sizeof(r->rails[k].address), "10.%u.0.%u", k + 1, n + 1);
			r->rails[k].link_gbps = 100;
			snprintf(addrs[n][k], sizeof(addrs[n][k]), "%s", r->rails[k].address);
		}
		views[n] = (struct mesh_node_view){ "ok", r, "192.168.0.1", "" };
	}
	/* rank 7 never came: its pairs were not run */
	memset(&regs[7], 0, sizeof(regs[7]));
	views[7] = (struct mesh_node_view){ "missing", &regs[7], "", "never registered within 60 s (--register-timeout)" };
	for (int k = 0; k < 2; k++)
		for (unsigned a = 0; a < NODES; a++)
			for (unsigned b = a + 1; b < NODES; b++) {
				struct mesh_result *r = &res[count++];

				*r = (struct mesh_result){ .a = a, .b = b, .rail = k, .state = MESH_RESULT_MEASURED,
							   .gbps = 92.0 + (double)((a + b) % 4) * 0.5, .link_gbps = 100,
							   .attempts = 1, .round = 1 };
				if (k == 1 && (a == 5 || b == 5))
					r->gbps = 46.5;
				if (b == 7) {
					r->state = MESH_RESULT_NOT_RUN;
					r->round = 0;
					snprintf(r->why, sizeof(r->why), "rank 7 never registered");
				}
			}
}

static char *text_of(const json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	mesh_print_run(f, doc);
	fclose(f);
	return buf;
}

static json_t *doc_of(void)
{
	return mesh_run_doc(&(struct mesh_run_input){ .kind = MESH_PLAN_ALL_PAIRS, .seconds = 2, .bytes = 65536,
						      .rounds = 7, .rounds_run = 7, .elapsed = 140, .launcher = "slurm" },
			    res, count, views, NODES, 2);
}

static void document_judges(void)
{
	json_t *doc;

	setup();
	doc = doc_of();
	CHECK(doc != NULL);
	CHECK_STR(json_string_value(json_object_get(doc, "verdict")), "failed");   /* a node missing */
	CHECK(json_integer_value(json_object_get(json_object_get(doc, "counts"), "slow")) == 6);
	CHECK(json_integer_value(json_object_get(json_object_get(doc, "counts"), "not_run")) == 14);
	CHECK(json_array_size(json_object_get(doc, "suspects")) == 1);
	CHECK(json_integer_value(json_object_get(json_array_get(json_object_get(doc, "suspects"), 0), "rank")) == 5);
	CHECK(json_integer_value(json_object_get(json_array_get(json_object_get(doc, "suspects"), 0), "rail")) == 1);
	CHECK(json_array_size(json_object_get(json_array_get(json_object_get(doc, "matrix"), 1), "cells")) == NODES);
	json_decref(doc);
}

static void text_names_links_node_and_commands(void)
{
	json_t *doc;
	char *t;

	setup();
	doc = doc_of();
	t = text_of(doc);
	CHECK(t && strstr(t, "mesh: all-pairs over 8 nodes (slurm), 2 rails: 7 of 7 rounds in 2 min, 2 s of bw with "
			    "64K-byte messages per test\n"));
	CHECK(t && strstr(t, "verdict: FAILED: 42 of 56 tests measured, 6 odd, 0 failed, 14 not measured, 1 node missing\n"));
	CHECK(t && strstr(t, "  rank 7 never registered within 60 s (--register-timeout)\n"));
	CHECK(t && strstr(t, "  rank 0 (gpu00) -> rank 5 (gpu05), rail 1 (mlx5_1/1): 46.5 Gb/s, below 83.2 Gb/s; to see it "
			    "again, on rank 0 (gpu00): roce-doctor counters mlx5_1/1, roce-doctor bw -d mlx5_1/1 -D 10 "
			    "10.2.0.6 (roce-doctor serve on rank 5 (gpu05))\n"));
	CHECK(t && strstr(t, "  rank 5 (gpu05), rail 1 (mlx5_1/1): 6 of 6 pairs bad; on it: roce-doctor check, "
			    "roce-doctor counters mlx5_1/1\n"));
	CHECK(t && strstr(t, "not measured:\n  rank 0 (gpu00) -> rank 7, rail 0 (mlx5_0/1): rank 7 never registered\n"));
	CHECK(t && strstr(t, "rail 1, Gb/s (* odd, x failed, - not measured, . none planned):\n"));
	CHECK(t && strstr(t, "\n    5   46.5*   46.5*   46.5*   46.5*   46.5*       .   46.5*       -\n"));
	free(t);
	json_decref(doc);
}

/* Soft-RoCE or a crippled fabric: rates under 1 Gb/s keep their digits, never all "0.0" */
static void slow_rates_keep_their_digits(void)
{
	json_t *doc;
	char *t;

	setup();
	for (size_t i = 0; i < count; i++)
		res[i].gbps /= 2000;      /* 46 Mb/s and 23 Mb/s: what rxe gives under TCG */
	doc = doc_of();
	t = text_of(doc);
	CHECK(t && strstr(t, ": 0.0232 Gb/s, below 0.0416 Gb/s; to see it again"));
	CHECK(t && strstr(t, "\n    5 0.0232* 0.0232* 0.0232* 0.0232* 0.0232*       . 0.0232*       -\n"));
	CHECK(t && !strstr(t, " 0.0 Gb/s"));
	free(t);
	json_decref(doc);
}

static void svg_marks_odd_and_unmeasured_cells(void)
{
	char path[] = "/tmp/mesh_report_test_XXXXXX", why[300], *svg;
	int fd = mkstemp(path);
	json_t *doc;
	FILE *f;
	long n;

	setup();
	doc = doc_of();
	CHECK(fd >= 0 && mesh_plot_write(path, doc, why, sizeof(why)) == 0);
	f = fopen(path, "r");
	svg = calloc(1, 1 << 20);
	n = f && svg ? (long)fread(svg, 1, (1 << 20) - 1, f) : 0;
	CHECK(n > 0 && strstr(svg, "<svg") && strstr(svg, "</svg>"));
	CHECK(svg && strstr(svg, "<title>0-5 rail 1: 46.5 Gb/s (odd)</title>"));
	CHECK(svg && strstr(svg, "<title>0-7 rail 0: not_run</title>"));
	CHECK(svg && strstr(svg, ">!</text>"));
	if (f)
		fclose(f);
	free(svg);
	close(fd);
	unlink(path);
	CHECK(mesh_plot_write("/nonexistent-dir/x.svg", doc, why, sizeof(why)) == -1 &&
	      strstr(why, "cannot write --plot /nonexistent-dir/x.svg: No such file or directory"));
	json_decref(doc);
}

static const char *binary;

/* The command line a hint starts at ("roce-doctor " then words up to a ',', '(', ')', line end or the word
 * "on", as in "roce-doctor serve on rank 5") into cmd: "counters mlx5_1". */
static void hint_at(const char *p, char *cmd, size_t size)
{
	size_t len = strcspn(p, ",()\n");
	const char *on = strstr(p, " on ");

	if (on && (size_t)(on - p) < len)
		len = (size_t)(on - p);
	snprintf(cmd, size, "%.*s", (int)len, p);
}

/* Each "roce-doctor CMD ARGS" of the text run as "roce-doctor CMD ARGS --help": exit 0 only when every option
 * of the hint is one CMD takes (argp stops at --help, so nothing is probed or measured). */
static void suggested_commands_parse(void)
{
	json_t *doc;
	char *t, cmd[300], line[700];
	unsigned hints = 0;

	if (!binary) {
		printf("# no roce-doctor path given: the hints are not run\n");
		return;
	}
	setup();
	doc = doc_of();
	t = text_of(doc);
	for (const char *p = t ? strstr(t, "roce-doctor ") : NULL; p; p = strstr(p + 1, "roce-doctor ")) {
		int status;

		hint_at(p + strlen("roce-doctor "), cmd, sizeof(cmd));
		snprintf(line, sizeof(line), "'%s' %s --help > /dev/null 2>&1", binary, cmd);
		status = system(line);
		hints++;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			printf("# the hint 'roce-doctor %s' does not parse: exit %d\n", cmd,
			       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	CHECK(hints >= 5);
	free(t);
	json_decref(doc);
}

int main(int argc, char **argv)
{
	binary = argc > 1 ? argv[1] : NULL;
	RUN(document_judges);
	RUN(text_names_links_node_and_commands);
	RUN(slow_rates_keep_their_digits);
	RUN(svg_marks_odd_and_unmeasured_cells);
	RUN(suggested_commands_parse);
	TAP_DONE();
}
