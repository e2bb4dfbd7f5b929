// SPDX-License-Identifier: GPL-2.0-only
/* The table of subcommands. */
#ifndef ROCE_DOCTOR_COMMANDS_H
#define ROCE_DOCTOR_COMMANDS_H

#include "cmd/common.h"

struct command {
	const char *name;
	const char *summary;
	int (*run)(struct app *app, int argc, char **argv);   /* argv[0] is the command name */
};

int cmd_devices(struct app *app, int argc, char **argv);
int cmd_gid(struct app *app, int argc, char **argv);
int cmd_check(struct app *app, int argc, char **argv);
int cmd_nccl_env(struct app *app, int argc, char **argv);
int cmd_nccl(struct app *app, int argc, char **argv);
int cmd_serve(struct app *app, int argc, char **argv);
int cmd_bw(struct app *app, int argc, char **argv);
int cmd_snapshot(struct app *app, int argc, char **argv);
int cmd_compare(struct app *app, int argc, char **argv);
int cmd_lat(struct app *app, int argc, char **argv);
int cmd_topo(struct app *app, int argc, char **argv);
int cmd_explain(struct app *app, int argc, char **argv);
int cmd_counters(struct app *app, int argc, char **argv);
int cmd_mesh(struct app *app, int argc, char **argv);

#endif
