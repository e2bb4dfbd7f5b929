// SPDX-License-Identifier: GPL-2.0-only
/* compare over N nodes built from the eight-hca fixture: each compare.* id fires on a planted difference and
 * names exactly the odd nodes; clean sets give only ok findings; ties, unknowns, bounds; 10,000 nodes. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/compare.h"
#include "fixture_host.h"
#include "tap.h"

#define NODES_MAX 32

static struct host fixture;          /* eight-hca, probed once */
static struct compare_board boards[HOST_DEVICES_MAX];
static char board_ids[HOST_DEVICES_MAX][32];
static size_t board_count;

static const struct compare_setting providers[] = { { "mlx5", "50.0", NULL }, { "efa", "50.0", NULL } };
static const struct compare_setting providers_old[] = { { "efa", "50.0", NULL }, { "mlx5", "47.0", NULL } };
static const struct compare_setting nccl_env[] = { { "NCCL_IB_HCA", "mlx5", "environment" },
						   { "NCCL_SOCKET_IFNAME", "eth0", "/etc/nccl.conf" } };
static const struct compare_setting nccl_odd[] = { { "NCCL_IB_HCA", "mlx5_0", "environment" },
						   { "NCCL_SOCKET_IFNAME", "eth0", "/etc/nccl.conf" } };
static const struct compare_setting nccl_extra[] = { { "NCCL_IB_HCA", "mlx5", "environment" },
						     { "NCCL_SOCKET_IFNAME", "eth0", "/etc/nccl.conf" },
						     { "NCCL_NET_GDR_LEVEL", "0", "/home/tutu/.nccl.conf" } };
static const struct compare_nccl_lib nccl_libs[] = {
	{ "/usr/lib/x86_64-linux-gnu/libnccl.so.2", "2.21.5", "dpkg", "libnccl2", "2.21.5-1+cuda12.4",
	  "the linker's cache (/etc/ld.so.cache)", false },
	{ "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", "2.21.5", "pip",
	  "nvidia-nccl-cu12", "2.21.5", "venv /opt/torch/.venv", false },
};
static const struct compare_nccl_lib nccl_libs_old[] = {
	{ "/usr/lib/x86_64-linux-gnu/libnccl.so.2", "2.18.3", "dpkg", "libnccl2", "2.18.3-1+cuda12.2",
	  "the linker's cache (/etc/ld.so.cache)", false },
	{ "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", "2.21.5", "pip",
	  "nvidia-nccl-cu12", "2.21.5", "venv /opt/torch/.venv", false },
};
static const struct compare_check memlock_fails[] = { { "memlock.limit", SEVERITY_FAIL }, { "port.state", SEVERITY_OK } };

/* The lossless chain of eight-hca's ten ports (mlx5_K/1 on ethK) as NVIDIA's guides set it up: trust dscp, the
 * default DSCP map (26 lands on 3), PFC on priority 3. */
static struct qos_port qos_ports[10];
static const struct qos_host qos_clean = { qos_ports, 10 };
static const struct compare_setting nccl_tc106[] = { { "NCCL_IB_HCA", "mlx5", "environment" },
						     { "NCCL_IB_TC", "106", "environment" },
						     { "NCCL_SOCKET_IFNAME", "eth0", "/etc/nccl.conf" } };
static const struct compare_setting nccl_tc130[] = { { "NCCL_IB_HCA", "mlx5", "environment" },
						     { "NCCL_IB_TC", "130", "environment" },
						     { "NCCL_SOCKET_IFNAME", "eth0", "/etc/nccl.conf" } };

static void qos_ports_init(void)
{
	for (unsigned k = 0; k < 10; k++) {
		struct qos_port *p = &qos_ports[k];

		memset(p, 0, sizeof(*p));
		snprintf(p->device, sizeof(p->device), "mlx5_%u", k);
		snprintf(p->netdev, sizeof(p->netdev), "eth%u", k);
		p->port = 1;
		p->forced_tc = p->default_roce_tos = -1;
		p->dcb = (struct qos_dcb){ .known = true, .pfc_known = true, .pfc_enabled = 1 << 3, .trust_known = true,
					   .trust = QOS_TRUST_DSCP, .trust_source = QOS_TRUST_FROM_MLNX_QOS };
		for (unsigned i = 0; i < QOS_PRIOS; i++)
			p->ecn[i] = QOS_UNKNOWN;
	}
}

/* A set of nodes and the hosts they own (cloned from the fixture to be changed). */
struct world {
	struct compare_node nodes[NODES_MAX];
	struct qos_host qos[NODES_MAX];     /* a node's own lossless chain (qos_own), else qos_clean */
	char names[NODES_MAX][16], files[NODES_MAX][32];
	struct host hosts[NODES_MAX];
	bool owns[NODES_MAX];
	size_t n;
	struct findings out;
};

static void host_clone(struct host *dst, const struct host *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->device_count = src->device_count;
	dst->devices = calloc(src->device_count, sizeof(*dst->devices));
	for (size_t d = 0; d < src->device_count; d++) {
		struct rdma_device *dd = &dst->devices[d];

		*dd = src->devices[d];
		dd->ports = calloc(dd->port_count, sizeof(*dd->ports));
		for (size_t p = 0; p < dd->port_count; p++) {
			dd->ports[p] = src->devices[d].ports[p];
			dd->ports[p].gids = calloc(dd->ports[p].gid_count + 1, sizeof(struct gid_entry));
			memcpy(dd->ports[p].gids, src->devices[d].ports[p].gids,
			       dd->ports[p].gid_count * sizeof(struct gid_entry));
		}
	}
	dst->netdev_count = src->netdev_count;
	dst->netdevs = calloc(src->netdev_count, sizeof(*dst->netdevs));
	for (size_t i = 0; i < src->netdev_count; i++) {
		dst->netdevs[i] = src->netdevs[i];
		dst->netdevs[i].addrs = calloc(src->netdevs[i].addr_count + 1, sizeof(struct ip_address));
		memcpy(dst->netdevs[i].addrs, src->netdevs[i].addrs, src->netdevs[i].addr_count * sizeof(struct ip_address));
	}
}

static struct rdma_port *port_of(struct host *h, const char *dev)
{
	for (size_t d = 0; d < h->device_count; d++)
		if (strcmp(h->devices[d].name, dev) == 0)
			return &h->devices[d].ports[0];
	return NULL;
}

