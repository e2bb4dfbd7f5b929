// SPDX-License-Identifier: GPL-2.0-only
/* rdma.uverbs, kernel.modules, gpu.peermem: the kernel pieces between an RDMA device and a process using it
 * (gpu.peermem's rule is core/gpudirect.c). */
#include <stdio.h>
#include <string.h>

#include "core/checks.h"
#include "core/rdma_drivers.h"

static bool in_container(const struct check_input *in)
{
	return in->container && in->container->kind[0];
}

static const struct uverbs_dev *uverbs_of(const struct uverbs_probe *u, const char *ibdev)
{
	for (size_t i = 0; i < u->count; i++)
		if (strcmp(u->devs[i].ibdev, ibdev) == 0)
			return &u->devs[i];
	return NULL;
}

static void check_uverbs(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	char fix[512], subject[128];

	if (!in->uverbs || !findings_wanted(out, "rdma.uverbs"))
		return;
	for (size_t i = 0; i < h->device_count; i++) {
		const struct uverbs_dev *u = uverbs_of(in->uverbs, h->devices[i].name);

		if (!u) {
			finding_add(out, "rdma.uverbs", SEVERITY_FAIL, h->devices[i].name,
				    "modprobe ib_uverbs\necho ib_uverbs > /etc/modules-load.d/rdma.conf   # at every boot",
				    "%s has no uverbs character device in /sys/class/infiniband_verbs: libibverbs cannot "
				    "open it (ib_uverbs not loaded)", h->devices[i].name);
			continue;
		}
		snprintf(subject, sizeof(subject), "/dev/infiniband/%s", u->name);
		if (!u->node.exists) {
			if (in_container(in))
				snprintf(fix, sizeof(fix), "docker run --device=/dev/infiniband ...   # the %s container "
					 "was started without the RDMA devices (podman: the same flag; Kubernetes: the "
					 "RDMA device plugin resource)", in->container->kind);
			else
				snprintf(fix, sizeof(fix), "udevadm trigger --subsystem-match=infiniband_verbs   # udev "
					 "creates the node; or: modprobe -r ib_uverbs && modprobe ib_uverbs");
			finding_add(out, "rdma.uverbs", SEVERITY_FAIL, subject, fix,
				    "%s (for %s) is missing: ibv_open_device fails", subject, h->devices[i].name);
		} else if (u->node.access_known && !u->node.read_write) {
			finding_add(out, "rdma.uverbs", SEVERITY_FAIL, subject,
				    "chmod 0666 /dev/infiniband/uverbs*   # now; for every boot a udev rule:\n"
				    "echo 'KERNEL==\"uverbs*\", MODE=\"0666\"' > /etc/udev/rules.d/90-rdma-uverbs.rules",
				    "%s (for %s) is not readable and writable by this process (access(2) asks for "
				    "the caller, whatever --user names)", subject, h->devices[i].name);
		} else {
			finding_add(out, "rdma.uverbs", SEVERITY_OK, subject, NULL, "%s for %s%s", subject,
				    h->devices[i].name, u->node.access_known ? ", read-write" : " (exists; access not "
				    "asked under --root)");
		}
	}
	if (h->device_count && !in->uverbs->rdma_cm.exists)
		finding_add(out, "rdma.uverbs", SEVERITY_INFO, "/dev/infiniband/rdma_cm",
			    in_container(in) ? "docker run --device=/dev/infiniband ..." : "modprobe rdma_ucm",
			    "/dev/infiniband/rdma_cm is missing: librdmacm (rdma_cm connections, perftest -R) cannot "
			    "work; NCCL itself uses verbs only");
}

static void check_one_module(const struct check_input *in, const char *module, const char *why, enum severity s,
			     struct findings *out)
{
	char fix[256];

	if (module_loaded(in->modules, module)) {
		finding_add(out, "kernel.modules", SEVERITY_OK, module, NULL, "%s is loaded (%s)", module, why);
		return;
	}
	snprintf(fix, sizeof(fix), "modprobe %s\necho %s >> /etc/modules-load.d/rdma.conf   # at every boot",
		 module, module);
	finding_add(out, "kernel.modules", s, module, fix, "%s is not loaded: %s", module, why);
}

/* No RDMA device at all: rdma.devices says so, and ib_uverbs and rdma_ucm being absent adds nothing (a provider
 * such as mlx5_ib pulls ib_uverbs in when it loads). What can add something is the cause: a NIC driver that is
 * loaded while its RDMA provider is not (mlx5_core without mlx5_ib). A host with no such NIC (a VM with virtio
 * only) gets no finding. */
static void no_device_modules(const struct check_input *in, struct findings *out)
{
	for (size_t i = 0; i < rdma_driver_count; i++) {
		const struct rdma_driver *r = &rdma_drivers[i];
		char why[160];

		if (!r->every_nic || !module_loaded(in->modules, r->pci_driver) || module_loaded(in->modules, r->module))
			continue;
		snprintf(why, sizeof(why), "%s is loaded, so a NIC that can do RDMA is here, but without %s it has no "
			 "RDMA device", r->pci_driver, r->module);
		check_one_module(in, r->module, why, SEVERITY_FAIL, out);
	}
}

static void check_modules(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;

	if (!in->modules || !findings_wanted(out, "kernel.modules"))
		return;
	if (!in->modules->proc_known) {
		finding_add(out, "kernel.modules", SEVERITY_INFO, "/proc/modules", NULL,
			    "/proc/modules could not be read: loaded modules unknown");
		return;
	}
	if (h->device_count == 0) {
		no_device_modules(in, out);
		return;
	}
	check_one_module(in, "ib_uverbs", "libibverbs needs it for every device", SEVERITY_FAIL, out);
	check_one_module(in, "rdma_ucm", "librdmacm needs it for rdma_cm connections (NCCL itself does not)",
			 SEVERITY_INFO, out);
	for (size_t i = 0; i < h->device_count; i++) {
		const struct rdma_driver *r = rdma_driver_of(&h->devices[i]);
		bool seen = false;
		char why[128];

		for (size_t j = 0; r && j < i; j++) {
			const struct rdma_driver *before = rdma_driver_of(&h->devices[j]);

			seen |= before && strcmp(before->module, r->module) == 0;   /* ice and i40e: both irdma */
		}
		if (!r || seen)
			continue;
		snprintf(why, sizeof(why), "the provider of %s", h->devices[i].name);
		check_one_module(in, r->module, why, SEVERITY_FAIL, out);
	}
}

void check_system(const struct check_input *in, struct findings *out)
{
	check_uverbs(in, out);
	check_modules(in, out);
	check_verbs_providers(in, out);
	check_gpudirect(in, out);
}
