// SPDX-License-Identifier: GPL-2.0-only
/* Shared command plumbing: the common options child parser, probing, emitting, device selection. */
#include "cmd/common.h"

#include <errno.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/snapshot_file.h"
#include "output/document_sink.h"
#include "output/render.h"
#include "util/rootfs.h"
#include "util/secret_file.h"

/* A number defined in a header, as the text of a help line. */
#define NUMBER_TEXT_(n) #n
#define NUMBER_TEXT(n) NUMBER_TEXT_(n)

enum { OPT_ROOT = 0x100, OPT_FAMILY, OPT_TIMEOUT, OPT_FROM, OPT_OUTPUT, OPT_PRETTY, OPT_COMPACT, OPT_SECRET_FILE };

/* What --from read, for app_root() and -v: a command answers from it as if it had probed. */
static struct {
	bool used;
	bool has_root;
	char root[SNAPSHOT_ROOT_MAX];
	char hostname[256];
	char time[32];
} recorded;

/* Every common option once, with its help line once; takes 0: every command takes it, but one that takes
 * a bit of refused_by (a command that prints no document) does not. */
static const struct {
	unsigned takes;
	struct argp_option option;
	unsigned refused_by;
} common_options[] = {
	{ 0, { "json", 'j', NULL, 0, "Print one JSON document on stdout", -1 }, 0 },
	{ 0, { "output", OPT_OUTPUT, "FILE", 0, "Write the document to FILE instead of stdout: to a temporary file "
	       "beside it, renamed over FILE once whole (exit 3 and no FILE change when it cannot be written)", -1 },
	  COMMON_EVENT_LOG },
	{ 0, { "pretty", OPT_PRETTY, NULL, 0, "Indent the JSON document (the default on a terminal)", -1 },
	  COMMON_EVENT_LOG },
	{ 0, { "compact", OPT_COMPACT, NULL, 0, "Print the JSON document on one line (the default when stdout is "
	       "not a terminal, or with --output)", -1 }, COMMON_EVENT_LOG },
	{ COMMON_ROOT, { "root", OPT_ROOT, "DIR", 0, "Read /sys, /proc and /etc under DIR (a copied host)", -1 }, 0 },
	{ COMMON_FROM, { "from", OPT_FROM, "FILE", 0, "Answer from a snapshot (roce-doctor snapshot's output; - "
			 "reads stdin) as the command did on the host it was taken on", -1 }, 0 },
	{ 0, { "verbose", 'v', NULL, 0, "Say more: what, depends on the command (see COMMAND --help)", -1 }, 0 },
	{ 0, { NULL, 'h', NULL, 0, "Give this help list (as --help)", -1 }, 0 },
	{ COMMON_DEVICE, { "device", 'd', "DEV[/PORT]", 0, "Local RDMA port: DEV, DEV/PORT, DEV:PORT or a netdev name "
			   "(default: the port whose GID reaches the peer)", -1 }, 0 },
	{ COMMON_FAMILY, { "family", OPT_FAMILY, "ipv4|ipv6", 0, "Address family of the RoCE v2 GID (and of the "
			   "bootstrap address) NCCL will use (default ipv4)", -1 }, 0 },
	{ COMMON_TIMEOUT, { "timeout", OPT_TIMEOUT, "S", 0, "Give up after S seconds without an answer or a "
			    "completion (default " NUMBER_TEXT(PERF_TIMEOUT_DEFAULT_S) ")", -1 }, 0 },
	{ COMMON_PEER_TIMEOUT, { "timeout", OPT_TIMEOUT, "S", 0, "With --peer: give up on each request to the peer's "
				 "serve (its snapshot, each probe) after S seconds (default "
				 NUMBER_TEXT(PEER_TIMEOUT_DEFAULT_S) ")", -1 }, 0 },
	{ COMMON_SECRET, { "secret-file", OPT_SECRET_FILE, "FILE", 0, "A secret shared with the serve (the same file "
			   "on both nodes, mode 600): each side proves it knows it before anything else", -1 }, 0 },
};