static struct netdev *netdev_of(struct host *h, const char *name)
{
	for (size_t i = 0; i < h->netdev_count; i++)
		if (strcmp(h->netdevs[i].name, name) == 0)
			return &h->netdevs[i];
	return NULL;
}

static void set_address(struct netdev *nd, unsigned a, unsigned b, unsigned c, unsigned d, unsigned len)
{
	nd->addrs_known = true;
	nd->addr_count = 1;
	nd->addrs[0].family = AF_INET;
	memset(&nd->addrs[0].addr, 0, sizeof(nd->addrs[0].addr));
	nd->addrs[0].addr.s6_addr[10] = nd->addrs[0].addr.s6_addr[11] = 0xff;
	nd->addrs[0].addr.s6_addr[12] = (uint8_t)a;
	nd->addrs[0].addr.s6_addr[13] = (uint8_t)b;
	nd->addrs[0].addr.s6_addr[14] = (uint8_t)c;
	nd->addrs[0].addr.s6_addr[15] = (uint8_t)d;
	nd->addrs[0].prefix_len = len;
}

/* Every node its own host: eth K holds 10.0.K.(node+1)/24, every port an active MTU of 4096. */
static struct host *own_host(struct world *w, size_t i)
{
	struct host *h = &w->hosts[i];

	if (w->owns[i])
		return h;
	host_clone(h, &fixture);
	for (size_t d = 0; d < h->device_count; d++)
		h->devices[d].ports[0].active_mtu = 4096;
	for (size_t k = 0; k < 10; k++) {
		char name[16];

		snprintf(name, sizeof(name), "eth%zu", k);
		set_address(netdev_of(h, name), 10, 0, (unsigned)k, (unsigned)i + 1, 24);
	}
	w->owns[i] = true;
	w->nodes[i].host = h;
	return h;
}

static void world_init(struct world *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->n = n;
	for (size_t i = 0; i < n; i++) {
		struct compare_node *node = &w->nodes[i];

		snprintf(w->names[i], sizeof(w->names[i]), "b%02zu", i + 1);
		snprintf(w->files[i], sizeof(w->files[i]), "b%02zu.json", i + 1);
		*node = (struct compare_node){
			.hostname = w->names[i], .file = w->files[i], .host = &fixture, .kernel = "6.8.0-45-generic",
			.rdma_core = "50.0", .providers = providers, .provider_count = 2, .providers_known = true,
			.boards = boards, .board_count = board_count, .nccl_libs = nccl_libs, .nccl_lib_count = 2,
			.nccl_libs_known = true, .nccl = nccl_env,
			.nccl_count = 2, .nccl_known = true, .memlock_kind = COMPARE_MEMLOCK_UNLIMITED, .firewall = "none",
			.checks_known = true, .qos = &qos_clean,
		};
	}
}

/* Every node its own host with addresses: what rails and duplicate addresses need. */
static void world_init_owned(struct world *w, size_t n)
{
	world_init(w, n);
	for (size_t i = 0; i < n; i++)
		own_host(w, i);
}

/* Node i's own copy of the lossless chain, to be changed. */
static struct qos_port *qos_own(struct world *w, size_t i)
{
	if (!w->qos[i].ports) {
		w->qos[i].ports = calloc(10, sizeof(*w->qos[i].ports));
		memcpy(w->qos[i].ports, qos_ports, sizeof(qos_ports));
		w->qos[i].count = 10;
		w->nodes[i].qos = &w->qos[i];
	}
	return w->qos[i].ports;
}

static void world_free(struct world *w)
{
	for (size_t i = 0; i < w->n; i++) {
		if (w->owns[i])
			host_free(&w->hosts[i]);
		qos_host_free(&w->qos[i]);
	}
	findings_free(&w->out);
}

static void dump(const struct findings *f, const char *id);

/* COMPARE_DUMP=1 prints every finding of every run, to read what compare says. */
static int run_compare(struct world *w)
{
	int ret;

	findings_free(&w->out);
	ret = compare_nodes(w->nodes, w->n, AF_INET, &w->out);
	/* every id emitted is one compare_ids lists (and so one roce-doctor-checks(7) documents) */
	for (size_t i = 0; i < w->out.count; i++) {
		const char *const *id = compare_ids;

		while (*id && strcmp(*id, w->out.items[i].id) != 0)
			id++;
		if (!*id) {
			printf("# emitted id %s is not in compare_ids\n", w->out.items[i].id);
			tap_failed_checks++;
		}
	}
	if (getenv("COMPARE_DUMP"))
		dump(&w->out, NULL);
	return ret;
}

static const struct finding *not_ok(const struct findings *f, const char *id)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].id, id) == 0 && f->items[i].severity > SEVERITY_OK)
			return &f->items[i];
	return NULL;
}

static size_t count_id(const struct findings *f, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += strcmp(f->items[i].id, id) == 0;
	return n;
}

/* TAP diagnostics: every line starts with '#', a fix of several lines too (else meson reads them as output
 * it does not know). */
static void dump(const struct findings *f, const char *id)
{
	for (size_t i = 0; i < f->count; i++) {
		const char *fix = f->items[i].fix ? f->items[i].fix : "-";

		if (id && strcmp(f->items[i].id, id) != 0)
			continue;
		printf("# %s %s [%s] %s\n", f->items[i].id, severity_name(f->items[i].severity), f->items[i].subject,
		       f->items[i].message);
		while (*fix) {
			size_t len = strcspn(fix, "\n");

			printf("#   fix: %.*s\n", (int)len, fix);
			fix += len + (fix[len] == '\n');
		}
	}
}

/* The finding with id names exactly the odd nodes (in its message and its fix) and no other node. */
static bool names_exactly(const struct world *w, const char *id, const char *odd_list)
{
	const struct finding *f = not_ok(&w->out, id);
	bool good = f && f->fix;

	for (size_t i = 0; good && i < w->n; i++) {
		char name[20];
		bool odd;

		snprintf(name, sizeof(name), ",%s,", w->names[i]);
		odd = strstr(odd_list, name) != NULL;
		if ((strstr(f->message, w->names[i]) != NULL) != odd || (strstr(f->fix, w->names[i]) != NULL) != odd) {
			printf("# %s: %s is %s the odd nodes but %snamed\n", id, w->names[i], odd ? "among" : "not among",
			       odd ? "not " : "");
			good = false;
		}
	}
	if (!good)
		dump(&w->out, id);
	return good;
}

