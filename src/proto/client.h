// SPDX-License-Identifier: GPL-2.0-only
/* The bw and lat client: one control connection to a serve, one set of QPs, every message size in turn. */
#ifndef ROCE_DOCTOR_CLIENT_H
#define ROCE_DOCTOR_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "proto/wire.h"
#include "util/secret_file.h"

enum client_check { CLIENT_CHECK_OFF, CLIENT_CHECK_OK, CLIENT_CHECK_BAD };

struct client_size {
	uint32_t size;
	uint64_t iters;                        /* per QP */
	uint64_t bytes, ns;                    /* what this side sent, first post to last completion */
	double peak_bytes_per_s;
	uint64_t peer_bytes, peer_ns;          /* what the serve sent (bidir) */
	uint64_t min_ns, median_ns, p99_ns, max_ns;   /* lat: one-way, half the round trip */
	double avg_ns;
	enum client_check check;
	bool bad_at_serve;                     /* the serve found the mismatch (else this side did) */
	unsigned bad_qp;
	uint32_t bad_offset;
	uint8_t bad_expected, bad_got;
};

struct client_size_list {
	struct client_size *items;
	size_t count;
};

struct client_config {
	struct sockaddr_storage peer;          /* address and TCP port of the serve */
	enum proto_test test;
	enum perf_op op;
	bool bidir, verify;
	bool corrupt;                          /* test hook: flip one byte of the last message */
	bool bad_rkey;                         /* test hook: address the serve's buffer with a wrong rkey */
	unsigned qps, tx_depth, inline_size;
	enum perf_wait wait;                   /* how bw's loop waits for completions */
	int mtu_request;                       /* IBV_MTU_*, 0: the ports decide */
	const uint32_t *sizes;
	size_t size_count;
	uint64_t iters;                        /* per size; 0: duration_ms */
	uint32_t duration_ms;
	unsigned timeout_s;                    /* connect, each reply, and the stall limit of a run */
	const struct secret *secret;           /* shared with the serve (--secret-file); NULL: none */
	const char *device;
	unsigned port;
	int gid_index;
	/* The serve's device, port and GID index (HELLO_ON); NULL: the serve chooses for us (HELLO). */
	const char *serve_device;
	unsigned serve_port;
	int serve_gid_index;
	/* Called before each size starts (bw reads the port's hw_counters there) and after it ended. */
	void (*before_size)(void *arg, size_t index);
	void (*on_size)(void *arg, const struct client_size *r, size_t index);
	void *arg;
};

enum client_failure {
	CLIENT_OK,
	CLIENT_SETUP,                          /* local device or resources */
	CLIENT_CONNECT,                        /* TCP to the serve */
	CLIENT_REFUSED,                        /* the serve said no */
	CLIENT_PROTOCOL,                       /* the serve sent something we cannot accept */
	CLIENT_COMPLETION,                     /* a work completion failed */
	CLIENT_STALL,                          /* no progress within timeout_s */
	CLIENT_PEER_GONE,                      /* the serve closed the connection or reported its own failure */
	CLIENT_CHECK,                          /* the data arrived wrong */
};

struct client_report {
	struct perf_endpoint local, remote;
	bool connected;                        /* local and remote are known */
	int path_mtu;                          /* IBV_MTU_* */
	unsigned inline_granted;
	struct client_size_list sizes;         /* the sizes that completed (and the one that failed the check) */
	enum client_failure failure;
	char message[1024];
	bool stalled_in_run;                   /* CLIENT_STALL of the RDMA transfer, the serve still connected */
	bool wc_valid;
	struct perf_wc_error wc;
	uint32_t failed_size;                  /* the size that was running when it failed; 0 before any */
};

/* Runs the whole test. 0 when every size ran and checked out; -1 with report->failure otherwise. */
int client_run(const struct client_config *cfg, struct client_report *report);
void client_report_free(struct client_report *report);

#endif
