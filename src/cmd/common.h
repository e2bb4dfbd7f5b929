/* What every subcommand shares: global options, probing the host, exit codes, emitting a document. */
#ifndef ROCE_DOCTOR_CMD_COMMON_H
#define ROCE_DOCTOR_CMD_COMMON_H

#include <argp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "probe/host.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_NOT_FOUND = 2,     /* a device or port that does not exist; nothing qualifies */
	EXIT_CANNOT_RUN = 3,
	EXIT_USAGE = 64,
};

struct app {
	bool json;
	int verbose;
	const char *root_dir;   /* NULL: the running host */
};

/* --json, --root, --verbose, accepted before or after the command name. */
extern const struct argp common_argp;

/* Parses a command's own options (argv[0] is the command name) with common_argp as a child. */
int command_parse(const struct argp *argp, int argc, char **argv, void *input, struct app *app);

/* Probes the host under app->root_dir. On failure prints one line and returns EXIT_CANNOT_RUN. */
int app_probe_host(const struct app *app, struct host *host);

/* Prints warnings on stderr, then the document as JSON or through text(). Returns the exit code given. */
int app_emit(const struct app *app, json_t *doc, const struct notes *warnings,
	     void (*text)(FILE *out, const json_t *doc), int code);

/* --family ipv4|ipv6 -> AF_INET/AF_INET6; anything else is a usage error through argp_error. */
int parse_family_option(const struct argp_state *state, const char *arg);

/* "mlx5_0" or "mlx5_0:1" -> dev, port (0 = all). -EINVAL for a malformed port. */
int parse_dev_port(const char *arg, char *dev, size_t size, unsigned *port);

/* The device/port selection must exist; prints "no RDMA device X (devices: a, b)" and returns EXIT_NOT_FOUND. */
int check_selection(const struct host *host, const char *dev, unsigned port);

#endif
