// SPDX-License-Identifier: GPL-2.0-only
/* The serve side: one test at a time over TCP, every other client refused, every input bounded. */
#ifndef ROCE_DOCTOR_SERVER_H
#define ROCE_DOCTOR_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "util/secret_file.h"
#include "verbs/perf.h"

struct serve_device {
	char device[64];
	unsigned port;
	int gid_index;
	enum perf_wait wait;          /* how the bandwidth loop waits for completions */
};

struct serve_limits {
	unsigned max_qps;
	uint64_t max_memory;          /* bytes registered for one test */
	unsigned max_seconds;         /* one message size, from START to RESULT */
};

/* Seconds a connection may take before its HELLO, and between two frames of a test. */
#define SERVE_HELLO_TIMEOUT_S 10
#define SERVE_IDLE_TIMEOUT_S 30
#define SERVE_MAX_SIZES 64       /* START frames in one test */
#define SERVE_MAX_REQUESTS 16    /* snapshot and reachability requests on one connection */

struct serve_config {
	const char *bind_addr;        /* NULL: every address */
	unsigned port;
	struct serve_limits limits;
	bool corrupt;                 /* test hook: flip one byte of what this side sends last or received */
	/* Whether the client at this address may talk to serve at all: 0, or -1 with why (which the client is
	 * told in a REFUSE before anything else). NULL: everyone. */
	int (*admit)(void *arg, const struct sockaddr_storage *client, char *why, size_t why_size);
	const struct secret *secret;  /* NULL: no challenge; else every connection must prove it knows it */
	const char *allowing;         /* who may talk to it, for the log once it listens; NULL: not said */
	unsigned hello_timeout_ms;    /* the first frame (and AUTH) of a connection; 0: SERVE_HELLO_TIMEOUT_S */
	/* The RDMA port for a client: 0, or -1 with why (which the client is told). */
	int (*choose)(void *arg, const struct sockaddr_storage *client, struct serve_device *out, char *why,
		      size_t why_size);
	/* Its own snapshot document (what `roce-doctor snapshot --json-lines` writes) in a malloc'd *text of *len
	 * bytes: 0, or -1 with why. NULL: SNAPSHOT_REQ is refused. */
	int (*snapshot)(void *arg, char **text, size_t *len, char *why, size_t why_size);
	/* HELLO_ON: checks that device, port and gid_index exist and are usable here and fills out: 0, or -1 with
	 * why (which the client is told). NULL: HELLO_ON is refused. */
	int (*rail)(void *arg, const char *device, unsigned port, int gid_index, struct serve_device *out, char *why,
		    size_t why_size);
	/* One event: the client ("10.88.0.1:40112", NULL for the serve itself), a word, and details. */
	void (*log)(void *arg, const char *client, const char *event, const char *detail);
	void *arg;
};

/* Serves until SIGINT or SIGTERM: 0 then. -errno when it cannot listen, with err. */
int serve_run(const struct serve_config *cfg, char *err, size_t err_size);

#endif
