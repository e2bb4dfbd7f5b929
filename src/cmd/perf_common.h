// SPDX-License-Identifier: GPL-2.0-only
/* What bw, lat and serve share: the RDMA port and GID for a peer, option values, the test hook. */
#ifndef ROCE_DOCTOR_PERF_COMMON_H
#define ROCE_DOCTOR_PERF_COMMON_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/common.h"
#include "probe/host.h"
#include "proto/client.h"

struct perf_target {
	char device[64];
	unsigned port;
	int gid_index;
	char address[64];             /* the GID as an IP address */
	char netdev[IF_NAMESIZE];
	double link_gbps;             /* 0 unknown */
	bool software;                /* a software RDMA device (rxe, siw: it names its netdev as its parent) */
	char reason[768];             /* why this GID */
};

/* The port sel names (NULL or an empty name: any) and the GID index (-1: what 'gid --suggest --peer' picks)
 * to reach peer (a GID-form address). Prefers an ACTIVE port whose GID's subnet holds the peer.
 * 0, or -1 with why. Warnings (an index that is not RoCE v2) go to warnings. */
int perf_choose_target(const struct host *host, const struct port_selection *sel, int gid_index,
		       const struct in6_addr *peer, struct perf_target *out, struct notes *warnings, char *why,
		       size_t why_size);

/* How bw and serve's loops wait for completions on the target's device: adaptive on a software device, whose
 * work runs on the CPUs a long spin would take (a short spin, then asleep on completion events); spinning on
 * a NIC. */
enum perf_wait perf_wait_for(const struct perf_target *t);

/* The test hook: ROCE_DOCTOR_TEST_CORRUPT=1 flips one byte of the last message. */
bool perf_test_corrupt(void);
/* Test hook ROCE_DOCTOR_TEST_BAD_RKEY=1: bw uses a wrong rkey for the serve's buffer, so the serve's RDMA
 * stack refuses the access and a real work completion fails. */
bool perf_test_bad_rkey(void);

/* Size text for tables: "64", "4K", "1M". */
void format_bytes(uint64_t bytes, char *buf, size_t size);

/* The options bw and lat share: where the serve is and which local GID to use (the port, -d, and --timeout
 * are common options, in struct app). */
struct perf_conn_args {
	const char *peer;
	unsigned tcp_port;
	int gid_index;                /* -1: as 'gid --suggest' */
	int mtu;                      /* bytes; 0: the ports decide */
	bool no_verify;
};

/* An argp child for those options and PEER (malformed: a usage error, not a resolver failure); its input is
 * a struct perf_conn_args, set up by perf_conn_defaults. */
extern const struct argp perf_conn_argp;
void perf_conn_defaults(struct perf_conn_args *a);

/* The message sizes bw and lat share: --size (1 B to 8 MiB, any spelling byte_size_parse takes), --sweep
 * (2 B doubling up to 8 MiB or --size) and --inline. */
#define PERF_SWEEP_COUNT 23       /* 2 B .. 8 MiB */
struct perf_size_args {
	uint64_t size;                /* 0 until given */
	bool sweep;
	unsigned inline_size;
};
/* An argp child for them; its input is a struct perf_size_args with inline_size preset. */
extern const struct argp perf_size_argp;
/* The sizes to run: the sweep, or --size, or fallback. Returns how many. */
size_t perf_sizes(const struct perf_size_args *a, uint32_t fallback, uint32_t sizes[PERF_SWEEP_COUNT]);

/* The common options bw and lat take. */
#define PERF_CLIENT_TAKES (COMMON_DEVICE | COMMON_TIMEOUT | COMMON_SECRET)

/* Resolves the peer, probes the host and chooses the local port and GID (-v: says which sources answered); prints why not (and the probe's
 * warnings) and returns the exit code when it cannot. On EXIT_OK, cfg has peer, device, port, gid, mtu,
 * timeout, verify and --secret-file's secret set (*secret: the caller's to app_free_secret; NULL without the
 * option, and freed here when it returns an error), and warnings holds the probe's warnings for the command's
 * document (notes_free). */
int perf_client_prepare(const struct app *app, const struct perf_conn_args *a, struct client_config *cfg,
			struct perf_target *target, struct notes *warnings, struct secret **secret);

/* The members bw and lat documents share: peer, local and remote ends, path MTU, error (null when none). */
void perf_doc_common(json_t *doc, const struct perf_conn_args *a, const struct perf_target *t,
		     const struct client_report *rep);

/* Prints the failure (and what a completion status usually means) on stderr; returns the exit code:
 * 1 when the test ran and failed, 3 when it could not start. */
int perf_report_failure(const struct client_report *rep, const struct perf_target *t);

/* What rep's failed completion usually means; on a software device, with several QPs, what that adds. */
void perf_wc_explanation(const struct client_report *rep, const struct perf_target *t, char *buf, size_t size);

/* 'check' member text for a size: "ok", "off", "MISMATCH". */
const char *perf_check_name(enum client_check c);

#endif
