// SPDX-License-Identifier: GPL-2.0-only
/* What `check --peer` measured between two nodes by traffic: the inputs of the pair rules (core/pair_*.c), filled
 * by the serve client (proto/) and read by the rules and the renderers. Plain data: nothing here touches a host. */
#ifndef ROCE_DOCTOR_MODEL_PAIR_H
#define ROCE_DOCTOR_MODEL_PAIR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

/* One end of a rail: an RDMA port and the GID index that side would use (gid --suggest's answer). */
struct rail_end {
	char device[64];                       /* "rxe0", "mlx5_0" */
	unsigned port;                         /* 1-based */
	int gid_index;                         /* -1: the side has no usable GID */
	char address[INET6_ADDRSTRLEN];        /* the GID's address as text, "" when none */
};

/* RDMA reachability on one rail: an RC queue pair between the two ends, a short RDMA WRITE and a read-back. */
enum rail_rdma_outcome {
	RAIL_RDMA_NOT_RUN,                     /* no usable GID on one side, or the probe was skipped */
	RAIL_RDMA_OK,
	RAIL_RDMA_TIMEOUT,                     /* no completion within the probe's timeout (retry exceeded or silence) */
	RAIL_RDMA_WC_ERROR,                    /* a work completion failed: wc_status says which */
	RAIL_RDMA_SETUP_FAILED,                /* a QP could not be moved to RTR/RTS (e.g. the path), on either side */
	RAIL_RDMA_REFUSED,                     /* the serve refused the rail (its port, GID or a limit) */
	RAIL_RDMA_PEER_GONE,                   /* the serve closed the control connection or stopped answering */
};

struct rail_rdma_probe {
	enum rail_rdma_outcome outcome;
	int wc_status;                         /* enum ibv_wc_status when RAIL_RDMA_WC_ERROR, else 0 */
	bool seen_by_peer;                     /* the failure was the serve's (its completion, its setup) */
	unsigned path_mtu_bytes;               /* the path MTU the QPs ran with, 0 when not connected */
	double round_trip_us;                  /* write + read-back, when OK */
	char detail[256];                      /* the error as reported (peer text already sanitised) */
};

/* A short bandwidth run on one rail (about half a second). */
struct rail_bw_probe {
	bool run;
	bool ok;
	double gbps;                           /* measured, payload bits per second / 1e9 */
	bool serve_gone;                       /* the serve closed the control connection or stopped answering */
	char detail[256];                      /* why it failed, when !ok */
};

/* A TCP connection from this node to a port the peer listened on for a few seconds (NCCL's bootstrap path). */
enum tcp_reach_outcome {
	TCP_REACH_NOT_RUN,
	TCP_REACH_ARRIVED,                     /* the peer saw our connection arrive */
	TCP_REACH_NOT_ARRIVED,                 /* we connected or tried, and the peer saw nothing: a filter between */
	TCP_REACH_REFUSED_BY_PEER,             /* the peer would not listen there (address not its own, port in use) */
	TCP_REACH_ERROR,                       /* the control connection failed or the answer was invalid */
};

struct tcp_reach_probe {
	enum tcp_reach_outcome outcome;
	char purpose[32];                      /* "ephemeral", "master_port" */
	char local_address[INET6_ADDRSTRLEN];  /* where we connected from */
	char remote_address[INET6_ADDRSTRLEN]; /* the peer's address we connected to */
	uint16_t port;                         /* the port the peer listened on */
	bool connect_failed;                   /* our connect() failed (refused, unreachable, timed out) */
	int connect_errno;
	char detail[256];
};

#endif
