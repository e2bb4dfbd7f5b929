// SPDX-License-Identifier: GPL-2.0-only
/* Each check id fires on a host made wrong on purpose and stays quiet (ok) on a clean one. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/checks.h"
#include "core/nccl_env.h"
#include "fixture_host.h"
#include "util/edit_distance.h"
#include "tap.h"


/* Runs the fix's first line with sh, its target (and what follows it) replaced by a temporary file, and
 * compares what it wrote with want: the printf escapes are what a user pastes. */
static bool first_fix_line_writes(const char *fix, const char *target, const char *want)
{
	char path[] = "/tmp/roce-doctor-fix-XXXXXX", line[2048], cmd[4096], got[1024];
	const char *end = strchr(fix, '\n'), *at;
	size_t len = end ? (size_t)(end - fix) : strlen(fix), n;
	bool same = false;
	FILE *fp;
	int fd;

	if (len >= sizeof(line))
		return false;
	memcpy(line, fix, len);
	line[len] = 0;
	at = strstr(line, target);
	fd = mkstemp(path);
	if (!at || fd < 0)
		return false;
	close(fd);
	snprintf(cmd, sizeof(cmd), "%.*s%s", (int)(at - line), line, path);
	if (system(cmd) == 0 && (fp = fopen(path, "r"))) {
		n = fread(got, 1, sizeof(got) - 1, fp);
		got[n] = 0;
		fclose(fp);
		same = strcmp(got, want) == 0;
	}
	unlink(path);
	return same;
}

static struct findings run_checks(const struct host *host, const char *gid_index)
{
	struct findings f = { 0 };
	struct check_input in = { .host = host, .family = AF_INET, .gid_index_value = gid_index };

	checks_run(&in, &f);
	return f;
}

/* The worst severity among findings with this id (-1 when none). */
static int worst_of(const struct findings *f, const char *id)
{
	int worst = -1;

	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].id, id) == 0 && (int)f->items[i].severity > worst)
			worst = (int)f->items[i].severity;
	return worst;
}

static const struct finding *first_of(const struct findings *f, const char *id, enum severity s)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].id, id) == 0 && f->items[i].severity == s)
			return &f->items[i];
	return NULL;
}

static struct netdev *netdev_of(struct host *host, const char *name)
{
	return (struct netdev *)host_find_netdev(host, name);
}

static struct rdma_port *port_of(struct host *host, const char *dev)
{
	return (struct rdma_port *)fixture_port(host, dev, 1);
}

static void clean_host_has_only_ok_and_info(void)
{
	struct host host;
	struct findings f;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	f = run_checks(&host, NULL);
	CHECK(findings_worst(&f) == SEVERITY_INFO);   /* NCCL_IB_GID_INDEX unset is info */
	CHECK(worst_of(&f, "rdma.devices") == SEVERITY_OK);
	CHECK(worst_of(&f, "port.state") == SEVERITY_OK);
	CHECK(worst_of(&f, "netdev.mtu") == SEVERITY_OK);
	CHECK(worst_of(&f, "netdev.ipv4") == SEVERITY_OK);
	CHECK(worst_of(&f, "gid.rocev2") == SEVERITY_OK);
	CHECK(worst_of(&f, "port.link_layer") == -1);
	CHECK(first_of(&f, "gid.env", SEVERITY_INFO) && strstr(first_of(&f, "gid.env", SEVERITY_INFO)->fix,
							       "export NCCL_IB_GID_INDEX=5"));
	findings_free(&f);
	host_free(&host);
}

static void rdma_devices_fails_without_rdma(void)
{
	struct host host;
	struct findings f;

	CHECK(probe_fixture("no-rdma", &host) == 0);
	f = run_checks(&host, NULL);
	CHECK(worst_of(&f, "rdma.devices") == SEVERITY_FAIL);
	CHECK(f.count == 1);
	findings_free(&f);
	host_free(&host);
}

/* check with NCCL_IB_HCA=hca (NULL: unset) selecting the ports, as cmd/check_probe.c sets it. */
static struct findings run_checks_hca(const struct host *host, const char *hca)
{
	static struct nccl_if_list list;
	struct findings f = { 0 };
	struct check_input in = { .host = host, .family = AF_INET };

	if (hca) {
		nccl_if_list_parse(hca, NCCL_IB_HCA_ENTRIES_MAX, &list);
		in.selection = &list;
		in.port_selected = nccl_hca_port_selected;
	}
	checks_run(&in, &f);
	return f;
}

/* mlx5_1 of cx6lx-2port down: its netdev set down (phys state Disabled), or up with no carrier (Polling). */
static struct rdma_port *take_mlx5_1_down(struct host *host, bool set_down)
{
	struct rdma_port *p = port_of(host, "mlx5_1");
	struct netdev *nd = netdev_of(host, "ens19f1np1");

	if (!p || !nd)
		return NULL;
	p->state = 1;
	strcpy(p->state_name, "DOWN");
	p->phys_state = set_down ? 3 : 2;
	strcpy(p->phys_state_name, set_down ? "Disabled" : "Polling");
	strcpy(nd->operstate, "down");
	nd->carrier = 0;
	return p;
}

static void port_state_fails_on_a_down_port_with_the_netdev_command(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	if (!take_mlx5_1_down(&host, true))
		goto out;
	/* NCCL_IB_HCA names the port: NCCL is told to use it, and it is down */
	f = run_checks_hca(&host, "mlx5_0:1,mlx5_1:1");
	it = first_of(&f, "port.state", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "mlx5_1/1") == 0 && strncmp(it->fix, "ip link set ens19f1np1 up\n", 26) == 0);
	CHECK(it && !strstr(it->fix, "ethtool"));
	it = first_of(&f, "netdev.state", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "ens19f1np1") == 0);
	CHECK(first_of(&f, "port.state", SEVERITY_OK) != NULL);   /* mlx5_0 stays fine */
	findings_free(&f);
out:
	host_free(&host);
}

/* A port with no carrier: no command on the node brings it up; the fix is the cable, transceiver or switch. */
static void port_state_without_carrier_names_the_cable_not_ip_link(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	if (!take_mlx5_1_down(&host, false))
		goto out;
	f = run_checks_hca(&host, "=mlx5_0,mlx5_1");
	it = first_of(&f, "netdev.state", SEVERITY_FAIL);
	CHECK(it && strncmp(it->fix, "ethtool ens19f1np1   # ", 23) == 0 && !strstr(it->fix, "ip link set"));
	CHECK(it && strstr(it->fix, "mlxlink -d ") && strstr(it->message, "no carrier"));
	CHECK(findings_worst(&f) == SEVERITY_FAIL);
	findings_free(&f);
out:
	host_free(&host);
}

/* A down port NCCL leaves out (gid --suggest's and nccl-env's rule) while another port carries the job is reported,
 * with how to exclude it, and fails nothing; a down port that is the host's last one still fails. */
