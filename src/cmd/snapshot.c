// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor snapshot: everything the read-only commands decide from, as one JSON document another
 * roce-doctor answers from with --from FILE. */
#include <errno.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/check_probe.h"
#include "cmd/commands.h"
#include "cmd/snapshot_take.h"
#include "model/snapshot_json.h"
#include "probe/identity.h"
#include "util/rootfs.h"

struct snapshot_args {
	bool one_line;
};

enum { OPT_JSON_LINES = 0x200 };

static const struct argp_option snapshot_options[] = {
	{ "json-lines", OPT_JSON_LINES, NULL, 0, "Write the document on one line (a launcher's merged output is "
	  "then one snapshot per line)", 0 },
	{ 0 }
};

static error_t parse_snapshot(int key, char *arg, struct argp_state *state)
{
	struct snapshot_args *a = state->input;

	switch (key) {
	case OPT_JSON_LINES:
		a->one_line = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp snapshot_argp = {
	snapshot_options, parse_snapshot, NULL,
	"Print one JSON document (roce-doctor/snapshot/v1) of everything devices, gid, nccl-env and check decide "
	"from: the host model, the system sources check reads (as check reads them for its default user), and "
	"identity and versions (host name, UTC time, kernel, rdma-core and its providers, per "
	"device firmware, board id, driver, PCI address). Unknown is null.\v"
	"`roce-doctor --from FILE devices|gid|nccl-env|check' then answers as the command did here. Under --root, the "
	"snapshot holds what the tree holds; live-only members are null.",
	NULL, NULL, NULL,
};

/* The host model comes from app_probe_host (live or --root); the system sources as check reads them (every
 * source, for check's default user; live, the ibv_reg_mr probe runs); identity reads the same root. serve and check
 * --peer take their own node's snapshot through it too. */
int snapshot_take(const struct app *app, struct snapshot *s)
{
	return snapshot_take_then(app, s, NULL, NULL);
}

int snapshot_take_then(const struct app *app, struct snapshot *s, int (*after_host)(void *arg, const struct host *host),
		       void *arg)
{
	const struct findings every = { 0 };
	struct rootfs root;
	char why[512];
	int code = app_probe_host(app, &s->host);
	int ret;

	if (code == EXIT_OK && after_host)
		code = after_host(arg, &s->host);
	if (code != EXIT_OK)
		return code;
	if (check_probe_system(app->root_dir, NULL, &s->host, AF_INET, &every, &s->system, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: %s\n", why);
		return EXIT_CANNOT_RUN;
	}
	s->system_known = true;
	ret = rootfs_open(&root, app->root_dir);
	if (ret == 0) {
		ret = identity_probe(&s->identity, &root, &s->host, time(NULL), &s->warnings);
		rootfs_close(&root);
	}
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: cannot read the host's identity: %s\n", strerror(-ret));
		return EXIT_CANNOT_RUN;
	}
	if (app->root_dir) {
		if (strlen(app->root_dir) >= sizeof(s->root)) {
			fprintf(stderr, "roce-doctor: --root %.64s...: longer than %zu bytes\n", app->root_dir,
				sizeof(s->root) - 1);
			return EXIT_USAGE;
		}
		strcpy(s->root, app->root_dir);
		s->has_root = true;
	}
	return EXIT_OK;
}

static int write_with_newline(const struct app *app, const char *text)
{
	size_t len = strlen(text);
	char *line = malloc(len + 2);
	int code;

	if (!line) {
		fprintf(stderr, "roce-doctor: cannot render the snapshot: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	memcpy(line, text, len);
	memcpy(line + len, "\n", 2);
	code = app_write_document(app, line, len + 1);
	free(line);
	return code;
}

/* Always JSON: indented unless --json-lines or --compact (a snapshot is indented by default wherever it goes). */
static int write_snapshot(const struct app *app, const struct snapshot *s, bool one_line)
{
	json_t *doc = snapshot_to_json(s);
	char *text;
	int code;

	if (!doc) {
		fprintf(stderr, "roce-doctor: cannot build the snapshot: out of memory, or a host file holds text "
			"that is not UTF-8\n");
		return EXIT_CANNOT_RUN;
	}
	text = json_dumps(doc, (one_line ? JSON_COMPACT : JSON_INDENT(2)) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (!text) {
		fprintf(stderr, "roce-doctor: cannot render the snapshot: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	/* The newline belongs to the document: the sink gets both in one piece. */
	code = write_with_newline(app, text);
	free(text);
	return code;
}

int cmd_snapshot(struct app *app, int argc, char **argv)
{
	struct snapshot_args args = { 0 };
	struct snapshot *s;
	int code;

	if (command_parse(&snapshot_argp, COMMON_ROOT, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (args.one_line && app->layout == JSON_LAYOUT_PRETTY) {
		fprintf(stderr, "roce-doctor snapshot: --json-lines and --pretty exclude each other\n");
		return EXIT_USAGE;
	}
	s = calloc(1, sizeof(*s));   /* the identity is ~100 KiB of fixed fields */
	if (!s) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	code = snapshot_take(app, s);
	/* The warnings are in the document too; on stderr as every command says them. */
	for (size_t i = 0; code == EXIT_OK && i < s->host.warnings.count; i++)
		fprintf(stderr, "roce-doctor: warning: %s\n", s->host.warnings.items[i]);
	for (size_t i = 0; code == EXIT_OK && i < s->system.warnings.count; i++)
		fprintf(stderr, "roce-doctor: warning: %s\n", s->system.warnings.items[i]);
	for (size_t i = 0; code == EXIT_OK && i < s->warnings.count; i++)
		fprintf(stderr, "roce-doctor: warning: %s\n", s->warnings.items[i]);
	if (code == EXIT_OK)
		code = write_snapshot(app, s, args.one_line || app->layout == JSON_LAYOUT_COMPACT);
	snapshot_free(s);
	free(s);
	return code;
}
