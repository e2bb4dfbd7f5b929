// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL environment that matches a probed host: a pure function from the host to variables. */
#ifndef ROCE_DOCTOR_NCCL_ENV_H
#define ROCE_DOCTOR_NCCL_ENV_H

#include <stddef.h>

#include "core/qos/nccl_tc.h"
#include "model/host.h"

#define NCCL_VARS_MAX 8

struct nccl_var {
	char name[32];
	char value[512];
	char comment[256];
};

#define NCCL_LEFT_OUT_MAX 64

/* A port of the host that NCCL_IB_HCA does not name, and why. */
struct nccl_left_out {
	char device[64];
	unsigned port;
	char netdev[IF_NAMESIZE];
	char reason[512];
};

struct nccl_env {
	struct nccl_var vars[NCCL_VARS_MAX];
	size_t count;
	size_t port_count;          /* usable RoCE ports chosen */
	char summary[256];          /* one line: what was chosen */
	struct nccl_left_out left_out[NCCL_LEFT_OUT_MAX];
	size_t left_out_count;      /* past NCCL_LEFT_OUT_MAX only counted in left_out_dropped */
	size_t left_out_dropped;
	char speed_warning[1024];   /* the chosen ports differ in speed: which, and the NCCL_IB_HCA of the fastest */
	struct {                    /* the ports chosen, by value (the host they came from may be a view) */
		char device[64];
		unsigned port;
	} used[NCCL_LEFT_OUT_MAX];
	size_t used_count;
	char notes[QOS_TC_NOTES_MAX][384];   /* what nccl-env leaves unset and why (NCCL_IB_TC) */
	size_t note_count;
};

/* A port as NCCL_IB_HCA names it. */
struct nccl_port_ref {
	const char *device;
	unsigned port;
};

/* NCCL_IB_HCA's value for these ports ("mlx5_0:1,mlx5_1:1"); exclude puts '^' in front; '=' (exact names)
 * follows when a name is a prefix of another device of the host, since NCCL matches entries as prefixes. */
void nccl_hca_value(const struct host *host, const struct nccl_port_ref *ports, size_t n, bool exclude, char *buf,
		    size_t size);

/* 0, or -ENODEV with why[] saying exactly why nothing usable exists. socket_if may be NULL. */
int nccl_env_build(const struct host *host, int family, const char *socket_if, struct nccl_env *env, char *why,
		   size_t why_size);

/* NCCL_IB_TC from the lossless chain of the ports chosen (core/qos/nccl_tc.h): the variable with the chain as its
 * comment, or the notes that say why it is left unset; nothing when their DCB settings are unknown. */
void nccl_env_follow_qos(struct nccl_env *env, const struct qos_host *q);

#endif
