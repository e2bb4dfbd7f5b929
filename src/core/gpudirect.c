// SPDX-License-Identifier: GPL-2.0-only
/* gpu.peermem: whether NCCL gets GPUDirect RDMA, through a peer-memory module or through dma-buf. NCCL takes
 * dma-buf (net_ib, init.cc dmaBufSupported) when NCCL >= 2.13 and NCCL_DMABUF_ENABLE is not 0, the CUDA driver
 * is >= 11.7 and says CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, and ibv_reg_dmabuf_mr with fd -1 does not answer
 * EOPNOTSUPP/EPROTONOSUPPORT on the NIC. Without CUDA the attribute stands as: the open nvidia module (the
 * proprietary one exports no dma-buf), driver >= 515 (the first with the open flavour and CUDA 11.7), kernel
 * >= 5.12 (the first with dma-buf memory regions). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checks.h"
#include "core/nccl_gid_choice.h"
#include "util/text_append.h"

#define DRIVER_MIN 515u
#define KERNEL_MIN_MAJOR 5u
#define KERNEL_MIN_MINOR 12u

enum side { SIDE_READY, SIDE_UNKNOWN, SIDE_BLOCKED };

struct verdict {
	enum side side;
	char why[768];      /* "; "-separated reasons it is not ready or unknown */
	char fix[1024];     /* the dma-buf fixes, one per line */
	char have[256];     /* what is ready: "open nvidia module 580.159.04, kernel 6.18.44" */
};