static bool fix_has(const struct world *w, const char *id, const char *needle)
{
	const struct finding *f = not_ok(&w->out, id);

	if (f && f->fix && strstr(f->fix, needle))
		return true;
	printf("# %s: fix lacks \"%s\"\n", id, needle);
	dump(&w->out, id);
	return false;
}

static bool message_has(const struct world *w, const char *id, const char *needle)
{
	const struct finding *f = not_ok(&w->out, id);

	if (f && strstr(f->message, needle))
		return true;
	printf("# %s: message lacks \"%s\"\n", id, needle);
	dump(&w->out, id);
	return false;
}

static void compare_clean_set_is_all_ok_with_every_id(void)
{
	struct world w;

	world_init_owned(&w, 7);
	CHECK(run_compare(&w) == 0);
	CHECK(findings_worst(&w.out) <= SEVERITY_INFO);
	for (const char *const *id = compare_ids; *id; id++)
		if (count_id(&w.out, *id) == 0) {
			printf("# no finding for %s on a clean set\n", *id);
			tap_failed_checks++;
		}
	if (findings_worst(&w.out) > SEVERITY_INFO)
		dump(&w.out, NULL);
	world_free(&w);
}

static void compare_names_odd_software(void)
{
	struct world w;

	world_init(&w, 7);
	w.nodes[2].kernel = w.nodes[5].kernel = "6.5.0-1-generic";
	w.nodes[1].rdma_core = "47.0";
	w.nodes[3].providers = providers_old;
	w.nodes[6].nccl_libs = nccl_libs_old;
	w.nodes[4].firewall = "firewalld";
	w.nodes[0].memlock_kind = COMPARE_MEMLOCK_BYTES;
	w.nodes[0].memlock_bytes = 65536;
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.kernel", ",b03,b06,"));
	CHECK(message_has(&w, "compare.kernel", "from the majority, 6.8.0-45-generic (5 nodes)"));
	CHECK(fix_has(&w, "compare.kernel", "linux-image-6.8.0-45-generic"));
	CHECK(names_exactly(&w, "compare.rdma_core", ",b02,"));
	CHECK(fix_has(&w, "compare.rdma_core", "rdma-core=50.0"));
	CHECK(names_exactly(&w, "compare.providers", ",b04,"));
	CHECK(message_has(&w, "compare.providers", "efa=50.0,mlx5=47.0 on b04"));
	CHECK(names_exactly(&w, "compare.nccl_version", ",b07,"));
	CHECK(message_has(&w, "compare.nccl_version", "NCCL at /usr/lib/x86_64-linux-gnu/libnccl.so.2"));
	CHECK(message_has(&w, "compare.nccl_version", "2.18.3 on b07"));
	CHECK(fix_has(&w, "compare.nccl_version", "`apt install libnccl2=2.21.5-1+cuda12.4`"));
	CHECK(names_exactly(&w, "compare.firewall", ",b05,"));
	CHECK(fix_has(&w, "compare.firewall", "4791/udp"));
	CHECK(names_exactly(&w, "compare.memlock", ",b01,"));
	CHECK(not_ok(&w.out, "compare.memlock") && not_ok(&w.out, "compare.memlock")->severity == SEVERITY_FAIL);
	CHECK(fix_has(&w, "compare.memlock", "* hard memlock unlimited"));
	/* providers listed in another order are the same providers */
	CHECK(!not_ok(&w.out, "compare.hca_count") && !not_ok(&w.out, "compare.gid_index"));
	world_free(&w);
}

static void compare_names_odd_hcas(void)
{
	struct world w;
	struct host *h;

	world_init(&w, 7);
	h = own_host(&w, 1);   /* driver */
	snprintf(h->devices[4].driver, sizeof(h->devices[4].driver), "mlx4_core");
	h = own_host(&w, 2);   /* one HCA fewer */
	for (size_t p = 0; p < h->devices[9].port_count; p++)
		free(h->devices[9].ports[p].gids);
	free(h->devices[9].ports);
	h->device_count--;
	h = own_host(&w, 3);   /* renamed */
	snprintf(h->devices[9].name, sizeof(h->devices[9].name), "mlx5_bond_0");
	h = own_host(&w, 5);   /* firmware of one ConnectX-6 */
	snprintf(h->devices[3].fw_ver, sizeof(h->devices[3].fw_ver), "20.31.1014");
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.driver", ",b02,"));
	CHECK(message_has(&w, "compare.driver", "mlx5_core,mlx4_core on b02"));
	CHECK(names_exactly(&w, "compare.hca_count", ",b03,"));
	CHECK(message_has(&w, "compare.hca_count", "majority, 10 (6 nodes): 9 on b03"));
	/* b03 lacks mlx5_9, b04 calls it mlx5_bond_0 */
	CHECK(names_exactly(&w, "compare.hca_names", ",b03,b04,"));
	CHECK(names_exactly(&w, "compare.firmware", ",b06,"));
	CHECK(message_has(&w, "compare.firmware", "firmware of board MT_0000000223"));
	/* b06's other HCAs of the board run the others' version: the one that differs is named, inside b06 */
	CHECK(message_has(&w, "compare.firmware", "differs inside b06: mlx5_3 runs 20.31.1014"));
	CHECK(fix_has(&w, "compare.firmware", "burn firmware 20.36.1010 on mlx5_3 (now 20.31.1014)"));
	/* mlx5_3 (0000:4d:00.0) has the odd firmware; mlx5_1 is the first HCA of that board */
	CHECK(fix_has(&w, "compare.firmware", "mstflint -d 0000:4d:00.0 "));
	world_free(&w);
}

