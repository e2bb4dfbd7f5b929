// SPDX-License-Identifier: GPL-2.0-only
/* Ports of one job at different speeds: NCCL stripes a job over every port it opens, so a slower rail holds the
 * others back. One rule for nccl-env's warning and check's port.rail_speed. Pure. */
#ifndef ROCE_DOCTOR_RAIL_SPEEDS_H
#define ROCE_DOCTOR_RAIL_SPEEDS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/nccl_env.h"
#include "model/host.h"

struct rail_speeds {
	bool mixed;             /* at least two speeds, every one known */
	double fastest;         /* Gb/s */
	char groups[768];       /* "mlx5_0/1 at 100 Gb/s; mlx5_1/1, mlx5_2/1 at 200 Gb/s" */
	char keep_fastest[512]; /* NCCL_IB_HCA's value that keeps only the fastest ports ("mlx5_1:1,mlx5_2:1") */
};

/* ports[n] with their speeds gbps[n] (0 or less: unknown, and then nothing is said). */
void rail_speeds_judge(const struct host *host, const struct nccl_port_ref *ports, const double *gbps, size_t n,
		       struct rail_speeds *out);

/* "the chosen ports differ in speed: GROUPS. NCCL spreads a job over all of them and the slower rails hold the
 * faster back; to keep only the fastest (F Gb/s) rails: export NCCL_IB_HCA=V", or "" when not mixed. */
void rail_speeds_warning(const struct rail_speeds *r, const char *ports_word, char *buf, size_t size);

#endif
