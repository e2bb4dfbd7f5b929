/* Each check id fires on a host made wrong on purpose and stays quiet (ok) on a clean one. */
#include "core/checks.h"
#include "fixture_host.h"
#include "tap.h"

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

static void port_state_fails_on_a_down_port_with_the_netdev_command(void)
{
	struct host host;
	struct findings f;
	struct rdma_port *p;
	const struct finding *it;

	CHECK(probe_fixture("cx6lx-2port", &host) == 0);
	p = port_of(&host, "mlx5_1");
	if (!p)
		goto out;
	p->state = 1;
	strcpy(p->state_name, "DOWN");
	p->phys_state = 3;
	strcpy(p->phys_state_name, "Disabled");
	strcpy(netdev_of(&host, "ens19f1np1")->operstate, "down");
	f = run_checks(&host, NULL);
	it = first_of(&f, "port.state", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "mlx5_1/1") == 0 && strstr(it->fix, "ip link set ens19f1np1 up"));
	it = first_of(&f, "netdev.state", SEVERITY_FAIL);
	CHECK(it && strcmp(it->subject, "ens19f1np1") == 0);
	CHECK(first_of(&f, "port.state", SEVERITY_OK) != NULL);   /* mlx5_0 stays fine */
	findings_free(&f);
out:
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
	struct findings f = { .only = "netdev." };
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

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(clean_host_has_only_ok_and_info);
	RUN(rdma_devices_fails_without_rdma);
	RUN(port_state_fails_on_a_down_port_with_the_netdev_command);
	RUN(netdev_mtu_and_active_mtu_warn_below_4096);
	RUN(port_speed_warns_below_the_fastest_mode_only_when_known);
	RUN(ipv6_only_port_fails_ipv4_and_rocev2);
	RUN(infiniband_port_is_info);
	RUN(gid_env_fails_on_link_local_v1_empty_and_blank);
	RUN(only_and_skip_select_ids);
	TAP_DONE();
}
