// SPDX-License-Identifier: GPL-2.0-only
/* check's report model: what each finding is about, one finding per root cause, the per-port table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checks.h"
#include "core/findings_locate.h"
#include "core/findings_merge.h"
#include "core/port_table.h"
#include "fixture_host.h"
#include "tap.h"

/* hca: NCCL_IB_HCA, NULL when unset. A down port counts only where NCCL would use it: one the variable names (or
 * the host's last port); otherwise it is a spare, reported as info. */
static struct findings run_report_hca(const struct host *host, int family, const char *hca)
{
	static struct nccl_if_list list;
	struct findings f = { 0 };
	struct check_input in = { .host = host, .family = family };

	if (hca) {
		nccl_if_list_parse(hca, NCCL_IB_HCA_ENTRIES_MAX, &list);
		in.selection = &list;
		in.port_selected = nccl_hca_port_selected;
	}
	checks_run(&in, &f);
	findings_locate(&f, host);
	CHECK(findings_merge_root_causes(&f) == 0);
	return f;
}

static struct findings run_report(const struct host *host, int family)
{
	return run_report_hca(host, family, NULL);
}

static const struct finding *find(const struct findings *f, const char *id, enum severity s, const char *subject)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].id, id) == 0 && f->items[i].severity == s &&
		    (!subject || strcmp(f->items[i].subject, subject) == 0))
			return &f->items[i];
	return NULL;
}

static struct rdma_port *port_of(struct host *host, const char *dev)
{
	return (struct rdma_port *)fixture_port(host, dev, 1);
}

static void take_port_down(struct host *host, const char *dev, const char *netdev)
{
	struct rdma_port *p = port_of(host, dev);

	p->state = 1;
	strcpy(p->state_name, "DOWN");
	p->phys_state = 3;
	strcpy(p->phys_state_name, "Disabled");
	if (netdev)
		strcpy(((struct netdev *)host_find_netdev(host, netdev))->operstate, "down");
}

static void locate_reads_port_netdev_and_file_off_the_subject(void)
{
	struct findings f = { 0 };
	struct host host;
	const char *subjects[] = { "mlx5_3/1", "eth5", "/etc/security/limits.d/99-nccl.conf:1",
				   "NCCL_IB_HCA (/etc/nccl.conf:2)", "/etc/systemd/system.conf.d/90-memlock.conf:2",
				   "ibv_reg_mr", "mlx5_3/7", "lo", "/sys/class/infiniband", "mlx5_4", "mlx5_99" };

	CHECK(probe_fixture("eight-hca", &host) == 0);
	for (size_t i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++)
		finding_add(&f, "x.y", SEVERITY_WARN, subjects[i], NULL, "m");
	findings_locate(&f, &host);
	CHECK(f.count == 11);
	if (f.count != 11)
		goto out;
	CHECK_STR(f.items[0].device, "mlx5_3");
	CHECK(f.items[0].port == 1);
	CHECK_STR(f.items[0].netdev, "eth3");
	CHECK_STR(f.items[0].file, "");
	CHECK_STR(f.items[1].device, "mlx5_5");              /* a netdev: the port it sits under */
	CHECK(f.items[1].port == 1);
	CHECK_STR(f.items[1].netdev, "eth5");
	CHECK_STR(f.items[2].file, "/etc/security/limits.d/99-nccl.conf");
	CHECK_STR(f.items[2].device, "");
	CHECK_STR(f.items[3].file, "/etc/nccl.conf");
	CHECK_STR(f.items[4].file, "/etc/systemd/system.conf.d/90-memlock.conf");
	CHECK(f.items[4].port == 0);                         /* "90-memlock.conf:2" is no port number */
	CHECK(!f.items[5].device[0] && !f.items[5].netdev[0] && !f.items[5].file[0] && !f.items[5].port);
	CHECK(!f.items[6].device[0] && f.items[6].port == 0); /* no port 7 on this host */
	CHECK(!f.items[7].device[0] && f.items[7].port == 0);
	CHECK_STR(f.items[7].netdev, "lo");                  /* a netdev with no RDMA port */
	CHECK_STR(f.items[8].file, "/sys/class/infiniband");
	CHECK_STR(f.items[9].device, "mlx5_4");              /* a bare device: the device, no port, no netdev */
	CHECK(f.items[9].port == 0 && !f.items[9].netdev[0] && !f.items[9].file[0]);
	CHECK(!f.items[10].device[0]);                       /* no such device on this host */
out:
	findings_free(&f);
	host_free(&host);
}