static void compare_names_odd_ports(void)
{
	struct world w;

	world_init_owned(&w, 7);
	port_of(&w.hosts[1], "mlx5_2")->rate_gbps = 100;
	port_of(&w.hosts[2], "mlx5_4")->link_layer = LINK_LAYER_INFINIBAND;
	netdev_of(&w.hosts[3], "eth5")->mtu = 1500;
	netdev_of(&w.hosts[6], "eth5")->mtu = 1500;
	port_of(&w.hosts[4], "mlx5_6")->active_mtu = 1024;
	set_address(netdev_of(&w.hosts[5], "eth7"), 10, 9, 7, 6, 24);
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.port_rate", ",b02,"));
	CHECK(strcmp(not_ok(&w.out, "compare.port_rate")->subject, "mlx5_2/1") == 0);
	CHECK(fix_has(&w, "compare.port_rate", "ethtool eth2"));
	CHECK(names_exactly(&w, "compare.link_layer", ",b03,"));
	CHECK(fix_has(&w, "compare.link_layer", "LINK_TYPE_P1=2"));
	CHECK(names_exactly(&w, "compare.mtu", ",b04,b07,"));
	CHECK(fix_has(&w, "compare.mtu", "`ip link set dev eth5 mtu 9000`"));
	CHECK(names_exactly(&w, "compare.active_mtu", ",b05,"));
	CHECK(fix_has(&w, "compare.active_mtu", "ip link set dev eth6 mtu 9000"));
	CHECK(names_exactly(&w, "compare.rails", ",b06,"));
	CHECK(message_has(&w, "compare.rails", "majority, 10.0.7.0/24 (6 nodes): 10.9.7.0/24 on b06"));
	CHECK(fix_has(&w, "compare.rails", "`ip addr del 10.9.7.6/24 dev eth7 && ip addr add 10.0.7.6/24 dev eth7`"));
	CHECK(!not_ok(&w.out, "compare.duplicate_address"));
	world_free(&w);
}

/* Two nodes, one each: no majority, but RoCE wants the larger MTU and rate: the fix goes to the node with less,
 * whichever comes first (b01 with 1500 sorts before b02's 9000 in text). */
static void compare_two_nodes_tie_on_the_larger(void)
{
	struct world w;

	world_init_owned(&w, 2);
	netdev_of(&w.hosts[0], "eth5")->mtu = 1500;
	port_of(&w.hosts[1], "mlx5_2")->rate_gbps = 25;
	CHECK(run_compare(&w) == 0);
	CHECK(message_has(&w, "compare.mtu", "netdev MTU of mlx5_5/1 differs between the two nodes: 9000 on b02; 1500 on b01"));
	CHECK(fix_has(&w, "compare.mtu", "on b01 (MTU 1500): `ip link set dev eth5 mtu 9000`"));
	CHECK(!fix_has(&w, "compare.mtu", "mtu 1500`"));
	CHECK(fix_has(&w, "compare.port_rate", "b02"));
	CHECK(!fix_has(&w, "compare.port_rate", "on b01"));
	world_free(&w);
}

/* b03 and b06 have their GIDs one slot up (index 4), everyone pins 3 in /etc/nccl.conf */
static void compare_gid_index_and_wrong_pin(void)
{
	struct world w;

	world_init(&w, 7);
	for (size_t k = 0; k < 2; k++) {
		struct host *h = own_host(&w, k ? 5 : 2);

		for (size_t d = 0; d < h->device_count; d++)
			for (size_t g = 0; g < h->devices[d].ports[0].gid_count; g++)
				h->devices[d].ports[0].gids[g].index++;
	}
	for (size_t i = 0; i < w.n; i++) {
		w.nodes[i].gid_index_pinned = "3";
		w.nodes[i].gid_index_source = "/etc/nccl.conf";
	}
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.gid_index", ",b03,b06,"));
	CHECK(message_has(&w, "compare.gid_index", "majority, 3 (5 nodes): 4 on b03,b06"));
	CHECK(fix_has(&w, "compare.gid_index", "NCCL_IB_ADDR_FAMILY=AF_INET"));
	CHECK(names_exactly(&w, "compare.gid_index_pinned", ",b03,b06,"));
	CHECK(message_has(&w, "compare.gid_index_pinned",
			  "NCCL_IB_GID_INDEX=3 (from /etc/nccl.conf) is wrong on b03,b06, where the index is 4"));
	CHECK(fix_has(&w, "compare.gid_index_pinned", "in /etc/nccl.conf: NCCL_IB_GID_INDEX=4"));
	CHECK(fix_has(&w, "compare.gid_index_pinned", "NCCL >= 2.21"));
	CHECK(not_ok(&w.out, "compare.gid_index_pinned")->severity == SEVERITY_FAIL);
	/* pinned in the environment, right where it is pinned: nothing wrong */
	for (size_t i = 0; i < w.n; i++)
		w.nodes[i].gid_index_source = "environment";
	w.nodes[2].gid_index_pinned = w.nodes[5].gid_index_pinned = "4";
	CHECK(run_compare(&w) == 0);
	CHECK(!not_ok(&w.out, "compare.gid_index_pinned"));
	w.nodes[5].gid_index_pinned = "3";
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.gid_index_pinned", ",b06,"));
	CHECK(fix_has(&w, "compare.gid_index_pinned", "`export NCCL_IB_GID_INDEX=4`"));
	world_free(&w);
}

static void compare_nccl_settings_and_check_summary(void)
{
	struct world w;

	world_init(&w, 7);
	w.nodes[1].nccl = nccl_odd;
	w.nodes[4].nccl_count = 1;   /* NCCL_SOCKET_IFNAME unset there */
	w.nodes[2].checks = w.nodes[6].checks = memlock_fails;
	w.nodes[2].check_count = w.nodes[6].check_count = 2;
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.nccl_settings", ",b02,"));
	CHECK(fix_has(&w, "compare.nccl_settings", "`export NCCL_IB_HCA=mlx5`"));
	{
		const struct finding *f = NULL;

		for (size_t i = 0; i < w.out.count; i++)
			if (strcmp(w.out.items[i].subject, "NCCL_SOCKET_IFNAME") == 0)
				f = &w.out.items[i];
		CHECK(f && f->severity == SEVERITY_WARN && strstr(f->message, "(unset) on b05") &&
		      strstr(f->fix, "on b05: in /etc/nccl.conf: NCCL_SOCKET_IFNAME=eth0, as on the others"));
	}
	/* set on one node only: the unset majority is not listed, the node that sets it is */
	w.nodes[1].nccl = nccl_extra;
	w.nodes[1].nccl_count = 3;
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.nccl_settings", ",b02,"));
	CHECK(message_has(&w, "compare.nccl_settings", "NCCL_NET_GDR_LEVEL: 1 of 7 nodes differs from the majority, (unset) (6 nodes): 0 on b02"));
	CHECK(fix_has(&w, "compare.nccl_settings", "on b02: delete the line NCCL_NET_GDR_LEVEL=0 from /home/tutu/.nccl.conf"));
	CHECK(names_exactly(&w, "compare.check_summary", ",b03,b07,"));
	CHECK(message_has(&w, "compare.check_summary", "fail on 2 of 7 nodes: b03,b07"));
	CHECK(fix_has(&w, "compare.check_summary", "roce-doctor check --only memlock.limit"));
	CHECK(count_id(&w.out, "compare.check_summary") == 1);   /* port.state was ok: not summarised */
	world_free(&w);
}

