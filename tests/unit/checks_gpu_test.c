// SPDX-License-Identifier: GPL-2.0-only
/* gpu.rails, gpu.nic_distance, gpu.acs and gpu.pcie_link on the GPU fixtures: each firing on the host made
 * wrong, quiet (ok) where it is right, silent without GPUs. */
#include <stdio.h>
#include <string.h>

#include "core/checks.h"
#include "probe/pci_topology.h"
#include "probe/host.h"
#include "probe_tree.h"
#include "tap.h"

struct gpu_host {
	struct host host;
	struct pci_topology pci;
	struct probe_root r;
	bool ok;
};

static bool gpu_host_open(struct gpu_host *g, const char *name)
{
	memset(g, 0, sizeof(*g));
	g->ok = probe_root_fixture(&g->r, name) && host_probe(&g->host, &g->r.root) == 0 &&
		pci_topology_read(&g->r.root, &g->pci, &g->r.notes) == 0;
	CHECK(g->ok);
	return g->ok;
}

static void gpu_host_close(struct gpu_host *g)
{
	pci_topology_free(&g->pci);
	probe_root_done(&g->r);
	host_free(&g->host);
}

static const struct finding *find(const struct findings *f, const char *id, enum severity s, const char *subject)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].id, id) == 0 && f->items[i].severity == s &&
		    (!subject || strcmp(f->items[i].subject, subject) == 0))
			return &f->items[i];
	return NULL;
}

static size_t count(const struct findings *f, const char *id, enum severity s)
{
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += strcmp(f->items[i].id, id) == 0 && f->items[i].severity == s;
	return n;
}

/* NCCL_IB_HCA from the environment as NCCL parses it, or unset (value NULL). */
static struct findings run(struct gpu_host *g, const char *hca)
{
	struct nccl_setting s = { .origin = NCCL_FROM_ENV, .effective = true };
	struct nccl_conf conf = { 0 };
	struct nccl_if_list list;
	struct check_input in = { .host = &g->host, .family = AF_INET, .pci = &g->pci, .nccl = &conf };
	struct findings f = { 0 };

	if (hca) {
		snprintf(s.name, sizeof(s.name), "NCCL_IB_HCA");
		snprintf(s.value, sizeof(s.value), "%s", hca);
		snprintf(s.source, sizeof(s.source), "environment");
		conf.items = &s;
		conf.count = 1;
		nccl_if_list_parse(s.value, NCCL_IB_HCA_ENTRIES_MAX, &list);
		in.selection = &list;
		in.port_selected = nccl_hca_port_selected;
	}
	check_gpu_topology(&in, &f);
	return f;
}

static void dgx_h100_acs_and_link_warn(void)
{
	struct gpu_host g;
	struct findings f;
	const struct finding *it;

	if (!gpu_host_open(&g, "dgx-h100"))
		return;
	f = run(&g, NULL);
	it = find(&f, "gpu.acs", SEVERITY_WARN, "0000:3b:00.0");
	CHECK(it && strstr(it->message, "GPU2 and mlx5_2") && strstr(it->message, "ReqRedir CmpltRedir UpstreamFwd"));
	CHECK(it && strncmp(it->fix, "setpci -s 0000:3b:00.0 ECAP_ACS+0x6.w=0000", 42) == 0 &&
	      strstr(it->fix, "pci=disable_acs_redir=0000:3b:00.0"));
	CHECK(count(&f, "gpu.acs", SEVERITY_WARN) == 1 && count(&f, "gpu.acs", SEVERITY_INFO) == 0);
	it = find(&f, "gpu.pcie_link", SEVERITY_WARN, "0000:a1:00.0");
	CHECK(it && strstr(it->message, "mlx5_5") && strstr(it->message, "x8 of 32.0 GT/s x16"));
	CHECK(count(&f, "gpu.pcie_link", SEVERITY_WARN) == 1);
	CHECK(find(&f, "gpu.nic_distance", SEVERITY_OK, NULL) && count(&f, "gpu.nic_distance", SEVERITY_WARN) == 0);
	CHECK(find(&f, "gpu.rails", SEVERITY_OK, "NCCL_IB_HCA"));   /* unset: NCCL pairs them itself */
	findings_free(&f);
	gpu_host_close(&g);
}

