// SPDX-License-Identifier: GPL-2.0-only
/* compare_node_from_snapshot: a snapshot without system sources leaves the system-derived members unknown; one
 * with them fills the pinned NCCL_IB_GID_INDEX and its source, the effective NCCL_* settings, memlock, the
 * firewall and the node's own check findings. (snapshot does not record `system` yet: built by hand here.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/compare_node.h"
#include "fixture_host.h"
#include "tap.h"

static void snapshot_of_fixture(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	CHECK(probe_fixture("eight-hca", &s->host) == 0);
	snprintf(s->identity.hostname, sizeof(s->identity.hostname), "b07");
	snprintf(s->identity.kernel_release, sizeof(s->identity.kernel_release), "6.1.0-28-amd64");
	s->identity.device_count = 1;
	snprintf(s->identity.devices[0].device, sizeof(s->identity.devices[0].device), "mlx5_0");
	snprintf(s->identity.devices[0].board_id, sizeof(s->identity.devices[0].board_id), "MT_0000000359");
}

static void test_without_system_unknown(void)
{
	struct compare_owned own;
	struct compare_node node;
	struct snapshot s;

	snapshot_of_fixture(&s);
	CHECK(compare_node_from_snapshot(&s, "b07.json", "pdsh-name", &own, &node) == 0);
	CHECK_STR(node.hostname, "b07");      /* the snapshot's hostname wins over the pdsh prefix */
	CHECK_STR(node.file, "b07.json");
	CHECK_STR(node.kernel, "6.1.0-28-amd64");
	CHECK(node.host && node.host->device_count == 10);
	CHECK(node.board_count == 1);
	CHECK(!node.nccl_known && !node.checks_known && !node.gid_index_pinned && !node.firewall);
	CHECK(!node.nccl_libs_known && node.nccl_lib_count == 0);
	CHECK(node.memlock_kind == COMPARE_MEMLOCK_UNKNOWN);
	snapshot_free(&s);
	compare_owned_free(&own);
}

static void test_with_system(void)
{
	struct compare_owned own;
	struct compare_node node;
	struct snapshot s;
	struct nccl_setting *set;

	snapshot_of_fixture(&s);
	*s.identity.hostname = '\0';
	s.system_known = true;
	s.system.nccl_read = true;
	s.system.nccl.items = set = calloc(2, sizeof(*set));
	s.system.nccl.count = 2;
	snprintf(set[0].name, sizeof(set[0].name), "NCCL_IB_GID_INDEX");
	snprintf(set[0].value, sizeof(set[0].value), "3");
	snprintf(set[0].source, sizeof(set[0].source), "environment");
	set[0].effective = true;
	snprintf(set[1].name, sizeof(set[1].name), "NCCL_IB_GID_INDEX");   /* shadowed by the environment */
	snprintf(set[1].value, sizeof(set[1].value), "1");
	snprintf(set[1].source, sizeof(set[1].source), "/etc/nccl.conf:2");
	set[1].origin = NCCL_FROM_FILE;
	s.system.rlimit_read = true;
	s.system.rlimit.known = true;
	s.system.rlimit.soft.bytes = 65536;
	s.system.fw_procs_read = true;
	s.system.fw_procs.firewalld_running = true;
	/* the system libnccl2 as nccl-libs has it: found as libnccl.so (first) and libnccl.so.2 */
	s.system.nccl_libs_read = true;
	s.system.nccl_libs.items = calloc(1, sizeof(*s.system.nccl_libs.items));
	s.system.nccl_libs.count = 1;
	{
		struct nccl_lib *lib = s.system.nccl_libs.items;

		snprintf(lib->real_path, sizeof(lib->real_path), "/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3");
		snprintf(lib->places[0].path, sizeof(lib->places[0].path), "/usr/lib/x86_64-linux-gnu/libnccl.so");
		snprintf(lib->places[1].path, sizeof(lib->places[1].path), "/usr/lib/x86_64-linux-gnu/libnccl.so.2");
		lib->place_count = 2;
		snprintf(lib->version, sizeof(lib->version), "2.28.3");
		snprintf(lib->package_manager, sizeof(lib->package_manager), "dpkg");
		snprintf(lib->package_name, sizeof(lib->package_name), "libnccl2");
	}
	CHECK(compare_node_from_snapshot(&s, "x.jsonl:3", "n12", &own, &node) == 0);
	CHECK(node.nccl_libs_known && node.nccl_lib_count == 1);
	/* compared by the name a job loads it by, which a new release keeps */
	CHECK(node.nccl_lib_count == 1 && strcmp(node.nccl_libs[0].path, "/usr/lib/x86_64-linux-gnu/libnccl.so.2") == 0 &&
	      strcmp(node.nccl_libs[0].version, "2.28.3") == 0 && strcmp(node.nccl_libs[0].package_name, "libnccl2") == 0);
	CHECK_STR(node.hostname, "n12");      /* no hostname in the snapshot: the pdsh prefix names it */
	CHECK_STR(node.gid_index_pinned, "3");
	CHECK_STR(node.gid_index_source, "environment");
	CHECK(node.nccl_known && node.nccl_count == 1);
	CHECK(node.nccl_count == 1 && strcmp(node.nccl[0].value, "3") == 0);
	CHECK(node.memlock_kind == COMPARE_MEMLOCK_BYTES && node.memlock_bytes == 65536);
	CHECK_STR(node.firewall, "firewalld");
	CHECK(node.checks_known && node.check_count > 0);
	{
		bool memlock_not_ok = false;

		for (size_t i = 0; i < node.check_count; i++)
			if (strncmp(node.checks[i].id, "memlock.", 8) == 0 && node.checks[i].severity != SEVERITY_OK)
				memlock_not_ok = true;
		CHECK(memlock_not_ok);   /* 64 KiB of memlock is a finding of the node's own check */
	}
	snapshot_free(&s);
	compare_owned_free(&own);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(test_without_system_unknown);
	RUN(test_with_system);
	TAP_DONE();
}
