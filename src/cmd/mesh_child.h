// SPDX-License-Identifier: GPL-2.0-only
/* mesh's helpers in other processes of this same binary: the node's serve, and each test's bw, whose own
 * exit status and reason are the test's. */
#ifndef ROCE_DOCTOR_MESH_CHILD_H
#define ROCE_DOCTOR_MESH_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/mesh/message.h"

struct mesh_serve {
	pid_t pid;                   /* 0: not running */
	unsigned port;               /* the port it listens on */
	int log_fd;                  /* its stdout and stderr, an unlinked file */
};

/* What a bw run needs besides the order. */
struct mesh_bw_config {
	double seconds;              /* -D */
	uint32_t bytes;              /* -s */
	unsigned timeout_s;          /* --timeout; 0: bw's default */
	const char *secret_file;     /* --secret-file; NULL none */
	const char *device;          /* -d DEV:PORT of this node's rail; NULL: bw chooses */
};

/* Starts `roce-doctor serve --json --port port` (0: a free one) and waits up to wait_s seconds for it to listen:
 * 0 with s filled, or -1 with why ("did not start: " and its own message when it exited). It ends with this
 * process (PR_SET_PDEATHSIG). */
int mesh_serve_start(unsigned port, const char *secret_file, unsigned wait_s, struct mesh_serve *s, char *why,
		     size_t why_size);
void mesh_serve_stop(struct mesh_serve *s);

/* Runs bw to order's peer once: true with *gbps and *link_gbps when it measured, false with why (bw's own
 * last line, or how it ended). */
bool mesh_bw_run(const struct mesh_bw_config *c, const struct mesh_order *order, double *gbps, double *link_gbps,
		 char *why, size_t why_size);

#endif
