// SPDX-License-Identifier: GPL-2.0-only
/* memlock probes: /proc/self/limits, pam_limits precedence, systemd DefaultLimitMEMLOCK, accounts, containers. */
#include "probe/container.h"
#include "probe/memlock.h"
#include "probe/user_info.h"
#include "probe_tree.h"
#include "tap.h"

#include <unistd.h>

#define GIB (1024ull * 1024 * 1024)
#define MIB (1024ull * 1024)

static void proc_limits_unlimited_after_the_fix(void)
{
	struct memlock_rlimit rl;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(memlock_rlimit_read(&r.root, &rl) == 0);
	CHECK(rl.known && rl.soft.unlimited && rl.hard.unlimited);
	probe_root_done(&r);
}

static void proc_limits_64k_on_a_stock_node(void)
{
	struct memlock_rlimit rl;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	CHECK(memlock_rlimit_read(&r.root, &rl) == 0);
	CHECK(rl.known && !rl.soft.unlimited && rl.soft.bytes == 65536 && !rl.hard.unlimited && rl.hard.bytes == 65536);
	probe_root_done(&r);
}

static void proc_limits_missing_line_is_an_error(void)
{
	struct memlock_rlimit rl;
	struct rootfs root;
	struct tree t;

	CHECK(tree_make(&t) == 0);
	TREE_PUT(&t, "proc/self/limits", "Limit  Soft Limit  Hard Limit  Units\nMax open files 1024 4096 files\n");
	CHECK(rootfs_open(&root, t.dir) == 0);
	CHECK(memlock_rlimit_read(&root, &rl) == -ENODATA);
	CHECK(!rl.known);
	TREE_PUT(&t, "proc/self/limits", "Max locked memory         lots                 65536                bytes\n");
	CHECK(memlock_rlimit_read(&root, &rl) == -EINVAL);
	rootfs_close(&root);
	tree_remove(&t);
}

static int read_seed000(struct rootfs *root, struct pam_limits *conf, struct notes *notes)
{
	memset(notes, 0, sizeof(*notes));
	if (open_fixture(root, "check-seed000") < 0)
		return -1;
	return pam_limits_read(root, conf, notes);
}

static void pam_reads_memlock_lines_in_pam_order(void)
{
	struct pam_limits conf;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, &conf, &notes) == 0);
	/* limits.conf: @rdma, alice soft, alice hard, "svc -"; then 99-nccl.conf's two lines; README and the
	 * dot-file are not *.conf files pam_limits reads */
	CHECK(conf.count == 6);
	if (conf.count == 6) {
		CHECK_STR(conf.lines[0].file, "/etc/security/limits.conf");
		CHECK(conf.lines[0].line == 9);
		CHECK_STR(conf.lines[0].domain, "@rdma");
		CHECK(conf.lines[0].type == MEMLOCK_HARD && conf.lines[0].value.bytes == 16 * GIB);
		CHECK(conf.lines[1].type == MEMLOCK_SOFT && conf.lines[1].value.bytes == 64 * MIB);
		CHECK(conf.lines[3].kind == LIMITS_LINE_NO_LIMITS);
		CHECK_STR(conf.lines[3].domain, "svc");
		CHECK_STR(conf.lines[4].file, "/etc/security/limits.d/99-nccl.conf");
		CHECK(conf.lines[4].line == 1 && conf.lines[4].value.unlimited && conf.lines[4].type == MEMLOCK_SOFT);
		CHECK(conf.lines[5].line == 2 && conf.lines[5].value.unlimited && conf.lines[5].type == MEMLOCK_HARD);
	}
	pam_limits_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void pam_names_skipped_lines_with_file_and_line(void)
{
	struct pam_limits conf;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, &conf, &notes) == 0);
	CHECK(notes_mention(&notes, "limits.conf:13: malformed line"));
	CHECK(notes_mention(&notes, "limits.conf:14: \"%\" domains apply to maxlogins only"));
	CHECK(!notes_mention(&notes, "README"));
	CHECK(notes.count == 2);
	print_notes(&notes);
	pam_limits_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static int resolve(struct rootfs *root, const char *name, struct user_info *u)
{
	int ret = user_info_resolve(root, name, u);

	if (ret < 0)
		printf("# cannot resolve %s: %s\n", name ? name : "(default)", strerror(-ret));
	return ret;
}

