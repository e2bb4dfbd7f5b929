// SPDX-License-Identifier: GPL-2.0-only
/* Taking the snapshot document in-process: `roce-doctor snapshot` prints it, serve sends it to check --peer. */
#ifndef ROCE_DOCTOR_CMD_SNAPSHOT_TAKE_H
#define ROCE_DOCTOR_CMD_SNAPSHOT_TAKE_H

#include "cmd/common.h"
#include "model/snapshot_json.h"

/* Fills s (zeroed by the caller) from the host app names (live or --root): EXIT_OK, or an exit code after one
 * line on stderr. snapshot_free(s) either way. */
int snapshot_take(const struct app *app, struct snapshot *s);
/* The same, calling after_host(arg, host) once the host model is read and before the slower system sources
 * (check --peer asks its peer then): an exit code other than EXIT_OK from it ends the snapshot with it. */
int snapshot_take_then(const struct app *app, struct snapshot *s, int (*after_host)(void *arg, const struct host *host),
		       void *arg);

#endif