static void a_down_netdev_is_one_finding_covering_port_state(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	take_port_down(&host, "mlx5_1", "ens19f1np1");
	f = run_report_hca(&host, AF_INET, "mlx5_0:1,mlx5_1:1");
	CHECK(find(&f, "port.state", SEVERITY_FAIL, NULL) == NULL);
	CHECK(find(&f, "port.state", SEVERITY_OK, "mlx5_0/1") != NULL);  /* the other rail stays as it was */
	it = find(&f, "netdev.state", SEVERITY_FAIL, "ens19f1np1");
	CHECK(it != NULL);
	if (it) {
		CHECK(it->cover_count == 1 && strcmp(it->covers[0], "port.state") == 0);
		CHECK(strstr(it->message, "ens19f1np1") && strstr(it->message, "mlx5_1/1: port is DOWN"));
		CHECK(strncmp(it->fix, "ip link set ens19f1np1 up\n", 26) == 0);
		CHECK_STR(it->device, "mlx5_1");
	}
	CHECK(findings_worst(&f) == SEVERITY_FAIL);
	findings_free(&f);
	host_free(&host);
}

static void active_mtu_folds_into_netdev_mtu(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("softroce", &host) == 0);
	((struct netdev *)host_find_netdev(&host, "eth0"))->mtu = 1500;
	port_of(&host, "rxe0")->active_mtu = 1024;
	port_of(&host, "rxe0")->max_mtu = 4096;
	f = run_report(&host, AF_INET);
	CHECK(find(&f, "port.active_mtu", SEVERITY_WARN, NULL) == NULL);
	it = find(&f, "netdev.mtu", SEVERITY_WARN, "eth0");
	CHECK(it && it->cover_count == 1 && strcmp(it->covers[0], "port.active_mtu") == 0 &&
	      strstr(it->message, "rxe0/1: active MTU 1024"));
	findings_free(&f);
	host_free(&host);
}

static void a_missing_address_folds_rocev2_in_either_family(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	port_of(&host, "mlx5_1")->gid_count = 4;          /* only the fe80:: entries 0-3 left: no IPv4 */
	f = run_report_hca(&host, AF_INET, "mlx5_0:1,mlx5_1:1");   /* the job names it: a rail */
	CHECK(find(&f, "gid.rocev2", SEVERITY_FAIL, NULL) == NULL);
	it = find(&f, "netdev.ipv4", SEVERITY_FAIL, "ens19f1np1");
	CHECK(it && it->cover_count == 1 && strcmp(it->covers[0], "gid.rocev2") == 0);
	CHECK(find(&f, "netdev.ipv4", SEVERITY_FAIL, "ens19f0np0") == NULL);
	findings_free(&f);
	/* NCCL_IB_HCA unset: the port gid --suggest leaves out beside a working one warns, both findings folded */
	f = run_report(&host, AF_INET);
	CHECK(find(&f, "gid.rocev2", SEVERITY_WARN, NULL) == NULL && find(&f, "netdev.ipv4", SEVERITY_FAIL, NULL) == NULL);
	it = find(&f, "netdev.ipv4", SEVERITY_WARN, "ens19f1np1");
	CHECK(it && it->cover_count == 1 && strcmp(it->covers[0], "gid.rocev2") == 0);
	CHECK(findings_worst(&f) == SEVERITY_WARN);
	findings_free(&f);
	/* IPv6: no global address on either netdev; "ip -6 addr add" fixes both the netdev and its GID. */
	f = run_report(&host, AF_INET6);
	CHECK(find(&f, "gid.rocev2", SEVERITY_FAIL, NULL) == NULL);
	for (const char *const *nd = (const char *const[]){ "ens19f0np0", "ens19f1np1", NULL }; *nd; nd++) {
		it = find(&f, "netdev.ipv6", SEVERITY_FAIL, *nd);
		CHECK(it && it->cover_count == 1 && strcmp(it->covers[0], "gid.rocev2") == 0);
	}
	findings_free(&f);
	host_free(&host);
}