static void pam_wildcard_gives_root_unlimited_from_limits_d(void)
{
	struct pam_limits conf;
	struct pam_memlock m;
	struct user_info u;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, &conf, &notes) == 0);
	CHECK(resolve(&root, NULL, &u) == 0);
	CHECK_STR(u.name, "root");
	pam_limits_memlock(&conf, &u, &m);
	CHECK(!m.no_limits && m.soft.unlimited && m.hard.unlimited && !m.soft_clamped);
	CHECK(m.soft_line && m.soft_line->line == 1 && strstr(m.soft_line->file, "99-nccl.conf"));
	CHECK(m.hard_line && m.hard_line->line == 2);
	pam_limits_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void pam_user_line_beats_a_later_wildcard(void)
{
	struct pam_limits conf;
	struct pam_memlock m;
	struct user_info u;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, &conf, &notes) == 0);
	CHECK(resolve(&root, "alice", &u) == 0);
	pam_limits_memlock(&conf, &u, &m);
	CHECK(!m.soft.unlimited && m.soft.bytes == 64 * MIB && m.soft_line && m.soft_line->line == 11);
	CHECK(!m.hard.unlimited && m.hard.bytes == 128 * MIB && m.hard_line && m.hard_line->line == 12);
	pam_limits_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void pam_group_hard_caps_the_wildcard_soft(void)
{
	struct pam_limits conf;
	struct pam_memlock m;
	struct user_info u;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, &conf, &notes) == 0);
	CHECK(resolve(&root, "tutu", &u) == 0);
	CHECK(user_in_group(&u, "rdma") && !user_in_group(&u, "wheel"));
	pam_limits_memlock(&conf, &u, &m);
	/* soft "unlimited" from 99-nccl.conf:1, hard 16 GiB from @rdma (a "*" line cannot replace a group one),
	 * so pam_limits lowers soft to the hard limit */
	CHECK(m.soft_line && m.soft_line->line == 1 && m.soft_clamped);
	CHECK(!m.soft.unlimited && m.soft.bytes == 16 * GIB);
	CHECK(m.hard_line && m.hard_line->line == 9 && m.hard.bytes == 16 * GIB);
	pam_limits_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void pam_no_limits_line_stops_everything(void)
{
	struct pam_limits conf;
	struct pam_memlock m;
	struct user_info u;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, &conf, &notes) == 0);
	CHECK(resolve(&root, "svc", &u) == 0);
	pam_limits_memlock(&conf, &u, &m);
	CHECK(m.no_limits && m.no_limits->line == 15);
	CHECK(!m.soft_line && !m.hard_line);
	pam_limits_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

/* Hand-built lines for the precedence rules the fixture does not exercise. */
static struct limits_line line(const char *domain, enum memlock_type type, uint64_t kib, unsigned lineno)
{
	struct limits_line l = { .line = lineno, .kind = LIMITS_LINE_MEMLOCK, .type = type };

	snprintf(l.domain, sizeof(l.domain), "%s", domain);
	snprintf(l.file, sizeof(l.file), "/etc/security/limits.conf");
	l.value.unlimited = kib == 0;
	l.value.bytes = kib * 1024;
	return l;
}

static struct user_info user(const char *name, unsigned uid, const char *group, unsigned gid)
{
	struct user_info u = { .uid = uid, .gid = gid, .group_count = 1 };

	snprintf(u.name, sizeof(u.name), "%s", name);
	snprintf(u.groups[0].name, sizeof(u.groups[0].name), "%s", group);
	u.groups[0].gid = gid;
	return u;
}

static void pam_equal_priority_later_line_wins(void)
{
	struct limits_line lines[] = { line("*", MEMLOCK_BOTH, 1024, 1), line("*", MEMLOCK_BOTH, 2048, 2) };
	struct pam_limits conf = { lines, 2 };
	struct user_info u = user("bob", 1002, "bob", 1002);
	struct pam_memlock m;

	pam_limits_memlock(&conf, &u, &m);
	CHECK(m.soft.bytes == 2 * MIB && m.hard.bytes == 2 * MIB && m.soft_line == &lines[1]);
}

static void pam_dash_line_loses_its_hard_half_when_soft_is_held(void)
{
	struct limits_line lines[] = { line("bob", MEMLOCK_SOFT, 1024, 1), line("*", MEMLOCK_BOTH, 0, 2) };
	struct pam_limits conf = { lines, 2 };
	struct user_info u = user("bob", 1002, "bob", 1002);
	struct pam_memlock m;

	pam_limits_memlock(&conf, &u, &m);
	CHECK(m.soft_line == &lines[0] && m.soft.bytes == MIB);
	CHECK(m.hard_line == NULL);
}

