/* firewalld among the processes, and the legacy iptables tables the kernel has loaded. */
#include "probe/firewall_proc.h"
#include "probe_tree.h"
#include "tap.h"

static void seed000_runs_firewalld_with_a_filter_table(void)
{
	struct notes notes = { 0 };
	struct firewall_procs fw;
	struct rootfs root;

	if (open_fixture(&root, "check-seed000") < 0) {
		CHECK(0);
		return;
	}
	CHECK(firewall_procs_read(&root, &fw, &notes) == 0);
	CHECK(fw.firewalld_running && fw.firewalld_pid == 1234);
	CHECK(fw.processes_scanned == 3 && !fw.scan_truncated);   /* 1, 1234, 4242; "self" is not a pid */
	CHECK(fw.iptables_known && fw.iptables_count == 1 && strcmp(fw.iptables[0], "filter") == 0);
	rootfs_close(&root);
	notes_free(&notes);
}

static void fresh_node_has_neither(void)
{
	struct notes notes = { 0 };
	struct firewall_procs fw;
	struct rootfs root;

	if (open_fixture(&root, "check-fresh") < 0) {
		CHECK(0);
		return;
	}
	CHECK(firewall_procs_read(&root, &fw, &notes) == 0);
	CHECK(!fw.firewalld_running && fw.firewalld_pid == 0 && fw.processes_scanned == 2);
	CHECK(!fw.iptables_known && fw.iptables_count == 0);
	CHECK(notes.count == 0);
	rootfs_close(&root);
	notes_free(&notes);
}

static void comm_must_match_exactly_and_lowest_pid_wins(void)
{
	struct notes notes = { 0 };
	struct firewall_procs fw;
	struct rootfs root;
	struct tree t;

	CHECK(tree_make(&t) == 0);
	TREE_PUT(&t, "proc/900/comm", "firewalld\n");
	TREE_PUT(&t, "proc/80/comm", "firewalld\n");
	TREE_PUT(&t, "proc/70/comm", "firewalld-cmd\n");
	TREE_PUT(&t, "proc/60/comm", "firewall\n");
	CHECK(rootfs_open(&root, t.dir) == 0);
	CHECK(firewall_procs_read(&root, &fw, &notes) == 0);
	CHECK(fw.firewalld_running && fw.firewalld_pid == 80);
	rootfs_close(&root);
	notes_free(&notes);
	tree_remove(&t);
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
