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
	"guessed at. FILE - or none: standard input.\vExit status: 0 when nothing is worse than info, 1 when the "
	"worst is warn, 2 when the worst is fail (with --with-check, of the log and this host's check together), 3 "
	"when the log cannot be read, 64 for usage errors.",
	NULL, NULL, NULL,
};

static int exit_code_of(enum severity worst)
{
	return worst == SEVERITY_FAIL ? 2 : worst == SEVERITY_WARN ? 1 : 0;
}

/* Streams the log through the scanner: memory stays that of one chunk and one line. 0 or -errno. */
static int read_log(FILE *in, struct log_scan *scan)
{
	static char chunk[64 * 1024];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		log_scan_feed(scan, chunk, n);
	if (ferror(in))
		return errno ? -errno : -EIO;
	log_scan_finish(scan);
	return 0;
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
	FILE *in = stdin;
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
		in = fopen(args.input, "r");
		if (!in) {
			fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", args.input, strerror(errno));
			return EXIT_CANNOT_RUN;
		}
		name = args.input;
	} else
		name = "(stdin)";
	/* The name goes into the JSON document: a file name that is not UTF-8 is shown with '?' there. */
	log_text_clean(name_clean, sizeof(name_clean), name, strlen(name));
	rc = log_scan_init(&scan);
	if (rc == 0)
		rc = read_log(in, &scan);
	if (in != stdin)
		fclose(in);
	if (rc < 0) {
		fprintf(stderr, "roce-doctor: explain: cannot read %s: %s\n", name, strerror(-rc));
		log_scan_free(&scan);
		return EXIT_CANNOT_RUN;
	}
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
	doc = explain_report_doc(&scan, name_clean, args.with_check ? &host : NULL);
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
