// SPDX-License-Identifier: GPL-2.0-only
/* GPU-NIC relations, rails and twins on the GPU fixture trees; ACS parsing of whole, cut and broken config
 * spaces; PCIe links below their capability. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/topo.h"
#include "probe/pci_config.h"
#include "probe/pci_topology.h"
#include "probe_tree.h"
#include "tap.h"

static long find(const struct pci_topology *t, const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(t->functions[i].address, name) == 0 || strcmp(t->functions[i].rdma_device, name) == 0)
			return (long)i;
	return -1;
}

static enum topo_relation rel(const struct pci_topology *t, const char *a, const char *b)
{
	return topo_relation(&t->functions[find(t, a)], &t->functions[find(t, b)]);
}

static void dgx_h100_relations_as_nvidia_smi_prints_them(void)
{
	struct probe_root r;
	struct pci_topology t;

	if (!probe_root_fixture(&r, "dgx-h100"))
		return;
	CHECK(pci_topology_read(&r.root, &t, &r.notes) == 0);
	CHECK(t.count == 18);
	if (t.count == 18) {
		CHECK(t.functions[0].role == PCI_ROLE_GPU && t.functions[8].role == PCI_ROLE_NIC);
		CHECK_STR(t.functions[2].address, "0000:3c:00.0");
		CHECK_STR(t.functions[2].host_bridge, "pci0000:37");
		CHECK(t.functions[2].chain_len == 5);
		CHECK_STR(t.functions[2].chain[4], "0000:3b:00.0");
		CHECK(rel(&t, "0000:3c:00.0", "mlx5_2") == TOPO_PIX);   /* one switch */
		CHECK(rel(&t, "0000:3c:00.0", "mlx5_3") == TOPO_PXB);   /* two levels of switch */
		CHECK(rel(&t, "0000:3c:00.0", "mlx5_0") == TOPO_NODE);  /* other host bridge, NUMA 0 */
		CHECK(rel(&t, "0000:3c:00.0", "mlx5_4") == TOPO_SYS);   /* NUMA 1 */
		CHECK(rel(&t, "0000:3c:00.0", "mlx5_8") == TOPO_NODE);  /* front-end, NUMA 0 */
		for (size_t g = 0; g < 8; g++) {
			size_t near[4];
			enum topo_relation best;
			char want[16];

			snprintf(want, sizeof(want), "mlx5_%zu", g);
			CHECK(topo_nearest(&t, g, near, 4, &best) == 1 && best == TOPO_PIX);
			CHECK_STR(t.functions[near[0]].rdma_device, want);
		}
		CHECK(topo_is_rail(&t, (size_t)find(&t, "mlx5_7")));
		CHECK(!topo_is_rail(&t, (size_t)find(&t, "mlx5_8")) && !topo_is_rail(&t, (size_t)find(&t, "mlx5_9")));
		CHECK(topo_twin_of(&t, (size_t)find(&t, "mlx5_0")) == -1);
	}
	CHECK(r.notes.count == 0);
	print_notes(&r.notes);
	pci_topology_free(&t);
	probe_root_done(&r);
}

static void dgx_h100_acs_on_gpu2_path_only(void)
{
	struct probe_root r;
	struct pci_topology t;

	if (!probe_root_fixture(&r, "dgx-h100"))
		return;
	CHECK(pci_topology_read(&r.root, &t, &r.notes) == 0);
	for (size_t g = 0; t.count == 18 && g < 8; g++) {
		size_t idx[2 * PCI_CHAIN_MAX], n, redirects = 0;
		char nic[16];

		snprintf(nic, sizeof(nic), "mlx5_%zu", g);
		n = topo_bridges_between(&t, &t.functions[g], &t.functions[find(&t, nic)], idx, 2 * PCI_CHAIN_MAX);
		CHECK(n == 3);   /* the second-level switch: its upstream port and both downstream ports */
		for (size_t i = 0; i < n; i++) {
			CHECK(t.bridges[idx[i]].acs != ACS_UNKNOWN);
			redirects += topo_acs_redirects(&t.bridges[idx[i]]);
		}
		CHECK(redirects == (g == 2));
	}
	{
		long b = topo_find_bridge(&t, "0000:3b:00.0");

		CHECK(b >= 0 && t.bridges[b].acs == ACS_PRESENT && t.bridges[b].acs_ctrl == 0x1d &&
		      t.bridges[b].acs_offset == 0x148);
		b = topo_find_bridge(&t, "0000:3a:00.0");   /* a switch upstream port: AER only */
		CHECK(b >= 0 && t.bridges[b].acs == ACS_ABSENT);
	}
	pci_topology_free(&t);
	probe_root_done(&r);
}

