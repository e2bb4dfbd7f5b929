// SPDX-License-Identifier: GPL-2.0-only
/* Where check --peer gets what only the peer or the wire can tell: the peer's snapshot and the traffic probes.
 * The serve client (src/proto) implements it against a running `roce-doctor serve`; peer_fixture.c implements
 * it from files (--peer-fixture DIR, for the tests). Every function returns 0 or -errno with one line in why;
 * a probe that ran and failed is 0 with the failure in its result (model/pair.h). Everything a source returns
 * is already validated: the rules trust it. */
#ifndef ROCE_DOCTOR_CMD_PEER_SOURCE_H
#define ROCE_DOCTOR_CMD_PEER_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "model/host.h"
#include "model/pair.h"
#include "model/snapshot_json.h"

struct peer_source {
	void *ctx;
	/* Optional (NULL: nothing to gain): ask for the peer's snapshot now, so the peer takes it while this node
	 * takes its own; fetch_snapshot then reads that answer. */
	int (*ask_snapshot)(void *ctx, char *why, size_t why_size);
	/* The peer's snapshot, as `roce-doctor snapshot` takes it there (its system sources recorded). */
	int (*fetch_snapshot)(void *ctx, struct snapshot *out, char *why, size_t why_size);
	/* An RC queue pair between local and remote (device, port, GID index each), a short RDMA write and a
	 * read-back, within timeout_s. */
	int (*probe_rail)(void *ctx, const struct rail_end *local, const struct rail_end *remote, unsigned timeout_s,
			  struct rail_rdma_probe *out, char *why, size_t why_size);
	/* A short bw run (about half a second) on the rail. */
	int (*probe_bw)(void *ctx, const struct rail_end *local, const struct rail_end *remote, unsigned timeout_s,
			struct rail_bw_probe *out, char *why, size_t why_size);
	/* The peer listens on remote_address:port for a few seconds (port 0: one it picks from its own
	 * ip_local_port_range) and says whether our connection from local_address arrived. out->purpose is the
	 * caller's ("ephemeral", "master_port"). */
	int (*probe_tcp)(void *ctx, const char *local_address, const char *remote_address, uint16_t port,
			 unsigned timeout_s, struct tcp_reach_probe *out, char *why, size_t why_size);
	void (*close)(void *ctx);
	/* This node's host model, set by check --peer once it is known (before any probe): the serve source
	 * waits for completions on a software device as bw does. */
	const struct host *local_host;
	/* The peer's resolved address (the serve's): check --peer refuses one of this host's own. */
	bool address_known;
	struct sockaddr_storage address;
};

/* DIR/snapshot.json (the peer's snapshot) and DIR/probes.json (the probe results; README "check --peer" has its
 * form). 0, or -errno with one line in why naming the file and the member. */
int peer_fixture_open(const char *dir, struct peer_source *src, char *why, size_t why_size);

/* A running `roce-doctor serve` at peer ("host", "host:port", "[v6]:port"; serve's TCP port is 18516 unless
 * named), every request bounded by timeout_s. 0, or -errno with one line in why (bad port, does not resolve). */
/* "host", "host:port", "[v6]:port" or a bare IPv6 address (more than one colon) into host and port (18516 unless
 * named, as bw's PEER with -p). 0, or -EINVAL with one line in why. */
int peer_split(const char *peer, char *host, size_t host_size, unsigned *port, char *why, size_t why_size);

/* A source that asks the serve at peer. It takes secret (app_read_secret's, NULL for none) and frees it on
 * close, or at once when it fails. */
struct secret;
int peer_serve_open(const char *peer, unsigned timeout_s, struct secret *secret, struct peer_source *src, char *why,
		    size_t why_size);

#endif