static void spare_down_port_is_reported_not_failed(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;
	struct rdma_port *p0;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	if (!take_mlx5_1_down(&host, false) || !(p0 = port_of(&host, "mlx5_0")))
		goto out;
	f = run_checks_hca(&host, NULL);
	it = first_of(&f, "port.state", SEVERITY_INFO);
	CHECK(findings_worst(&f) < SEVERITY_WARN);
	CHECK(it && strcmp(it->subject, "mlx5_1/1") == 0 && strstr(it->message, "no carrier") &&
	      strstr(it->fix, "ethtool ens19f1np1") && strstr(it->fix, "\nexport NCCL_IB_HCA=^mlx5_1:1   # "));
	CHECK(!first_of(&f, "netdev.state", SEVERITY_FAIL) && !first_of(&f, "gid.rocev2", SEVERITY_FAIL));
	findings_free(&f);
	/* excluded by NCCL_IB_HCA: not NCCL's port at all */
	f = run_checks_hca(&host, "^mlx5_1");
	CHECK(findings_worst(&f) < SEVERITY_WARN && !first_of(&f, "port.state", SEVERITY_INFO));
	findings_free(&f);
	/* set down (Disabled): ip link set up is the fix */
	take_mlx5_1_down(&host, true);
	f = run_checks_hca(&host, NULL);
	it = first_of(&f, "port.state", SEVERITY_INFO);
	CHECK(findings_worst(&f) < SEVERITY_WARN && it && strncmp(it->fix, "ip link set ens19f1np1 up\n", 26) == 0);
	findings_free(&f);
	/* both ports down: nothing carries the job */
	p0->state = 1;
	p0->phys_state = 2;
	f = run_checks_hca(&host, NULL);
	CHECK(first_of(&f, "port.state", SEVERITY_FAIL) && !first_of(&f, "port.state", SEVERITY_INFO));
	findings_free(&f);
out:
	host_free(&host);
}

/* The ports NCCL uses at two speeds: check says so by nccl-env's rule, with the same words and the same
 * NCCL_IB_HCA of the fastest; a port left out (NCCL_IB_HCA) is not counted. */
