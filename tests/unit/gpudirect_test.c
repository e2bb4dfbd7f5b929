// SPDX-License-Identifier: GPL-2.0-only
/* gpu.peermem over peer memory or dma-buf (core/gpudirect.c): each state of the module, the kernel, NCCL and
 * NCCL's NIC test gives its severity and both fixes where neither path works; the nvidia version line parser;
 * the facts through the system JSON and back, and a bad member refused with its path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/checks.h"
#include "model/system_json.h"
#include "probe/gpudirect.h"
#include "tap.h"

struct world {
	struct host host;
	struct nvidia_gpu gpu;
	struct gpu_list gpus;
	struct kernel_module mods[2];
	struct module_list modules;
	struct gpudirect_info gd;
	struct nccl_setting setting;
	struct nccl_conf nccl;
	struct nccl_lib lib;
	struct nccl_libs libs;
	struct check_input in;
	struct findings f;
};

/* A live host with one GPU, two RDMA devices, the open module 580 on 6.18, no peer-memory module, no NIC test. */
static void world_init(struct world *w)
{
	struct findings kept = w->f;   /* a second world in one test: judge() frees the first one's findings */

	memset(w, 0, sizeof(*w));
	w->f = kept;
	w->host.device_count = 2;
	snprintf(w->gpu.pci_address, sizeof(w->gpu.pci_address), "0000:1b:00.0");
	w->gpus.items = &w->gpu;
	w->gpus.count = 1;
	snprintf(w->mods[0].name, sizeof(w->mods[0].name), "nvidia");
	snprintf(w->mods[1].name, sizeof(w->mods[1].name), "mlx5_ib");
	w->modules.items = w->mods;
	w->modules.count = 2;
	w->modules.proc_known = true;
	w->gd.flavor = NVIDIA_FLAVOR_OPEN;
	snprintf(w->gd.driver_version, sizeof(w->gd.driver_version), "580.159.04");
	snprintf(w->gd.kernel_release, sizeof(w->gd.kernel_release), "6.18.44");
	w->nccl.items = &w->setting;
	w->libs.items = &w->lib;
	w->in = (struct check_input){ .host = &w->host, .live = true, .gpus = &w->gpus, .modules = &w->modules,
				      .gpudirect = &w->gd, .nccl = &w->nccl, .nccl_libs = &w->libs };
}

static void tested(struct world *w, const char *dev, enum dmabuf_step step, int err)
{
	struct dmabuf_nic *n = &w->gd.nics[w->gd.nic_count++];

	snprintf(n->device, sizeof(n->device), "%s", dev);
	n->step = step;
	n->err = err;
	w->gd.nics_tested = true;
}

/* The one gpu.peermem finding, after running the rule afresh. */
static const struct finding *judge(struct world *w)
{
	const struct finding *it = NULL;

	findings_free(&w->f);
	memset(&w->f, 0, sizeof(w->f));
	check_gpudirect(&w->in, &w->f);
	for (size_t i = 0; i < w->f.count; i++)
		if (strcmp(w->f.items[i].id, "gpu.peermem") == 0)
			it = it ? NULL : &w->f.items[i];   /* more than one: a failure */
	if (!it)
		printf("# %zu findings, not exactly one gpu.peermem\n", w->f.count);
	return it;
}

static bool has(const char *text, const char *part)
{
	if (text && strstr(text, part))
		return true;
	printf("# \"%s\" lacks \"%s\"\n", text ? text : "(null)", part);
	return false;
}

static void version_line_parses_both_flavours(void)
{
	enum nvidia_flavor f;
	char v[32];

	CHECK(nvidia_version_line_parse("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release "
					"Build  (nixbld@)  ", &f, v, sizeof(v)) == 0 && f == NVIDIA_FLAVOR_OPEN &&
	      strcmp(v, "580.159.04") == 0);
	CHECK(nvidia_version_line_parse("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release "
					"Build  (dvs-builder@U22-I3-AM02-24-3)", &f, v, sizeof(v)) == 0 &&
	      f == NVIDIA_FLAVOR_OPEN && strcmp(v, "580.95.05") == 0);
	CHECK(nvidia_version_line_parse("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.08  Tue Mar  5 "
					"22:42:15 UTC 2024", &f, v, sizeof(v)) == 0 && f == NVIDIA_FLAVOR_PROPRIETARY &&
	      strcmp(v, "535.161.08") == 0);
	CHECK(nvidia_version_line_parse("NVRM version: NVIDIA UNIX x86_64 Kernel Module", &f, v, sizeof(v)) == -EINVAL &&
	      f == NVIDIA_FLAVOR_UNKNOWN && v[0] == '\0');
	CHECK(nvidia_version_line_parse("GCC version:  gcc version 15.3.0 (GCC)", &f, v, sizeof(v)) == -EINVAL);
	CHECK(nvidia_version_line_parse("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04", &f, v,
					4) == -EINVAL);
}