/* gid.env warn on b01, fail on b02 (and warn on another port of it), info on b03: each node is named at its own
 * severity, and the id is said once (it is the subject). */
static void compare_check_summary_per_severity(void)
{
	static const struct compare_check warn[] = { { "gid.env", SEVERITY_WARN } };
	static const struct compare_check fail[] = { { "gid.env", SEVERITY_WARN }, { "gid.env", SEVERITY_FAIL } };
	static const struct compare_check info[] = { { "gid.env", SEVERITY_INFO } };
	const struct compare_check *checks[] = { warn, fail, info };
	const size_t counts[] = { 1, 2, 1 };
	const char *want[] = { "warn on 1 of 3 nodes: b01", "fail on 1 of 3 nodes: b02", "info on 1 of 3 nodes: b03" };
	const enum severity sev[] = { SEVERITY_WARN, SEVERITY_FAIL, SEVERITY_INFO };
	struct world w;
	size_t found = 0;

	world_init(&w, 3);
	for (size_t i = 0; i < 3; i++) {
		w.nodes[i].checks = checks[i];
		w.nodes[i].check_count = counts[i];
	}
	CHECK(run_compare(&w) == 0);
	for (size_t i = 0; i < w.out.count; i++) {
		const struct finding *f = &w.out.items[i];

		if (strcmp(f->id, "compare.check_summary") != 0)
			continue;
		found++;
		CHECK(strcmp(f->subject, "gid.env") == 0 && !strstr(f->message, "gid.env"));
		for (size_t k = 0; k < 3; k++)
			if (strstr(f->message, want[k]) && f->severity != sev[k])
				CHECK(!"severity of the node's own finding");
	}
	CHECK(found == 3);
	for (size_t k = 0; k < 3; k++) {
		bool seen = false;

		for (size_t i = 0; i < w.out.count; i++)
			seen |= strcmp(w.out.items[i].id, "compare.check_summary") == 0 && strstr(w.out.items[i].message, want[k]);
		if (!seen)
			printf("# no check_summary says \"%s\"\n", want[k]);
		CHECK(seen);
	}
	if (tap_failed_checks)
		dump(&w.out, "compare.check_summary");
	world_free(&w);
}

static void compare_duplicate_address_and_hostname(void)
{
	struct world w;

	world_init_owned(&w, 7);
	set_address(netdev_of(&w.hosts[5], "eth1"), 10, 0, 1, 3, 24);   /* b03's eth1 address */
	w.nodes[6].hostname = "b01";                                     /* a cloned image */
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.duplicate_address", ",b03,b06,"));
	CHECK(strcmp(not_ok(&w.out, "compare.duplicate_address")->subject, "10.0.1.3") == 0);
	CHECK(fix_has(&w, "compare.duplicate_address", "on b06: `ip addr del 10.0.1.3/24 dev eth1`"));
	CHECK(message_has(&w, "compare.hostname", "host name b01 is in 2 snapshots: b01.json, b07.json"));
	CHECK(message_has(&w, "compare.hostname", "MPI hostfiles and Slurm node names"));
	CHECK(not_ok(&w.out, "compare.hostname")->severity == SEVERITY_WARN);   /* NCCL still tells them apart */
	CHECK(fix_has(&w, "compare.hostname", "hostnamectl set-hostname"));
	/* the two b01 are named by file name in every other finding */
	w.nodes[6].kernel = "6.1.0";
	CHECK(run_compare(&w) == 0);
	CHECK(message_has(&w, "compare.kernel", "6.1.0 on b07.json"));
	world_free(&w);
	/* two VMs that never set a name: said as unset, a warning, the fix on each */
	world_init(&w, 2);
	w.nodes[0].hostname = w.nodes[1].hostname = "(none)";
	CHECK(run_compare(&w) == 0);
	CHECK(message_has(&w, "compare.hostname", "the host name is unset (the kernel's (none)) on 2 nodes: b01.json, b02.json"));
	CHECK(not_ok(&w.out, "compare.hostname") && not_ok(&w.out, "compare.hostname")->severity == SEVERITY_WARN);
	CHECK(fix_has(&w, "compare.hostname", "`hostnamectl set-hostname NAME`"));
	CHECK(findings_worst(&w.out) == SEVERITY_WARN);
	world_free(&w);
}

/* Messages read as sentences: no "all 2 nodes", no "1 nodes", no "tied at", for one node and two alike. */
static void compare_words_are_for_people(void)
{
	static const char *const wrong[] = { "all 1 nodes", "all 2 nodes", " 1 nodes", "tied at", " 1 board ids",
					     "(1 variables", "+1 more values" };
	struct world w;

	for (size_t n = 1; n <= 2; n++) {
		world_init_owned(&w, n);
		w.nodes[0].kernel = NULL;
		w.nodes[n - 1].rdma_core = "47.0";
		w.nodes[0].checks = memlock_fails;
		w.nodes[0].check_count = 2;
		CHECK(run_compare(&w) == 0);
		for (size_t i = 0; i < w.out.count; i++)
			for (size_t k = 0; k < sizeof(wrong) / sizeof(wrong[0]); k++)
				if (strstr(w.out.items[i].message, wrong[k])) {
					printf("# %zu nodes: %s says \"%s\": %s\n", n, w.out.items[i].id, wrong[k],
					       w.out.items[i].message);
					tap_failed_checks++;
				}
		world_free(&w);
	}
}

