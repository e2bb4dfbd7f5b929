// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor counters: the NIC counters that moved, per second or over a command, grouped by what their
 * moving says (packets lost on the path, ECN at work, PFC at work, the receiver out of buffers, drops). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "core/qos/pause_storm.h"
#include "model/counter_meaning.h"
#include "model/qos_counters.h"
#include "netcfg/ethtool_stats.h"
#include "cmd/report_format.h"
#include "output/counters_text.h"
#include "output/render.h"
#include "probe/hw_counters.h"
#include "probe/qos.h"

#define COUNTER_PORTS_MAX 64

struct counters_args {
	struct port_selection sel;
	enum report_format format;
	bool format_given;
	double interval_s;
	unsigned long count;
	char **command;          /* after "--"; NULL: sample every interval */
};

/* One reading of one port: its RDMA counters and its netdev's statistics, and the PFC counters among them. */
struct port_reading {
	struct hw_counter_set hw, port;
	struct netdev_stats eth;
	bool eth_known;
	struct qos_counters qos;
};

struct watched_port {
	const struct rdma_device *dev;
	const struct rdma_port *port;
	const struct qos_port *qos;    /* its lossless chain (which priorities have PFC); NULL: not a RoCE port */
	struct port_reading before, after;
};

enum { OPT_FORMAT = 1000 };

static struct run_meta counters_meta;

static const struct argp_option counters_options[] = {
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default), json (as --json) or prometheus (the last reading)", 0 },
	{ "interval", 'i', "S", 0, "Seconds between readings (default 1; 0.1 to 3600)", 0 },
	{ "count", 'n', "N", 0, "Readings to report (default 1); ignored with a COMMAND", 0 },
	{ 0 }
};

static error_t parse_counters(int key, char *arg, struct argp_state *state)
{
	struct counters_args *a = state->input;
	char *end;

	switch (key) {
	case 'i':
		errno = 0;
		a->interval_s = strtod(arg, &end);
		if (errno || *end || end == arg || !(a->interval_s >= 0.1 && a->interval_s <= 3600))
			argp_error(state, "bad --interval '%s': expected seconds from 0.1 to 3600", arg);
		return 0;
	case 'n':
		a->count = parse_count(state, "--count", arg, 1, 100000);
		return 0;
	case OPT_FORMAT:
		if (report_format_parse(arg, &a->format) < 0 || a->format == REPORT_JUNIT)
			argp_error(state, "bad --format '%s': expected text, json or prometheus", arg);
		a->format_given = true;
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "unexpected argument '%s' (a command to measure goes after --)", arg);
		parse_selection_arg(state, arg, &a->sel);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp counters_argp = {
	counters_options, parse_counters, "[DEV[/PORT]|NETDEV] [-- COMMAND...]",
	"Show the NIC counters that moved: the RDMA port's hw_counters and counters and its netdev's ethtool "
	"statistics, as rates per second over --interval, or as totals over a COMMAND run between two readings. "
	"Each group says what it means: retransmits and sequence errors are packets lost on the path, CNPs are ECN "
	"at work, pause frames are PFC at work, out_of_buffer is a receiver without posted buffers.\v"
	"Pause frames and drops on a lossless priority are judged as check judges them (qos.pause_storm, "
	"qos.discards), on what grew. --root DIR reads a tree's sysfs counters twice instead (its ethtool statistics "
	"are the live kernel's only, but for the captured ethtool -S text the pause rules read). Exit 0 when nothing "
	"but traffic moved, 1 when loss, drop or error counters moved or a pause rule warns, 3 when the counters "
	"cannot be read (a device removed mid-run).",
	NULL, NULL, NULL,
};

static int read_port(const struct rootfs *root, const struct watched_port *w, struct port_reading *r)
{
	int hw, pc;

	netdev_stats_free(&r->eth);
	hw = hw_counters_read(root, w->dev->name, w->port->num, &r->hw);
	pc = port_counters_read(root, w->dev->name, w->port->num, &r->port);
	if (hw < 0 && pc < 0)
		return pc;   /* neither directory: the device went away (or has no counters at all) */
	/* a driver's statistics come from the running kernel only; a --root tree has its sysfs counters alone, and
	 * the PFC counters of the ethtool -S text capture-host saved */
	r->eth_known = root->live && w->port->netdev[0] && netdev_stats_read(w->port->netdev, &r->eth) == 0;
	memset(&r->qos, 0, sizeof(r->qos));
	if (w->qos)
		qos_counters_read(root, w->qos->netdev, &r->qos);
	return 0;
}

static json_t *moved_entry(const char *source, const char *name, uint64_t delta, double seconds)
{
	const struct counter_meaning *m = counter_meaning_of(name);

	return json_pack("{s:s,s:s,s:I,s:f,s:s,s:s,s:o}", "source", source, "name", name, "delta", (json_int_t)delta,
			 "rate_per_s", seconds > 0 ? (double)delta / seconds : 0.0, "group", counter_group_key(m->group),
			 "meaning", m->meaning, "check", json_str_or_null(m->check));
}

/* Counters present in both readings, in name order; a smaller value after is a reset, never a negative rate. */
static void diff_sets(const char *source, const struct hw_counter_set *a, const struct hw_counter_set *b,
		      double seconds, json_t *moved, json_t *resets)
{
	size_t i = 0, j = 0;

	while (i < a->count && j < b->count) {
		int c = strcmp(a->items[i].name, b->items[j].name);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if (b->items[j].value > a->items[i].value)
				json_array_append_new(moved, moved_entry(source, b->items[j].name,
									 b->items[j].value - a->items[i].value, seconds));
			else if (b->items[j].value < a->items[i].value)
				json_array_append_new(resets, json_pack("{s:s,s:s}", "source", source, "name", b->items[j].name));
			i++;
			j++;
		}
	}
}