static void pam_uid_ranges_count_as_user_lines(void)
{
	struct limits_line lines[] = { line("1000:", MEMLOCK_HARD, 4096, 1), line("@users", MEMLOCK_HARD, 8192, 2),
				       line("@:100", MEMLOCK_SOFT, 512, 3), line("@2000:3000", MEMLOCK_SOFT, 256, 4) };
	struct pam_limits conf = { lines, 4 };
	struct user_info u = user("bob", 1002, "users", 100);
	struct pam_memlock m;

	lines[0].range = ID_RANGE_MIN;
	lines[0].range_min = 1000;
	lines[2].range = ID_RANGE_ONE;
	lines[2].range_min = lines[2].range_max = 100;
	lines[3].range = ID_RANGE_MIN_MAX;
	lines[3].range_min = 2000;
	lines[3].range_max = 3000;
	pam_limits_memlock(&conf, &u, &m);
	CHECK(m.hard_line == &lines[0] && m.hard.bytes == 4 * MIB);   /* the later group line cannot replace it */
	CHECK(m.soft_line == &lines[2]);                               /* primary gid 100 is not in 2000:3000 */
	u.uid = 999;
	pam_limits_memlock(&conf, &u, &m);
	CHECK(m.hard_line == &lines[1]);
}

static void pam_wildcard_no_limits_line_is_ignored(void)
{
	struct limits_line lines[] = { line("*", MEMLOCK_BOTH, 0, 1), line("*", MEMLOCK_BOTH, 0, 2) };
	struct pam_limits conf = { lines, 2 };
	struct user_info u = user("bob", 1002, "bob", 1002);
	struct pam_memlock m;

	lines[1].kind = LIMITS_LINE_NO_LIMITS;
	pam_limits_memlock(&conf, &u, &m);
	CHECK(!m.no_limits && m.soft_line == &lines[0]);
}

static void pam_values_and_ranges_parse_like_pam(void)
{
	struct pam_limits conf;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "etc/security/limits.conf",
		 "  *\tHARD\tMemLock\tInfinity  # tabs, case, trailing comment\n"
		 "* soft memlock -1\n"
		 "* soft memlock 100abc\n"
		 "* soft memlock lots\n"
		 "* soft memlock unlimited\r\n"
		 "1000:x soft memlock 1\n"
		 "@:  hard memlock 1\n"
		 "* sometimes memlock 1\n");
	CHECK(pam_limits_read(&r.root, &conf, &r.notes) == 0);
	CHECK(conf.count == 3);
	if (conf.count == 3) {
		CHECK(conf.lines[0].type == MEMLOCK_HARD && conf.lines[0].value.unlimited);
		CHECK(conf.lines[1].value.unlimited);
		CHECK(!conf.lines[2].value.unlimited && conf.lines[2].value.bytes == 100 * 1024);
	}
	CHECK(notes_mention(&r.notes, "limits.conf:4: memlock value \"lots\""));
	CHECK(notes_mention(&r.notes, "limits.conf:5: line ends with a carriage return"));
	CHECK(notes_mention(&r.notes, "limits.conf:6: invalid uid/gid range"));
	CHECK(notes_mention(&r.notes, "limits.conf:7: invalid uid/gid range"));
	CHECK(notes_mention(&r.notes, "limits.conf:8: unknown limit type \"sometimes\""));
	print_notes(&r.notes);
	pam_limits_free(&conf);
	probe_root_done(&r);
}

static void systemd_dropin_infinity_decides(void)
{
	struct systemd_memlock s;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(s.set && s.soft.unlimited && s.hard.unlimited);
	CHECK_STR(s.file, "/etc/systemd/system.conf.d/90-memlock.conf");
	CHECK(s.line == 2);
	CHECK(r.notes.count == 0);
	probe_root_done(&r);
}

static void systemd_unset_when_etc_masks_vendor_dropin(void)
{
	struct systemd_memlock s;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	/* /etc's empty 40-vendor.conf hides /usr/lib's 64M; [Service] is not [Manager]; "8MiB" is invalid */
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(!s.set);
	CHECK(notes_mention(&r.notes, "60-bad.conf:2: DefaultLimitMEMLOCK=8MiB is not valid"));
	print_notes(&r.notes);
	probe_root_done(&r);
}

