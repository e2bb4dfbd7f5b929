/* Shared command plumbing: the common options child parser, probing, emitting, device selection. */
#include "cmd/common.h"

#include <errno.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>

#include "output/render.h"
#include "util/rootfs.h"

enum { OPT_ROOT = 0x100 };

static const struct argp_option common_options[] = {
	{ "json", 'j', NULL, 0, "Print one JSON document on stdout", -1 },
	{ "root", OPT_ROOT, "DIR", 0, "Read /sys, /proc and /etc under DIR (a copied host)", -1 },
	{ "verbose", 'v', NULL, 0, "Say more on stderr", -1 },
	{ 0 }
};

static error_t parse_common(int key, char *arg, struct argp_state *state)
{
	struct app *app = state->input;

	switch (key) {
	case 'j':
		app->json = true;
		return 0;
	case OPT_ROOT:
		app->root_dir = arg;
		return 0;
	case 'v':
		app->verbose++;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp common_argp = { common_options, parse_common, NULL, NULL, NULL, NULL, NULL };

struct parse_inputs {
	void *command_input;
	struct app *app;
};

/* A parser with no options of its own: it hands each child its input (the command's, then struct app). */
static error_t parse_wrapper(int key, char *arg, struct argp_state *state)
{
	const struct parse_inputs *inputs = state->input;

	(void)arg;
	if (key != ARGP_KEY_INIT)
		return ARGP_ERR_UNKNOWN;
	state->child_inputs[0] = inputs->command_input;
	state->child_inputs[1] = inputs->app;
	return 0;
}

int command_parse(const struct argp *argp, int argc, char **argv, void *input, struct app *app)
{
	/* The command's doc and args_doc belong to the wrapper, so --help prints them once. */
	const struct argp options_only = { argp->options, argp->parser, NULL, NULL, argp->children, NULL, NULL };
	const struct argp_child children[] = {
		{ &options_only, 0, NULL, 0 },
		{ &common_argp, 0, "Common options:", 0 },
		{ 0 },
	};
	const struct argp wrapper = { NULL, parse_wrapper, argp->args_doc, argp->doc, children, NULL, NULL };
	struct parse_inputs inputs = { input, app };
	char name[64];
	char *saved = argv[0];
	int ret;

	snprintf(name, sizeof(name), "roce-doctor %s", argv[0]);
	argv[0] = name;
	ret = argp_parse(&wrapper, argc, argv, 0, NULL, &inputs);
	argv[0] = saved;
	return ret;
}

int app_probe_host(const struct app *app, struct host *host)
{
	struct rootfs root;
	int ret = rootfs_open(&root, app->root_dir);

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

int app_emit(const struct app *app, json_t *doc, const struct notes *warnings,
	     void (*text)(FILE *out, const json_t *doc), int code)
{
	for (size_t i = 0; warnings && i < warnings->count; i++)
		fprintf(stderr, "roce-doctor: warning: %s\n", warnings->items[i]);
	if (app->json) {
		if (warnings)
			doc_add_warnings(doc, warnings);
		if (render_json(stdout, doc) < 0)
			code = EXIT_CANNOT_RUN;
	} else {
		text(stdout, doc);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "roce-doctor: cannot write output: %s\n", strerror(errno));
		code = EXIT_CANNOT_RUN;
	}
	return code;
}

int parse_family_option(const struct argp_state *state, const char *arg)
{
	if (strcmp(arg, "ipv4") == 0)
		return AF_INET;
	if (strcmp(arg, "ipv6") == 0)
		return AF_INET6;
	argp_error(state, "bad --family '%s': expected ipv4 or ipv6", arg);
	return 0;
}

int parse_dev_port(const char *arg, char *dev, size_t size, unsigned *port)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	*port = 0;
	if (len == 0 || len >= size)
		return -EINVAL;
	memcpy(dev, arg, len);
	dev[len] = '\0';
	if (colon) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(colon + 1, &end, 10);
		if (colon[1] < '1' || colon[1] > '9' || *end || errno || v > 255)
			return -EINVAL;
		*port = (unsigned)v;
	}
	return 0;
}

int check_selection(const struct host *host, const char *dev, unsigned port)
{
	const struct rdma_device *d;

	if (!dev || !*dev)
		return EXIT_OK;
	d = host_find_device(host, dev);
	if (d) {
		if (port == 0)
			return EXIT_OK;
		for (size_t p = 0; p < d->port_count; p++)
			if (d->ports[p].num == port)
				return EXIT_OK;
		fprintf(stderr, "roce-doctor: %s has no port %u (ports:", dev, port);
		for (size_t p = 0; p < d->port_count; p++)
			fprintf(stderr, " %u", d->ports[p].num);
		fprintf(stderr, ")\n");
		return EXIT_NOT_FOUND;
	}
	fprintf(stderr, "roce-doctor: no RDMA device %s (devices:", dev);
	if (host->device_count == 0)
		fprintf(stderr, " none");
	for (size_t i = 0; i < host->device_count; i++)
		fprintf(stderr, "%s %s", i ? "," : "", host->devices[i].name);
	fprintf(stderr, ")\n");
	return EXIT_NOT_FOUND;
}