/* Driver statistics keep their order between readings unless the driver changed its set (a queue count
 * change); then they are matched by name. */
static void diff_stats(const struct netdev_stats *a, const struct netdev_stats *b, double seconds, json_t *moved,
		       json_t *resets)
{
	for (size_t j = 0; j < b->count; j++) {
		const struct netdev_stat *old = j < a->count && !strcmp(a->items[j].name, b->items[j].name) ? &a->items[j] : NULL;

		for (size_t i = 0; !old && i < a->count; i++)
			if (!strcmp(a->items[i].name, b->items[j].name))
				old = &a->items[i];
		if (!old)
			continue;
		if (b->items[j].value > old->value)
			json_array_append_new(moved, moved_entry("ethtool", b->items[j].name, b->items[j].value - old->value,
								 seconds));
		else if (b->items[j].value < old->value)
			json_array_append_new(resets, json_pack("{s:s,s:s}", "source", "ethtool", "name", b->items[j].name));
	}
}

/* qos.pause_storm and qos.discards over the reading: the same rules as check, on the growth. */
static json_t *lossless_findings(const struct watched_port *w, double seconds, bool *trouble)
{
	struct findings f = { 0 };
	struct qos_counters growth;
	json_t *list = json_array();

	if (!w->qos)
		return list;
	qos_counters_growth(&w->before.qos, &w->after.qos, &growth);
	qos_judge_counters(w->qos, &growth, seconds > 0 ? seconds : 1e-9, &f);
	for (size_t i = 0; i < f.count; i++) {
		const struct finding *x = &f.items[i];
		if (x->severity >= SEVERITY_WARN)
			*trouble = true;
		json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:o}", "id", x->id, "severity",
						      severity_name(x->severity), "message", x->message, "fix",
						      json_str_or_null(x->fix)));
	}
	findings_free(&f);
	return list;
}

