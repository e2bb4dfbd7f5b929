// SPDX-License-Identifier: GPL-2.0-only
/* verbs.provider: each RDMA device's libibverbs provider against /etc/libibverbs.d, as a pure rule on a model
 * (fails naming the device and the package, ok when configured, silent without devices or when the config was
 * not read), the device -> provider table, and the probe on the fixture trees. */
#include <errno.h>
#include <string.h>

#include "core/checks.h"
#include "core/rdma_drivers.h"
#include "fixture_host.h"
#include "probe/verbs_providers.h"
#include "tap.h"

static struct findings judge(const struct host *host, const struct verbs_providers *v, const char *container)
{
	struct container_info c = { 0 };
	struct check_input in = { .host = host, .family = AF_INET, .verbs_providers = v, .container = &c };
	struct findings f = { 0 };

	if (container)
		snprintf(c.kind, sizeof(c.kind), "%s", container);
	check_verbs_providers(&in, &f);
	return f;
}

static struct rdma_device device(const char *name, const char *driver, const char *pci, const char *parent)
{
	struct rdma_device d = { 0 };

	snprintf(d.name, sizeof(d.name), "%s", name);
	snprintf(d.driver, sizeof(d.driver), "%s", driver);
	snprintf(d.pci_address, sizeof(d.pci_address), "%s", pci);
	snprintf(d.parent, sizeof(d.parent), "%s", parent);
	return d;
}

static void each_kind_of_device_has_its_provider(void)
{
	struct rdma_device cx = device("mlx5_0", "mlx5_core", "0000:39:00.0", ""),
			   e810 = device("irdma0", "ice", "0000:3b:00.0", ""),
			   renamed_rxe = device("roce0", "", "", "eth0"), siw = device("siw0", "", "", ""),
			   unknown = device("foo0", "foo_pci", "0000:01:00.0", "");

	CHECK_STR(rdma_driver_of(&cx)->provider, "mlx5");
	CHECK_STR(rdma_driver_of(&e810)->provider, "irdma");
	CHECK_STR(rdma_driver_of(&renamed_rxe)->provider, "rxe");
	CHECK_STR(rdma_driver_of(&siw)->provider, "siw");
	CHECK(rdma_driver_of(&unknown) == NULL);
}

static void missing_provider_fails_naming_device_and_package(void)
{
	struct rdma_device devs[2] = { device("mlx5_0", "mlx5_core", "0000:39:00.0", ""), device("rxe0", "", "", "eth0") };
	struct host host = { .devices = devs, .device_count = 2 };
	struct verbs_providers v = { .dir_exists = true, .count = 1, .names = { "mlx5" } };
	struct findings f = judge(&host, &v, NULL);

	CHECK(f.count == 2);
	CHECK(f.count == 2 && f.items[0].severity == SEVERITY_OK && strcmp(f.items[0].subject, "mlx5_0") == 0);
	CHECK(f.count == 2 && f.items[1].severity == SEVERITY_FAIL && strcmp(f.items[1].subject, "rxe0") == 0 &&
	      strstr(f.items[1].message, "/etc/libibverbs.d has no rxe.driver") &&
	      strncmp(f.items[1].fix, "apt-get install ibverbs-providers", 33) == 0 &&
	      strstr(f.items[1].fix, "dnf install libibverbs"));
	findings_free(&f);
	v.dir_exists = false;
	v.count = 0;
	f = judge(&host, &v, "docker");
	CHECK(f.count == 2 && f.items[0].severity == SEVERITY_FAIL &&
	      strstr(f.items[0].message, "/etc/libibverbs.d does not exist") &&
	      strstr(f.items[0].fix, "docker run -v /etc/libibverbs.d:/etc/libibverbs.d:ro"));
	findings_free(&f);
}

static void silent_without_devices_or_config(void)
{
	struct rdma_device devs[1] = { device("rxe0", "", "", "eth0") };
	struct host none = { 0 }, host = { .devices = devs, .device_count = 1 };
	struct verbs_providers v = { 0 };
	struct findings f = judge(&none, &v, NULL);

	CHECK(f.count == 0);
	findings_free(&f);
	f = judge(&host, NULL, NULL);   /* not read: an older snapshot, a tree without etc/ */
	CHECK(f.count == 0);
	findings_free(&f);
}

static int read_tree(const char *name, struct verbs_providers *v, struct notes *notes)
{
	struct rootfs root;
	char path[1024];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	ret = rootfs_open(&root, path);
	if (ret == 0) {
		ret = verbs_providers_read(&root, v, notes);
		rootfs_close(&root);
	}
	return ret;
}

static void probe_reads_the_fixture_configs(void)
{
	struct verbs_providers v;
	struct notes notes = { 0 };

	CHECK(read_tree("softroce", &v, &notes) == 0 && v.dir_exists && v.count == 1 && strcmp(v.names[0], "rxe") == 0);
	CHECK(read_tree("dgx-h100", &v, &notes) == 0 && v.dir_exists && v.count == 1 && verbs_provider_listed(&v, "mlx5"));
	CHECK(read_tree("softroce-no-provider", &v, &notes) == 0 && !v.dir_exists && v.count == 0);
	CHECK(notes.count == 0);
	notes_free(&notes);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(each_kind_of_device_has_its_provider);
	RUN(missing_provider_fails_naming_device_and_package);
	RUN(silent_without_devices_or_config);
	RUN(probe_reads_the_fixture_configs);
	TAP_DONE();
}
