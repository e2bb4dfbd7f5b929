/* roce-doctor check: the preflight verdict before training, every finding with its exact fix. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/check_list.h"
#include "cmd/check_probe.h"
#include "cmd/commands.h"
#include "core/check_catalog.h"
#include "core/checks.h"
#include "output/render.h"

#define IDS_MAX 64   /* --only prefixes and --skip ids, each */
enum { OPT_ONLY = 0x100, OPT_SKIP, OPT_USER, OPT_LIST };

struct check_args {
	const char *only[IDS_MAX + 1];
	size_t only_count;
	const char *skip[IDS_MAX + 1];
	size_t skip_count;
	bool list;
	const char *user;
};

static const struct argp_option check_options[] = {
	{ "only", OPT_ONLY, "PREFIX[,...]", 0, "Run only the checks whose id starts with a PREFIX: an area (memlock, "
	  "port) or an id (port.state); repeatable, comma lists", 0 },
	{ "skip", OPT_SKIP, "ID[,...]", 0, "Leave out the check ID (exact id; repeatable, comma lists)", 0 },
	{ "list", OPT_LIST, NULL, 0, "List every check id with its area and what it looks at, and run nothing", 0 },
	{ "user", OPT_USER, "NAME", 0, "Judge pam limits and ~/.nccl.conf for NAME (default: who runs check; root "
	  "under --root)", 0 },
	{ 0 }
};

/* Splits a comma list in place (argv is ours to cut) and checks every item against the catalog: a selection
 * that matches nothing would run nothing and print "verdict: ok", so it is a usage error naming the ids. */
static void add_ids(const struct argp_state *state, const char *option, char *arg, const char **ids, size_t *count)
{
	bool prefix = strcmp(option, "--only") == 0;
	char known[1024];

	check_catalog_ids(known, sizeof(known));
	for (char *item = arg, *next; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (!*item)
			argp_error(state, "empty id in %s '%s' (known ids: %s)", option, arg, known);
		else if (prefix ? check_catalog_prefix_matches(item) == 0 : !check_catalog_has(item))
			argp_error(state, "%s '%s' %s (known ids: %s)", option, item,
				   prefix ? "matches no check id" : "is not a check id", known);
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
	"settings. Every finding has an id, a severity (ok, info, warn, fail), a subject, a message and the exact "
	"fix.\vExit status: 0 when nothing is worse than info, 1 when the worst is warn, 2 when the worst is fail, "
	"3 when the check could not run, 64 for usage errors. Colour only on a terminal; NO_COLOR turns it off.",
	NULL, NULL, NULL,
};

static json_t *findings_doc(const struct findings *f)
{
	json_t *doc = doc_new("check"), *list = json_array();
	size_t counts[4] = { 0 };

	for (size_t i = 0; i < f->count; i++) {
		const struct finding *it = &f->items[i];
		char area[40];

		snprintf(area, sizeof(area), "%.*s", (int)strcspn(it->id, "."), it->id);
		counts[it->severity]++;
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "id", it->id, "area", area,
						      "severity", severity_name(it->severity), "subject", it->subject,
						      "message", it->message, "fix", json_str_or_null(it->fix)));
	}
	json_object_set_new(doc, "verdict", json_string(severity_name(findings_worst(f))));
	json_object_set_new(doc, "counts", json_pack("{s:I, s:I, s:I, s:I}", "ok", (json_int_t)counts[0], "info",
						     (json_int_t)counts[1], "warn", (json_int_t)counts[2], "fail",
						     (json_int_t)counts[3]));
	json_object_set_new(doc, "findings", list);
	return doc;
}

static bool use_colour(void)
{
	const char *no = getenv("NO_COLOR");

	return isatty(STDOUT_FILENO) && !(no && *no);
}