static void rail_speed_reports_slower_ports_as_nccl_env_warns(void)
{
	struct host host;
	struct findings f;
	struct nccl_env env;
	const struct finding *it;
	char why[256], groups[600];
	const char *open_paren;

	CHECK(probe_fixture("eight-hca", &host) == 0);
	f = run_checks_hca(&host, NULL);
	CHECK(worst_of(&f, "port.rail_speed") == SEVERITY_INFO);
	it = first_of(&f, "port.rail_speed", SEVERITY_INFO);
	CHECK(it && strcmp(it->subject, "mlx5_0/1") == 0 && strncmp(it->fix, "export NCCL_IB_HCA=mlx5_1:1,mlx5_2:1,", 37) == 0);
	CHECK(nccl_env_build(&host, AF_INET, NULL, &env, why, sizeof(why)) == 0);
	open_paren = it ? strstr(it->message, "(the usable ports: ") : NULL;
	CHECK(open_paren != NULL);
	if (open_paren) {
		snprintf(groups, sizeof(groups), "%s", open_paren + strlen("(the usable ports: "));
		groups[strlen(groups) - 1] = '\0';
		CHECK(strstr(env.speed_warning, groups) != NULL);
	}
	CHECK(strstr(env.speed_warning, "export NCCL_IB_HCA=mlx5_1:1,mlx5_2:1,") != NULL);
	findings_free(&f);
	/* only the 200 Gb/s rails selected: one speed */
	f = run_checks_hca(&host, "^mlx5_0,mlx5_9");
	CHECK(worst_of(&f, "port.rail_speed") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

static void netdev_mtu_and_active_mtu_warn_below_4096(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;
	struct rdma_port *p;

	CHECK(probe_fixture("softroce", &host) == 0);
	p = port_of(&host, "rxe0");
	if (!p)
		goto out;
	netdev_of(&host, "eth0")->mtu = 1500;
	p->active_mtu = 1024;
	p->max_mtu = 4096;
	f = run_checks(&host, NULL);
	it = first_of(&f, "netdev.mtu", SEVERITY_WARN);
	CHECK(it && strstr(it->fix, "ip link set eth0 mtu 9000") && strstr(it->fix, "nmcli connection modify eth0"));
	CHECK(worst_of(&f, "port.active_mtu") == SEVERITY_WARN);
	CHECK(findings_worst(&f) == SEVERITY_WARN);
	findings_free(&f);
	netdev_of(&host, "eth0")->mtu = 9000;
	p->active_mtu = 4096;
	f = run_checks(&host, NULL);
	CHECK(worst_of(&f, "netdev.mtu") == SEVERITY_OK);
	CHECK(worst_of(&f, "port.active_mtu") == SEVERITY_OK);
	findings_free(&f);
out:
	host_free(&host);
}

static void port_speed_warns_below_the_fastest_mode_only_when_known(void)
{
	struct host host;
	struct findings f;
	struct netdev *nd;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	nd = netdev_of(&host, "ens19f0np0");
	if (!nd)
		goto out;
	f = run_checks(&host, NULL);
	CHECK(worst_of(&f, "port.speed") == -1);   /* under --root the supported modes are unknown */
	findings_free(&f);
	nd->modes_known = true;
	nd->speed_mbps = 10000;
	nd->max_supported_mbps = 25000;
	strcpy(nd->max_supported_mode, "25000baseCR/Full");
	f = run_checks(&host, NULL);
	it = first_of(&f, "port.speed", SEVERITY_WARN);
	CHECK(it && strcmp(it->subject, "mlx5_0/1") == 0 && strstr(it->message, "supports 25000"));
	CHECK(it && strstr(it->fix, "ethtool -s ens19f0np0"));
	findings_free(&f);
	nd->speed_mbps = 25000;
	f = run_checks(&host, NULL);
	CHECK(worst_of(&f, "port.speed") == SEVERITY_OK);
	findings_free(&f);
out:
	host_free(&host);
}

static void ipv6_only_port_fails_ipv4_and_rocev2(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("ipv6-only", &host) == 0);
	f = run_checks(&host, NULL);
	it = first_of(&f, "netdev.ipv4", SEVERITY_FAIL);
	CHECK(it && strstr(it->fix, "ip addr add ADDR/PREFIX dev ens1np0"));
	CHECK(worst_of(&f, "gid.rocev2") == SEVERITY_FAIL);
	findings_free(&f);
	host_free(&host);
}

/* Issue 10: with --family ipv6 the netdev needs a global IPv6 address (netdev.ipv6), not an IPv4 one. */
static void family_ipv6_wants_a_global_ipv6_address_not_ipv4(void)
{
	struct host host;
	struct findings f = { 0 };
	struct check_input in = { .family = AF_INET6 };
	struct netdev *nd;
	const struct finding *it;

	CHECK(probe_fixture("ipv6-only", &host) == 0);
	in.host = &host;
	checks_run(&in, &f);
	CHECK(worst_of(&f, "netdev.ipv4") == -1);
	CHECK(worst_of(&f, "netdev.ipv6") == SEVERITY_OK);
	/* only gid.env fails: with the index and NCCL_IB_ADDR_FAMILY unset every NCCL takes index 0, link-local */
	for (size_t i = 0; i < f.count; i++)
		CHECK(strcmp(f.items[i].id, "gid.env") == 0 || f.items[i].severity <= SEVERITY_INFO);
	it = first_of(&f, "gid.env", SEVERITY_FAIL);
	CHECK(it && strncmp(it->fix, "export NCCL_IB_ADDR_FAMILY=AF_INET6   # ", 40) == 0 &&
	      strstr(it->fix, "\nexport NCCL_IB_GID_INDEX=3   # "));
	findings_free(&f);
	/* live: the addresses from netlink decide; a link-local one is not enough */
	nd = netdev_of(&host, "ens1np0");
	nd->addrs = calloc(1, sizeof(*nd->addrs));
	nd->addrs_known = true;
	nd->addr_count = 1;
	nd->addrs[0].family = AF_INET6;
	nd->addrs[0].prefix_len = 64;
	CHECK(inet_pton(AF_INET6, "fe80::1", &nd->addrs[0].addr) == 1);
	checks_run(&in, &f);
	it = first_of(&f, "netdev.ipv6", SEVERITY_FAIL);
	CHECK(it && strstr(it->fix, "ip -6 addr add ADDR/64 dev ens1np0"));
	findings_free(&f);
	CHECK(inet_pton(AF_INET6, "2001:db8:42::10", &nd->addrs[0].addr) == 1);
	checks_run(&in, &f);
	CHECK(worst_of(&f, "netdev.ipv6") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
	/* a netdev with only fe80:: GIDs under --root */
	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	checks_run(&in, &f);
	CHECK(worst_of(&f, "netdev.ipv6") == SEVERITY_FAIL && worst_of(&f, "netdev.ipv4") == -1);
	findings_free(&f);
	host_free(&host);
}

static void infiniband_port_is_info(void)
{
	struct host host;
	struct findings f;

	CHECK(probe_fixture("infiniband", &host) == 0);
	f = run_checks(&host, NULL);
	CHECK(worst_of(&f, "port.link_layer") == SEVERITY_INFO);
	CHECK(worst_of(&f, "gid.rocev2") == -1);   /* no GID index on IB */
	findings_free(&f);
	host_free(&host);
}

/* Only InfiniBand ports: NCCL addresses them by LID, so unset is right and a set index applies to nothing. */
static void gid_env_on_an_infiniband_host(void)
{
	struct host host;
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("infiniband", &host) == 0);
	f = run_checks(&host, NULL);
	it = first_of(&f, "gid.env", SEVERITY_OK);
	CHECK(worst_of(&f, "gid.env") == SEVERITY_OK && it && strstr(it->message, "InfiniBand mlx5_0/1 by LID"));
	findings_free(&f);
	f = run_checks(&host, "3");
	it = first_of(&f, "gid.env", SEVERITY_INFO);
	CHECK(worst_of(&f, "gid.env") == SEVERITY_INFO && it && strstr(it->message, "has no RoCE port to apply to"));
	CHECK(it && it->fix && strncmp(it->fix, "unset NCCL_IB_GID_INDEX   # in the job's launcher", 49) == 0);
	findings_free(&f);
	host_free(&host);
}

static void gid_env_fails_on_link_local_v1_empty_and_blank(void)
{
	static const char *const bad[] = { "0", "4", "9", "", "five" };
	struct host host;
	struct findings f;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct finding *it;

		f = run_checks(&host, bad[i]);
		it = first_of(&f, "gid.env", SEVERITY_FAIL);
		CHECK(it && strstr(it->fix, "export NCCL_IB_GID_INDEX=5"));
		if (!it)
			printf("# NCCL_IB_GID_INDEX=\"%s\" did not fail\n", bad[i]);
		findings_free(&f);
	}
	f = run_checks(&host, "5");
	CHECK(worst_of(&f, "gid.env") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

static void only_and_skip_select_ids(void)
{
	struct host host;
	const char *only[] = { "netdev.", NULL };
	struct findings f = { .only = only };
	const char *skip[] = { "netdev.mtu", NULL };
	struct check_input in = { .family = AF_INET };

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f.skip = skip;
	checks_run(&in, &f);
	CHECK(f.count > 0);
	for (size_t i = 0; i < f.count; i++)
		CHECK(strncmp(f.items[i].id, "netdev.", 7) == 0 && strcmp(f.items[i].id, "netdev.mtu") != 0);
	findings_free(&f);
	host_free(&host);
}

/* ---- the system checks: inputs built by hand, no I/O ---- */

static void set_nccl(struct nccl_conf *conf, struct nccl_setting *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		items[i].effective = true;
	conf->items = items;
	conf->count = n;
}

static struct nccl_setting env_setting(const char *name, const char *value)
{
	struct nccl_setting s = { .origin = NCCL_FROM_ENV };

	snprintf(s.name, sizeof(s.name), "%s", name);
	snprintf(s.value, sizeof(s.value), "%s", value);
	snprintf(s.source, sizeof(s.source), "environment");
	return s;
}

static struct findings run_input(struct check_input *in)
{
	struct findings f = { 0 };

	checks_run(in, &f);
	return f;
}

static void uverbs_fails_on_a_missing_node_and_is_ok_when_present(void)
{
	struct host host;
	struct uverbs_dev devs[2] = { { .name = "uverbs0", .ibdev = "mlx5_0", .node = { .exists = true } },
				      { .name = "uverbs1", .ibdev = "mlx5_1", .node = { .exists = false } } };
	struct uverbs_probe u = { .devs = devs, .count = 2, .rdma_cm = { .exists = true } };
	struct container_info docker = { .kind = "docker", .evidence = "/.dockerenv" };
	struct check_input in = { .family = AF_INET, .uverbs = &u };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "rdma.uverbs", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "/dev/infiniband/uverbs1") == 0 && strstr(it->fix, "udevadm trigger"));
	findings_free(&f);
	in.container = &docker;
	f = run_input(&in);
	it = first_of(&f, "rdma.uverbs", SEVERITY_FAIL);
	CHECK(it && strstr(it->fix, "--device=/dev/infiniband"));
	findings_free(&f);
	devs[1].node.exists = true;
	devs[1].node.access_known = devs[0].node.access_known = true;
	devs[0].node.read_write = true;
	f = run_input(&in);
	it = first_of(&f, "rdma.uverbs", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "not readable and writable") && strstr(it->fix, "90-rdma-uverbs.rules"));
	findings_free(&f);
	devs[1].node.read_write = true;
	f = run_input(&in);
	CHECK(worst_of(&f, "rdma.uverbs") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

static void kernel_modules_names_the_missing_provider(void)
{
	struct host host;
	struct kernel_module mods[3] = { { .name = "ib_uverbs" }, { .name = "rdma_ucm" }, { .name = "ib_core" } };
	struct module_list list = { .items = mods, .count = 3, .proc_known = true };
	struct check_input in = { .family = AF_INET, .modules = &list };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "kernel.modules", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "mlx5_ib") == 0 && strstr(it->fix, "modprobe mlx5_ib"));
	findings_free(&f);
	snprintf(mods[2].name, sizeof(mods[2].name), "mlx5_ib");
	f = run_input(&in);
	CHECK(worst_of(&f, "kernel.modules") == SEVERITY_OK);
	findings_free(&f);
	list.proc_known = false;
	f = run_input(&in);
	CHECK(worst_of(&f, "kernel.modules") == SEVERITY_INFO);
	findings_free(&f);
	host_free(&host);
}

