// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor explain: read a failing job's log (NCCL, perftest, PyTorch), say what it states and what went
 * wrong, with the check ids that look at the cause and the fix; --with-check joins check on this host. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/check_probe.h"
#include "cmd/commands.h"
#include "cmd/explain_progress.h"
#include "cmd/explain_report.h"
#include "core/checks.h"
#include "core/findings_locate.h"
#include "core/log/log_input.h"
#include "core/log/log_line.h"
#include "core/log/log_ranks.h"
#include "core/log/log_scan.h"
#include "core/log/paste_scan.h"
#include "core/system_input.h"
#include "output/explain_text.h"
#include "output/render.h"

enum { OPT_WITH_CHECK = 0x100, OPT_LIST };

struct explain_args {
	char **inputs;         /* files, directories, "-"; none: stdin */
	size_t input_count;
	bool with_check;
	bool list;
};

static const struct argp_option explain_options[] = {
	{ "with-check", OPT_WITH_CHECK, NULL, 0, "Also run check on this host (or --root DIR, --from FILE) and name, "
	  "under each problem, the findings of the check ids that look at its cause", 0 },
	{ "list", OPT_LIST, NULL, 0, "List every pattern: its id, severity, what it matches and its check ids", 0 },
	{ 0 }
};

static error_t parse_explain(int key, char *arg, struct argp_state *state)
{
	struct explain_args *a = state->input;

	switch (key) {
	case OPT_WITH_CHECK:
		a->with_check = true;
		return 0;
	case OPT_LIST:
		a->list = true;
		return 0;
	case ARGP_KEY_ARG:
		if (!a->inputs)
			a->inputs = calloc((size_t)state->argc, sizeof(*a->inputs));
		if (!a->inputs)
			return ENOMEM;
		a->inputs[a->input_count++] = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp explain_argp = {
	explain_options, parse_explain, "[FILE|DIR|-]...",
	"Explain a log, or a job's logs: NCCL (NCCL_DEBUG=INFO or WARN), perftest, PyTorch distributed, with or without torchrun, "
	"mpirun, srun or pdsh prefixes. Prints the facts it states (NCCL version, transports, HCAs, GID index, "
	"bootstrap interface, CUDA, GPUDirect), then each problem: its id (log.*), its lines, what it usually means, "
	"the check ids that look at the cause and the next command. Lines nothing recognises are counted, never "
	"guessed at. FILE - or none: standard input; gzip, xz and zstd logs are decompressed as they are read. "
	"Several FILEs, or a DIR (its files, and its subdirectories' as mpirun --output-filename writes them), are one "
	"job's per-rank logs; each line is put to its host and rank "
	"(NCCL's host:pid prefix, UCX's and Open MPI's [host:pid], torchrun's [rank3]: or [default3]:, mpirun's "
	"[1,3]<stderr>: and Open MPI's rank.3 directory, srun's 3: and "
	"pdsh's node-a: labels, else the file name's number), also in one interleaved output, and the text "
	"begins with the job's first failure: its host, rank, file, line and time, the peer and HCA its line "
	"names, and its cause; each problem lists the ranks that showed it. Outputs pasted in the input (mlnx_qos -i, "
	"dcb show as text or -j, ethtool -S, rdma statistic, cma_roce_tos, sysfs values) are read as that host's QoS "
	"settings and counters: check's qos.* rules judge them with the log's NCCL_IB_TC, and counters that moved "
	"get their meaning. On a terminal, an input over 100 MB "
	"shows its progress on stderr.\v"
	"Exit status: 0 when nothing is worse than info, 1 when the worst is warn, 2 when the worst is fail (with "
	"--with-check, of the log and this host's check together), 3 when the log cannot be read (corrupt or cut "
	"short too), is binary or is empty, 64 for usage errors.",
	NULL, NULL, NULL,
};

static int exit_code_of(enum severity worst)
{
	return worst == SEVERITY_FAIL ? 2 : worst == SEVERITY_WARN ? 1 : 0;
}

/* Streams the log, decompressed where it is compressed, through the scanner: memory stays that of one
 * chunk, the decoder's buffers and one line, whatever the size. 0, -errno, or -EBADMSG (in->why says why). */
static int read_log(FILE *file, const char *name, struct log_input *in)
{
	/* 256 KiB: 64 KiB reads cost four times the system time of these on a big file (2 GiB: 2 s against 0.5) */
	static char chunk[256 * 1024];
	struct explain_progress progress;
	size_t n;
	int rc = 0;

	explain_progress_start(&progress, file, name);
	while (rc == 0 && (n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
		explain_progress_add(&progress, n);
		rc = log_input_feed(in, chunk, n);
		if (rc == 0 && in->binary)   /* refused on its first 64 KiB of text: the rest need not be read */
			rc = 1;
	}
	explain_progress_end(&progress);
	if (rc)
		return rc < 0 ? rc : 0;
	if (ferror(file))
		return errno ? -errno : -EIO;
	return log_input_finish(in);
}

/* Input that is not a log to read: binary data, or nothing but blank lines (lines and blank: this file's).
 * One line on stderr, true. */
static bool refuse_input(const struct log_input *in, unsigned long lines, unsigned long blank, const char *name)
{
	const char *format = log_format_name(in->format);
	char as[64] = "";

	if (format)
		snprintf(as, sizeof(as), " (%s-compressed)", format);
	if (in->binary) {
		fprintf(stderr, "roce-doctor: explain: %s%s is not a text log: %zu of its first %zu bytes are NUL, "
			"control bytes or not UTF-8\n", name, as, in->sample_bad, in->sample_len);
		return true;
	}
	if (lines == blank) {
		fprintf(stderr, "roce-doctor: explain: %s%s is empty%s: no log to explain (the job may write it "
			"elsewhere: NCCL_DEBUG_FILE, torchrun --log-dir, the scheduler's output file)\n", name, as,
			in->decoded ? " but for blank lines" : "");
		return true;
	}
	return false;
}

/* One file of the job ("-": stdin) read through its own decoder into the job's scan. 0, or -1 after one
 * line on stderr. *compression: the format's name of every file read so far (NULL: plain text, or they
 * differ); *files: how many were read, this one included. job: one of several files or of a directory,
 * where an empty one is a rank that printed nothing (mpirun --output-filename writes both stdout and
 * stderr of every rank): skipped with a line on stderr, not counted. */
static int read_file(const char *path, bool job, struct log_scan *scan, const char **compression, size_t *files)
{
	unsigned long lines = scan->lines, blank = scan->blank;
	const char *name = "(stdin)";
	struct log_input input;
	char clean[160];
	FILE *file = stdin;
	int rc;

	if (strcmp(path, "-") != 0) {
		file = fopen(path, "r");
		if (!file) {
			fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", path, strerror(errno));
			return -1;
		}
		name = path;
	}
	/* The name goes into the JSON document: a file name that is not UTF-8 is shown with '?' there. */
	log_text_clean(clean, sizeof(clean), name, strlen(name));
	log_ranks_file(scan->ranks, clean, scan->lines);
	scan->line_base = scan->lines;
	rc = log_input_init(&input, scan);
	if (rc == 0)
		rc = read_log(file, name, &input);
	if (file != stdin)
		fclose(file);
	if (rc == -EBADMSG)
		fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", name, input.why);
	else if (rc < 0)
		fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", name, strerror(-rc));
	if (rc == 0 && job && !input.binary && scan->lines - lines == scan->blank - blank) {
		fprintf(stderr, "roce-doctor: explain: %s is empty: skipped, the job's other files are read\n", name);
		log_ranks_silent(scan->ranks);
		log_input_free(&input);
		return 0;
	}
	if (rc < 0 || refuse_input(&input, scan->lines - lines, scan->blank - blank, name)) {
		log_input_free(&input);
		return -1;
	}
	if (++*files == 1 || *compression != log_format_name(input.format))
		*compression = *files == 1 ? log_format_name(input.format) : NULL;
	log_input_free(&input);
	return 0;
}

#define READ_DEPTH 4   /* Open MPI's --output-filename DIR nests two: DIR/1/rank.0/stderr */

/* path, or each file of the directory path in name order (regular files, not hidden: a job's --output
 * directory), and of its subdirectories (not through links, at most READ_DEPTH down), into the scan. 0, or
 * -1 after one line on stderr. *files counts the files read. */
static int read_tree(const char *path, int depth, bool job, struct log_scan *scan, const char **compression,
		     size_t *files)
{
	struct dirent **list;
	struct stat st;
	int n, rc = 0;
	size_t read = *files;

	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return read_file(path, job, scan, compression, files);
	n = scandir(path, &list, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char file[4096];

		snprintf(file, sizeof(file), "%s/%s", path, list[i]->d_name);
		if (rc == 0 && list[i]->d_name[0] != '.' && stat(file, &st) == 0 && S_ISREG(st.st_mode))
			rc = read_file(file, true, scan, compression, files);
		else if (rc == 0 && list[i]->d_name[0] != '.' && depth < READ_DEPTH && lstat(file, &st) == 0 &&
			 S_ISDIR(st.st_mode))
			rc = read_tree(file, depth + 1, true, scan, compression, files);
		free(list[i]);
	}
	free(list);
	if (rc == 0 && read == *files && depth == 0) {
		fprintf(stderr, "roce-doctor: explain: %s has no file to explain\n", path);
		return -1;
	}
	return rc;
}

/* check's findings on this host (live, --root or --from), as check finds them with no selection. */
static int host_check(const struct app *app, struct findings *findings, struct notes *warnings)
{
	struct system_state *system = calloc(1, sizeof(*system));
	struct check_input in = { 0 };
	struct nccl_if_list hca;
	struct host host;
	bool known = true;
	int code;

	if (!system) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	if (app->from_file)
		code = app_read_snapshot(app, &host, system, &known);
	else
		code = check_probe_model(app, NULL, app->family ? app->family : AF_INET, findings, &host, system);
	if (code != EXIT_OK) {
		free(system);
		return code;
	}
	if (!known) {
		fprintf(stderr, "roce-doctor: snapshot %s was taken without the system sources check reads (an older "
			"roce-doctor): take it again with `roce-doctor snapshot > FILE`\n", app_from_name(app));
		host_free(&host);
		free(system);
		return EXIT_CANNOT_RUN;
	}
	in.host = &host;
	in.family = app->family ? app->family : AF_INET;
	system_to_check_input(system, &hca, &in);
	in.recorded = app->from_file != NULL;
	checks_run(&in, findings);
	findings_locate(findings, &host);
	for (size_t i = 0; i < host.warnings.count; i++)
		notes_add(warnings, "%s", host.warnings.items[i]);
	for (size_t i = 0; i < system->warnings.count; i++)
		notes_add(warnings, "%s", system->warnings.items[i]);
	system_free(system);
	free(system);
	host_free(&host);
	return EXIT_OK;
}

static int explain_list(const struct app *app)
{
	json_t *doc = explain_list_doc();
	int code;

	if (!doc) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	code = app_emit(app, doc, NULL, explain_list_print, EXIT_OK);
	json_decref(doc);
	return code;
}

/* The option combinations explain refuses: EXIT_USAGE after one line, else EXIT_OK. */
static int explain_usage(const struct app *app, const struct explain_args *args)
{
	size_t dashes = args->input_count ? 0 : 1;

	if (app_layout_needs_json(app, "explain", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	if (args->list)
		return EXIT_OK;
	if (!args->with_check && (app->root_dir || app->from_file || app->family)) {
		fprintf(stderr, "roce-doctor: explain: --root, --from and --family choose the host --with-check "
			"judges: give --with-check too\n");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < args->input_count; i++)
		dashes += strcmp(args->inputs[i], "-") == 0;
	if (dashes > 1) {
		fprintf(stderr, "roce-doctor: explain: standard input (-) can be given once\n");
		return EXIT_USAGE;
	}
	if (args->with_check && app->from_file && strcmp(app->from_file, "-") == 0 && dashes) {
		fprintf(stderr, "roce-doctor: explain: the log and --from cannot both be standard input\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_explain(struct app *app, int argc, char **argv)
{
	struct explain_args args = { 0 };
	struct findings host = { 0 }, pasted = { 0 };
	struct notes warnings = { 0 };
	struct log_ranks ranks;
	struct log_scan scan;
	char name_clean[1024];
	enum severity worst;
	const char *compression = NULL, *one = NULL;
	size_t files = 0;
	json_t *doc;
	int code, rc;

	if (command_parse(&explain_argp, COMMON_ROOT | COMMON_FROM | COMMON_FAMILY, argc, argv, &args, app) != 0) {
		free(args.inputs);
		return EXIT_USAGE;
	}
	code = explain_usage(app, &args);
	if (code != EXIT_OK || args.list) {
		free(args.inputs);
		return code != EXIT_OK ? code : explain_list(app);
	}
	rc = log_scan_init(&scan);
	if (rc == 0) {
		rc = log_ranks_init(&ranks);
		if (rc < 0)
			log_scan_free(&scan);
	}
	if (rc < 0) {
		fprintf(stderr, "roce-doctor: explain: %s\n", strerror(-rc));
		free(args.inputs);
		return EXIT_CANNOT_RUN;
	}
	scan.ranks = &ranks;
	for (size_t i = 0; rc == 0 && i < (args.input_count ? args.input_count : 1); i++)
		rc = read_tree(args.input_count ? args.inputs[i] : "-", 0, args.input_count > 1, &scan, &compression,
			       &files);
	if (rc == 0 && files == 0) {   /* several files, each of them empty */
		fprintf(stderr, "roce-doctor: explain: every file given is empty: no log to explain\n");
		rc = -1;
	}
	one = !args.input_count ? "(stdin)" : strcmp(args.inputs[0], "-") == 0 ? "(stdin)" : args.inputs[0];
	if (args.input_count > 1)
		snprintf(name_clean, sizeof(name_clean), "%zu files", files);
	else
		log_text_clean(name_clean, sizeof(name_clean), one, strlen(one));
	free(args.inputs);
	if (rc < 0) {
		log_ranks_free(&ranks);
		log_scan_free(&scan);
		return EXIT_CANNOT_RUN;
	}
	log_scan_finish(&scan);
	worst = log_scan_worst(&scan);
	/* the QoS settings pasted among the lines, judged by check's own lossless rules */
	if (paste_scan_judge(scan.pastes, &pasted) < 0) {
		fprintf(stderr, "roce-doctor: explain: %s\n", strerror(ENOMEM));
		log_ranks_free(&ranks);
		log_scan_free(&scan);
		return EXIT_CANNOT_RUN;
	}
	if (findings_worst(&pasted) > worst)
		worst = findings_worst(&pasted);
	if (args.with_check) {
		code = host_check(app, &host, &warnings);
		if (code != EXIT_OK) {
			log_ranks_free(&ranks);
			log_scan_free(&scan);
			notes_free(&warnings);
			findings_free(&pasted);
			return code;
		}
		if (findings_worst(&host) > worst)
			worst = findings_worst(&host);
	}
	doc = explain_report_doc(&scan, name_clean, compression, args.with_check ? &host : NULL, &pasted);
	if (!doc) {
		fprintf(stderr, "roce-doctor: cannot build the report: %s\n", strerror(ENOMEM));
		code = EXIT_CANNOT_RUN;
	} else {
		code = app_emit(app, doc, &warnings, explain_text_print, exit_code_of(worst));
		json_decref(doc);
	}
	findings_free(&host);
	findings_free(&pasted);
	notes_free(&warnings);
	log_ranks_free(&ranks);
	log_scan_free(&scan);
	return code;
}