static void gb10_twins_are_one_rail_each(void)
{
	struct probe_root r;
	struct pci_topology t;

	if (!probe_root_fixture(&r, "gb10-twin"))
		return;
	CHECK(pci_topology_read(&r.root, &t, &r.notes) == 0);
	CHECK(t.count == 5);
	if (t.count == 5) {
		size_t near[8];
		enum topo_relation best;
		long a = find(&t, "rocep1s0f0"), b = find(&t, "roceP2p1s0f0"), c = find(&t, "rocep1s0f1");

		CHECK(topo_nearest(&t, 0, near, 8, &best) == 4 && best == TOPO_NODE);
		CHECK(topo_twin_of(&t, (size_t)a) == b && topo_twin_of(&t, (size_t)b) == a);
		CHECK(topo_twin_of(&t, (size_t)c) == find(&t, "roceP2p1s0f1"));
		CHECK(topo_twin_of(&t, (size_t)a) != c);   /* the other port of the same card is not a twin */
	}
	pci_topology_free(&t);
	probe_root_done(&r);
}

static void real_h100_vm_is_flat(void)
{
	struct probe_root r;
	struct pci_topology t;

	if (!probe_root_fixture(&r, "h100-vm"))
		return;
	CHECK(pci_topology_read(&r.root, &t, &r.notes) == 0);
	CHECK(t.count == 1 && t.bridge_count == 0);
	if (t.count == 1) {
		CHECK_STR(t.functions[0].address, "0000:00:06.0");
		CHECK_STR(t.functions[0].host_bridge, "pci0000:00");
		/* sysfs says -1; node0 is the one node online, as nvidia-smi says */
		CHECK(t.functions[0].chain_len == 0 && t.functions[0].numa_node == 0);
		CHECK_STR(t.functions[0].cpulist, "0-15");
		CHECK(t.functions[0].link.cur_width == 16 && !topo_link_degraded(&t.functions[0].link));
	}
	CHECK(r.notes.count == 0);
	pci_topology_free(&t);
	probe_root_done(&r);
}

/* Two functions by hand: the relation depends on the switch nodes, not on how deep each sits. */
static void relation_from_chains(void)
{
	struct pci_function a = { .host_bridge = "pci0000:00", .numa_node = 0 }, b = a;

	/* on root ports of one host bridge: no switch node in common */
	a.chain_len = b.chain_len = 1;
	strcpy(a.chain[0], "0000:00:01.0");
	strcpy(b.chain[0], "0000:00:02.0");
	CHECK(topo_relation(&a, &b) == TOPO_PHB);
	/* one switch: root port, upstream, two downstream ports */
	a.chain_len = b.chain_len = 3;
	strcpy(b.chain[0], "0000:00:01.0");
	strcpy(a.chain[1], "0000:01:00.0");
	strcpy(b.chain[1], "0000:01:00.0");
	strcpy(a.chain[2], "0000:02:00.0");
	strcpy(b.chain[2], "0000:02:01.0");
	CHECK(topo_relation(&a, &b) == TOPO_PIX);
	/* b one switch deeper */
	b.chain_len = 5;
	strcpy(b.chain[3], "0000:03:00.0");
	strcpy(b.chain[4], "0000:04:00.0");
	CHECK(topo_relation(&a, &b) == TOPO_PXB);
	strcpy(b.host_bridge, "pci0000:80");
	CHECK(topo_relation(&a, &b) == TOPO_NODE);
	b.numa_node = 1;
	CHECK(topo_relation(&a, &b) == TOPO_SYS);
	a.numa_node = b.numa_node = -1;   /* unknown on both: one node, as NCCL's "-1" CPU */
	CHECK(topo_relation(&a, &b) == TOPO_NODE);
	CHECK_STR(topo_relation_name(TOPO_SYS), "SYS");
}

static void put_le32(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void acs_parse_whole_cut_and_broken(void)
{
	static unsigned char cfg[PCI_CONFIG_SIZE];
	unsigned off = 0, ctrl = 0;

	memset(cfg, 0, sizeof(cfg));
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == 0);           /* no extended capabilities */
	CHECK(pci_acs_parse(cfg, 64, &off, &ctrl) == -ENODATA);             /* not root: 64 bytes */
	CHECK(pci_acs_parse(cfg, 256, &off, &ctrl) == -ENODATA);            /* 256: still no extended space */
	put_le32(cfg + 0x100, 0x0001 | 2u << 16 | 0x148u << 20);            /* AER -> 0x148 */
	put_le32(cfg + 0x148, 0x000d | 1u << 16);                           /* ACS, last */
	cfg[0x14e] = 0x1d;
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == 1 && off == 0x148 && ctrl == 0x1d);
	CHECK(pci_acs_parse(cfg, 0x14c, &off, &ctrl) == -ENODATA);          /* cut inside the ACS capability */
	CHECK(pci_acs_parse(cfg, 0x120, &off, &ctrl) == -ENODATA);          /* cut before it */
	put_le32(cfg + 0x100, 0x0001 | 2u << 16 | 0x100u << 20);            /* AER pointing at itself */
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == -EINVAL);
	put_le32(cfg + 0x100, 0x0001 | 2u << 16 | 0x14au << 20);            /* misaligned */
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == -EINVAL);
	put_le32(cfg + 0x100, 0x0001 | 2u << 16 | 0x040u << 20);            /* into the legacy space */
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == -EINVAL);
	put_le32(cfg + 0x100, 0x0001 | 2u << 16);                           /* AER only */
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == 0);
	memset(cfg + 0x100, 0xff, 4);                                       /* a function that does not answer */
	CHECK(pci_acs_parse(cfg, sizeof(cfg), &off, &ctrl) == 0);
}