/* No RDMA device (the H100 VM): rdma.devices is the answer; ib_uverbs and rdma_ucm absent add nothing, and
 * the one module finding left is the cause when a ConnectX driver is loaded without its RDMA provider. */
static void kernel_modules_quiet_without_a_device(void)
{
	struct host host = { 0 };
	struct kernel_module mods[2] = { { .name = "nvidia" }, { .name = "virtio_net" } };
	struct module_list list = { .items = mods, .count = 2, .proc_known = true };
	struct check_input in = { .family = AF_INET, .modules = &list, .host = &host };
	struct findings f = run_input(&in);
	const struct finding *it;

	CHECK(worst_of(&f, "rdma.devices") == SEVERITY_FAIL);
	CHECK(worst_of(&f, "kernel.modules") == -1);   /* none at all */
	findings_free(&f);
	snprintf(mods[1].name, sizeof(mods[1].name), "mlx5_core");
	f = run_input(&in);
	it = first_of(&f, "kernel.modules", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "mlx5_ib") == 0 && strstr(it->fix, "modprobe mlx5_ib") &&
	      strstr(it->message, "mlx5_core is loaded"));
	CHECK(!first_of(&f, "kernel.modules", SEVERITY_INFO));   /* no rdma_ucm line beside it */
	findings_free(&f);
	snprintf(mods[1].name, sizeof(mods[1].name), "i40e");   /* X710: no RDMA function to miss */
	f = run_input(&in);
	CHECK(!first_of(&f, "kernel.modules", SEVERITY_FAIL));
	findings_free(&f);
}

static void gpu_peermem_is_info_without_the_module(void)
{
	struct host host;
	struct nvidia_gpu gpu = { .pci_address = "0000:3b:00.0", .device_id = 0x2330 };
	struct gpu_list gpus = { .items = &gpu, .count = 1 };
	struct kernel_module mods[1] = { { .name = "nvidia" } };
	struct module_list list = { .items = mods, .count = 1, .proc_known = true };
	struct check_input in = { .family = AF_INET, .gpus = &gpus };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	in.modules = &list;
	f = run_input(&in);
	it = first_of(&f, "gpu.peermem", SEVERITY_INFO);
	CHECK(it && strstr(it->fix, "modprobe nvidia_peermem"));
	findings_free(&f);
	snprintf(mods[0].name, sizeof(mods[0].name), "nvidia_peermem");
	f = run_input(&in);
	CHECK(worst_of(&f, "gpu.peermem") == SEVERITY_OK);
	findings_free(&f);
	gpus.count = 0;
	f = run_input(&in);
	CHECK(worst_of(&f, "gpu.peermem") == -1);
	findings_free(&f);
	host_free(&host);
}

static void memlock_limit_fails_small_warns_large_ok_unlimited(void)
{
	struct host host;
	struct memlock_rlimit r = { .known = true, .soft = { .bytes = 64 << 10 }, .hard = { .bytes = 64 << 10 } };
	struct container_info docker = { .kind = "docker", .evidence = "/.dockerenv" };
	struct check_input in = { .family = AF_INET, .rlimit = &r };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "memlock.limit", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "64 KiB") && strstr(it->fix, "prlimit --pid $$ --memlock=unlimited:unlimited"));
	findings_free(&f);
	in.container = &docker;
	f = run_input(&in);
	it = first_of(&f, "memlock.limit", SEVERITY_FAIL);
	CHECK(it && strstr(it->fix, "docker run --ulimit memlock=-1:-1"));
	findings_free(&f);
	in.container = NULL;
	{
		struct register_probe reg = { .tried = true, .err = 0, .device = "mlx5_0", .bytes = 256u << 20 };

		in.reg = &reg;
		f = run_input(&in);
		it = first_of(&f, "memlock.limit", SEVERITY_WARN);
		CHECK(it && strstr(it->message, "CAP_IPC_LOCK"));   /* root registered past the limit */
		findings_free(&f);
		in.reg = NULL;
	}
	r.soft.bytes = 1ull << 30;
	r.hard.unlimited = true;
	f = run_input(&in);
	it = first_of(&f, "memlock.limit", SEVERITY_WARN);
	CHECK(it && strstr(it->fix, "ulimit -l unlimited"));
	findings_free(&f);
	r.soft.unlimited = true;
	f = run_input(&in);
	CHECK(worst_of(&f, "memlock.limit") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

/* Issue 10: on a host without RDMA (register not tried) an 8 MiB limit fails without naming ibv_reg_mr; the
 * call is named only when it ran and failed. */
static void memlock_limit_names_ibv_reg_mr_only_when_it_ran_and_failed(void)
{
	struct host host = { 0 };
	struct memlock_rlimit r = { .known = true, .soft = { .bytes = 8 << 20 }, .hard = { .bytes = 8 << 20 } };
	struct register_probe not_tried = { .bytes = 256u << 20 };
	struct register_probe no_open = { .tried = true, .err = -ENODEV, .step = "ibv_open_device",
					  .bytes = 256u << 20 };
	struct register_probe failed = { .tried = true, .err = -ENOMEM, .step = "ibv_reg_mr", .device = "mlx5_0",
					 .bytes = 256u << 20 };
	struct check_input in = { .host = &host, .family = AF_INET, .live = true, .rlimit = &r, .reg = &not_tried };
	struct findings f;
	const struct finding *it;

	f = run_input(&in);
	it = first_of(&f, "memlock.limit", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "8 MiB") && !strstr(it->message, "ibv_reg_mr") &&
	      !strstr(it->message, "Cannot allocate memory"));
	it = first_of(&f, "memlock.register", SEVERITY_INFO);
	CHECK(it && strstr(it->message, "not tried"));
	findings_free(&f);
	in.reg = &no_open;
	f = run_input(&in);
	it = first_of(&f, "memlock.limit", SEVERITY_FAIL);
	CHECK(it && !strstr(it->message, "ibv_reg_mr") && !strstr(it->message, "Cannot allocate memory"));
	findings_free(&f);
	in.reg = &failed;
	f = run_input(&in);
	it = first_of(&f, "memlock.limit", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "ibv_reg_mr of 256 MiB failed here: Cannot allocate memory"));
	findings_free(&f);
}