static void peermem_loaded_is_ok(void)
{
	struct world w = { 0 };
	const struct finding *it;

	world_init(&w);
	w.gd.flavor = NVIDIA_FLAVOR_PROPRIETARY;
	snprintf(w.mods[1].name, sizeof(w.mods[1].name), "nvidia_peermem");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_OK && strcmp(it->subject, "nvidia_peermem") == 0);
	snprintf(w.mods[1].name, sizeof(w.mods[1].name), "nv_peer_mem");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_OK && strcmp(it->subject, "nv_peer_mem") == 0);
	findings_free(&w.f);
}

/* The H100 of the survey with a NIC: EBADF for fd -1 is NCCL's "supported". */
static void dmabuf_accepted_is_ok_without_peermem(void)
{
	struct world w = { 0 };
	const struct finding *it;

	world_init(&w);
	tested(&w, "mlx5_0", DMABUF_STEP_REG, EBADF);
	tested(&w, "mlx5_1", DMABUF_STEP_REG, EBADF);
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_OK && strcmp(it->subject, "dma-buf") == 0 && !it->fix &&
	      has(it->message, "open nvidia module 580.159.04, kernel 6.18.44") && has(it->message, "mlx5_0, mlx5_1"));
	w.modules.proc_known = false;   /* the module list unknown changes nothing: dma-buf does not need it */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_OK && strcmp(it->subject, "dma-buf") == 0);
	findings_free(&w.f);
}

static void dmabuf_refused_by_a_nic_warns_with_both_fixes(void)
{
	static const int refusals[] = { EOPNOTSUPP, EPROTONOSUPPORT };
	struct world w = { 0 };
	const struct finding *it;

	for (size_t i = 0; i < 2; i++) {
		world_init(&w);
		tested(&w, "mlx5_0", DMABUF_STEP_REG, EBADF);
		tested(&w, "rxe0", DMABUF_STEP_REG, refusals[i]);
		it = judge(&w);
		CHECK(it && it->severity == SEVERITY_WARN && strcmp(it->subject, "rxe0") == 0 &&
		      has(it->message, strerror(refusals[i])) && has(it->fix, "modprobe nvidia_peermem") &&
		      has(it->fix, "rdma-core"));
		findings_free(&w.f);
	}
}

static void dmabuf_nic_side_unknown_is_info(void)
{
	struct world w = { 0 };
	const struct finding *it;

	world_init(&w);
	w.in.live = false;   /* --root */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && strcmp(it->subject, "dma-buf") == 0 &&
	      has(it->message, "not under --root") && has(it->fix, "roce-doctor check --only gpu.peermem"));
	w.host.device_count = 0;   /* the H100 VM: nothing to fix until there is an RDMA device */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && has(it->message, "there is no RDMA device") && !it->fix);
	world_init(&w);
	tested(&w, "mlx5_0", DMABUF_STEP_OPEN, EACCES);
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && has(it->message, "could be opened"));
	findings_free(&w.f);
}

static void neither_path_warns_with_both_fixes(void)
{
	struct world w = { 0 };
	const struct finding *it;

	world_init(&w);
	w.gd.flavor = NVIDIA_FLAVOR_PROPRIETARY;
	snprintf(w.gd.driver_version, sizeof(w.gd.driver_version), "535.161.08");
	tested(&w, "mlx5_0", DMABUF_STEP_REG, EBADF);   /* the NIC would take it: the GPU side does not */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_WARN && strcmp(it->subject, "0000:1b:00.0") == 0 &&
	      has(it->message, "proprietary nvidia module 535.161.08") && has(it->fix, "modprobe nvidia_peermem") &&
	      has(it->fix, "apt install nvidia-driver-535-open"));
	w.host.device_count = 0;   /* no RDMA device: NCCL would not use GPUDirect anyway */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO);
	w.gd.driver_version[0] = '\0';   /* version unknown: the meta package, no "nvidia-driver-0-open" */
	it = judge(&w);
	CHECK(it && has(it->fix, "apt install nvidia-driver-open") && has(it->message, "(version unknown)"));

	world_init(&w);
	w.gd.driver_version[0] = '\0';   /* the open flavour of an unknown version is not judged old */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && strcmp(it->subject, "dma-buf") == 0);
	snprintf(w.gd.driver_version, sizeof(w.gd.driver_version), "510.47.03");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_WARN && has(it->message, "predates dma-buf export (515)"));

	world_init(&w);
	snprintf(w.gd.kernel_release, sizeof(w.gd.kernel_release), "5.10.0-28-amd64");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_WARN && has(it->message, "kernel 5.10.0-28-amd64 predates") &&
	      has(it->fix, "a kernel >= 5.12"));
	snprintf(w.gd.kernel_release, sizeof(w.gd.kernel_release), "5.12.0");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && strcmp(it->subject, "dma-buf") == 0);
	findings_free(&w.f);
}

