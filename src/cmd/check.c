// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor check: the preflight verdict before training, every finding with its exact fix. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/check_list.h"
#include "cmd/check_peer.h"
#include "cmd/check_probe.h"
#include "cmd/commands.h"
#include "cmd/peer_source.h"
#include "cmd/check_report.h"
#include "cmd/report_format.h"
#include "core/check_catalog.h"
#include "core/checks.h"
#include "core/findings_locate.h"
#include "core/findings_edits.h"
#include "core/findings_merge.h"
#include "core/port_table.h"
#include "core/system_input.h"
#include "output/check_machine.h"
#include "output/check_text.h"
#include "output/render.h"

#define IDS_MAX 64   /* --only prefixes and --skip ids, each */
enum { OPT_ONLY = 0x100, OPT_SKIP, OPT_USER, OPT_LIST, OPT_COLOR, OPT_PEER, OPT_MASTER_PORT, OPT_NO_BW,
       OPT_PEER_FIXTURE, OPT_FORMAT };

struct check_args {
	const char *only[IDS_MAX + 1];
	size_t only_count;
	const char *skip[IDS_MAX + 1];
	size_t skip_count;
	bool list;
	const char *user;
	enum colour_when colour;
	struct check_peer_args peer;      /* --peer and its options */
	bool peer_options;                /* one of --master-port, --no-bw, --peer-fixture was given */
	enum report_format format;        /* --format; text until given */
	bool format_given;
};

static const struct argp_option check_options[] = {
	{ "only", OPT_ONLY, "PREFIX[,...]", 0, "Run only the checks whose id starts with a PREFIX: an area (memlock, "
	  "port) or an id (port.state); repeatable, comma lists", 0 },
	{ "skip", OPT_SKIP, "PREFIX[,...]", 0, "Leave out the checks whose id starts with a PREFIX, as --only reads "
	  "it: an area (memlock) or an id (port.state); repeatable, comma lists", 0 },
	{ "list", OPT_LIST, NULL, 0, "List every check id with its area and what it looks at, and run nothing", 0 },
	{ "user", OPT_USER, "NAME", 0, "Judge pam limits and ~/.nccl.conf for NAME (default: who runs check; root "
	  "under --root; with --from only the user the snapshot recorded)", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default), json (as --json), junit (one testcase per finding, for "
	  "CI) or prometheus (node_exporter's textfile collector; with --output FILE.prom)", 0 },
	{ "color", OPT_COLOR, "WHEN", 0, "Colour the text: auto (default) on a terminal unless NO_COLOR is "
	  "set or TERM=dumb; always (also wraps to $COLUMNS, as on a terminal); never", 0 },
	{ "peer", OPT_PEER, "ADDR", 0, "Judge this node and the peer at ADDR[:PORT] (running roce-doctor serve, "
	  "port 18516 unless named) together: "
	  "both nodes' findings, compare of the two, the rails between them, RDMA and NCCL's bootstrap by traffic, a "
	  "short bw per rail (roce-doctor/pair/v1)", 1 },
	{ "master-port", OPT_MASTER_PORT, "N", 0, "With --peer: torchrun's MASTER_PORT to test on the peer (default "
	  "29500)", 1 },
	{ "no-bw", OPT_NO_BW, NULL, 0, "With --peer: skip the short bw run per rail", 1 },
	{ "peer-fixture", OPT_PEER_FIXTURE, "DIR", 0, "With --peer, for tests: the peer's snapshot and the probes' "
	  "results from DIR/snapshot.json and DIR/probes.json instead of a serve", 1 },
	{ 0 }
};

/* Splits a comma list in place (argv is ours to cut) and checks every item against the catalog: a selection
 * that matches nothing would run nothing and print "verdict: ok", so it is a usage error naming the ids.
 * --only and --skip read an item alike (an area or an id, check_id_selected), so one parser serves both. */
static void add_ids(const struct argp_state *state, const char *option, char *arg, const char **ids, size_t *count)
{
	char known[1024];

	check_catalog_ids(known, sizeof(known));
	for (char *item = arg, *next; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (!*item)
			argp_error(state, "empty id in %s '%s' (known ids: %s)", option, arg, known);
		else if (check_catalog_prefix_matches(item) == 0)
			argp_error(state, "%s '%s' matches no check id (known ids: %s)", option, item, known);
		else if (*count >= IDS_MAX)
			argp_error(state, "too many %s ids (at most %d)", option, IDS_MAX);
		else
			ids[(*count)++] = item;
	}
}