static struct limits_line limits_line(const char *file, unsigned line, const char *domain, enum memlock_type type,
				      bool unlimited, uint64_t bytes)
{
	struct limits_line l = { .line = line, .kind = LIMITS_LINE_MEMLOCK, .type = type,
				 .value = { .unlimited = unlimited, .bytes = bytes } };

	snprintf(l.file, sizeof(l.file), "%s", file);
	snprintf(l.domain, sizeof(l.domain), "%s", domain);
	return l;
}

static void memlock_pam_warns_without_an_unlimited_line_for_the_user(void)
{
	struct host host;
	struct user_info alice = { .name = "alice", .uid = 1001, .gid = 1001, .home = "/home/alice" };
	struct limits_line lines[3];
	struct pam_limits pam = { .lines = lines, .count = 0 };
	struct check_input in = { .family = AF_INET, .pam = &pam, .user = &alice };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "memlock.pam", SEVERITY_WARN);
	CHECK(it && strstr(it->fix, "printf '* soft memlock unlimited\\n* hard memlock unlimited\\n' > "
			   "/etc/security/limits.d/99-nccl.conf"));
	findings_free(&f);
	lines[0] = limits_line("/etc/security/limits.d/99-nccl.conf", 1, "*", MEMLOCK_BOTH, true, 0);
	pam.count = 1;
	f = run_input(&in);
	CHECK(worst_of(&f, "memlock.pam") == SEVERITY_OK);
	findings_free(&f);
	/* a user line beats "*" wherever it is: the fix must name alice */
	lines[0] = limits_line("/etc/security/limits.conf", 11, "alice", MEMLOCK_BOTH, false, 65536);
	lines[1] = limits_line("/etc/security/limits.d/99-nccl.conf", 1, "*", MEMLOCK_BOTH, true, 0);
	pam.count = 2;
	f = run_input(&in);
	it = first_of(&f, "memlock.pam", SEVERITY_WARN);
	CHECK(it && strcmp(it->subject, "/etc/security/limits.conf:11") == 0 && strstr(it->fix, "alice soft memlock unlimited"));
	findings_free(&f);
	host_free(&host);
}

static void memlock_systemd_warns_unless_infinity(void)
{
	struct host host;
	struct systemd_memlock sd = { .set = false };
	struct check_input in = { .family = AF_INET, .systemd = &sd };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "memlock.systemd", SEVERITY_WARN);
	CHECK(it && strstr(it->fix, "printf '[Manager]\\nDefaultLimitMEMLOCK=infinity\\n' > "
			   "/etc/systemd/system.conf.d/90-memlock.conf && systemctl daemon-reexec"));
	findings_free(&f);
	/* Without systemd as PID 1 there is nothing to re-exec: the fix only writes the drop-in. */
	sd.manager = SYSTEMD_MANAGER_ABSENT;
	f = run_input(&in);
	it = first_of(&f, "memlock.systemd", SEVERITY_WARN);
	CHECK(it && strstr(it->fix, "/etc/systemd/system.conf.d/90-memlock.conf\n# systemd is not PID 1") &&
	      !strstr(it->fix, "systemctl"));
	findings_free(&f);
	sd.manager = SYSTEMD_MANAGER_RUNNING;
	sd.set = true;
	sd.soft.bytes = sd.hard.bytes = 8 << 20;
	snprintf(sd.file, sizeof(sd.file), "/etc/systemd/system.conf");
	sd.line = 7;
	f = run_input(&in);
	it = first_of(&f, "memlock.systemd", SEVERITY_WARN);
	CHECK(it && strstr(it->message, "8 MiB") && strcmp(it->subject, "/etc/systemd/system.conf:7") == 0);
	findings_free(&f);
	sd.soft.unlimited = sd.hard.unlimited = true;
	f = run_input(&in);
	CHECK(worst_of(&f, "memlock.systemd") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

static void memlock_register_reports_errno_and_unknown(void)
{
	struct host host;
	struct register_probe reg = { .tried = true, .err = -ENOMEM, .step = "ibv_reg_mr", .device = "mlx5_0",
				      .bytes = 256u << 20 };
	struct check_input in = { .family = AF_INET, .reg = &reg, .live = true };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "memlock.register", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "256 MiB") && strstr(it->message, strerror(ENOMEM)) && it->fix &&
	      strncmp(it->fix, "sudo prlimit --pid $$ --memlock=unlimited:unlimited", 50) == 0);
	findings_free(&f);
	/* A device this user cannot open is rdma.uverbs's finding, not a memory one. */
	reg.err = -EACCES;
	reg.step = "ibv_open_device";
	f = run_input(&in);
	it = first_of(&f, "memlock.register", SEVERITY_INFO);
	CHECK(it && strstr(it->message, "not tried: ibv_open_device failed") && strstr(it->message, "rdma.uverbs") &&
	      !it->fix && worst_of(&f, "memlock.register") == SEVERITY_INFO);
	findings_free(&f);
	reg.err = 0;
	f = run_input(&in);
	CHECK(worst_of(&f, "memlock.register") == SEVERITY_OK);
	findings_free(&f);
	reg.tried = false;
	in.live = false;
	f = run_input(&in);
	it = first_of(&f, "memlock.register", SEVERITY_INFO);
	CHECK(it && strstr(it->message, "--root"));
	findings_free(&f);
	host_free(&host);
}

