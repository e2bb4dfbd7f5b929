// SPDX-License-Identifier: GPL-2.0-only
/* bw, lat and serve's choice of the local port and GID, on fixture hosts: the coverage that ran through
 * 'bw --root' before bw refused --root (it needs live devices), kept on the pure function that decides. */
#include <arpa/inet.h>
#include <infiniband/verbs.h>

#include "cmd/perf_common.h"
#include "fixture_host.h"
#include "tap.h"
#include "util/gidaddr.h"
#include "verbs/perf.h"

struct outcome {
	int ret;
	struct perf_target t;
	char why[1024];
	size_t warnings;
};

static void choose(const char *fixture, const char *selection, int gid_index, const char *peer, struct outcome *o)
{
	struct port_selection sel = { .port = 0 };
	struct in6_addr gid;
	struct notes warnings = { 0 };
	struct host host;

	memset(o, 0, sizeof(*o));
	o->ret = -99;
	if (probe_fixture(fixture, &host) != 0 || ip_parse_as_gid(peer, &gid) < 0 ||
	    (selection && port_selection_parse(selection, &sel) < 0))
		return;
	o->ret = perf_choose_target(&host, &sel, gid_index, &gid, &o->t, &warnings, o->why, sizeof(o->why));
	o->warnings = warnings.count;
	notes_free(&warnings);
	host_free(&host);
}

static void target_softroce_takes_rxe0_gid_1(void)
{
	struct outcome o;

	choose("softroce", NULL, -1, "127.0.0.1", &o);
	CHECK(o.ret == 0);
	CHECK_STR(o.t.device, "rxe0");
	CHECK(o.t.port == 1 && o.t.gid_index == 1 && o.t.software);
	CHECK_STR(o.t.netdev, "eth0");
	CHECK_STR(o.t.address, "10.88.0.1");
	CHECK(perf_wait_for(&o.t) == PERF_WAIT_ADAPTIVE);   /* rxe: spin briefly, then sleep */
}

static void target_without_rdma_says_so(void)
{
	struct outcome o;

	choose("no-rdma", NULL, -1, "10.0.0.2", &o);
	CHECK(o.ret == -1);
	CHECK(strstr(o.why, "no RDMA devices on this host") != NULL);
}

static void target_by_netdev_name_and_spelling(void)
{
	struct outcome o;

	choose("cx6lx-2port", "ens19f1np1", -1, "192.168.88.20", &o);
	CHECK(o.ret == 0);
	CHECK_STR(o.t.device, "mlx5_1");
	CHECK(o.t.port == 1 && o.t.gid_index == 5 && !o.t.software);
	CHECK(perf_wait_for(&o.t) == PERF_WAIT_POLL);
	choose("cx6lx-2port", "mlx5_1/1", -1, "192.168.88.20", &o);
	CHECK(o.ret == 0);
	CHECK_STR(o.t.device, "mlx5_1");
	choose("cx6lx-2port", "mlx5_0:1", -1, "192.168.88.20", &o);
	CHECK(o.ret == 0);
	CHECK_STR(o.t.device, "mlx5_0");
}

static void target_missing_index_names_the_port_as_dev_slash_port(void)
{
	struct outcome o;

	choose("cx6lx-2port", "mlx5_0", 9, "192.168.88.20", &o);
	CHECK(o.ret == -1);
	CHECK(strstr(o.why, "mlx5_0/1 has no GID at index 9") != NULL);
	/* A fe80:: entry asked for by -x is used, with a warning. */
	choose("cx6lx-2port", "mlx5_0", 0, "192.168.88.20", &o);
	CHECK(o.ret == 0 && o.t.gid_index == 0 && o.warnings == 1);
}

static void target_ipv6_only_has_no_ipv4_gid(void)
{
	struct outcome o;

	choose("ipv6-only", NULL, -1, "10.0.0.2", &o);
	CHECK(o.ret == -1);
	CHECK(strstr(o.why, "no usable GID") != NULL);
}

/* Status 9 on Soft-RoCE with several QPs: the explanation adds that rxe itself ends such runs after
 * retransmits and says to run fewer QPs; with one QP, or on a NIC, or for another status, it does not. */
static void explanation_adds_the_software_device_case(void)
{
	struct client_report rep = { .connected = true, .wc_valid = true };
	struct outcome rxe, nic;
	char why[1024];

	choose("softroce", NULL, -1, "127.0.0.1", &rxe);
	choose("cx6lx-2port", "mlx5_1", -1, "192.168.88.20", &nic);
	CHECK(rxe.ret == 0 && rxe.t.software && nic.ret == 0 && !nic.t.software);
	rep.wc.status = IBV_WC_REM_INV_REQ_ERR;
	rep.local.qps = 4;
	perf_wc_explanation(&rep, &rxe.t, why, sizeof(why));
	CHECK(strstr(why, perf_wc_explain(IBV_WC_REM_INV_REQ_ERR)) == why);
	CHECK(strstr(why, "Soft-RoCE") != NULL && strstr(why, "rerun with --qps 1 or --qps 2") != NULL);
	perf_wc_explanation(&rep, &nic.t, why, sizeof(why));
	CHECK_STR(why, perf_wc_explain(IBV_WC_REM_INV_REQ_ERR));
	rep.local.qps = 1;
	perf_wc_explanation(&rep, &rxe.t, why, sizeof(why));
	CHECK_STR(why, perf_wc_explain(IBV_WC_REM_INV_REQ_ERR));
	rep.local.qps = 4;
	rep.wc.status = IBV_WC_RETRY_EXC_ERR;
	perf_wc_explanation(&rep, &rxe.t, why, sizeof(why));
	CHECK_STR(why, perf_wc_explain(IBV_WC_RETRY_EXC_ERR));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(target_softroce_takes_rxe0_gid_1);
	RUN(target_without_rdma_says_so);
	RUN(target_by_netdev_name_and_spelling);
	RUN(target_missing_index_names_the_port_as_dev_slash_port);
	RUN(target_ipv6_only_has_no_ipv4_gid);
	RUN(explanation_adds_the_software_device_case);
	TAP_DONE();
}