static void acs_redirect_bits(void)
{
	struct pci_bridge b = { .acs = ACS_PRESENT };

	b.acs_ctrl = 0x0001;   /* Source Validation alone does not redirect */
	CHECK(!topo_acs_redirects(&b));
	b.acs_ctrl = ACS_CTRL_REQ_REDIRECT;
	CHECK(topo_acs_redirects(&b));
	b.acs_ctrl = ACS_CTRL_CMPLT_REDIRECT;
	CHECK(topo_acs_redirects(&b));
	b.acs_ctrl = ACS_CTRL_UPSTREAM_FWD;
	CHECK(topo_acs_redirects(&b));
	b.acs = ACS_UNKNOWN;
	CHECK(!topo_acs_redirects(&b));
}

/* A bridge config cut short or unreadable: ACS unknown, a warning naming the file, the rest still placed. */
static void cut_and_unreadable_config_warn(void)
{
	static const char gpu[] = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0";
	static const char nic[] = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0";
	struct probe_root r;
	struct pci_topology t;
	char path[512];

	if (!probe_root_tree(&r))
		return;
	snprintf(path, sizeof(path), "%s/vendor", gpu);
	tree_put(&r.tree, path, "0x10de\n", 7);
	snprintf(path, sizeof(path), "%s/class", gpu);
	tree_put(&r.tree, path, "0x030200\n", 9);
	snprintf(path, sizeof(path), "%s/infiniband/mlx5_0/node_type", nic);
	tree_put(&r.tree, path, "1: CA\n", 6);
	tree_put(&r.tree, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/config", "\x86\x80", 2);   /* cut */
	tree_put(&r.tree, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config", "", 0);
	snprintf(path, sizeof(path), "%s/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config", r.tree.dir);
	chmod(path, 0);
	for (const char *const *d = (const char *const[]){ "sys/bus", "sys/bus/pci", "sys/bus/pci/devices", "sys/class",
							    "sys/class/infiniband", NULL }; *d; d++) {
		snprintf(path, sizeof(path), "%s/%s", r.tree.dir, *d);
		mkdir(path, 0755);
	}
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/0000:03:00.0", r.tree.dir);
	CHECK(symlink("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0", path) == 0);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/mlx5_0", r.tree.dir);
	CHECK(symlink("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0/infiniband/mlx5_0",
		      path) == 0);
	snprintf(path, sizeof(path), "%s/%s/infiniband/mlx5_0/device", r.tree.dir, nic);
	CHECK(symlink("../../../0000:04:00.0", path) == 0);
	CHECK(pci_topology_read(&r.root, &t, &r.notes) == 0);
	CHECK(t.count == 2 && t.bridge_count == 4);
	CHECK(t.count == 2 && topo_relation(&t.functions[0], &t.functions[1]) == TOPO_PIX);
	CHECK(t.bridge_count == 4 && t.bridges[1].acs == ACS_UNKNOWN && t.bridges[2].acs == ACS_UNKNOWN);
	CHECK(notes_mention(&r.notes, "0000:01:00.0/config is 2 bytes"));
	/* root reads a file of mode 0 all the same: then it is empty, also cut short */
	CHECK(notes_mention(&r.notes, geteuid() == 0 ? "0000:02:00.0/config is 0 bytes" :
						       "cannot read " ) );
	CHECK(notes_mention(&r.notes, "0000:00:01.0/config: No such file or directory"));
	print_notes(&r.notes);
	pci_topology_free(&t);
	tree_remove(&r.tree);
	probe_root_done(&r);
}

static void link_below_capability(void)
{
	struct pci_link l = { "32.0 GT/s PCIe", "32.0 GT/s PCIe", 16, 16 };
	char text[96];

	CHECK(!topo_link_degraded(&l));
	l.cur_width = 8;
	CHECK(topo_link_degraded(&l));
	topo_link_text(&l, text, sizeof(text));
	CHECK_STR(text, "32.0 GT/s x8 of 32.0 GT/s x16");
	l.cur_width = 16;
	strcpy(l.cur_speed, "16.0 GT/s PCIe");
	CHECK(topo_link_degraded(&l));
	strcpy(l.cur_speed, "2.5 GT/s PCIe");   /* an idle GPU drops its speed; width counts alike */
	CHECK(topo_link_degraded(&l));
	l.cur_speed[0] = '\0';                  /* unknown is not degraded */
	l.max_width = 0;
	CHECK(!topo_link_degraded(&l));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(dgx_h100_relations_as_nvidia_smi_prints_them);
	RUN(dgx_h100_acs_on_gpu2_path_only);
	RUN(gb10_twins_are_one_rail_each);
	RUN(real_h100_vm_is_flat);
	RUN(relation_from_chains);
	RUN(acs_parse_whole_cut_and_broken);
	RUN(acs_redirect_bits);
	RUN(cut_and_unreadable_config_warn);
	RUN(link_below_capability);
	TAP_DONE();
}