static void firewalld_warns_from_the_process_or_its_table(void)
{
	struct host host;
	struct firewall_procs fw = { .firewalld_running = true, .firewalld_pid = 1234 };
	struct nft_table table = { .family = 1 /* NFPROTO_INET */, .name = "firewalld" };
	struct nft_ruleset rs = { .known = true };
	struct check_input in = { .family = AF_INET, .fw_procs = &fw, .nft = &rs };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "firewall.firewalld", SEVERITY_WARN);
	CHECK(it && strncmp(it->fix, "systemctl disable --now firewalld", 33) == 0 &&
	      strstr(it->fix, "firewall-cmd --permanent --zone=trusted --add-interface=ens19f1np1") &&
	      strstr(it->fix, "--add-port=4791/udp") && strstr(it->fix, "firewall-cmd --reload") &&
	      strstr(it->fix, "--add-port=32768-60999/tcp"));
	findings_free(&f);
	fw.firewalld_running = false;
	rs.tables = &table;
	rs.table_count = 1;
	f = run_input(&in);
	it = first_of(&f, "firewall.firewalld", SEVERITY_WARN);
	CHECK(it && strstr(it->message, "no firewalld process is seen") && strncmp(it->fix, "nft delete table inet firewalld", 31) == 0);
	findings_free(&f);
	rs.table_count = 0;
	f = run_input(&in);
	CHECK(worst_of(&f, "firewall.firewalld") == SEVERITY_OK);
	CHECK(worst_of(&f, "firewall.rules") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

static void firewall_rules_finds_drops_of_tcp_and_4791(void)
{
	struct host host;
	struct nft_table table = { .family = 1 /* NFPROTO_INET */, .name = "filter" };
	struct nft_chain chain = { .family = 1 /* NFPROTO_INET */, .table = "filter", .name = "input", .hook = CHAIN_HOOK_INPUT,
				   .policy = CHAIN_POLICY_ACCEPT, .type = "filter", .first_rule = 0, .rule_count = 2 };
	struct nft_rule rules[2] = {
		{ .chain = 0, .handle = 3, .verdict = RULE_VERDICT_ACCEPT, .l4proto = 6, .dport = 22 },
		{ .chain = 0, .handle = 4, .verdict = RULE_VERDICT_DROP, .l4proto = 17, .dport = 4791 },
	};
	struct nft_ruleset rs = { .known = true, .tables = &table, .table_count = 1, .chains = &chain, .chain_count = 1,
				  .rules = rules, .rule_count = 2 };
	struct firewall_procs fw = { 0 };
	struct check_input in = { .family = AF_INET, .fw_procs = &fw, .nft = &rs };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("softroce", &host) == 0);   /* Soft-RoCE: UDP 4791 passes netfilter */
	in.host = &host;
	f = run_input(&in);
	it = first_of(&f, "firewall.rules", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "inet filter input") == 0 && strstr(it->message, "udp dport 4791") &&
	      strstr(it->fix, "nft insert rule inet filter input udp dport 4791 accept"));
	findings_free(&f);
	rules[1].l4proto = 6;
	rules[1].dport = -1;
	f = run_input(&in);
	it = first_of(&f, "firewall.rules", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "TCP") && strstr(it->fix, "tcp dport"));
	findings_free(&f);
	rules[1].verdict = RULE_VERDICT_ACCEPT;
	f = run_input(&in);
	CHECK(worst_of(&f, "firewall.rules") == SEVERITY_OK);
	findings_free(&f);
	chain.policy = CHAIN_POLICY_DROP;
	f = run_input(&in);
	it = first_of(&f, "firewall.rules", SEVERITY_WARN);
	CHECK(it && strstr(it->message, "policy drop") && strstr(it->message, "udp 4791"));
	findings_free(&f);
	rs.known = false;
	f = run_input(&in);
	CHECK(worst_of(&f, "firewall.rules") == SEVERITY_INFO);
	findings_free(&f);
	host_free(&host);
}

static void add_v4(struct netdev *nd, unsigned a, unsigned b, unsigned c, unsigned d, unsigned len)
{
	struct ip_address *ip;

	free(nd->addrs);
	nd->addrs = calloc(1, sizeof(*nd->addrs));
	if (!nd->addrs)
		return;
	ip = nd->addrs;
	ip->family = AF_INET;
	ip->addr.s6_addr[10] = ip->addr.s6_addr[11] = 0xff;
	ip->addr.s6_addr[12] = (unsigned char)a;
	ip->addr.s6_addr[13] = (unsigned char)b;
	ip->addr.s6_addr[14] = (unsigned char)c;
	ip->addr.s6_addr[15] = (unsigned char)d;
	ip->prefix_len = len;
	nd->addr_count = 1;
	nd->addrs_known = true;
}

static void same_subnet_warns_without_arp_sysctls_or_rules(void)
{
	struct host host;
	struct netdev_arp arp[2] = { { .netdev = "ens19f0np0", .known = true }, { .netdev = "ens19f1np1", .known = true } };
	struct ip_rule_list rules = { .known = true };
	struct check_input in = { .family = AF_INET, .arp = arp, .arp_count = 2, .ip_rules = &rules };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	f = run_input(&in);
	CHECK(worst_of(&f, "net.same_subnet") == SEVERITY_INFO);   /* addresses unknown under --root */
	findings_free(&f);
	add_v4(netdev_of(&host, "ens19f0np0"), 192, 168, 88, 1, 24);
	add_v4(netdev_of(&host, "ens19f1np1"), 192, 168, 88, 11, 24);
	f = run_input(&in);
	it = first_of(&f, "net.same_subnet", SEVERITY_WARN);
	CHECK(it && strstr(it->fix, "net.ipv4.conf.ens19f1np1.arp_ignore=1") &&
	      strstr(it->fix, "net.ipv4.conf.ens19f0np0.arp_announce=2") &&
	      strstr(it->fix, "ip route add 192.168.88.0/24 dev ens19f1np1 src 192.168.88.11 table 102") &&
	      strstr(it->fix, "ip rule add from 192.168.88.1 table 101"));
	CHECK(it && first_fix_line_writes(it->fix, "/etc/sysctl.d/90-roce-arp.conf && sysctl --system",
					  "net.ipv4.conf.ens19f0np0.arp_ignore=1\nnet.ipv4.conf.ens19f0np0.arp_announce=2\n"
					  "net.ipv4.conf.ens19f1np1.arp_ignore=1\nnet.ipv4.conf.ens19f1np1.arp_announce=2\n"));
	findings_free(&f);
	for (int i = 0; i < 2; i++) {
		arp[i].value.ignore = 1;
		arp[i].value.announce = 2;
	}
	f = run_input(&in);
	CHECK(worst_of(&f, "net.same_subnet") == SEVERITY_OK);
	findings_free(&f);
	arp[0].value.ignore = 0;
	add_v4(netdev_of(&host, "ens19f1np1"), 192, 168, 89, 11, 24);
	f = run_input(&in);
	CHECK(worst_of(&f, "net.same_subnet") == -1);   /* different subnets: nothing to say */
	findings_free(&f);
	host_free(&host);
}

