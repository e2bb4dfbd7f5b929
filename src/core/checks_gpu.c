// SPDX-License-Identifier: GPL-2.0-only
/* gpu.rails, gpu.nic_distance, gpu.acs, gpu.pcie_link: whether NCCL's GPU-NIC traffic can take the short PCIe
 * path, judged on the PCIe placement model (core/topo.h decides the relations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checks.h"
#include "core/topo.h"

static bool has_role(const struct pci_topology *t, enum pci_role role)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->functions[i].role == role)
			return true;
	return false;
}

/* "GPU3" as topo and nvidia-smi number them: by PCI address, GPUs first in the model. */
static void gpu_name(const struct pci_topology *t, size_t g, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < g; i++)
		n += t->functions[i].role == PCI_ROLE_GPU;
	snprintf(buf, size, "GPU%zu", n);
}

/* "mlx5_0,mlx5_1" of GPU g's nearest NICs. */
static enum topo_relation nearest_names(const struct pci_topology *t, size_t g, char *buf, size_t size)
{
	size_t idx[PCI_FUNCTIONS_MAX], n, len = 0;
	enum topo_relation best;

	n = topo_nearest(t, g, idx, PCI_FUNCTIONS_MAX, &best);
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "", t->functions[idx[i]].rdma_device);
	return best;
}

/* The NUMA node of GPU g's first nearest NIC (0 when unknown: numactl needs a node). */
static int nearest_numa(const struct pci_topology *t, size_t g)
{
	size_t idx[1];
	enum topo_relation best;

	return topo_nearest(t, g, idx, 1, &best) && t->functions[idx[0]].numa_node >= 0 ?
		t->functions[idx[0]].numa_node : 0;
}

static void check_distance(const struct pci_topology *t, struct findings *out)
{
	size_t far = 0;

	for (size_t g = 0; g < t->count; g++) {
		const struct pci_function *f = &t->functions[g];
		char name[16], near[512], fix[512];
		int nic_numa;

		if (f->role != PCI_ROLE_GPU || nearest_names(t, g, near, sizeof(near)) != TOPO_SYS)
			continue;
		far++;
		gpu_name(t, g, name, sizeof(name));
		nic_numa = nearest_numa(t, g);
		snprintf(fix, sizeof(fix), "# put an RDMA NIC in a PCIe slot of NUMA node %d (%s's), under its PCIe switch "
			 "where it has one; until then run %s's rank on its NIC's NUMA node:\n"
			 "numactl --cpunodebind=%d --membind=%d COMMAND ...   # COMMAND ...: your training command", f->numa_node, name, name, nic_numa,
			 nic_numa);
		finding_add(out, "gpu.nic_distance", SEVERITY_WARN, f->address, fix,
			    "%s (NUMA %d) has no RDMA NIC closer than SYS: its nearest (%s) are on NUMA node %d, so "
			    "its traffic crosses the CPU interconnect and NCCL leaves GPUDirect RDMA off at that distance",
			    name, f->numa_node, near, nic_numa);
	}
	if (far == 0)
		finding_add(out, "gpu.nic_distance", SEVERITY_OK, "pci", NULL,
			    "every GPU has an RDMA NIC on its own NUMA node or closer");
}

static bool device_selected(const struct check_input *in, const char *name)
{
	const struct rdma_device *d = host_find_device(in->host, name);

	for (size_t p = 0; d && p < d->port_count; p++)
		if (input_port_selected(in, d, &d->ports[p]))
			return true;
	return false;
}

/* NCCL_IB_HCA's line as where it is set: an export, or its file's line rewritten in place. */
static void hca_fix(const struct nccl_setting *s, const char *value, char *fix, size_t size)
{
	if (s && s->origin == NCCL_FROM_FILE)
		snprintf(fix, size, "sed -i '%us|.*|NCCL_IB_HCA=%s|' %s", s->line, value, s->file);
	else
		snprintf(fix, size, "export NCCL_IB_HCA=%s", value);
}

static void check_rails(const struct check_input *in, const struct pci_topology *t, struct findings *out)
{
	const struct nccl_setting *set = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_HCA") : NULL;
	char rails[1024] = "=", fix[1400];
	size_t len = 1, bad = 0;

	if (!in->port_selected || !set) {
		finding_add(out, "gpu.rails", SEVERITY_OK, "NCCL_IB_HCA", NULL,
			    "NCCL_IB_HCA is not set: NCCL pairs each GPU with its nearest NIC itself");
		return;
	}
	for (size_t i = 0; i < t->count; i++) {
		const struct rdma_device *d = host_find_device(in->host, t->functions[i].rdma_device);

		if (t->functions[i].role != PCI_ROLE_NIC || !d || !topo_is_rail(t, i))
			continue;
		for (size_t p = 0; p < d->port_count && len < sizeof(rails); p++)
			len += (size_t)snprintf(rails + len, sizeof(rails) - len, "%s%s:%u", len > 1 ? "," : "", d->name,
						d->ports[p].num);
	}
	hca_fix(set, rails, fix, sizeof(fix));
	for (size_t i = 0; i < t->count; i++) {
		const struct pci_function *n = &t->functions[i];
		bool rail, selected;

		if (n->role != PCI_ROLE_NIC || !host_find_device(in->host, n->rdma_device))
			continue;
		rail = topo_is_rail(t, i);
		selected = device_selected(in, n->rdma_device);
		if (rail && !selected) {
			bad++;
			finding_add(out, "gpu.rails", SEVERITY_WARN, n->rdma_device, fix,
				    "NCCL_IB_HCA=%s (%s) leaves out %s, the nearest NIC of a GPU: that GPU's traffic "
				    "goes through a farther NIC", set->value, set->source, n->rdma_device);
		} else if (!rail && selected) {
			bad++;
			finding_add(out, "gpu.rails", SEVERITY_WARN, n->rdma_device, fix,
				    "NCCL_IB_HCA=%s (%s) includes %s, no GPU's nearest NIC (a front-end NIC): NCCL "
				    "may send GPU traffic through it", set->value, set->source, n->rdma_device);
		}
	}
	if (bad == 0)
		finding_add(out, "gpu.rails", SEVERITY_OK, "NCCL_IB_HCA", NULL,
			    "NCCL_IB_HCA=%s names every rail NIC and no front-end NIC", set->value);
}