static void systemd_later_dropin_name_wins_across_directories(void)
{
	struct systemd_memlock s;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "etc/systemd/system.conf", "[Manager]\nDefaultLimitMEMLOCK=1M\n");
	TREE_PUT(&r.tree, "etc/systemd/system.conf.d/10-a.conf", "[Manager]\nDefaultLimitMEMLOCK=2M\n");
	TREE_PUT(&r.tree, "usr/lib/systemd/system.conf.d/20-b.conf", "# vendor\n[Manager]\nDefaultLimitMEMLOCK=3M:4M\n");
	TREE_PUT(&r.tree, "usr/lib/systemd/system.conf.d/10-a.conf", "[Manager]\nDefaultLimitMEMLOCK=99M\n");
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(s.set && s.soft.bytes == 3 * MIB && s.hard.bytes == 4 * MIB);
	CHECK_STR(s.file, "/usr/lib/systemd/system.conf.d/20-b.conf");
	CHECK(s.line == 3);
	probe_root_done(&r);
}

static void systemd_main_file_falls_back_to_usr_lib(void)
{
	struct systemd_memlock s;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "usr/lib/systemd/system.conf", "[Manager]\n  DefaultLimitMEMLOCK = 16G  \n");
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(s.set && s.soft.bytes == 16 * GIB && s.hard.bytes == 16 * GIB && s.line == 2);
	TREE_PUT(&r.tree, "etc/systemd/system.conf", "[Manager]\n");
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(!s.set);   /* only the first main file found is read */
	probe_root_done(&r);
}

static void systemd_limit_syntax(void)
{
	struct memlock_value soft, hard;

	CHECK(systemd_limit_parse("infinity", &soft, &hard) == 0 && soft.unlimited && hard.unlimited);
	CHECK(systemd_limit_parse("8M", &soft, &hard) == 0 && soft.bytes == 8 * MIB && hard.bytes == 8 * MIB);
	CHECK(systemd_limit_parse("65536", &soft, &hard) == 0 && soft.bytes == 65536);
	CHECK(systemd_limit_parse("1G 512M", &soft, &hard) == 0 && soft.bytes == GIB + 512 * MIB);
	CHECK(systemd_limit_parse("1.5K", &soft, &hard) == 0 && soft.bytes == 1536);
	CHECK(systemd_limit_parse("64M:infinity", &soft, &hard) == 0 && soft.bytes == 64 * MIB && hard.unlimited);
	CHECK(systemd_limit_parse("2T:", &soft, &hard) == 0 && hard.bytes == 2048 * GIB);
	CHECK(systemd_limit_parse("infinity:64M", &soft, &hard) == -EILSEQ);
	CHECK(systemd_limit_parse("8MiB", &soft, &hard) == -EINVAL);
	CHECK(systemd_limit_parse("8m", &soft, &hard) == -EINVAL);
	CHECK(systemd_limit_parse("512M 1G", &soft, &hard) == -EINVAL);
	CHECK(systemd_limit_parse("", &soft, &hard) == -EINVAL);
	CHECK(systemd_limit_parse("unlimited", &soft, &hard) == -EINVAL);
	CHECK(systemd_limit_parse("-1", &soft, &hard) == -ERANGE);
	CHECK(systemd_limit_parse("1:2:3", &soft, &hard) == -EINVAL);
	CHECK(systemd_limit_parse("99999999999E", &soft, &hard) == -ERANGE);
}

static void user_from_root_files_with_groups(void)
{
	struct probe_root r;
	struct user_info u;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(resolve(&r.root, "tutu", &u) == 0);
	CHECK(u.uid == 1000 && u.gid == 1000);
	CHECK_STR(u.home, "/home/tutu");
	CHECK(u.group_count == 2);
	CHECK_STR(u.groups[0].name, "tutu");
	CHECK_STR(u.groups[1].name, "rdma");
	CHECK(user_in_gid(&u, 990));
	CHECK(user_info_resolve(&r.root, "nobody-here", &u) == -ENOENT);
	probe_root_done(&r);
}

static void user_live_is_who_we_run_as(void)
{
	struct rootfs root;
	struct user_info u;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(user_info_resolve(&root, NULL, &u) == 0);
	CHECK(u.uid == getuid() && u.group_count >= 1 && user_in_gid(&u, u.gid));
	rootfs_close(&root);
}

static void container_docker_from_overlay_root(void)
{
	struct container_info c;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-fresh"))
		return;
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "docker");
	CHECK_STR(c.evidence, "/proc/1/mountinfo (overlay root in /var/lib/docker/), /.dockerenv");
	probe_root_done(&r);
}

/* The real GPU VM: its root came from a docker image (/.dockerenv) but nothing a runtime sets up is there. */
static void container_none_from_dockerenv_alone(void)
{
	struct container_info c;
	struct probe_root r;

	if (!probe_root_fixture(&r, "h100-vm"))
		return;
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "");
	CHECK(strncmp(c.evidence, "/.dockerenv alone", 17) == 0);
	probe_root_done(&r);
}

