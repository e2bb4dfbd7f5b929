// SPDX-License-Identifier: GPL-2.0-only
/* firewalld among the processes, and the legacy iptables tables the kernel has loaded. */
#include "probe/firewall_proc.h"
#include "probe_tree.h"
#include "tap.h"

static void seed000_runs_firewalld_with_a_filter_table(void)
{
	struct probe_root r;
	struct firewall_procs fw;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(firewall_procs_read(&r.root, &fw, &r.notes) == 0);
	CHECK(fw.firewalld_running && fw.firewalld_pid == 1234);
	CHECK(fw.processes_scanned == 3 && !fw.scan_truncated);   /* 1, 1234, 4242; "self" is not a pid */
	CHECK(fw.iptables_known && fw.iptables_count == 1 && strcmp(fw.iptables[0], "filter") == 0);
	probe_root_done(&r);
}

static void fresh_node_has_neither(void)
{
	struct probe_root r;
	struct firewall_procs fw;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	CHECK(firewall_procs_read(&r.root, &fw, &r.notes) == 0);
	CHECK(!fw.firewalld_running && fw.firewalld_pid == 0 && fw.processes_scanned == 2);
	CHECK(!fw.iptables_known && fw.iptables_count == 0);
	CHECK(r.notes.count == 0);
	probe_root_done(&r);
}

static void comm_must_match_exactly_and_lowest_pid_wins(void)
{
	struct probe_root r;
	struct firewall_procs fw;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "proc/900/comm", "firewalld\n");
	TREE_PUT(&r.tree, "proc/80/comm", "firewalld\n");
	TREE_PUT(&r.tree, "proc/70/comm", "firewalld-cmd\n");
	TREE_PUT(&r.tree, "proc/60/comm", "firewall\n");
	CHECK(firewall_procs_read(&r.root, &fw, &r.notes) == 0);
	CHECK(fw.firewalld_running && fw.firewalld_pid == 80);
	probe_root_done(&r);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(seed000_runs_firewalld_with_a_filter_table);
	RUN(fresh_node_has_neither);
	RUN(comm_must_match_exactly_and_lowest_pid_wins);
	TAP_DONE();
}