static void nccl_ib_hca_finds_the_mlx_1_typo_and_selects_ports(void)
{
	struct host host;
	struct nccl_setting items[2];
	struct nccl_conf conf = { 0 };
	struct nccl_if_list hca;
	struct check_input in = { .family = AF_INET, .nccl = &conf };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	items[0] = env_setting("NCCL_IB_HCA", "mlx5_0,mlx_1");
	items[1] = env_setting("NCCL_IB_GID_INDEX", "0");
	set_nccl(&conf, items, 1);
	nccl_if_list_parse(items[0].value, NCCL_IB_HCA_ENTRIES_MAX, &hca);
	in.selection = &hca;
	in.port_selected = nccl_hca_port_selected;
	in.gid_index_value = "0";
	f = run_input(&in);
	it = first_of(&f, "nccl.ib_hca", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "'mlx_1'") && strcmp(it->fix, "export NCCL_IB_HCA=mlx5_0,mlx5_1") == 0);
	/* the selection drives the port checks: only mlx5_0 is judged by gid.env */
	it = first_of(&f, "gid.env", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "mlx5_0/1") == 0);
	for (size_t i = 0; i < f.count; i++)
		CHECK(strcmp(f.items[i].subject, "mlx5_1/1") != 0);
	findings_free(&f);
	snprintf(items[0].value, sizeof(items[0].value), "=mlx5_1:2");
	nccl_if_list_parse(items[0].value, NCCL_IB_HCA_ENTRIES_MAX, &hca);
	f = run_input(&in);
	it = first_of(&f, "nccl.ib_hca", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "selects no HCA port"));
	findings_free(&f);
	snprintf(items[0].value, sizeof(items[0].value), "mlx5_0:1,mlx5_1");
	nccl_if_list_parse(items[0].value, NCCL_IB_HCA_ENTRIES_MAX, &hca);
	f = run_input(&in);
	CHECK(worst_of(&f, "nccl.ib_hca") == SEVERITY_OK);
	findings_free(&f);
	snprintf(items[0].value, sizeof(items[0].value), "^mlx5_1");
	nccl_if_list_parse(items[0].value, NCCL_IB_HCA_ENTRIES_MAX, &hca);
	f = run_input(&in);
	CHECK(worst_of(&f, "nccl.ib_hca") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

/* The nccl.ib_hca finding for NCCL_IB_HCA=value on a fixture: its severity and fix (NULL when none). */
static int ib_hca_on(const char *fixture, const char *value, char *fix, size_t size, char *message, size_t msize)
{
	struct host host;
	struct nccl_setting item = env_setting("NCCL_IB_HCA", value);
	struct nccl_conf conf = { 0 };
	struct nccl_if_list hca;
	struct check_input in = { .family = AF_INET, .nccl = &conf };
	const char *only[] = { "nccl.ib_hca", NULL };
	struct findings f = { .only = only };
	int severity = -1;

	fix[0] = message[0] = 0;
	if (probe_fixture(fixture, &host) != 0)
		return -1;
	in.host = &host;
	set_nccl(&conf, &item, 1);
	nccl_if_list_parse(item.value, NCCL_IB_HCA_ENTRIES_MAX, &hca);
	in.selection = &hca;
	in.port_selected = nccl_hca_port_selected;
	checks_run(&in, &f);
	if (f.count == 1) {
		severity = (int)f.items[0].severity;
		snprintf(fix, size, "%s", f.items[0].fix ? f.items[0].fix : "");
		snprintf(message, msize, "%s", f.items[0].message);
	}
	findings_free(&f);
	host_free(&host);
	return severity;
}

/* Issue 10: the fix for a typo keeps the user's list: the nearest name for what matches nothing, the right
 * entries as written, '^', '=' and ':port' kept; no near name: dropped, with the reason. */
static void nccl_ib_hca_fix_keeps_the_users_intent(void)
{
	static const struct {
		const char *fixture, *value, *fix, *why;
	} cases[] = {
		/* exactly the field-notes line */
		{ "cx6lx-2port", "mlx5_0,mlx_1", "export NCCL_IB_HCA=mlx5_0,mlx5_1", "'mlx_1' -> mlx5_1 (1 edit)" },
		{ "cx6lx-2port", "=mlx5_0:1,mlx_1:1", "export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1", "'mlx_1:1' -> mlx5_1:1" },
		{ "cx6lx-2port", "^mlx_1", "export NCCL_IB_HCA=^mlx5_1", "'mlx_1' -> mlx5_1" },
		{ "cx6lx-2port", "mlx_", "export NCCL_IB_HCA=mlx5", "'mlx_' -> mlx5 (1 edit)" },   /* a prefix stays a prefix */
		{ "cx6lx-2port", "mlx5_0,mlx_1:2", "export NCCL_IB_HCA=mlx5_0,mlx5_1", "that port is not there" },
		{ "cx6lx-2port", "=mlx5_1:2", "export NCCL_IB_HCA==mlx5_1", "'mlx5_1:2' -> mlx5_1 (no port 2 there)" },
		{ "cx6lx-2port", "mlx5_0,bnxt_re0", "export NCCL_IB_HCA=mlx5_0",
		  "'bnxt_re0' dropped: no HCA name within 2 edits" },
		{ "cx6lx-2port", "mlx5_0,mlx5_2", "export NCCL_IB_HCA=mlx5_0", "'mlx5_2' dropped: as near to mlx5_0 as to mlx5_1" },
		{ "cx6lx-2port", "mlx5_0,mlx_0", "export NCCL_IB_HCA=mlx5_0", "'mlx_0' -> mlx5_0" },
		{ "eight-hca", "mlx5_0,mlx5_1,mlx_2,mlx5_3", "export NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3", "'mlx_2' -> mlx5_2" },
		/* nothing of the list can be kept: the usable ports, as before */
		{ "cx6lx-2port", "bnxt_re0", "export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1", "'bnxt_re0' dropped" },
	};
	char fix[1024], message[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int s = ib_hca_on(cases[i].fixture, cases[i].value, fix, sizeof(fix), message, sizeof(message));

		CHECK(s >= SEVERITY_WARN && strcmp(fix, cases[i].fix) == 0 && strstr(message, cases[i].why));
		if (s < SEVERITY_WARN || strcmp(fix, cases[i].fix) != 0 || !strstr(message, cases[i].why))
			printf("# NCCL_IB_HCA=%s on %s: fix '%s', message '%s'\n", cases[i].value, cases[i].fixture, fix,
			       message);
	}
	/* right as it is: no fix */
	CHECK(ib_hca_on("cx6lx-2port", "mlx5_0,mlx5_1", fix, sizeof(fix), message, sizeof(message)) == SEVERITY_OK &&
	      !fix[0]);
}

static void edit_distance_counts_edits_and_prefixes(void)
{
	unsigned d[EDIT_NAME_MAX + 1];

	CHECK(edit_distance("mlx_1", "mlx5_1") == 1);
	CHECK(edit_distance("", "mlx5_1") == 6 && edit_distance("mlx5_1", "") == 6);
	CHECK(edit_distance("kitten", "sitting") == 3);
	CHECK(edit_distance_to_prefixes("mlx_", "mlx5_0", d) == 6 && d[5] == 1 && d[6] == 2 && d[0] == 4);
}

static void nccl_file_setting_fix_names_the_line(void)
{
	struct host host;
	struct nccl_setting item = env_setting("NCCL_IB_HCA", "mlx5_0,mlx_1");
	struct nccl_conf conf = { 0 };
	struct check_input in = { .family = AF_INET, .nccl = &conf };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	item.origin = NCCL_FROM_FILE;
	snprintf(item.file, sizeof(item.file), "/etc/nccl.conf");
	item.line = 2;
	snprintf(item.source, sizeof(item.source), "/etc/nccl.conf:2");
	set_nccl(&conf, &item, 1);
	f = run_input(&in);
	it = first_of(&f, "nccl.ib_hca", SEVERITY_FAIL);
	CHECK(it && strstr(it->subject, "/etc/nccl.conf:2") &&
	      strcmp(it->fix, "sed -i '2s|.*|NCCL_IB_HCA=mlx5_0,mlx5_1|' /etc/nccl.conf") == 0);
	findings_free(&f);
	host_free(&host);
}

static void nccl_socket_ifname_and_ib_disable(void)
{
	struct host host;
	struct nccl_setting items[2];
	struct nccl_conf conf = { 0 };
	struct check_input in = { .family = AF_INET, .nccl = &conf };
	struct findings f;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	in.host = &host;
	add_v4(netdev_of(&host, "ens19f0np0"), 192, 168, 88, 1, 24);
	add_v4(netdev_of(&host, "ens19f1np1"), 192, 168, 88, 11, 24);
	netdev_of(&host, "eno1")->addrs_known = true;   /* up, no address */
	netdev_of(&host, "lo")->addrs_known = true;
	items[0] = env_setting("NCCL_SOCKET_IFNAME", "eth");
	items[1] = env_setting("NCCL_IB_DISABLE", "1");
	set_nccl(&conf, items, 2);
	f = run_input(&in);
	it = first_of(&f, "nccl.socket_ifname", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "matches no interface of this node") &&
	      strcmp(it->fix, "export NCCL_SOCKET_IFNAME==ens19f0np0") == 0);
	it = first_of(&f, "nccl.ib_disable", SEVERITY_WARN);
	CHECK(it && strstr(it->message, "mlx5_0:1,mlx5_1:1") && strstr(it->fix, "unset NCCL_IB_DISABLE"));
	findings_free(&f);
	snprintf(items[0].value, sizeof(items[0].value), "lo");
	f = run_input(&in);
	it = first_of(&f, "nccl.socket_ifname", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "matches only lo"));
	findings_free(&f);
	snprintf(items[0].value, sizeof(items[0].value), "eno");
	f = run_input(&in);
	it = first_of(&f, "nccl.socket_ifname", SEVERITY_FAIL);
	CHECK(it && strstr(it->message, "matches no up interface with an address (up but no address: eno1)"));
	findings_free(&f);
	snprintf(items[0].value, sizeof(items[0].value), "ens19f0");
	snprintf(items[1].value, sizeof(items[1].value), "0");
	f = run_input(&in);
	CHECK(worst_of(&f, "nccl.socket_ifname") == SEVERITY_OK);
	CHECK(worst_of(&f, "nccl.ib_disable") == SEVERITY_OK);
	findings_free(&f);
	host_free(&host);
}