static void dgx_h100_rails_from_nccl_ib_hca(void)
{
	struct gpu_host g;
	struct findings f;
	const struct finding *it;
	static const char rails[] =
		"export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1";

	if (!gpu_host_open(&g, "dgx-h100"))
		return;
	/* mlx5_1 (a prefix of nothing else) left out, front-end mlx5_8 in */
	f = run(&g, "=mlx5_0,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7,mlx5_8");
	it = find(&f, "gpu.rails", SEVERITY_WARN, "mlx5_1");
	CHECK(it && strstr(it->message, "leaves out mlx5_1") && strcmp(it->fix, rails) == 0);
	it = find(&f, "gpu.rails", SEVERITY_WARN, "mlx5_8");
	CHECK(it && strstr(it->message, "includes mlx5_8") && strstr(it->message, "front-end"));
	CHECK(count(&f, "gpu.rails", SEVERITY_WARN) == 2);
	findings_free(&f);
	/* mlx5 as a prefix selects the front-end NICs too */
	f = run(&g, "mlx5");
	CHECK(find(&f, "gpu.rails", SEVERITY_WARN, "mlx5_8") && find(&f, "gpu.rails", SEVERITY_WARN, "mlx5_9"));
	findings_free(&f);
	/* the printed fix, applied: quiet */
	f = run(&g, rails + strlen("export NCCL_IB_HCA="));
	CHECK(count(&f, "gpu.rails", SEVERITY_WARN) == 0 && find(&f, "gpu.rails", SEVERITY_OK, "NCCL_IB_HCA"));
	findings_free(&f);
	/* excluding the front-end NICs is as good */
	f = run(&g, "^mlx5_8,mlx5_9");
	CHECK(count(&f, "gpu.rails", SEVERITY_WARN) == 0);
	findings_free(&f);
	gpu_host_close(&g);
}

static void gb10_twins_are_rails(void)
{
	struct gpu_host g;
	struct findings f;

	if (!gpu_host_open(&g, "gb10-twin"))
		return;
	f = run(&g, "rocep1s0f0,rocep1s0f1");   /* one function of each port: the twins left out */
	CHECK(find(&f, "gpu.rails", SEVERITY_WARN, "roceP2p1s0f0") && find(&f, "gpu.rails", SEVERITY_WARN, "roceP2p1s0f1"));
	CHECK(count(&f, "gpu.rails", SEVERITY_WARN) == 2);
	CHECK(find(&f, "gpu.acs", SEVERITY_OK, NULL) && find(&f, "gpu.pcie_link", SEVERITY_OK, NULL));
	CHECK(find(&f, "gpu.nic_distance", SEVERITY_OK, NULL));   /* NODE is near enough */
	findings_free(&f);
	gpu_host_close(&g);
}

static void seed000_gpu1_is_sys_from_every_nic(void)
{
	struct gpu_host g;
	struct findings f;
	const struct finding *it;

	if (!gpu_host_open(&g, "check-seed000"))
		return;
	f = run(&g, NULL);
	it = find(&f, "gpu.nic_distance", SEVERITY_WARN, "0000:b1:00.0");
	CHECK(it && strstr(it->message, "GPU1 (NUMA 1)") && strstr(it->message, "on NUMA node 0"));
	CHECK(it && strstr(it->fix, "numactl --cpunodebind=0 --membind=0"));
	CHECK(count(&f, "gpu.nic_distance", SEVERITY_WARN) == 1);   /* GPU0 is NODE to them */
	CHECK(find(&f, "gpu.acs", SEVERITY_OK, NULL));
	findings_free(&f);
	gpu_host_close(&g);
}

static void no_gpu_no_finding(void)
{
	struct gpu_host g;
	struct findings f;

	if (!gpu_host_open(&g, "eight-hca"))
		return;
	f = run(&g, "mlx5_0");
	CHECK(f.count == 0);
	findings_free(&f);
	gpu_host_close(&g);
	/* a GPU without any NIC (the real H100 VM): only its link is judged */
	if (!gpu_host_open(&g, "h100-vm"))
		return;
	f = run(&g, NULL);
	CHECK(f.count == 1 && find(&f, "gpu.pcie_link", SEVERITY_OK, NULL));
	findings_free(&f);
	gpu_host_close(&g);
}

/* An idle GPU drops to 2.5 GT/s: not a finding; a GPU at x8 is. */
static void gpu_link_by_width_only(void)
{
	struct gpu_host g;
	struct findings f;

	if (!gpu_host_open(&g, "h100-vm"))
		return;
	snprintf(g.pci.functions[0].link.cur_speed, sizeof(g.pci.functions[0].link.cur_speed), "2.5 GT/s PCIe");
	f = run(&g, NULL);
	CHECK(find(&f, "gpu.pcie_link", SEVERITY_OK, NULL));
	findings_free(&f);
	g.pci.functions[0].link.cur_width = 8;
	f = run(&g, NULL);
	CHECK(find(&f, "gpu.pcie_link", SEVERITY_WARN, "0000:00:06.0"));
	findings_free(&f);
	gpu_host_close(&g);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(dgx_h100_acs_and_link_warn);
	RUN(dgx_h100_rails_from_nccl_ib_hca);
	RUN(gb10_twins_are_rails);
	RUN(seed000_gpu1_is_sys_from_every_nic);
	RUN(no_gpu_no_finding);
	RUN(gpu_link_by_width_only);
	TAP_DONE();
}