static void compare_tie_says_no_majority(void)
{
	struct world w;

	world_init(&w, 4);
	w.nodes[2].kernel = w.nodes[3].kernel = "6.5.0";
	CHECK(run_compare(&w) == 0);
	CHECK(message_has(&w, "compare.kernel", "kernel has no majority: the 2 most common values are on 2 nodes each: "
			  "6.5.0 on b03,b04; 6.8.0-45-generic on b01,b02"));
	CHECK(fix_has(&w, "compare.kernel", "no value has a majority: pick"));
	world_free(&w);
}

static void compare_unknown_is_never_different(void)
{
	struct world w;
	const struct finding *f = NULL;

	world_init(&w, 6);
	w.nodes[1].kernel = w.nodes[4].kernel = NULL;
	w.nodes[2].nccl_known = false;
	w.nodes[3].memlock_kind = COMPARE_MEMLOCK_UNKNOWN;
	w.nodes[5].host = NULL;
	CHECK(run_compare(&w) == 0);
	CHECK(findings_worst(&w.out) <= SEVERITY_INFO);
	for (size_t i = 0; i < w.out.count; i++)
		if (strcmp(w.out.items[i].id, "compare.kernel") == 0)
			f = &w.out.items[i];
	CHECK(f && strstr(f->message, "on all 4 nodes (2 nodes unknown)"));
	/* an odd node among unknowns is named, the unknown ones are not */
	w.nodes[3].kernel = "6.1.0";
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.kernel", ",b04,"));
	CHECK(message_has(&w, "compare.kernel", "(2 nodes unknown)"));
	world_free(&w);
}

static void compare_lists_are_bounded(void)
{
	struct world w;

	world_init(&w, 25);
	for (size_t i = 0; i < 10; i++)
		w.nodes[2 * i + 1].kernel = "6.5.0";
	CHECK(run_compare(&w) == 0);
	CHECK(message_has(&w, "compare.kernel", "6.5.0 on b02,b04,b06,b08,b10,b12,b14,b16 (+2 more)"));
	/* nine odd values: six described, the rest counted in the message and named in the fix */
	static const char *const kernels[] = { "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.9" };
	world_free(&w);
	world_init(&w, 25);
	for (size_t i = 0; i < 9; i++)
		w.nodes[i].kernel = kernels[i];
	CHECK(run_compare(&w) == 0);
	CHECK(message_has(&w, "compare.kernel", "9 of 25 nodes differ from the majority, 6.8.0-45-generic (16 nodes): 5.1 on b01;"));
	CHECK(message_has(&w, "compare.kernel", "5.6 on b06; 3 more values on 3 nodes"));
	CHECK(strstr(not_ok(&w.out, "compare.kernel")->message, "b07") == NULL);
	CHECK(fix_has(&w, "compare.kernel", "\nthe same (to 6.8.0-45-generic) on b07,b08,b09"));
	world_free(&w);
}

/* A node holding one address twice (a VLAN and its parent) and the link-local addresses every node has are not
 * duplicates between nodes. */
static void compare_duplicates_are_between_nodes(void)
{
	struct world w;

	world_init_owned(&w, 3);
	set_address(netdev_of(&w.hosts[1], "eth4"), 10, 0, 3, 2, 24);   /* b02's own eth3 address */
	for (size_t i = 0; i < 3; i++) {
		struct netdev *nd = netdev_of(&w.hosts[i], "eth5");

		nd->addrs[0].family = AF_INET6;
		memset(&nd->addrs[0].addr, 0, sizeof(nd->addrs[0].addr));
		nd->addrs[0].addr.s6_addr[0] = 0xfe;
		nd->addrs[0].addr.s6_addr[1] = 0x80;
		nd->addrs[0].addr.s6_addr[15] = 1;
		nd->addrs[0].prefix_len = 64;
	}
	CHECK(run_compare(&w) == 0);
	CHECK(!not_ok(&w.out, "compare.duplicate_address"));
	set_address(netdev_of(&w.hosts[2], "eth0"), 10, 0, 0, 1, 24);   /* b01's */
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.duplicate_address", ",b01,b03,"));
	CHECK(count_id(&w.out, "compare.duplicate_address") == 1);
	world_free(&w);
}

/* One node with PFC on 4 among six on 3: named, with the dcb and mlnx_qos commands for its netdev. */
static void compare_names_odd_lossless_chain(void)
{
	struct world w;

	world_init(&w, 7);
	for (size_t i = 0; i < 7; i++)
		w.nodes[i].nccl = nccl_tc106, w.nodes[i].nccl_count = 3;
	qos_own(&w, 3)[0].dcb.pfc_enabled = 1 << 4;
	qos_own(&w, 5)[2].dcb.trust = QOS_TRUST_PCP;
	qos_own(&w, 1)[4].dcb.app_known = true;
	w.qos[1].ports[4].dcb.dscp_mapped = UINT64_C(1) << 26;
	w.qos[1].ports[4].dcb.dscp_prio[26] = 5;
	w.nodes[6].nccl = nccl_env, w.nodes[6].nccl_count = 2;
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.pfc", ",b04,"));
	CHECK(fix_has(&w, "compare.pfc", "on b04 (4): `dcb pfc set dev eth0 prio-pfc 3:on 4:off` (or `mlnx_qos -i eth0 "
		      "--pfc 0,0,0,1,0,0,0,0`)"));
	CHECK(message_has(&w, "compare.pfc", "PFC-enabled priority set of mlx5_0/1: 1 of 7 nodes differs from the "
			  "majority, 3 (6 nodes): 4 on b04"));
	CHECK(names_exactly(&w, "compare.trust", ",b06,"));
	CHECK(fix_has(&w, "compare.trust", "on b06 (pcp): `mlnx_qos -i eth2 --trust dscp`"));
	CHECK(names_exactly(&w, "compare.dscp_map", ",b02,"));
	CHECK(message_has(&w, "compare.dscp_map", "priority of DSCP 26 (NCCL_IB_TC 106) on mlx5_4/1"));
	CHECK(fix_has(&w, "compare.dscp_map", "on b02 (5): `dcb app replace dev eth4 dscp-prio 26:3`"));
	CHECK(names_exactly(&w, "compare.traffic_class", ",b07,"));
	CHECK(fix_has(&w, "compare.traffic_class", "on b07 (0): `export NCCL_IB_TC=106`"));
	CHECK(count_id(&w.out, "compare.pfc") == 1 && count_id(&w.out, "compare.trust") == 1);
	world_free(&w);
}