static void check_acs(const struct pci_topology *t, struct findings *out)
{
	size_t shown[PCI_BRIDGES_MAX], shown_count = 0, checked = 0, bad = 0;

	for (size_t g = 0; g < t->count; g++) {
		size_t near[PCI_FUNCTIONS_MAX], n;
		enum topo_relation best;

		if (t->functions[g].role != PCI_ROLE_GPU)
			continue;
		n = topo_nearest(t, g, near, PCI_FUNCTIONS_MAX, &best);
		for (size_t k = 0; k < n; k++) {
			size_t idx[2 * PCI_CHAIN_MAX], m;
			char gname[16];

			m = topo_bridges_between(t, &t->functions[g], &t->functions[near[k]], idx, 2 * PCI_CHAIN_MAX);
			gpu_name(t, g, gname, sizeof(gname));
			for (size_t i = 0; i < m; i++) {
				const struct pci_bridge *b = &t->bridges[idx[i]];
				bool seen = false;
				char fix[512];

				checked++;
				for (size_t s = 0; s < shown_count; s++)
					seen = seen || shown[s] == idx[i];
				if (seen || (b->acs != ACS_UNKNOWN && !topo_acs_redirects(b)))
					continue;
				shown[shown_count++] = idx[i];
				bad++;
				if (b->acs == ACS_UNKNOWN) {
					finding_add(out, "gpu.acs", SEVERITY_INFO, b->address, "sudo roce-doctor check --only gpu.acs",
						    "ACS on bridge %s (between %s and %s) unknown: its config space could not "
						    "be read in full (root reads all 4096 bytes)", b->address, gname,
						    t->functions[near[k]].rdma_device);
					continue;
				}
				snprintf(fix, sizeof(fix), "setpci -s %s ECAP_ACS+0x6.w=0000   # until reboot\n"
					 "# for good: add pci=disable_acs_redir=%s to GRUB_CMDLINE_LINUX in /etc/default/grub, "
					 "then update-grub and reboot", b->address, b->address);
				finding_add(out, "gpu.acs", SEVERITY_WARN, b->address, fix,
					    "ACS on bridge %s (control 0x%04x:%s%s%s) sends traffic between %s and %s up to the "
					    "root complex: GPUDirect RDMA is slow or fails", b->address, b->acs_ctrl,
					    b->acs_ctrl & ACS_CTRL_REQ_REDIRECT ? " ReqRedir" : "",
					    b->acs_ctrl & ACS_CTRL_CMPLT_REDIRECT ? " CmpltRedir" : "",
					    b->acs_ctrl & ACS_CTRL_UPSTREAM_FWD ? " UpstreamFwd" : "", gname,
					    t->functions[near[k]].rdma_device);
			}
		}
	}
	if (bad == 0 && checked > 0)
		finding_add(out, "gpu.acs", SEVERITY_OK, "pci", NULL,
			    "no ACS redirection on the bridges between each GPU and its nearest NIC");
}

static void check_links(const struct pci_topology *t, struct findings *out)
{
	size_t bad = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct pci_function *f = &t->functions[i];
		struct pci_link l = f->link;
		char name[80], text[96], fix[256];

		/* An idle GPU lowers its link speed to save power (2.5 GT/s): only its width says the slot is wrong. */
		if (f->role == PCI_ROLE_GPU)
			snprintf(l.cur_speed, sizeof(l.cur_speed), "%s", l.max_speed);
		if (!topo_link_degraded(&l))
			continue;
		bad++;
		if (f->role == PCI_ROLE_GPU)
			gpu_name(t, i, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s", f->rdma_device);
		topo_link_text(&f->link, text, sizeof(text));
		snprintf(fix, sizeof(fix), "# reseat %s in a slot of its full width, or set the slot's width in the BIOS; "
			 "check with: lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", f->address, f->address);
		finding_add(out, "gpu.pcie_link", SEVERITY_WARN, f->address, fix,
			    "%s (%s) PCIe link %s: below what the device can do", name, f->address, text);
	}
	if (bad == 0)
		finding_add(out, "gpu.pcie_link", SEVERITY_OK, "pci", NULL,
			    "every GPU and RDMA NIC link at its full width%s", "");
}

void check_gpu_topology(const struct check_input *in, struct findings *out)
{
	const struct pci_topology *t = in->pci;

	if (!t || !has_role(t, PCI_ROLE_GPU))
		return;
	if (findings_wanted(out, "gpu.pcie_link"))
		check_links(t, out);
	if (!has_role(t, PCI_ROLE_NIC))
		return;
	if (findings_wanted(out, "gpu.nic_distance"))
		check_distance(t, out);
	if (findings_wanted(out, "gpu.rails"))
		check_rails(in, t, out);
	if (findings_wanted(out, "gpu.acs"))
		check_acs(t, out);
}