static json_t *port_report(const struct watched_port *w, double seconds, bool *trouble)
{
	json_t *moved = json_array(), *resets = json_array(), *findings;
	size_t i;
	json_t *e;

	diff_sets("hw_counters", &w->before.hw, &w->after.hw, seconds, moved, resets);
	diff_sets("counters", &w->before.port, &w->after.port, seconds, moved, resets);
	if (w->before.eth_known && w->after.eth_known)
		diff_stats(&w->before.eth, &w->after.eth, seconds, moved, resets);
	json_array_foreach(moved, i, e)
		if (strcmp(json_string_value(json_object_get(e, "group")), "traffic") != 0 &&
		    strcmp(json_string_value(json_object_get(e, "group")), "ecn") != 0 &&
		    strcmp(json_string_value(json_object_get(e, "group")), "pfc") != 0)
			*trouble = true;
	findings = lossless_findings(w, seconds, trouble);
	return json_pack("{s:s,s:i,s:o,s:b,s:o,s:o,s:o}", "device", w->dev->name, "port", (int)w->port->num, "netdev",
			 json_str_or_null(w->port->netdev), "netdev_stats", w->after.eth_known, "moved", moved, "resets",
			 resets, "findings", findings);
}

static void print_prometheus(FILE *out, const json_t *doc)
{
	counters_prometheus_print(out, doc, &counters_meta);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs argv with our stdin and stderr, and our stdout unless a machine format (JSON, Prometheus) goes to stdout:
 * then the command's output goes to stderr, so stdout stays one document. Its exit status (128+signal when killed), or -1 when
 * it could not start (the reason printed). */
static int run_command(char **argv, bool stdout_to_stderr)
{
	int report[2], status, exec_errno = 0;
	pid_t pid;

	/* The child writes execvp's errno down a close-on-exec pipe: nothing arrives when the exec worked. */
	if (pipe2(report, O_CLOEXEC) < 0) {
		fprintf(stderr, "roce-doctor counters: cannot start %s: %s\n", argv[0], strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "roce-doctor counters: cannot start %s: %s\n", argv[0], strerror(errno));
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (pid == 0) {
		close(report[0]);
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		exec_errno = errno;
		if (write(report[1], &exec_errno, sizeof(exec_errno)) < 0)
			_exit(127);
		_exit(127);
	}
	close(report[1]);
	while (read(report[0], &exec_errno, sizeof(exec_errno)) < 0 && errno == EINTR)
		;
	close(report[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (exec_errno) {
		fprintf(stderr, "roce-doctor counters: cannot run %s: %s\n", argv[0], strerror(exec_errno));
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void free_watch(struct watched_port *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		netdev_stats_free(&w[i].before.eth);
		netdev_stats_free(&w[i].after.eth);
	}
	free(w);
}

int cmd_counters(struct app *app, int argc, char **argv)
{
	struct counters_args args = { .interval_s = 1, .count = 1 };
	struct timespec started;
	struct watched_port *watch = NULL;
	struct qos_host qos = { 0 };
	struct rootfs root;
	struct host host;
	size_t n = 0;
	json_t *doc, *samples;
	bool trouble = false;
	int code;

	/* What follows "--" is the command to measure, as typed; argp sees only what comes before it. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			if (i + 1 == argc) {
				fprintf(stderr, "roce-doctor counters: nothing after --: give the command to measure\n");
				return EXIT_USAGE;
			}
			args.command = argv + i + 1;
			argc = i;
			break;
		}
	if (command_parse(&counters_argp, COMMON_ROOT, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_resolve_format(app, "counters", args.format_given, &args.format) != EXIT_OK)
		return EXIT_USAGE;
	report_clock_start(&started);
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	code = check_selection(&host, &args.sel);
	if (code != EXIT_OK)
		goto out_host;
	if (rootfs_open(&root, app->root_dir) != 0) {
		fprintf(stderr, "roce-doctor counters: cannot open %s: %s\n", app->root_dir ? app->root_dir : "/",
			strerror(errno));
		code = EXIT_CANNOT_RUN;
		goto out_host;
	}
	watch = calloc(COUNTER_PORTS_MAX, sizeof(*watch));
	/* which priorities have PFC, for the pause and drop rules; a port without it is judged on its pauses alone */
	if (watch && qos_probe(&root, &host, &qos) < 0) {
		free(watch);
		watch = NULL;
	}
	for (size_t d = 0; watch && d < host.device_count; d++)
		for (size_t p = 0; p < host.devices[d].port_count && n < COUNTER_PORTS_MAX; p++)
			if (port_selection_matches(&args.sel, &host.devices[d], &host.devices[d].ports[p])) {
				watch[n].dev = &host.devices[d];
				watch[n].port = &host.devices[d].ports[p];
				for (size_t q = 0; q < qos.count; q++)
					if (!strcmp(qos.ports[q].device, host.devices[d].name) &&
					    qos.ports[q].port == host.devices[d].ports[p].num)
						watch[n].qos = &qos.ports[q];
				n++;
			}
	if (!watch || n == 0) {
		fprintf(stderr, "roce-doctor counters: no RDMA port to read counters of\n");
		code = watch ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
		goto out_root;
	}
	doc = doc_new("counters");
	json_object_set_new(doc, "warnings", json_array());
	samples = json_array();
	json_object_set_new(doc, "samples", samples);
	for (size_t i = 0; i < n; i++)
		if (read_port(&root, &watch[i], &watch[i].before) < 0) {
			fprintf(stderr, "roce-doctor counters: %s/%u has no counters to read (neither hw_counters nor counters)\n",
				watch[i].dev->name, watch[i].port->num);
			code = EXIT_CANNOT_RUN;
			goto out_doc;
		}
	for (unsigned long s = 0; s < (args.command ? 1 : args.count); s++) {
		double start = now_s(), seconds;
		json_t *sample = json_object(), *ports = json_array();
		int exit_status = 0;

		if (args.command) {
			exit_status = run_command(args.command, args.format != REPORT_TEXT && !app->output_file);
			if (exit_status < 0) {
				json_decref(sample);
				json_decref(ports);
				code = EXIT_CANNOT_RUN;
				goto out_doc;
			}
		} else {
			double left = args.interval_s;
			nanosleep(&(struct timespec){ .tv_sec = (time_t)left, .tv_nsec = (long)((left - (double)(time_t)left) * 1e9) }, NULL);
		}
		seconds = now_s() - start;
		for (size_t i = 0; i < n; i++) {
			if (read_port(&root, &watch[i], &watch[i].after) < 0) {
				fprintf(stderr, "roce-doctor counters: the counters of %s/%u vanished during the run (device removed?)\n",
					watch[i].dev->name, watch[i].port->num);
				json_decref(sample);
				json_decref(ports);
				code = EXIT_CANNOT_RUN;
				goto out_doc;
			}
			json_array_append_new(ports, port_report(&watch[i], seconds, &trouble));
			/* the next interval starts from this reading */
			netdev_stats_free(&watch[i].before.eth);
			watch[i].before = watch[i].after;
			memset(&watch[i].after.eth, 0, sizeof(watch[i].after.eth));
		}
		json_object_set_new(sample, "seconds", json_real(seconds));
		if (args.command)
			json_object_set_new(sample, "command_exit", json_integer(exit_status));
		json_object_set_new(sample, "ports", ports);
		json_array_append_new(samples, sample);
	}
	if (args.command) {
		json_t *cmd = json_array();
		for (char **a = args.command; *a; a++)
			json_array_append_new(cmd, json_string(*a));
		json_object_set_new(doc, "command", cmd);
	}
	report_meta_fill(&counters_meta, app, &started);
	code = app_emit(app, doc, &host.warnings, args.format == REPORT_PROMETHEUS ? print_prometheus : counters_text_print,
			trouble ? EXIT_FAILED : EXIT_OK);
out_doc:
	json_decref(doc);
out_root:
	free_watch(watch, n);
	qos_host_free(&qos);
	rootfs_close(&root);
out_host:
	host_free(&host);
	return code;
}
