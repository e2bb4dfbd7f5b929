// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor explain: read a failing job's log (NCCL, perftest, PyTorch), say what it states and what went
 * wrong, with the check ids that look at the cause and the fix; --with-check joins check on this host. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/check_probe.h"
#include "cmd/commands.h"
#include "cmd/explain_report.h"
#include "core/checks.h"
#include "core/findings_locate.h"
#include "core/log/log_input.h"
#include "core/log/log_line.h"
#include "core/log/log_scan.h"
#include "core/system_input.h"
#include "output/explain_text.h"
#include "output/render.h"

enum { OPT_WITH_CHECK = 0x100, OPT_LIST };

struct explain_args {
	const char *input;     /* a file, "-" or NULL for stdin */
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
		if (a->input)
			argp_error(state, "one log at a time: unexpected argument '%s'", arg);
		a->input = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp explain_argp = {
	explain_options, parse_explain, "[FILE|-]",
	"Explain a log: NCCL (NCCL_DEBUG=INFO or WARN), perftest, PyTorch distributed, with or without torchrun, "
	"mpirun, srun or pdsh prefixes. Prints the facts it states (NCCL version, transports, HCAs, GID index, "
	"bootstrap interface, CUDA, GPUDirect), then each problem: its id (log.*), its lines, what it usually means, "
	"the check ids that look at the cause and the next command. Lines nothing recognises are counted, never "
	"guessed at. FILE - or none: standard input; gzip, xz and zstd logs are decompressed as they are read.\v"
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
static int read_log(FILE *file, struct log_input *in)
{
	static char chunk[64 * 1024];
	size_t n;
	int rc;

	while ((n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
		rc = log_input_feed(in, chunk, n);
		if (rc < 0)
			return rc;
		if (in->binary)   /* refused on its first 64 KiB: the rest need not be read */
			return 0;
	}
	if (ferror(file))
		return errno ? -errno : -EIO;
	return log_input_finish(in);
}

/* Input that is not a log to read: binary data, or nothing but blank lines. One line on stderr, true. */
static bool refuse_input(const struct log_input *in, const struct log_scan *scan, const char *name)
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
	if (scan->lines == scan->blank) {
		fprintf(stderr, "roce-doctor: explain: %s%s is empty%s: no log to explain (the job may write it "
			"elsewhere: NCCL_DEBUG_FILE, torchrun --log-dir, the scheduler's output file)\n", name, as,
			in->decoded ? " but for blank lines" : "");
		return true;
	}
	return false;
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

int cmd_explain(struct app *app, int argc, char **argv)
{
	struct explain_args args = { 0 };
	struct findings host = { 0 };
	struct notes warnings = { 0 };
	struct log_scan scan;
	char name_clean[1024];
	const char *name;
	enum severity worst;
	struct log_input input;
	const char *compression;
	FILE *file = stdin;
	json_t *doc;
	int code, rc;

	if (command_parse(&explain_argp, COMMON_ROOT | COMMON_FROM | COMMON_FAMILY, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "explain", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	if (args.list)
		return explain_list(app);
	if (!args.with_check && (app->root_dir || app->from_file || app->family)) {
		fprintf(stderr, "roce-doctor: explain: --root, --from and --family choose the host --with-check "
			"judges: give --with-check too\n");
		return EXIT_USAGE;
	}
	if (args.with_check && app->from_file && strcmp(app->from_file, "-") == 0 &&
	    (!args.input || strcmp(args.input, "-") == 0)) {
		fprintf(stderr, "roce-doctor: explain: the log and --from cannot both be standard input\n");
		return EXIT_USAGE;
	}
	if (args.input && strcmp(args.input, "-") != 0) {
		file = fopen(args.input, "r");
		if (!file) {
			fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", args.input, strerror(errno));
			return EXIT_CANNOT_RUN;
		}
		name = args.input;
	} else
		name = "(stdin)";
	/* The name goes into the JSON document: a file name that is not UTF-8 is shown with '?' there. */
	log_text_clean(name_clean, sizeof(name_clean), name, strlen(name));
	rc = log_scan_init(&scan);
	if (rc == 0) {
		rc = log_input_init(&input, &scan);
		if (rc < 0)
			log_scan_free(&scan);
	}
	if (rc < 0) {
		fprintf(stderr, "roce-doctor: explain: %s\n", strerror(-rc));
		if (file != stdin)
			fclose(file);
		return EXIT_CANNOT_RUN;
	}
	rc = read_log(file, &input);
	if (file != stdin)
		fclose(file);
	if (rc == -EBADMSG)
		fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", name, input.why);
	else if (rc < 0)
		fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", name, strerror(-rc));
	if (rc < 0 || refuse_input(&input, &scan, name)) {
		log_input_free(&input);
		log_scan_free(&scan);
		return EXIT_CANNOT_RUN;
	}
	compression = log_format_name(input.format);
	log_input_free(&input);
	worst = log_scan_worst(&scan);
	if (args.with_check) {
		code = host_check(app, &host, &warnings);
		if (code != EXIT_OK) {
			log_scan_free(&scan);
			notes_free(&warnings);
			return code;
		}
		if (findings_worst(&host) > worst)
			worst = findings_worst(&host);
	}
	doc = explain_report_doc(&scan, name_clean, compression, args.with_check ? &host : NULL);
	if (!doc) {
		fprintf(stderr, "roce-doctor: cannot build the report: %s\n", strerror(ENOMEM));
		code = EXIT_CANNOT_RUN;
	} else {
		code = app_emit(app, doc, &warnings, explain_text_print, exit_code_of(worst));
		json_decref(doc);
	}
	findings_free(&host);
	notes_free(&warnings);
	log_scan_free(&scan);
	return code;
}
