// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor: global options, then one subcommand from the table. */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "output/document_sink.h"

const char *argp_program_version = "roce-doctor " ROCE_DOCTOR_VERSION;
const char *argp_program_bug_address = NULL;

static const struct command commands[] = {
	{ "devices", "RDMA device -> port -> netdev map (ibdev2netdev), link state, MTUs", cmd_devices },
	{ "gid", "GID tables (show_gids); --suggest: the NCCL_IB_GID_INDEX to use", cmd_gid },
	{ "check", "Preflight verdict before training: findings with exact fixes", cmd_check },
	{ "nccl-env", "The NCCL environment that matches this host (sh, env, docker, k8s, json)", cmd_nccl_env },
	{ "nccl", "The NCCL libraries on the node and the GID index each will use", cmd_nccl },
	{ "topo", "GPU x NIC PCIe matrix (nvidia-smi topo -m from sysfs), rails, ACS and link width", cmd_topo },
	{ "snapshot", "One JSON document of the host and its identity, for --from FILE", cmd_snapshot },
	{ "compare", "The nodes' snapshots side by side: the odd nodes out, with fixes", cmd_compare },
	{ "explain", "Read a failing job's log (NCCL, perftest, PyTorch): the cause and the fix", cmd_explain },
	{ "serve", "The other end of bw and lat: one test at a time on TCP 18516", cmd_serve },
	{ "bw", "RDMA bandwidth to a serve, data checked (ib_write_bw built in)", cmd_bw },
	{ "lat", "RDMA-write ping-pong latency to a serve (ib_write_lat built in)", cmd_lat },
	{ "counters", "NIC counters that moved, by meaning: loss, ECN, PFC, receiver buffers", cmd_counters },
	{ "mesh", "Every pair's bandwidth across a job's nodes, run by its launcher (--plan N: the plan)", cmd_mesh },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

struct global {
	struct common_input common;
	int command_index;   /* argv index of the command name, 0 when none */
};

static error_t parse_global(int key, char *arg, struct argp_state *state)
{
	struct global *g = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &g->common;
		return 0;
	case ARGP_KEY_ARG:
		/* Everything from the command name on belongs to the command's own parser. */
		g->command_index = state->next - 1;
		state->next = state->argc;
		return 0;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no command given");
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* One command per line, its summary wrapped under itself: argp would wrap a long line into column 0. */
static void print_command_list(FILE *f)
{
	enum { INDENT = 13, WIDTH = 78 };   /* argp rewraps a line that reaches its right margin, 79 */

	fprintf(f, "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const char *word = commands[i].summary;
		size_t column = (size_t)fprintf(f, "  %-10s ", commands[i].name);

		while (*word) {
			size_t len = strcspn(word, " ");

			if (column > INDENT && column + 1 + len > WIDTH)
				column = (size_t)fprintf(f, "\n%*s", INDENT, "") - 1;
			column += (size_t)fprintf(f, "%s%.*s", column > INDENT ? " " : "", (int)len, word);
			word += len + strspn(word + len, " ");
		}
		fputc('\n', f);
	}
}

static char *help_filter(int key, const char *text, void *input)
{
	char *out;
	size_t len = 0;
	FILE *f;

	(void)input;
	if (key != ARGP_KEY_HELP_POST_DOC)
		return (char *)text;
	f = open_memstream(&out, &len);
	if (!f)
		return (char *)text;
	print_command_list(f);
	/* Short enough that argp does not wrap it: its wrap of a last, unterminated line reads uninitialised bytes. */
	fprintf(f, "\n`roce-doctor help COMMAND' or `roce-doctor COMMAND -h' describes a command.");
	fclose(f);
	return out;
}

int main(int argc, char **argv)
{
	struct common_child common;
	const struct argp_child children[] = { { &common.argp, 0, NULL, 0 }, { 0 } };
	const struct argp argp = {
		NULL, parse_global, "COMMAND [ARGS...]",
		"Bring up and diagnose RoCE links between GPU nodes.\v", children, help_filter, NULL,
	};
	struct app app = { 0 };
	struct global g = { { &app, COMMON_ROOT | COMMON_FROM, NULL }, 0 };
	const struct command *cmd;
	char **cargv;
	int cargc;

	sink_guard_std_fds();
	/* Usage lines and errors say roce-doctor, never the path the binary was started by. */
	argv[0] = "roce-doctor";
	common_child_init(&common, COMMON_ROOT | COMMON_FROM);
	argp_err_exit_status = EXIT_USAGE;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &g) != 0)
		return EXIT_USAGE;
	cargv = argv + g.command_index;
	cargc = argc - g.command_index;
	if (strcmp(cargv[0], "help") == 0) {
		char *help_argv[] = { NULL, "--help", NULL };

		if (cargc < 2) {
			/* Through the parser, so --help, --usage and --version are listed as for --help. */
			help_argv[0] = argv[0];
			return argp_parse(&argp, 2, help_argv, ARGP_IN_ORDER, NULL, &g) == 0 ? EXIT_OK : EXIT_USAGE;
		}
		cmd = find_command(cargv[1]);
		if (!cmd) {
			fprintf(stderr, "roce-doctor: unknown command '%s'\nTry 'roce-doctor --help'.\n", cargv[1]);
			return EXIT_USAGE;
		}
		help_argv[0] = cargv[1];
		return cmd->run(&app, 2, help_argv);
	}
	cmd = find_command(cargv[0]);
	if (!cmd) {
		fprintf(stderr, "roce-doctor: unknown command '%s'\nTry 'roce-doctor --help'.\n", cargv[0]);
		return EXIT_USAGE;
	}
	return cmd->run(&app, cargc, cargv);
}