static void nccl_switch_and_versions_block_dmabuf(void)
{
	struct world w = { 0 };
	const struct finding *it;

	world_init(&w);
	w.setting = (struct nccl_setting){ .name = "NCCL_DMABUF_ENABLE", .value = "0", .origin = NCCL_FROM_ENV,
					   .source = "environment", .effective = true };
	w.nccl.count = 1;
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_WARN && has(it->message, "NCCL_DMABUF_ENABLE=0 (environment)") &&
	      has(it->fix, "unset NCCL_DMABUF_ENABLE"));
	w.setting.origin = NCCL_FROM_FILE;
	w.setting.line = 4;
	snprintf(w.setting.file, sizeof(w.setting.file), "/etc/nccl.conf");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_WARN && has(it->fix, "sed -i '4{/NCCL_DMABUF_ENABLE/d}' /etc/nccl.conf"));
	snprintf(w.setting.value, sizeof(w.setting.value), "1");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && strcmp(it->subject, "dma-buf") == 0);

	world_init(&w);
	w.lib.kind = NCCL_LIB_CORE;
	snprintf(w.lib.version, sizeof(w.lib.version), "2.12.12");
	snprintf(w.lib.real_path, sizeof(w.lib.real_path), "/opt/conda/envs/old/lib/libnccl.so.2");
	w.libs.count = 1;
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_WARN && has(it->message, "2.12.12 in /opt/conda/envs/old") &&
	      has(it->fix, "NCCL >= 2.13"));
	snprintf(w.lib.version, sizeof(w.lib.version), "2.13.4");
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && strcmp(it->subject, "dma-buf") == 0);
	findings_free(&w.f);
}

static void unknown_driver_stays_info(void)
{
	struct world w = { 0 };
	const struct finding *it;

	world_init(&w);
	w.in.gpudirect = NULL;   /* not read: a snapshot from before the member existed */
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && has(it->message, "dma-buf is unknown") &&
	      has(it->fix, "modprobe nvidia_peermem"));
	w.modules.proc_known = false;
	it = judge(&w);
	CHECK(it && it->severity == SEVERITY_INFO && strcmp(it->subject, "/proc/modules") == 0);
	w.gpus.count = 0;
	findings_free(&w.f);
	memset(&w.f, 0, sizeof(w.f));
	check_gpudirect(&w.in, &w.f);
	CHECK(w.f.count == 0);
	findings_free(&w.f);
}

static void facts_round_trip_and_bad_step_is_refused(void)
{
	struct system_state s = { 0 }, back;
	char why[512] = "";
	json_t *doc, *member;

	snprintf(s.user.name, sizeof(s.user.name), "root");   /* the one member the writer requires */
	s.gpudirect_read = true;
	s.gpudirect.flavor = NVIDIA_FLAVOR_OPEN;
	snprintf(s.gpudirect.driver_version, sizeof(s.gpudirect.driver_version), "580.159.04");
	s.gpudirect.nics_tested = true;
	s.gpudirect.nic_count = 2;
	snprintf(s.gpudirect.nics[0].device, sizeof(s.gpudirect.nics[0].device), "mlx5_0");
	s.gpudirect.nics[0].err = EBADF;
	snprintf(s.gpudirect.nics[1].device, sizeof(s.gpudirect.nics[1].device), "mlx5_1");
	s.gpudirect.nics[1].step = DMABUF_STEP_PD;
	s.gpudirect.nics[1].err = ENOMEM;
	doc = system_to_json(&s);
	CHECK(doc && system_from_json(doc, &back, why, sizeof(why)) == 0);
	CHECK(back.gpudirect_read && back.gpudirect.flavor == NVIDIA_FLAVOR_OPEN && !back.gpudirect.kernel_release[0] &&
	      back.gpudirect.nics_tested && back.gpudirect.nic_count == 2 && back.gpudirect.nics[0].err == EBADF &&
	      back.gpudirect.nics[0].step == DMABUF_STEP_REG && back.gpudirect.nics[1].step == DMABUF_STEP_PD &&
	      strcmp(back.gpudirect.nics[1].device, "mlx5_1") == 0);
	system_free(&back);
	member = json_object_get(json_array_get(json_object_get(json_object_get(doc, "gpudirect"), "dmabuf_test"), 1),
				 "step");
	CHECK(member && json_string_set(member, "ibv_reg_mr") == 0);
	CHECK(system_from_json(doc, &back, why, sizeof(why)) < 0 && has(why, "gpudirect.dmabuf_test[1].step"));
	json_object_del(doc, "gpudirect");   /* a snapshot from before: not read, and still valid */
	CHECK(system_from_json(doc, &back, why, sizeof(why)) == 0 && !back.gpudirect_read);
	system_free(&back);
	json_decref(doc);
}

int main(void)
{
	RUN(version_line_parses_both_flavours);
	RUN(peermem_loaded_is_ok);
	RUN(dmabuf_accepted_is_ok_without_peermem);
	RUN(dmabuf_refused_by_a_nic_warns_with_both_fixes);
	RUN(dmabuf_nic_side_unknown_is_info);
	RUN(neither_path_warns_with_both_fixes);
	RUN(nccl_switch_and_versions_block_dmabuf);
	RUN(unknown_driver_stays_info);
	RUN(facts_round_trip_and_bad_step_is_refused);
	TAP_DONE();
}