static void reason(struct verdict *v, enum side side, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void reason(struct verdict *v, enum side side, const char *fix, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (side > v->side)
		v->side = side;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	text_append(v->why, sizeof(v->why), "%s%s", v->why[0] ? "; " : "", text);
	if (fix)
		text_append(v->fix, sizeof(v->fix), "%s%s", v->fix[0] ? "\n" : "", fix);
}

static bool kernel_too_old(const char *release)
{
	unsigned major, minor;

	if (sscanf(release, "%u.%u", &major, &minor) != 2)
		return false;
	return major < KERNEL_MIN_MAJOR || (major == KERNEL_MIN_MAJOR && minor < KERNEL_MIN_MINOR);
}

/* NCCL reads the variable as an integer (NCCL_PARAM): 0 turns dma-buf off. */
static void nccl_switch(const struct check_input *in, struct verdict *v)
{
	const struct nccl_setting *s = in->nccl ? nccl_conf_get(in->nccl, "NCCL_DMABUF_ENABLE") : NULL;
	char fix[512], *end;

	if (!s || strtoll(s->value, &end, 0) != 0 || end == s->value || *end)
		return;
	if (s->origin == NCCL_FROM_FILE)
		snprintf(fix, sizeof(fix), "sed -i '%u{/NCCL_DMABUF_ENABLE/d}' %s   # the line that sets it", s->line, s->file);
	else
		snprintf(fix, sizeof(fix), "unset NCCL_DMABUF_ENABLE   # in the job's environment");
	reason(v, SIDE_BLOCKED, fix, "NCCL_DMABUF_ENABLE=%.32s (%.300s) turns it off", s->value, s->source);
}

/* Blocked only when NCCL libraries were found and none is 2.13 or later. */
static void nccl_versions(const struct check_input *in, struct verdict *v)
{
	const struct nccl_version first = { 2, 13, 0, false };
	const struct nccl_lib *old = NULL;
	size_t cores = 0;

	for (size_t i = 0; in->nccl_libs && i < in->nccl_libs->count; i++) {
		const struct nccl_lib *l = &in->nccl_libs->items[i];
		struct nccl_version ver;

		if (l->kind != NCCL_LIB_CORE || nccl_version_parse(l->version, &ver) < 0)
			continue;
		cores++;
		if (ver.major > first.major || (ver.major == first.major && ver.minor >= first.minor))
			return;
		old = l;
	}
	if (cores && old)
		reason(v, SIDE_BLOCKED, "pip install -U nvidia-nccl-cu12   # in each venv; the system's: apt install libnccl2 "
		       "(NCCL >= 2.13)", "every NCCL found predates dma-buf (2.13), e.g. %s in %s", old->version,
		       old->place_count ? old->places[0].where : old->real_path);
}

/* The host side: the module, the kernel, NCCL. */
static void host_side(const struct check_input *in, struct verdict *v)
{
	const struct gpudirect_info *g = in->gpudirect;
	char fix[256], major[16];

	if (!g || g->flavor == NVIDIA_FLAVOR_UNKNOWN) {
		reason(v, SIDE_UNKNOWN, NULL, "the nvidia module's flavour is unknown (no /proc/driver/nvidia/version: "
		       "the driver is not loaded%s)", in->live ? "" : ", or the tree did not capture it");
	} else {
		/* the package of the same branch where the version is known, the meta package otherwise */
		major[0] = '\0';
		if (g->driver_version[0])
			snprintf(major, sizeof(major), "-%lu", strtoul(g->driver_version, NULL, 10));
		if (g->flavor == NVIDIA_FLAVOR_PROPRIETARY) {
			snprintf(fix, sizeof(fix), "apt install nvidia-driver%s-open   # the open flavour of the same driver "
				 "(dnf: nvidia-open); then reboot", major);
			reason(v, SIDE_BLOCKED, fix, "the proprietary nvidia module %s exports no dma-buf, only the open "
			       "one does", g->driver_version[0] ? g->driver_version : "(version unknown)");
		} else if (g->driver_version[0] && strtoul(g->driver_version, NULL, 10) < DRIVER_MIN) {
			reason(v, SIDE_BLOCKED, "apt install nvidia-open   # a driver >= 515, open flavour",
			       "the open nvidia module %s predates dma-buf export (515)", g->driver_version);
		}
		text_append(v->have, sizeof(v->have), "%s nvidia module %s", g->flavor == NVIDIA_FLAVOR_OPEN ? "open" :
			    "proprietary", g->driver_version[0] ? g->driver_version : "(version unknown)");
	}
	if (g && g->kernel_release[0] && kernel_too_old(g->kernel_release))
		reason(v, SIDE_BLOCKED, "a kernel >= 5.12 (dma-buf memory regions: ib_umem_dmabuf)",
		       "kernel %s predates dma-buf memory regions (5.12)", g->kernel_release);
	if (g && g->kernel_release[0])
		text_append(v->have, sizeof(v->have), "%skernel %s", v->have[0] ? ", " : "", g->kernel_release);
	nccl_switch(in, v);
	nccl_versions(in, v);
}

/* The NIC side: NCCL's test as recorded, or why there is none. supported lists the devices that passed. */
static enum side nic_side(const struct check_input *in, char *why, size_t size, char *supported, size_t sup_size,
			  const struct dmabuf_nic **refused)
{
	const struct gpudirect_info *g = in->gpudirect;
	size_t ok = 0, untested = 0;

	*refused = NULL;
	/* --from a snapshot taken under --root says what --root said: the answers must not differ */
	if (!g || !g->nics_tested) {
		snprintf(why, size, "%s", in->host->device_count == 0 ? "there is no RDMA device" :
			 !in->live ? "NCCL's ibv_reg_dmabuf_mr test runs only on the host itself, not under --root" :
			 "NCCL's ibv_reg_dmabuf_mr test did not run");
		return SIDE_UNKNOWN;
	}
	for (size_t i = 0; i < g->nic_count; i++) {
		const struct dmabuf_nic *n = &g->nics[i];

		if (dmabuf_nic_supported(n)) {
			text_append(supported, sup_size, "%s%s", ok++ ? ", " : "", n->device);
		} else if (n->step == DMABUF_STEP_REG) {
			if (!*refused)
				*refused = n;
		} else {
			untested++;
		}
	}
	if (*refused)
		return SIDE_BLOCKED;
	if (ok)
		return SIDE_READY;
	snprintf(why, size, "%s", untested ? "no RDMA device could be opened for NCCL's test" : "no RDMA device answered");
	return SIDE_UNKNOWN;
}

static const char peermem_fix[] =
	"modprobe nvidia_peermem\necho nvidia_peermem > /etc/modules-load.d/nvidia-peermem.conf   # at every boot";

void check_gpudirect(const struct check_input *in, struct findings *out)
{
	const char *module = NULL;
	const struct dmabuf_nic *refused;
	struct verdict v = { .side = SIDE_READY };
	char nic_why[256] = "", supported[512] = "", fix[2048];
	enum side nic;
	size_t n;

	if (!in->gpus || !in->modules || !findings_wanted(out, "gpu.peermem") || in->gpus->count == 0)
		return;
	n = in->gpus->count;
	if (in->modules->proc_known)
		module = module_loaded(in->modules, "nvidia_peermem") ? "nvidia_peermem" :
			 module_loaded(in->modules, "nv_peer_mem") ? "nv_peer_mem" : NULL;
	if (module) {
		finding_add(out, "gpu.peermem", SEVERITY_OK, module, NULL, "%zu NVIDIA GPU(s), GPUDirect RDMA module loaded",
			    n);
		return;
	}
	host_side(in, &v);
	nic = nic_side(in, nic_why, sizeof(nic_why), supported, sizeof(supported), &refused);
	if (v.side == SIDE_READY && nic == SIDE_READY) {
		finding_add(out, "gpu.peermem", SEVERITY_OK, "dma-buf", NULL, "%zu NVIDIA GPU(s), GPUDirect RDMA through "
			    "dma-buf (no peer-memory module needed): %s; %s take dma-buf memory regions", n, v.have, supported);
		return;
	}
	if (v.side == SIDE_READY && nic == SIDE_BLOCKED) {
		snprintf(fix, sizeof(fix), "%s\n# or dma-buf on %s: a kernel and rdma-core (>= 34) whose %s provider "
			 "registers dma-buf memory regions", peermem_fix, refused->device, refused->device);
		finding_add(out, "gpu.peermem", in->host->device_count ? SEVERITY_WARN : SEVERITY_INFO, refused->device,
			    fix, "%zu NVIDIA GPU(s); the GPU side allows dma-buf (%s) but %s refuses dma-buf memory regions "
			    "(ibv_reg_dmabuf_mr: %s) and no peer-memory module is loaded: NCCL stages GPU buffers through "
			    "host memory there (no GPUDirect RDMA)", n, v.have, refused->device, strerror(refused->err));
		return;
	}
	if (v.side == SIDE_READY) {
		finding_add(out, "gpu.peermem", SEVERITY_INFO, "dma-buf", in->host->device_count && !in->live ?
			    "roce-doctor check --only gpu.peermem   # on the host itself: runs NCCL's dma-buf test on each "
			    "RDMA device" : NULL,
			    "%zu NVIDIA GPU(s), no peer-memory module%s, but the GPU side allows GPUDirect RDMA through "
			    "dma-buf (%s); the RDMA side is unknown: %s", n, in->modules->proc_known ? "" : " known", v.have,
			    nic_why);
		return;
	}
	snprintf(fix, sizeof(fix), "%s%s%s", peermem_fix, v.fix[0] ? "\n# or dma-buf, without the module:\n" : "", v.fix);
	if (!in->modules->proc_known) {
		finding_add(out, "gpu.peermem", SEVERITY_INFO, "/proc/modules", NULL, "%zu NVIDIA GPU(s); whether "
			    "nvidia_peermem is loaded is unknown, and dma-buf %s: %s", n,
			    v.side == SIDE_BLOCKED ? "is out" : "is unknown", v.why);
		return;
	}
	finding_add(out, "gpu.peermem", v.side == SIDE_BLOCKED && in->host->device_count ? SEVERITY_WARN : SEVERITY_INFO,
		    in->gpus->items[0].pci_address, fix, "%zu NVIDIA GPU(s) but neither nvidia_peermem nor nv_peer_mem is "
		    "loaded, and dma-buf %s (%s): NCCL stages GPU buffers through host memory (no GPUDirect RDMA)", n,
		    v.side == SIDE_BLOCKED ? "is out" : "is unknown", v.why);
}
