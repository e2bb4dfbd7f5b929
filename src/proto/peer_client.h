// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's client: what it asks a serve besides a bw test. Each call opens its own control connection,
 * bounds every wait by timeout_s, treats every byte from the serve as hostile, and explains a failure in one
 * line (the serve's address first). docs/bw-protocol.md, "Requests besides tests", has the frames. */
#ifndef ROCE_DOCTOR_PEER_CLIENT_H
#define ROCE_DOCTOR_PEER_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "model/pair.h"
#include "model/snapshot_json.h"
#include "util/secret_file.h"
#include "verbs/perf.h"

/* Every call: secret is the one shared with the serve (--secret-file), NULL for none; the opening
 * (proto/auth.h) comes first, and its refusal is the call's failure.
 *
 * The serve's snapshot, validated whole by the snapshot reader. 0; or -errno with one line in why and *s
 * left empty (snapshot_free-safe): -ECONNREFUSED etc. (no serve), -ETIMEDOUT (silent, or stopped halfway),
 * -ECONNRESET (closed halfway), -EACCES (refused), -EPROTO (a bad frame, out-of-order or oversized chunks,
 * an older serve that does not know the request), -EINVAL (not a valid snapshot: malformed, another schema
 * or version), -ENOMEM. s is large (~100 KiB): allocate it. The serve takes its snapshot when asked (0.1 s on
 * a host, 5-15 s in the TCG VMs of tests/vm), within timeout_s; the connect has its own timeout_s. */
int peer_snapshot(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		  struct snapshot *s, char *why, size_t why_size);
/* peer_snapshot in two halves, so that the serve takes its snapshot while this node takes its own: ask opens the
 * connection and sends the request (*fd then open, or -errno with why as peer_snapshot's); take reads the answer
 * from that fd within timeout_s and closes it, whatever happens (peer_snapshot's results). */
int peer_snapshot_ask(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		      int *fd, char *why, size_t why_size);
int peer_snapshot_take(int fd, const struct sockaddr_storage *serve, unsigned timeout_s, struct snapshot *s, char *why,
		       size_t why_size);

/* What to probe: from local (an address of this host; its port is ignored) to remote (an address of the
 * serve's host) on port (0: the serve picks one from its ip_local_port_range). */
struct peer_reach_ask {
	struct sockaddr_storage local, remote;
	uint16_t port;
	unsigned listen_ms;            /* how long the serve listens: PROTO_REACH_MIN_MS..PROTO_REACH_MAX_MS */
	const char *purpose;           /* "ephemeral", "master_port": copied into the result */
};

/* Fills out (always). 0 when the serve answered (out->outcome ARRIVED, NOT_ARRIVED or REFUSED_BY_PEER);
 * -errno with out->outcome TCP_REACH_ERROR and out->detail when the control connection failed or the answer
 * was invalid (-EPROTO: a listener on another port than asked, an arrival from an address we did not use). */
int peer_tcp_reach(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		   const struct peer_reach_ask *ask, struct tcp_reach_probe *out);

/* One RC QP from local to the serve's remote end (its device, port and GID index, which the serve checks), an
 * RDMA WRITE of a small buffer and an RDMA READ of it back, compared. The RDMA part is bounded by
 * min(timeout_s, 2 s); the QPs retry for about 0.5 s. Fills out (always): OK, NOT_RUN (a side without a GID),
 * TIMEOUT, WC_ERROR, SETUP_FAILED, REFUSED, PEER_GONE (also a serve that answers nonsense). 0 when OK,
 * -1 otherwise. */
int peer_rail_rdma(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		   const struct rail_end *local, const struct rail_end *remote, struct rail_rdma_probe *out);

/* A bw run (RDMA WRITE, 64 KiB messages, one QP, data checked) of duration_ms on the rail, waiting for
 * completions as wait says (perf_wait_for(local target): event on rxe/siw, poll on a NIC, as bw does). Fills
 * out (always; out->run false when a side has no GID). 0 when it ran and checked out, -1 otherwise. */
int peer_rail_bw(const struct sockaddr_storage *serve, const struct secret *secret, unsigned timeout_s,
		 const struct rail_end *local, const struct rail_end *remote, unsigned duration_ms, enum perf_wait wait,
		 struct rail_bw_probe *out);

#endif