static const char *colour_of(const char *severity)
{
	if (strcmp(severity, "fail") == 0)
		return "\033[1;31m";
	if (strcmp(severity, "warn") == 0)
		return "\033[1;33m";
	if (strcmp(severity, "info") == 0)
		return "\033[36m";
	return "\033[32m";
}

static void print_fix(FILE *out, const char *fix)
{
	const char *line = fix;

	while (line && *line) {
		size_t len = strcspn(line, "\n");

		fprintf(out, "        %s %.*s\n", line == fix ? "fix:" : "    ", (int)len, line);
		line += len;
		if (*line == '\n')
			line++;
	}
}

/* "subject: message", or the message alone when it begins with the subject ("eth0 is up", not
 * "eth0: eth0 is up"). */
static void print_subject_and_message(FILE *out, const char *subject, const char *message)
{
	size_t len = strlen(subject);

	if (len && strncmp(message, subject, len) == 0 && message[len] && strchr(" :,", message[len]))
		fprintf(out, "%s\n", message);
	else
		fprintf(out, "%s: %s\n", subject, message);
}

static void print_findings(FILE *out, const json_t *doc)
{
	const json_t *list = json_object_get(doc, "findings"), *counts = json_object_get(doc, "counts");
	bool colour = use_colour();
	const char *last_area = "";
	size_t i;
	json_t *it;

	json_array_foreach(list, i, it) {
		const char *area = json_string_value(json_object_get(it, "area"));
		const char *sev = json_string_value(json_object_get(it, "severity"));
		const json_t *fix = json_object_get(it, "fix");
		char tag[8];

		if (strcmp(area, last_area) != 0)
			fprintf(out, "%s%s\n", i ? "\n" : "", area);
		last_area = area;
		snprintf(tag, sizeof(tag), "%s", sev);
		for (char *c = tag; *c; c++)
			*c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
		fprintf(out, "  %s%-4s%s  %-18s ", colour ? colour_of(sev) : "", tag, colour ? "\033[0m" : "",
			json_string_value(json_object_get(it, "id")));
		print_subject_and_message(out, json_string_value(json_object_get(it, "subject")),
					  json_string_value(json_object_get(it, "message")));
		if (json_is_string(fix) && strcmp(sev, "ok") != 0)
			print_fix(out, json_string_value(fix));
	}
	fprintf(out, "\nverdict: %s (%lld fail, %lld warn, %lld info, %lld ok)\n",
		json_string_value(json_object_get(doc, "verdict")),
		(long long)json_integer_value(json_object_get(counts, "fail")),
		(long long)json_integer_value(json_object_get(counts, "warn")),
		(long long)json_integer_value(json_object_get(counts, "info")),
		(long long)json_integer_value(json_object_get(counts, "ok")));
}

static int exit_code_of(enum severity worst)
{
	return worst == SEVERITY_FAIL ? 2 : worst == SEVERITY_WARN ? 1 : 0;
}

int cmd_check(struct app *app, int argc, char **argv)
{
	struct check_args args = { 0 };
	struct findings findings = { 0 };
	struct check_input in = { 0 };
	struct check_probe probe;
	struct host host;
	char why[512];
	json_t *doc;
	int code;

	if (command_parse(&check_argp, COMMON_ROOT | COMMON_FAMILY, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	findings.only = args.only;
	findings.skip = args.skip;
	if (args.list)
		return check_list_emit(app, &findings);
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	in.host = &host;
	in.family = app->family ? app->family : AF_INET;
	if (check_probe_read(&probe, app->root_dir, args.user, &host, &findings, &in, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: %s\n", why);
		check_probe_free(&probe);
		host_free(&host);
		return EXIT_CANNOT_RUN;
	}
	checks_run(&in, &findings);
	doc = findings_doc(&findings);
	code = app_emit(app, doc, &host.warnings, print_findings, exit_code_of(findings_worst(&findings)));
	json_decref(doc);
	findings_free(&findings);
	check_probe_free(&probe);
	host_free(&host);
	return code;
}
