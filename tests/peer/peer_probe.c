// SPDX-License-Identifier: GPL-2.0-only
/* A test driver for check --peer's client (proto/peer_client.h) until check --peer exists, and after: it calls
 * one client function against a serve and prints what came back, one line, for the shell tests to assert on.
 *   peer_probe snapshot HOST PORT TIMEOUT
 *   peer_probe reach HOST PORT TIMEOUT LOCAL_ADDR REMOTE_ADDR REMOTE_PORT [LISTEN_MS]
 *   peer_probe rail HOST PORT TIMEOUT LDEV LPORT LGID RDEV RPORT RGID
 *   peer_probe bw HOST PORT TIMEOUT LDEV LPORT LGID RDEV RPORT RGID   (waits on completion events, as on rxe)
 * With PEER_PROBE_SECRET_FILE in the environment, that file is the secret shared with the serve (--secret-file).
 * Exit 0 when the function returned 0, 1 when it returned an error (the line says which), 64 for bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/channel.h"
#include "proto/peer_client.h"
#include "util/secret_file.h"

static const char *const reach_names[] = { "NOT_RUN", "ARRIVED", "NOT_ARRIVED", "REFUSED_BY_PEER", "ERROR" };
static const char *const rdma_names[] = { "NOT_RUN", "OK", "TIMEOUT", "WC_ERROR", "SETUP_FAILED", "REFUSED",
					  "PEER_GONE" };

static int usage(void)
{
	fprintf(stderr, "usage: peer_probe snapshot|reach|rail|bw HOST PORT TIMEOUT ...\n");
	return 64;
}

static int address(const char *text, struct sockaddr_storage *a)
{
	char err[256];

	if (chan_resolve(text, 0, a, err, sizeof(err))) {
		fprintf(stderr, "peer_probe: %s\n", err);
		return -1;
	}
	return 0;
}

static void rail_end_of(char **argv, struct rail_end *e)
{
	snprintf(e->device, sizeof(e->device), "%s", argv[0]);
	e->port = (unsigned)atoi(argv[1]);
	e->gid_index = atoi(argv[2]);
}

int main(int argc, char **argv)
{
	static struct secret secret_storage;
	const char *secret_file = getenv("PEER_PROBE_SECRET_FILE");
	const struct secret *secret = NULL;
	struct sockaddr_storage serve;
	char why[1024];
	unsigned timeout;
	int ret;

	if (argc < 5)
		return usage();
	if (secret_file && *secret_file) {
		if (secret_read(secret_file, &secret_storage, why, sizeof(why)) < 0) {
			fprintf(stderr, "peer_probe: %s\n", why);
			return 64;
		}
		secret = &secret_storage;
	}
	timeout = (unsigned)atoi(argv[4]);
	if (chan_resolve(argv[2], (unsigned)atoi(argv[3]), &serve, why, sizeof(why))) {
		fprintf(stderr, "peer_probe: %s\n", why);
		return 64;
	}
	if (strcmp(argv[1], "snapshot") == 0 && argc == 5) {
		struct snapshot *s = calloc(1, sizeof(*s));

		if (!s)
			return 1;
		ret = peer_snapshot(&serve, secret, timeout, s, why, sizeof(why));
		if (ret)
			printf("error %d: %s\n", ret, why);
		else
			printf("snapshot host=%s devices=%zu netdevs=%zu system=%s\n", s->identity.hostname,
			       s->host.device_count, s->host.netdev_count, s->system_known ? "yes" : "no");
		snapshot_free(s);
		free(s);
		return ret ? 1 : 0;
	}
	if (strcmp(argv[1], "reach") == 0 && (argc == 8 || argc == 9)) {
		struct peer_reach_ask ask = { .port = (uint16_t)atoi(argv[7]), .purpose = "test",
					      .listen_ms = argc == 9 ? (unsigned)atoi(argv[8]) : 2000 };
		struct tcp_reach_probe r;

		if (address(argv[5], &ask.local) || address(argv[6], &ask.remote))
			return 64;
		ret = peer_tcp_reach(&serve, secret, timeout, &ask, &r);
		printf("%s ret=%d port=%u from=%s to=%s connect_failed=%d: %s\n", reach_names[r.outcome], ret, r.port,
		       r.local_address, r.remote_address, r.connect_failed, r.detail);
		return ret ? 1 : 0;
	}
	if ((strcmp(argv[1], "rail") == 0 || strcmp(argv[1], "bw") == 0) && argc == 11) {
		struct rail_end local = { 0 }, remote = { 0 };

		rail_end_of(argv + 5, &local);
		rail_end_of(argv + 8, &remote);
		if (strcmp(argv[1], "rail") == 0) {
			struct rail_rdma_probe r;

			ret = peer_rail_rdma(&serve, secret, timeout, &local, &remote, &r);
			printf("%s ret=%d wc_status=%d by_peer=%d mtu=%u rtt_us=%.1f: %s\n", rdma_names[r.outcome], ret,
			       r.wc_status, r.seen_by_peer, r.path_mtu_bytes, r.round_trip_us, r.detail);
		} else {
			struct rail_bw_probe r;

			ret = peer_rail_bw(&serve, secret, timeout, &local, &remote, 500, PERF_WAIT_EVENT, &r);
			printf("bw run=%d ok=%d gbps=%.3f: %s\n", r.run, r.ok, r.gbps, r.detail);
		}
		return ret ? 1 : 0;
	}
	return usage();
}