/* rdma_cm's default ToS, the forced class and NCCL_IB_FIFO_TC: one odd node among three is named with the command
 * that aligns it; where no node sets them nothing is said. */
static const struct compare_setting nccl_fifo96[] = { { "NCCL_IB_HCA", "mlx5", "environment" },
						      { "NCCL_IB_TC", "106", "environment" },
						      { "NCCL_IB_FIFO_TC", "96", "environment" } };

static void compare_names_odd_classes(void)
{
	struct world w;

	world_init(&w, 3);
	for (size_t i = 0; i < 3; i++)
		w.nodes[i].nccl = nccl_tc106, w.nodes[i].nccl_count = 3;
	CHECK(run_compare(&w) == 0);
	CHECK(!not_ok(&w.out, "compare.roce_tos") && !not_ok(&w.out, "compare.forced_tc") &&
	      !not_ok(&w.out, "compare.fifo_tc") && count_id(&w.out, "compare.roce_tos") == 1);
	for (size_t i = 0; i < 3; i++)
		qos_own(&w, i)[0].default_roce_tos = 106;
	w.qos[1].ports[0].default_roce_tos = -1;   /* b02: not set, rdma_cm sends 0 */
	qos_own(&w, 2)[1].forced_tc = 96;           /* b03 forces 96 on mlx5_1/1 */
	w.nodes[0].nccl = nccl_fifo96;              /* b01 sends its CTS with 96 */
	CHECK(run_compare(&w) == 0);
	CHECK(names_exactly(&w, "compare.roce_tos", ",b02,"));
	CHECK(fix_has(&w, "compare.roce_tos", "on b02 (0): `cma_roce_tos -d mlx5_0 -p 1 -t 106` (or `mkdir -p "
		      "/sys/kernel/config/rdma_cm/mlx5_0 && echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos`)"));
	CHECK(message_has(&w, "compare.roce_tos", "rdma_cm's default ToS of mlx5_0/1"));
	CHECK(names_exactly(&w, "compare.forced_tc", ",b03,"));
	CHECK(fix_has(&w, "compare.forced_tc", "on b03 (96): `echo -1 > /sys/class/infiniband/mlx5_1/tc/1/traffic_class`"));
	CHECK(names_exactly(&w, "compare.fifo_tc", ",b01,"));
	CHECK(fix_has(&w, "compare.fifo_tc", "on b01 (96): `unset NCCL_IB_FIFO_TC` in the job's environment"));
	CHECK(count_id(&w.out, "compare.roce_tos") == 1 && count_id(&w.out, "compare.forced_tc") == 1);
	world_free(&w);
}

/* Two nodes, one each: the tie aligns on the node whose own chain is lossless (NCCL_IB_TC=130 is DSCP 32,
 * priority 4: b02's PFC on 4 is), though "3" comes first in text order. */
static void compare_tie_aligns_on_the_lossless_node(void)
{
	struct world w;

	world_init(&w, 2);
	for (size_t i = 0; i < 2; i++) {
		w.nodes[i].nccl = nccl_tc130, w.nodes[i].nccl_count = 3;
		qos_own(&w, i);
	}
	for (size_t k = 0; k < 10; k++)
		w.qos[1].ports[k].dcb.pfc_enabled = 1 << 4;
	CHECK(run_compare(&w) == 0);
	CHECK(count_id(&w.out, "compare.pfc") == 10);
	CHECK(fix_has(&w, "compare.pfc", "to align on 4:\non b01 (3): `dcb pfc set dev eth0 prio-pfc 3:off 4:on`"));
	world_free(&w);
}

/* roce-doctor-checks(7)'s COMPARE section lists exactly compare_ids: each entry there is a ".TP" line, then
 * the id alone in bold ("\fBcompare.kernel\fR"). */