/* compare's ids_only checks: the same ids, severities and subjects in the same order as the full run, with
 * no text, on every fixture and with NCCL_IB_GID_INDEX pinned or not. */
static void checks_ids_only_keeps_ids_and_severities(void)
{
	static const char *const fixtures[] = { "cx6lx-2port", "cx6lx-vlan", "dgx-h100", "eight-hca", "gb10-twin",
						"h100-vm", "infiniband", "ipv6-only", "malformed", "softroce", "no-rdma" };

	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		struct host host;

		if (probe_fixture(fixtures[i], &host) != 0) {
			CHECK(!"fixture probed");
			continue;
		}
		for (int pinned = 0; pinned < 2; pinned++) {
			struct check_input in = { .host = &host, .family = AF_INET, .gid_index_value = pinned ? "1" : NULL };
			struct findings full = { 0 }, ids = { .ids_only = true };
			bool same;

			checks_run(&in, &full);
			checks_run(&in, &ids);
			same = full.count == ids.count && full.count > 0;
			for (size_t k = 0; same && k < full.count; k++)
				same = strcmp(full.items[k].id, ids.items[k].id) == 0 &&
				       full.items[k].severity == ids.items[k].severity &&
				       strcmp(full.items[k].subject, ids.items[k].subject) == 0 && !ids.items[k].message &&
				       !ids.items[k].fix;
			if (!same)
				printf("# %s (pinned %d): ids_only findings differ\n", fixtures[i], pinned);
			CHECK(same);
			findings_free(&full);
			findings_free(&ids);
		}
		host_free(&host);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(clean_host_has_only_ok_and_info);
	RUN(rdma_devices_fails_without_rdma);
	RUN(port_state_fails_on_a_down_port_with_the_netdev_command);
	RUN(port_state_without_carrier_names_the_cable_not_ip_link);
	RUN(spare_down_port_is_reported_not_failed);
	RUN(rail_speed_reports_slower_ports_as_nccl_env_warns);
	RUN(netdev_mtu_and_active_mtu_warn_below_4096);
	RUN(port_speed_warns_below_the_fastest_mode_only_when_known);
	RUN(ipv6_only_port_fails_ipv4_and_rocev2);
	RUN(family_ipv6_wants_a_global_ipv6_address_not_ipv4);
	RUN(infiniband_port_is_info);
	RUN(gid_env_fails_on_link_local_v1_empty_and_blank);
	RUN(only_and_skip_select_ids);
	RUN(uverbs_fails_on_a_missing_node_and_is_ok_when_present);
	RUN(kernel_modules_names_the_missing_provider);
	RUN(kernel_modules_quiet_without_a_device);
	RUN(gid_env_on_an_infiniband_host);
	RUN(gpu_peermem_is_info_without_the_module);
	RUN(memlock_limit_fails_small_warns_large_ok_unlimited);
	RUN(memlock_limit_names_ibv_reg_mr_only_when_it_ran_and_failed);
	RUN(memlock_pam_warns_without_an_unlimited_line_for_the_user);
	RUN(memlock_systemd_warns_unless_infinity);
	RUN(memlock_register_reports_errno_and_unknown);
	RUN(firewalld_warns_from_the_process_or_its_table);
	RUN(firewall_rules_finds_drops_of_tcp_and_4791);
	RUN(same_subnet_warns_without_arp_sysctls_or_rules);
	RUN(nccl_ib_hca_finds_the_mlx_1_typo_and_selects_ports);
	RUN(nccl_ib_hca_fix_keeps_the_users_intent);
	RUN(edit_distance_counts_edits_and_prefixes);
	RUN(nccl_file_setting_fix_names_the_line);
	RUN(nccl_socket_ifname_and_ib_disable);
	RUN(checks_ids_only_keeps_ids_and_severities);
	TAP_DONE();
}