static void a_missing_carrier_is_not_merged(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	take_port_down(&host, "mlx5_1", NULL);            /* netdev up: the fix is advice about the cable */
	f = run_report_hca(&host, AF_INET, "mlx5_0:1,mlx5_1:1");
	it = find(&f, "port.state", SEVERITY_FAIL, "mlx5_1/1");
	CHECK(it && strstr(it->fix, "no command on this node fixes a missing carrier") && it->cover_count == 0);
	CHECK(find(&f, "netdev.state", SEVERITY_OK, "ens19f1np1") != NULL);
	findings_free(&f);
	host_free(&host);
}

static void fix_first_command_drops_the_comment_and_later_lines(void)
{
	char buf[128];

	fix_first_command("ip link set eth0 mtu 9000   # the RoCE MTU follows\nnmcli x", buf, sizeof(buf));
	CHECK_STR(buf, "ip link set eth0 mtu 9000");
	fix_first_command("ip link set eth0 mtu 9000\nnmcli x", buf, sizeof(buf));
	CHECK_STR(buf, "ip link set eth0 mtu 9000");
	fix_first_command(NULL, buf, sizeof(buf));
	CHECK_STR(buf, "");
}

static void port_table_marks_the_cells_findings_are_about(void)
{
	struct host host;
	struct findings f;
	struct check_input in = { .family = AF_INET };
	struct port_row *rows = NULL;
	size_t count = 0;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	take_port_down(&host, "mlx5_1", "ens19f1np1");
	((struct netdev *)host_find_netdev(&host, "ens19f0np0"))->mtu = 1500;
	in.host = &host;
	f = run_report_hca(&host, AF_INET, "mlx5_0:1,mlx5_1:1");
	CHECK(port_table_build(&in, &f, &rows, &count) == 0 && count == 2);
	if (count == 2) {
		CHECK_STR(rows[0].device->name, "mlx5_0");
		CHECK(rows[0].marked[PORT_COL_MTU] == SEVERITY_WARN);
		CHECK(rows[0].marked[PORT_COL_STATE] == SEVERITY_OK && rows[0].marked[PORT_COL_NETDEV] == SEVERITY_OK);
		CHECK(rows[1].marked[PORT_COL_NETDEV] == SEVERITY_FAIL);
		CHECK(rows[1].marked[PORT_COL_STATE] == SEVERITY_FAIL);   /* through covers: port.state */
		CHECK(rows[1].marked[PORT_COL_MTU] == SEVERITY_OK);
		CHECK(rows[0].gid_index == 5 && rows[1].gid_index == 5);
		CHECK(rows[0].selected && rows[1].selected);
	}
	free(rows);
	findings_free(&f);
	host_free(&host);
	CHECK(probe_fixture("eight-hca", &host) == 0);
	in.host = &host;
	f = run_report(&host, AF_INET);
	CHECK(port_table_build(&in, &f, &rows, &count) == 0 && count == 10);
	for (size_t i = 0; i < count; i++) {
		CHECK(rows[i].gid_index == 3);
		CHECK(rows[i].device->numa_known && rows[i].device->numa_node == (i < 5 ? 0 : 1));
		for (int c = 0; c < PORT_COL_COUNT; c++)   /* port.rail_speed: mlx5_0 and mlx5_9 run at 100 of 200 */
			CHECK(rows[i].marked[c] == (c == PORT_COL_SPEED && (i == 0 || i == 9) ? SEVERITY_INFO : SEVERITY_OK));
	}
	free(rows);
	findings_free(&f);
	host_free(&host);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(locate_reads_port_netdev_and_file_off_the_subject);
	RUN(a_down_netdev_is_one_finding_covering_port_state);
	RUN(active_mtu_folds_into_netdev_mtu);
	RUN(a_missing_address_folds_rocev2_in_either_family);
	RUN(a_missing_carrier_is_not_merged);
	RUN(fix_first_command_drops_the_comment_and_later_lines);
	RUN(port_table_marks_the_cells_findings_are_about);
	TAP_DONE();
}