static void container_pid1_init_and_mountinfo(void)
{
	struct container_info c;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "proc/1/comm", "tini\n");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "container");
	CHECK_STR(c.evidence, "/proc/1/comm (tini)");
	TREE_PUT(&r.tree, ".dockerenv", "");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "docker");
	CHECK_STR(c.evidence, "/proc/1/comm (tini), /.dockerenv");
	/* an overlay root of a live image is no runtime's; the last mount of "/" counts */
	TREE_PUT(&r.tree, "proc/1/comm", "systemd\n");
	TREE_PUT(&r.tree, "proc/1/mountinfo", "1 0 0:30 / / rw - overlay overlay rw,lowerdir=/run/live/rootfs\n");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "");
	TREE_PUT(&r.tree, "proc/1/mountinfo", "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
		 "2 1 0:30 / / rw master:1 - overlay overlay rw,lowerdir=/var/lib/containerd/io.containerd.snapshotter."
		 "v1.overlayfs/snapshots/7/fs\n");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "containerd");
	probe_root_done(&r);
}

static void container_none_on_the_host(void)
{
	struct container_info c;
	struct probe_root r;

	if (!probe_root_fixture(&r, "check-seed000"))
		return;
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "");
	probe_root_done(&r);
}

static void container_kind_from_environ_containerenv_and_cgroup(void)
{
	struct container_info c;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "proc/1/cgroup", "12:pids:/kubepods/besteffort/pod1234/abcdef\n0::/\n");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "kubernetes");
	CHECK_STR(c.evidence, "/proc/1/cgroup (kubepods)");
	TREE_PUT(&r.tree, "run/.containerenv", "");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "podman");
	TREE_PUT(&r.tree, "proc/1/environ", "PATH=/usr/bin\0container=systemd-nspawn\0TERM=xterm\0");
	CHECK(container_detect(&r.root, &c) == 0);
	CHECK_STR(c.kind, "systemd-nspawn");
	CHECK_STR(c.evidence, "/proc/1/environ (container=systemd-nspawn), /run/.containerenv, /proc/1/cgroup (kubepods)");
	probe_root_done(&r);
}

/* sd_booted(3)'s test: /run/systemd/system; a tree without /run cannot tell. */
static void systemd_manager_running_absent_or_unknown(void)
{
	struct systemd_memlock s;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(s.manager == SYSTEMD_MANAGER_UNKNOWN);
	TREE_PUT(&r.tree, "run/utmp", "");
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(s.manager == SYSTEMD_MANAGER_ABSENT);
	TREE_PUT(&r.tree, "run/systemd/system/README", "");
	CHECK(systemd_memlock_read(&r.root, &s, &r.notes) == 0);
	CHECK(s.manager == SYSTEMD_MANAGER_RUNNING);
	CHECK(r.notes.count == 0);
	probe_root_done(&r);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(proc_limits_unlimited_after_the_fix);
	RUN(proc_limits_64k_on_a_stock_node);
	RUN(proc_limits_missing_line_is_an_error);
	RUN(pam_reads_memlock_lines_in_pam_order);
	RUN(pam_names_skipped_lines_with_file_and_line);
	RUN(pam_wildcard_gives_root_unlimited_from_limits_d);
	RUN(pam_user_line_beats_a_later_wildcard);
	RUN(pam_group_hard_caps_the_wildcard_soft);
	RUN(pam_no_limits_line_stops_everything);
	RUN(pam_equal_priority_later_line_wins);
	RUN(pam_dash_line_loses_its_hard_half_when_soft_is_held);
	RUN(pam_uid_ranges_count_as_user_lines);
	RUN(pam_wildcard_no_limits_line_is_ignored);
	RUN(pam_values_and_ranges_parse_like_pam);
	RUN(systemd_dropin_infinity_decides);
	RUN(systemd_unset_when_etc_masks_vendor_dropin);
	RUN(systemd_later_dropin_name_wins_across_directories);
	RUN(systemd_main_file_falls_back_to_usr_lib);
	RUN(systemd_limit_syntax);
	RUN(systemd_manager_running_absent_or_unknown);
	RUN(user_from_root_files_with_groups);
	RUN(user_live_is_who_we_run_as);
	RUN(container_docker_from_overlay_root);
	RUN(container_none_from_dockerenv_alone);
	RUN(container_pid1_init_and_mountinfo);
	RUN(container_none_on_the_host);
	RUN(container_kind_from_environ_containerenv_and_cgroup);
	TAP_DONE();
}