static error_t parse_check(int key, char *arg, struct argp_state *state)
{
	struct check_args *a = state->input;

	switch (key) {
	case OPT_ONLY:
		add_ids(state, "--only", arg, a->only, &a->only_count);
		return 0;
	case OPT_SKIP:
		add_ids(state, "--skip", arg, a->skip, &a->skip_count);
		return 0;
	case OPT_LIST:
		a->list = true;
		return 0;
	case OPT_USER:
		a->user = arg;
		return 0;
	case OPT_PEER: {
		char host[256], why[256];
		unsigned port;

		if (peer_split(arg, host, sizeof(host), &port, why, sizeof(why)) < 0)
			argp_error(state, "%s", why);
		a->peer.peer = arg;
		return 0;
	}
	case OPT_MASTER_PORT:
		a->peer.master_port = (unsigned)parse_count(state, "--master-port", arg, 1, 65535);
		a->peer_options = true;
		return 0;
	case OPT_NO_BW:
		a->peer.no_bw = true;
		a->peer_options = true;
		return 0;
	case OPT_PEER_FIXTURE:
		a->peer.fixture = arg;
		a->peer_options = true;
		return 0;
	case ARGP_KEY_END:
		if (a->peer_options && !a->peer.peer)
			argp_error(state, "--master-port, --no-bw and --peer-fixture need --peer ADDR");
		if (a->peer.peer && a->user)
			argp_error(state, "--user cannot be used with --peer: each node's snapshot records its own "
				   "default user's view");
		return 0;
	case OPT_FORMAT:
		if (report_format_parse(arg, &a->format) < 0)
			argp_error(state, "bad --format '%s': expected text, json, junit or prometheus", arg);
		a->format_given = true;
		return 0;
	case OPT_COLOR:
		if (colour_when_parse(arg, &a->colour) < 0)
			argp_error(state, "bad --color '%s': expected auto, always or never", arg);
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp check_argp = {
	check_options, parse_check, NULL,
	"Check this host before a training job: RDMA devices, ports, netdevs, GIDs, memlock, firewall, NCCL "
	"settings. Prints the verdict, a table of the ports (a cell a finding is about ends in !), then the findings "
	"that are not ok, grouped by area, each with an id, a severity (info, warn, fail), a subject, a message and "
	"the exact fix; -v also prints the ok ones. A DOWN netdev is one finding, not one per symptom.\vExit status: "
	"0 when nothing is worse than info, 1 when the worst is warn, 2 when the worst is fail, 3 when the check "
	"could not run, 64 for usage errors. On a terminal, prose wraps to its width (fix lines never do).",
	NULL, NULL, NULL,
};

/* app_emit()'s text callback takes no context: the style for this run, resolved once in cmd_check(). */
static struct text_style check_style;

static void print_check(FILE *out, const json_t *doc)
{
	check_text_print(out, doc, &check_style);
}

/* The same for the machine formats: what the run was besides its document. */
static struct run_meta check_meta;

static void print_junit(FILE *out, const json_t *doc)
{
	check_junit_print(out, doc, &check_meta);
}

static void print_prometheus(FILE *out, const json_t *doc)
{
	check_prometheus_print(out, doc, &check_meta);
}

static int exit_code_of(enum severity worst)
{
	return worst == SEVERITY_FAIL ? 2 : worst == SEVERITY_WARN ? 1 : 0;
}

/* The one place check's model comes from: probed (live or --root), or the snapshot --from names. Either way
 * it is a host and a system model, so the rules get the same input. */
static int get_model(const struct app *app, const struct check_args *args, const struct findings *wanted,
		     struct host *host, struct system_state *system)
{
	bool known = false;
	int code;

	if (!app->from_file)
		return check_probe_model(app, args->user, app->family ? app->family : AF_INET, wanted, host, system);
	code = app_read_snapshot(app, host, system, &known);
	if (code != EXIT_OK)
		return code;
	if (!known)
		fprintf(stderr, "roce-doctor: snapshot %s was taken without the system sources check reads (an older "
			"roce-doctor): take it again with `roce-doctor snapshot > FILE`\n", app_from_name(app));
	else if (args->user && strcmp(args->user, system->user.name) != 0)
		fprintf(stderr, "roce-doctor: --user %s cannot be used with --from: the snapshot recorded the user %s's "
			"view (take a snapshot with the user's limits: sudo -u %s roce-doctor snapshot > FILE)\n",
			args->user, system->user.name, args->user);
	else {
		check_probe_keep_warnings(&system->warnings, wanted);
		return EXIT_OK;
	}
	code = known ? EXIT_USAGE : EXIT_CANNOT_RUN;
	if (known)
		system_free(system);
	host_free(host);
	return code;
}

int cmd_check(struct app *app, int argc, char **argv)
{
	struct check_args args = { 0 };
	struct findings findings = { 0 };
	struct check_input in = { 0 };
	struct port_row *rows = NULL;
	size_t row_count = 0;
	struct system_state *system;
	struct nccl_if_list hca;
	struct host host;
	struct timespec started;
	json_t *doc;
	int code;

	report_clock_start(&started);
	if (command_parse(&check_argp, COMMON_ROOT | COMMON_FROM | COMMON_FAMILY | COMMON_PEER_TIMEOUT | COMMON_SECRET, argc,
			  argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_resolve_format(app, "check", args.format_given, &args.format) != EXIT_OK)
		return EXIT_USAGE;
	if (args.format > REPORT_JSON && (args.list || args.peer.peer)) {
		fprintf(stderr, "roce-doctor check: --format %s cannot be used with %s: it renders one node's findings "
			"(use --json)\n", report_format_name(args.format), args.list ? "--list" : "--peer");
		return EXIT_USAGE;
	}
	findings.only = args.only;
	findings.skip = args.skip;
	if (args.list)
		return check_list_emit(app, &findings);
	if (app->timeout_s && !args.peer.peer) {
		fprintf(stderr, "roce-doctor: check: --timeout needs --peer ADDR (check alone sends nothing)\n");
		return EXIT_USAGE;
	}
	if (app->secret_file && !args.peer.peer) {
		fprintf(stderr, "roce-doctor: check: --secret-file needs --peer ADDR (it is the secret shared with the "
			"peer's serve)\n");
		return EXIT_USAGE;
	}
	if (args.peer.peer) {
		args.peer.only = args.only;
		args.peer.skip = args.skip;
		args.peer.colour = args.colour;
		if (!args.peer.master_port)
			args.peer.master_port = PAIR_MASTER_PORT_DEFAULT;
		return check_peer_run(app, &args.peer);
	}
	system = calloc(1, sizeof(*system));   /* ~20 KiB of fixed arrays */
	if (!system) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	code = get_model(app, &args, &findings, &host, system);
	if (code != EXIT_OK) {
		free(system);
		return code;
	}
	in.host = &host;
	in.family = app->family ? app->family : AF_INET;
	system_to_check_input(system, &hca, &in);
	in.recorded = app->from_file != NULL;
	/* Printed as check always did: the host's warnings, then those of the sources around it. */
	for (size_t i = 0; i < system->warnings.count; i++)
		notes_add(&host.warnings, "%s", system->warnings.items[i]);
	checks_run(&in, &findings);
	findings_locate(&findings, &host);
	doc = NULL;
	if (findings_merge_root_causes(&findings) == 0 && findings_unify_edits(&findings) == 0 &&
	    port_table_build(&in, &findings, &rows, &row_count) == 0)
		doc = check_report_doc(&findings, rows, row_count);
	if (!doc) {
		fprintf(stderr, "roce-doctor: cannot build the report: %s\n", strerror(ENOMEM));
		code = EXIT_CANNOT_RUN;
	} else {
		text_style_resolve(&check_style, args.colour, app_output_fd(app));
		check_style.verbose = app->verbose > 0;
		report_meta_fill(&check_meta, app, &started);
		code = app_emit(app, doc, &host.warnings, args.format == REPORT_JUNIT ? print_junit : args.format ==
				REPORT_PROMETHEUS ? print_prometheus : print_check, exit_code_of(findings_worst(&findings)));
		json_decref(doc);
	}
	free(rows);
	findings_free(&findings);
	system_free(system);
	free(system);
	host_free(&host);
	return code;
}
