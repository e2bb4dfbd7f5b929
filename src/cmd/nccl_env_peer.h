// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env --peer: one NCCL environment for this node and a peer, and the launch lines (core/pair_env.c). */
#ifndef ROCE_DOCTOR_CMD_NCCL_ENV_PEER_H
#define ROCE_DOCTOR_CMD_NCCL_ENV_PEER_H

#include "cmd/common.h"

/* Exit code: 0, 2 when no rail is usable on both nodes, 3 when a model cannot be had. */
int nccl_env_peer_run(const struct app *app, const char *peer, const char *fixture, unsigned master_port);

#endif