static void compare_ids_are_documented(void)
{
	char path[1024], line[1024];
	size_t documented = 0, known = 0;
	bool in_section = false, after_tp = false;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/../../man/roce-doctor-checks.7", fixtures_dir);
	fp = fopen(path, "r");
	CHECK(fp != NULL);
	while (fp && fgets(line, sizeof(line), fp)) {
		bool entry = after_tp && strncmp(line, "\\fBcompare.", 11) == 0;

		if (strncmp(line, ".SH ", 4) == 0)
			in_section = strcmp(line, ".SH COMPARE\n") == 0;
		after_tp = strcmp(line, ".TP\n") == 0;
		if (!in_section || !entry)
			continue;
		documented++;
		bool found = false;

		for (const char *const *id = compare_ids; *id; id++)
			found |= strncmp(line + 3, *id, strlen(*id)) == 0 &&
				 strcmp(line + 3 + strlen(*id), "\\fR\n") == 0;
		if (!found) {
			printf("# roce-doctor-checks(7) documents an id compare does not have: %s", line);
			tap_failed_checks++;
		}
	}
	if (fp)
		fclose(fp);
	for (const char *const *id = compare_ids; *id; id++)
		known++;
	CHECK(documented == known);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* 10,000 snapshots of the eight-hca host, the devices shared, each node its own netdevs and addresses (so the
 * address rules see 100,000 distinct ones), planted odd nodes named every one. Timed, never failed on time. */
static void compare_ten_thousand_nodes(void)
{
	enum { N = 10000 };
	static const size_t odd_kernel[] = { 17, 4242, 9999 }, odd_mtu[] = { 777, 5000 }, odd_dup = 8123;
	struct compare_node *nodes = calloc(N, sizeof(*nodes));
	struct host *hosts = calloc(N, sizeof(*hosts));
	struct ip_address *addrs = calloc((size_t)N * fixture.netdev_count, sizeof(*addrs));
	char (*names)[16] = calloc(N, sizeof(*names));
	struct host gid_odd;
	struct findings out = { 0 };
	struct timespec t0;
	struct rusage ru;
	char want[64];

	host_clone(&gid_odd, &fixture);
	for (size_t d = 0; d < gid_odd.device_count; d++)
		for (size_t g = 0; g < gid_odd.devices[d].ports[0].gid_count; g++)
			gid_odd.devices[d].ports[0].gids[g].index++;
	for (size_t i = 0; i < N; i++) {
		struct host *h = &hosts[i];

		snprintf(names[i], sizeof(names[i]), "gpu%05zu", i);
		*h = fixture;
		h->warnings = (struct notes){ 0 };
		if (i == 3141) {
			h->devices = gid_odd.devices;
			h->device_count = gid_odd.device_count;
		}
		h->netdevs = calloc(fixture.netdev_count, sizeof(*h->netdevs));
		for (size_t k = 0; k < fixture.netdev_count; k++) {
			struct netdev *nd = &h->netdevs[k];

			*nd = fixture.netdevs[k];
			nd->addrs = &addrs[i * fixture.netdev_count + k];
			if (strncmp(nd->name, "eth", 3) == 0)
				set_address(nd, 10, (unsigned)atoi(nd->name + 3), (unsigned)(i >> 8), (unsigned)(i & 0xff), 16);
		}
		nodes[i] = (struct compare_node){
			.hostname = names[i], .host = h, .kernel = "6.8.0-45-generic", .rdma_core = "50.0",
			.providers = providers, .provider_count = 2, .providers_known = true, .boards = boards,
			.board_count = board_count, .nccl_libs = nccl_libs, .nccl_lib_count = 2,
			.nccl_libs_known = true, .gid_index_pinned = "3",
			.gid_index_source = "environment", .nccl = nccl_env, .nccl_count = 2, .nccl_known = true,
			.memlock_kind = COMPARE_MEMLOCK_UNLIMITED, .firewall = "none", .checks_known = true,
		};
	}
	for (size_t k = 0; k < 3; k++)
		nodes[odd_kernel[k]].kernel = "6.5.0-1-generic";
	for (size_t k = 0; k < 2; k++)
		netdev_of(&hosts[odd_mtu[k]], "eth4")->mtu = 1500;
	set_address(netdev_of(&hosts[odd_dup], "eth2"), 10, 2, 0, 9, 16);   /* gpu00009's */
	nodes[777].checks = memlock_fails;
	nodes[777].check_count = 2;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(compare_nodes(nodes, N, AF_INET, &out) == 0);
	double took = seconds_since(&t0);
	getrusage(RUSAGE_SELF, &ru);
	printf("# compare of %d nodes (%zu HCAs each): %.3f s, peak RSS of the test %ld MiB, %zu findings\n", N,
	       fixture.device_count, took, ru.ru_maxrss / 1024, out.count);

	const struct finding *f = not_ok(&out, "compare.kernel");
	CHECK(f && strstr(f->message, "6.5.0-1-generic on gpu00017,gpu04242,gpu09999") &&
	      strstr(f->message, "majority, 6.8.0-45-generic (9997 nodes)"));
	f = not_ok(&out, "compare.mtu");
	CHECK(f && strstr(f->message, "1500 on gpu00777,gpu05000") && strcmp(f->subject, "mlx5_4/1") == 0);
	snprintf(want, sizeof(want), "on gpu03141, where the index is 4");
	f = not_ok(&out, "compare.gid_index_pinned");
	CHECK(f && strstr(f->message, want));
	f = not_ok(&out, "compare.duplicate_address");
	CHECK(f && strstr(f->message, "10.2.0.9 is held by 2 nodes: gpu00009 (eth2), gpu08123 (eth2)"));
	CHECK(count_id(&out, "compare.duplicate_address") == 1);
	f = not_ok(&out, "compare.check_summary");
	CHECK(f && strstr(f->message, "fail on 1 of 10000 nodes: gpu00777") && strcmp(f->subject, "memlock.limit") == 0);
	f = not_ok(&out, "compare.rails");
	CHECK(f == NULL);   /* every eth K is in 10.K.0.0/16 */
	CHECK(!not_ok(&out, "compare.hca_count") && !not_ok(&out, "compare.nccl_settings"));
	if (took > 2.0)
		printf("# slower than the 2 s the issue asks for (a loaded machine, or a regression)\n");

	findings_free(&out);
	for (size_t i = 0; i < N; i++)
		free(hosts[i].netdevs);
	host_free(&gid_odd);
	free(names);
	free(addrs);
	free(hosts);
	free(nodes);
}

static void read_boards(void)
{
	for (size_t d = 0; d < fixture.device_count && d < HOST_DEVICES_MAX; d++) {
		char path[1024];
		FILE *fp;

		snprintf(path, sizeof(path), "%s/eight-hca/sys/class/infiniband/%s/board_id", fixtures_dir,
			 fixture.devices[d].name);
		fp = fopen(path, "r");
		if (!fp || !fgets(board_ids[d], sizeof(board_ids[d]), fp))
			snprintf(board_ids[d], sizeof(board_ids[d]), "unknown");
		if (fp)
			fclose(fp);
		board_ids[d][strcspn(board_ids[d], "\n")] = 0;
		boards[board_count++] = (struct compare_board){ fixture.devices[d].name, board_ids[d] };
	}
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	if (probe_fixture("eight-hca", &fixture) != 0) {
		printf("1..0 # SKIP cannot probe eight-hca\n");
		return 1;
	}
	for (size_t i = 0; i < fixture.netdev_count; i++)
		free(fixture.netdevs[i].addrs);
	for (size_t i = 0; i < fixture.netdev_count; i++) {
		/* room for one address each: the owned copies and the 10,000 nodes write theirs there */
		fixture.netdevs[i].addrs = calloc(1, sizeof(struct ip_address));
		fixture.netdevs[i].addr_count = 0;
	}
	read_boards();
	qos_ports_init();
	RUN(compare_clean_set_is_all_ok_with_every_id);
	RUN(compare_names_odd_software);
	RUN(compare_names_odd_hcas);
	RUN(compare_names_odd_ports);
	RUN(compare_two_nodes_tie_on_the_larger);
	RUN(compare_gid_index_and_wrong_pin);
	RUN(compare_nccl_settings_and_check_summary);
	RUN(compare_check_summary_per_severity);
	RUN(compare_duplicate_address_and_hostname);
	RUN(compare_tie_says_no_majority);
	RUN(compare_words_are_for_people);
	RUN(compare_unknown_is_never_different);
	RUN(compare_lists_are_bounded);
	RUN(compare_duplicates_are_between_nodes);
	RUN(compare_names_odd_lossless_chain);
	RUN(compare_tie_aligns_on_the_lossless_node);
	RUN(compare_names_odd_classes);
	RUN(compare_ids_are_documented);
	RUN(compare_ten_thousand_nodes);
	host_free(&fixture);
	TAP_DONE();
}
