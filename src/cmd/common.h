// SPDX-License-Identifier: GPL-2.0-only
/* What every subcommand shares: the common options, probing the host, exit codes, emitting a document. */
#ifndef ROCE_DOCTOR_CMD_COMMON_H
#define ROCE_DOCTOR_CMD_COMMON_H

#include <argp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/port_selection.h"
#include "model/system.h"
#include "probe/host.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_FAILED = 1,       /* the test ran and failed, or check's worst finding is a fail */
	EXIT_NOT_FOUND = 2,     /* a device or port that does not exist; nothing qualifies */
	EXIT_CANNOT_RUN = 3,
	EXIT_USAGE = 64,
};

/* The shared options a command takes besides --json, -v and -h/--help, which every command takes. */
enum common_option {
	COMMON_ROOT = 1 << 0,     /* --root DIR; the others refuse it, given before or after their name */
	COMMON_DEVICE = 1 << 1,   /* -d, --device DEV[/PORT] */
	COMMON_FAMILY = 1 << 2,   /* --family ipv4|ipv6 */
	COMMON_TIMEOUT = 1 << 3,  /* --timeout S */
	COMMON_FROM = 1 << 4,     /* --from FILE (a snapshot); refused by the others as --root is */
	COMMON_EVENT_LOG = 1 << 5, /* the command writes a log, not one document: --output is refused (serve) */
	COMMON_SECRET = 1 << 6,   /* --secret-file FILE: serve and every client of it */
	COMMON_PEER_TIMEOUT = 1 << 7, /* --timeout S for each request to a peer's serve (check, nccl-env --peer) */
};

/* --timeout's defaults: the one place --help takes them from (the man page and README say the same). */
#define PERF_TIMEOUT_DEFAULT_S 10   /* bw, lat: TCP connect, each reply of the serve, a run with no completion */
/* Each request to the peer (its snapshot, each probe): a serve on a host answers in well under a second, one
 * in an emulated VM takes its snapshot in up to 15 s. */
#define PEER_TIMEOUT_DEFAULT_S 20

enum json_layout {
	JSON_LAYOUT_AUTO,       /* indented on a terminal, one line otherwise */
	JSON_LAYOUT_PRETTY,     /* --pretty */
	JSON_LAYOUT_COMPACT,    /* --compact */
};

struct app {
	bool json;
	enum json_layout layout;
	const char *output_file;        /* --output: the document goes there by a rename; NULL: stdout */
	int verbose;
	const char *root_dir;           /* NULL: the running host */
	const char *from_file;          /* --from: a snapshot file, "-" for stdin; NULL when not given */
	struct port_selection device;   /* -d; an empty name when not given */
	int family;                     /* --family: AF_INET or AF_INET6; 0 when not given */
	unsigned timeout_s;             /* --timeout; 0 when not given */
	const char *secret_file;        /* --secret-file; NULL when not given */
};

/* The common options as an argp child: the options a command takes (a mask of enum common_option) listed,
 * the rest hidden (--root, so it is refused with a reason) or left out. Input: a struct common_input. */
struct common_child {
	struct argp_option options[16];   /* every common option and the terminator */
	struct argp argp;
};
struct common_input {
	struct app *app;
	unsigned takes;
	const char *command;            /* for messages: "bw"; NULL at the top level */
};
void common_child_init(struct common_child *child, unsigned takes);

/* Parses a command's own options (argv[0] is the command name) with the common options it takes as a child.
 * Usage lines say "roce-doctor COMMAND". 0, or non-zero after argp printed the usage error. */
int command_parse(const struct argp *argp, unsigned takes, int argc, char **argv, void *input, struct app *app);

/* --secret-file's secret in a new *out (NULL without the option; free with app_free_secret). EXIT_OK, or
 * EXIT_USAGE after one line on stderr saying what is wrong with the file. */
struct secret;
int app_read_secret(const struct app *app, struct secret **out);
void app_free_secret(struct secret *s);

/* A whole number in [min, max], or an argp usage error naming the option. */
unsigned long parse_count(const struct argp_state *state, const char *option, const char *arg, unsigned long min,
			  unsigned long max);

/* DEV, DEV/PORT, DEV:PORT or a netdev name, or an argp usage error: "bad device 'X': expected ...". */
void parse_selection_arg(const struct argp_state *state, const char *arg, struct port_selection *sel);

/* The one place a command gets its host model: probed live or under app->root_dir, or read from the snapshot
 * app->from_file (then app_root() is the root the snapshot was taken under). On failure prints one line
 * (naming the file, line and member for a snapshot) and returns EXIT_CANNOT_RUN. */
int app_probe_host(const struct app *app, struct host *host);

/* For check --from: the snapshot's host, and its system sources in *system when *known (a snapshot of an older
 * roce-doctor recorded none). Failure as app_probe_host's. */
int app_read_snapshot(const struct app *app, struct host *host, struct system_state *system, bool *known);

/* The --from file as messages name it: the path, or "(stdin)" for -. */
const char *app_from_name(const struct app *app);

/* The --root the host model was read under, as given: app->root_dir, or the snapshot's; NULL when live. */
const char *app_root(const struct app *app);

/* The selection must name a port of host: else prints why (listing what exists), returns EXIT_NOT_FOUND. */
int check_selection(const struct host *host, const struct port_selection *sel);

/* With -v: one line on stderr per selected port saying which source answered (netdev from which sysfs
 * file, RDMA netlink's agreement, addresses from rtnetlink, port MTUs from verbs, or why unknown). */
void app_say_sources(const struct app *app, const struct host *host, const struct port_selection *sel);

/* Where the RDMA devices were looked for: "/sys/class/infiniband", or under --root the real path. */
void app_infiniband_path(const struct app *app, char *buf, size_t size);

/* The descriptor the document goes to, for terminal detection: stdout, or -1 with --output. */
int app_output_fd(const struct app *app);

/* Writes a rendered document to --output FILE (a temporary file renamed over it) or to stdout, whole or not at
 * all; an empty one leaves FILE as it was (not created, not truncated). 0, or prints one line and returns
 * EXIT_CANNOT_RUN. */
int app_write_document(const struct app *app, const char *data, size_t len);

/* --pretty and --compact shape JSON: given to a command that prints text this time (json false), one line
 * naming the command (and --format json as the other way when it has_format) and EXIT_USAGE; else EXIT_OK. */
int app_layout_needs_json(const struct app *app, const char *command, bool json, bool has_format);

/* Prints warnings on stderr, then the document as JSON (indented or one line: app->layout) or through text(),
 * rendered in memory first and written by app_write_document. Returns the exit code given, or EXIT_CANNOT_RUN
 * when the document could not be written. */
int app_emit(const struct app *app, json_t *doc, const struct notes *warnings,
	     void (*text)(FILE *out, const json_t *doc), int code);

#endif
