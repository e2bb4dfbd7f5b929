/* The NCCL environment that matches a probed host: a pure function from the host to variables. */
#ifndef ROCE_DOCTOR_NCCL_ENV_H
#define ROCE_DOCTOR_NCCL_ENV_H

#include <stddef.h>

#include "probe/host.h"

#define NCCL_VARS_MAX 8

struct nccl_var {
	char name[32];
	char value[512];
	char comment[256];
};

struct nccl_env {
	struct nccl_var vars[NCCL_VARS_MAX];
	size_t count;
	size_t port_count;          /* usable RoCE ports chosen */
	char summary[256];          /* one line: what was chosen */
};

/* 0, or -ENODEV with why[] saying exactly why nothing usable exists. socket_if may be NULL. */
int nccl_env_build(const struct host *host, int family, const char *socket_if, struct nccl_env *env, char *why,
		   size_t why_size);

#endif