/* What -v adds, per command, for its --help; NULL: nothing, so the command refuses -v rather than ignore it. */
static const struct {
	const char *command, *doc;
} verbose_docs[] = {
	{ "devices", "Say on stderr which source answered for each selected port" },
	{ "gid", "Say on stderr which source answered for each selected port" },
	{ "nccl-env", "Say on stderr which source answered for each port" },
	{ "bw", "Say on stderr which source answered for the local port chosen" },
	{ "lat", "Say on stderr which source answered for the local port chosen" },
	{ "serve", "Say on stderr, for each client, which source answered for the port chosen" },
	{ "check", "Print the ok findings too (by default a last line counts them)" },
	{ "compare", "Print the ok findings too (by default a last line counts them)" },
	{ "nccl", NULL },
	{ "topo", NULL },
	{ "snapshot", NULL },
	{ "explain", NULL },
};

/* The command's -v line; NULL when it takes no -v (also for a command the table does not know). */
static const char *verbose_doc(const char *command)
{
	for (size_t i = 0; command && i < sizeof(verbose_docs) / sizeof(verbose_docs[0]); i++)
		if (strcmp(command, verbose_docs[i].command) == 0)
			return verbose_docs[i].doc;
	return NULL;
}

static error_t parse_common(int key, char *arg, struct argp_state *state)
{
	const struct common_input *in = state->input;
	struct app *app = in->app;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		return 0;
	case 'j':
		app->json = true;
		return 0;
	case OPT_ROOT:
		if (!*arg)
			argp_error(state, "bad --root '': expected a directory");
		app->root_dir = arg;
		return 0;
	case OPT_FROM:
		if (!*arg)
			argp_error(state, "bad --from '': expected a snapshot file, or - for stdin");
		app->from_file = arg;
		return 0;
	case OPT_OUTPUT:
		if (!*arg)
			argp_error(state, "bad --output '': expected a file name");
		app->output_file = arg;
		return 0;
	case OPT_PRETTY:
	case OPT_COMPACT:
		if (app->layout != JSON_LAYOUT_AUTO && app->layout != (key == OPT_PRETTY ? JSON_LAYOUT_PRETTY :
									 JSON_LAYOUT_COMPACT))
			argp_error(state, "--pretty and --compact exclude each other");
		app->layout = key == OPT_PRETTY ? JSON_LAYOUT_PRETTY : JSON_LAYOUT_COMPACT;
		return 0;
	case 'v':
		app->verbose++;
		return 0;
	case 'd':
		parse_selection_arg(state, arg, &app->device);
		return 0;
	case OPT_FAMILY:
		if (strcmp(arg, "ipv4") == 0)
			app->family = AF_INET;
		else if (strcmp(arg, "ipv6") == 0)
			app->family = AF_INET6;
		else
			argp_error(state, "bad --family '%s': expected ipv4 or ipv6", arg);
		return 0;
	case OPT_SECRET_FILE:
		if (!*arg)
			argp_error(state, "bad --secret-file '': expected a file");
		app->secret_file = arg;
		return 0;
	case OPT_TIMEOUT:
		app->timeout_s = (unsigned)parse_count(state, "--timeout", arg, 1, 3600);
		return 0;
	case ARGP_KEY_END:
		/* --root may have come before the command's name, where every command's --root is parsed. */
		/* compare reads no host at all: its snapshots are its arguments */
		if ((app->root_dir || app->from_file) && in->command && strcmp(in->command, "compare") == 0)
			argp_error(state, "%s cannot be used with compare: compare reads the snapshots given as its "
				   "arguments (`roce-doctor compare FILE...`)%s", app->root_dir ? "--root" : "--from",
				   app->root_dir ? "; of a tree, take one first: `roce-doctor --root DIR snapshot > "
				   "node.json`" : "");
		if (app->root_dir && in->command && !(in->takes & COMMON_ROOT))
			argp_error(state, "--root cannot be used with %s: it needs this host's live RDMA devices, which a "
				   "copied tree does not have", in->command);
		if (app->from_file && in->command && !(in->takes & COMMON_FROM))
			argp_error(state, "--from cannot be used with %s: %s", in->command,
				   !(in->takes & COMMON_ROOT) ? "it needs this host's live RDMA devices, which a snapshot "
				   "does not have" : strcmp(in->command, "snapshot") == 0 ? "a snapshot is taken of a host "
				   "(live or --root DIR), not of another snapshot" : "it needs more than a snapshot records");
		if (in->command && (in->takes & COMMON_EVENT_LOG) && (app->output_file || app->layout))
			argp_error(state, "%s cannot be used with %s: it writes an event log, one line per event, not one "
				   "document (redirect it: %s > FILE)", app->output_file ? "--output" : app->layout ==
				   JSON_LAYOUT_PRETTY ? "--pretty" : "--compact", in->command, in->command);
		if (app->from_file && app->root_dir)
			argp_error(state, "--from and --root exclude each other: a snapshot records the root it was taken "
				   "under");
		if (app->verbose && in->command && !verbose_doc(in->command))
			argp_error(state, "-v adds nothing to %s: it prints all it has to say without it",
				   in->command);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

_Static_assert(sizeof(common_options) / sizeof(common_options[0]) < sizeof(((struct common_child *)0)->options) /
	       sizeof(struct argp_option), "struct common_child holds every common option and a terminator");

void common_child_init(struct common_child *child, unsigned takes)
{
	size_t n = 0;

	memset(child, 0, sizeof(*child));
	for (size_t i = 0; i < sizeof(common_options) / sizeof(common_options[0]); i++) {
		const unsigned need = common_options[i].takes;

		if (need & ~takes && need != COMMON_ROOT && need != COMMON_FROM)
			continue;
		child->options[n] = common_options[i].option;
		/* Refused with a reason rather than "unrecognized", so listed nowhere but still parsed. */
		if (need & ~takes || common_options[i].refused_by & takes)
			child->options[n].flags |= OPTION_HIDDEN;
		n++;
	}
	child->argp = (struct argp){ child->options, parse_common, NULL, NULL, NULL, NULL, NULL };
}

int app_read_secret(const struct app *app, struct secret **out)
{
	char why[512];

	*out = NULL;
	if (!app->secret_file)
		return EXIT_OK;
	*out = malloc(sizeof(**out));
	if (!*out) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	if (secret_read(app->secret_file, *out, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: %s\n", why);
		app_free_secret(*out);
		*out = NULL;
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void app_free_secret(struct secret *s)
{
	if (s)
		secret_clear(s);
	free(s);
}

struct parse_inputs {
	void *command_input;
	struct common_input common;
};

/* A parser with no options of its own: it hands each child its input (the command's, then the common one). */
static error_t parse_wrapper(int key, char *arg, struct argp_state *state)
{
	struct parse_inputs *inputs = state->input;

	(void)arg;
	if (key != ARGP_KEY_INIT)
		return ARGP_ERR_UNKNOWN;
	state->child_inputs[0] = inputs->command_input;
	state->child_inputs[1] = &inputs->common;
	return 0;
}

int command_parse(const struct argp *argp, unsigned takes, int argc, char **argv, void *input, struct app *app)
{
	struct common_child common;
	/* The command's doc and args_doc belong to the wrapper, so --help prints them once. */
	const struct argp options_only = { argp->options, argp->parser, NULL, NULL, argp->children, NULL, NULL };
	struct argp_child children[] = {
		{ &options_only, 0, NULL, 0 },
		{ NULL, 0, "Common options:", 0 },
		{ 0 },
	};
	const struct argp wrapper = { NULL, parse_wrapper, argp->args_doc, argp->doc, children, NULL, NULL };
	struct parse_inputs inputs = { input, { app, takes, argv[0] } };
	char name[64];
	char *saved = argv[0];
	int ret;

	common_child_init(&common, takes);
	for (struct argp_option *o = common.options; o->name || o->key; o++)
		if (o->key == 'v') {
			o->doc = verbose_doc(argv[0]);
			if (!o->doc)
				o->flags |= OPTION_HIDDEN;   /* refused at the end, with the reason */
		}
	children[1].argp = &common.argp;
	snprintf(name, sizeof(name), "roce-doctor %s", argv[0]);
	argv[0] = name;
	ret = argp_parse(&wrapper, argc, argv, 0, NULL, &inputs);
	argv[0] = saved;
	return ret;
}

unsigned long parse_count(const struct argp_state *state, const char *option, const char *arg, unsigned long min,
			  unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v < min || v > max)
		argp_error(state, "bad %s '%s': expected a whole number from %lu to %lu", option, arg, min, max);
	return v;
}

void parse_selection_arg(const struct argp_state *state, const char *arg, struct port_selection *sel)
{
	if (port_selection_parse(arg, sel) < 0)
		argp_error(state, "bad device '%s': expected DEV, DEV/PORT, DEV:PORT or a netdev name", arg);
}

/* Reads the snapshot: its host moves to *host, its system sources to *system (when given; *known says whether
 * it recorded them); the rest is kept for app_root() and -v. */
static int read_snapshot(const char *file, struct host *host, struct system_state *system, bool *known)
{
	struct snapshot *s = calloc(1, sizeof(*s));   /* the identity is ~100 KiB of fixed fields */
	char why[1024];
	int ret;

	memset(host, 0, sizeof(*host));
	if (!s) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	ret = snapshot_file_read(file, s, why, sizeof(why));
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: %s\n", why);
		free(s);
		return EXIT_CANNOT_RUN;
	}
	*host = s->host;
	memset(&s->host, 0, sizeof(s->host));
	if (system) {
		*known = s->system_known;
		if (s->system_known)
			*system = s->system;
		s->system_known = false;   /* moved: snapshot_free leaves it */
		memset(&s->system, 0, sizeof(s->system));
	}
	recorded.used = true;
	recorded.has_root = s->has_root;
	memcpy(recorded.root, s->root, sizeof(recorded.root));
	memcpy(recorded.hostname, s->identity.hostname, sizeof(recorded.hostname));
	memcpy(recorded.time, s->identity.time, sizeof(recorded.time));
	snapshot_free(s);
	free(s);
	return EXIT_OK;
}

int app_read_snapshot(const struct app *app, struct host *host, struct system_state *system, bool *known)
{
	return read_snapshot(app->from_file, host, system, known);
}

const char *app_from_name(const struct app *app)
{
	return app->from_file && strcmp(app->from_file, "-") ? app->from_file : "(stdin)";
}

const char *app_root(const struct app *app)
{
	if (app->from_file && recorded.used)
		return recorded.has_root ? recorded.root : NULL;
	return app->root_dir;
}

int app_probe_host(const struct app *app, struct host *host)
{
	struct rootfs root;
	int ret;

	if (app->from_file)
		return read_snapshot(app->from_file, host, NULL, NULL);
	ret = rootfs_open(&root, app->root_dir);

	if (ret < 0) {
		fprintf(stderr, "roce-doctor: cannot open root directory %s: %s\n", app->root_dir ? app->root_dir : "/",
			strerror(-ret));
		return EXIT_CANNOT_RUN;
	}
	ret = host_probe(host, &root);
	rootfs_close(&root);
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: cannot probe the host: %s\n", strerror(-ret));
		host_free(host);
		return EXIT_CANNOT_RUN;
	}
	return EXIT_OK;
}

int check_selection(const struct host *host, const struct port_selection *sel)
{
	char why[1024];

	if (port_selection_check(host, sel, why, sizeof(why)) == 0)
		return EXIT_OK;
	fprintf(stderr, "roce-doctor: %s\n", why);
	return EXIT_NOT_FOUND;
}

static const char *netdev_file(const char *source)
{
	if (strcmp(source, "gid_attrs") == 0)
		return "gid_attrs/ndevs";
	if (strcmp(source, "dev_port") == 0)
		return "device/net/*/dev_port";
	return source;
}

static void say_port_sources(const struct host *host, const struct rdma_device *d, const struct rdma_port *p)
{
	const struct netdev *nd = p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
	const char *unknown = host->live ? "did not answer" : "not asked under --root";

	fprintf(stderr, "roce-doctor: %s/%u: ", d->name, p->num);
	if (p->netdev[0])
		fprintf(stderr, "netdev %s from %s", p->netdev, netdev_file(p->netdev_source));
	else
		fprintf(stderr, "no netdev (none in gid_attrs/ndevs, parent or device/net)");
	if (!p->netlink_known)
		fprintf(stderr, "; RDMA netlink %s", unknown);
	else if (strcmp(p->netdev_netlink, p->netdev) == 0)
		fprintf(stderr, "; RDMA netlink agrees");
	else
		fprintf(stderr, "; RDMA netlink says %s", p->netdev_netlink[0] ? p->netdev_netlink : "no netdev");
	if (!p->netdev[0])
		fprintf(stderr, "; no addresses (no netdev)");
	else if (nd && nd->addrs_known)
		fprintf(stderr, "; addresses from rtnetlink (%zu)", nd->addr_count);
	else
		fprintf(stderr, "; addresses unknown (rtnetlink %s)", unknown);
	if (p->active_mtu > 0)
		fprintf(stderr, "; port MTUs from verbs (active %d, max %d)\n", p->active_mtu, p->max_mtu);
	else
		fprintf(stderr, "; port MTUs unknown (verbs %s)\n", unknown);
}

void app_say_sources(const struct app *app, const struct host *host, const struct port_selection *sel)
{
	if (!app->verbose)
		return;
	/* The sources below were asked when the snapshot was taken, not now. */
	if (app->from_file && recorded.used)
		fprintf(stderr, "roce-doctor: recorded in snapshot %s (host %s, %s): the sources below answered then\n",
			app_from_name(app),
			recorded.hostname[0] ? recorded.hostname : "unknown", recorded.time[0] ? recorded.time : "time unknown");
	for (size_t i = 0; i < host->device_count; i++)
		for (size_t j = 0; j < host->devices[i].port_count; j++)
			if (port_selection_matches(sel, &host->devices[i], &host->devices[i].ports[j]))
				say_port_sources(host, &host->devices[i], &host->devices[i].ports[j]);
}

void app_infiniband_path(const struct app *app, char *buf, size_t size)
{
	const char *root_dir = app_root(app);
	size_t len = root_dir ? strlen(root_dir) : 0;

	/* "tree/" and "tree" are the same root: no doubled slash in the path shown. */
	while (len > 1 && root_dir[len - 1] == '/')
		len--;
	snprintf(buf, size, "%.*s/sys/class/infiniband", (int)(root_dir && strcmp(root_dir, "/") ? len : 0),
		 root_dir ? root_dir : "");
}

int app_output_fd(const struct app *app)
{
	return app->output_file ? -1 : STDOUT_FILENO;
}

int app_write_document(const struct app *app, const char *data, size_t len)
{
	char why[1024];

	/* Nothing rendered (text of a bw or lat that never started: stderr said why) is no report: an --output
	 * FILE is neither created nor truncated, and one that exists keeps the last report written there. */
	if (app->output_file && len == 0)
		return EXIT_OK;
	if (sink_write(app->output_file, data, len, why, sizeof(why)) == 0)
		return EXIT_OK;
	fprintf(stderr, "roce-doctor: %s\n", why);
	return EXIT_CANNOT_RUN;
}

int app_layout_needs_json(const struct app *app, const char *command, bool json, bool has_format)
{
	if (app->layout == JSON_LAYOUT_AUTO || json)
		return EXIT_OK;
	fprintf(stderr, "roce-doctor %s: --%s shapes JSON: it needs --json%s\n", command,
		app->layout == JSON_LAYOUT_PRETTY ? "pretty" : "compact", has_format ? " or --format json" : "");
	return EXIT_USAGE;
}

/* Indented for a person at a terminal, one line for a program (a pipe, a file, --output), unless told. */
static bool json_pretty(const struct app *app)
{
	if (app->layout != JSON_LAYOUT_AUTO)
		return app->layout == JSON_LAYOUT_PRETTY;
	return !app->output_file && isatty(STDOUT_FILENO) == 1;
}

int app_emit(const struct app *app, json_t *doc, const struct notes *warnings,
	     void (*text)(FILE *out, const json_t *doc), int code)
{
	char *data = NULL;
	size_t len = 0;
	FILE *mem;
	int ret = 0;

	for (size_t i = 0; warnings && i < warnings->count; i++)
		fprintf(stderr, "roce-doctor: warning: %s\n", warnings->items[i]);
	/* Rendered whole in memory first: a failure while rendering leaves nothing written anywhere. */
	mem = open_memstream(&data, &len);
	if (!mem) {
		fprintf(stderr, "roce-doctor: cannot render the output: %s\n", strerror(errno));
		return EXIT_CANNOT_RUN;
	}
	if (app->json) {
		doc_add_warnings(doc, warnings);
		ret = render_json_as(mem, doc, json_pretty(app));
	} else {
		text(mem, doc);
	}
	if (ferror(mem))
		ret = -EIO;
	if (fclose(mem) != 0 && ret == 0)
		ret = -errno;
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: cannot render the output: %s\n", strerror(-ret));
		code = EXIT_CANNOT_RUN;
	} else if (app_write_document(app, data, len) != EXIT_OK) {
		code = EXIT_CANNOT_RUN;
	}
	free(data);
	return code;
}
