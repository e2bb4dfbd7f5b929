// SPDX-License-Identifier: GPL-2.0-only
/* NCCL settings with NCCL's precedence and literal file syntax; NCCL_IB_HCA / NCCL_SOCKET_IFNAME matching. */
#include "probe/nccl_conf.h"
#include "probe_tree.h"
#include "tap.h"

static int read_seed000(struct rootfs *root, char *const *envp, struct nccl_conf *conf, struct notes *notes)
{
	memset(notes, 0, sizeof(*notes));
	if (open_fixture(root, "check-seed000") < 0)
		return -1;
	return nccl_conf_read(root, envp, "/home/tutu", false, conf, notes);
}

static void user_file_beats_etc_and_first_line_wins(void)
{
	const struct nccl_setting *s;
	struct nccl_conf conf;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, NULL, &conf, &notes) == 0);
	CHECK_STR(conf.user_file, "/home/tutu/.nccl.conf");
	CHECK(conf.user_file_read && conf.system_file_read);
	s = nccl_conf_get(&conf, "NCCL_IB_GID_INDEX");
	CHECK(s && strcmp(s->value, "3") == 0 && s->origin == NCCL_FROM_FILE);
	CHECK(s && strcmp(s->source, "/home/tutu/.nccl.conf:1") == 0);
	/* /etc/nccl.conf's two GID lines are both shadowed */
	for (size_t i = 0; i < conf.count; i++)
		if (!strcmp(conf.items[i].name, "NCCL_IB_GID_INDEX") && !strcmp(conf.items[i].file, "/etc/nccl.conf"))
			CHECK(!conf.items[i].effective && (conf.items[i].line == 4 || conf.items[i].line == 5));
	s = nccl_conf_get(&conf, "NCCL_IB_HCA");
	CHECK(s && strcmp(s->value, "mlx5_0,mlx_1") == 0 && strcmp(s->source, "/etc/nccl.conf:2") == 0);
	s = nccl_conf_get(&conf, "NCCL_NET_GDR_LEVEL");
	CHECK(s && strcmp(s->value, "\"2\"") == 0);   /* quotes are part of the value */
	CHECK(nccl_conf_get(&conf, "NCCL_DEBUG") == NULL && nccl_conf_get(&conf, "NCCL_IB_TC") == NULL);
	nccl_conf_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void lines_nccl_takes_literally_are_noted(void)
{
	struct nccl_conf conf;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, NULL, &conf, &notes) == 0);
	print_notes(&notes);
	CHECK(notes_mention(&notes, "nccl.conf:6: \"export NCCL_DEBUG\" is not a variable name"));
	CHECK(notes_mention(&notes, "nccl.conf:7: \"NCCL_IB_TC \" is not a variable name"));
	CHECK(notes_mention(&notes, "nccl.conf:8: the value of NCCL_NET_GDR_LEVEL is quoted"));
	CHECK(notes.count == 3);
	nccl_conf_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void environment_wins_and_its_home_is_used(void)
{
	char *envp[] = { "PATH=/usr/bin", "NCCL_IB_HCA==mlx5_0", "HOME=/root", "NCCL_X", NULL };
	const struct nccl_setting *s;
	struct nccl_conf conf;
	struct notes notes;
	struct rootfs root;

	CHECK(read_seed000(&root, envp, &conf, &notes) == 0);
	s = nccl_conf_get(&conf, "NCCL_IB_HCA");
	CHECK(s && s->origin == NCCL_FROM_ENV && strcmp(s->value, "=mlx5_0") == 0);
	CHECK(s && strcmp(s->source, "environment") == 0);
	CHECK_STR(conf.user_file, "/root/.nccl.conf");
	CHECK(!conf.user_file_read);
	s = nccl_conf_get(&conf, "NCCL_IB_GID_INDEX");
	CHECK(s && strcmp(s->value, "5") == 0 && s->line == 4);
	nccl_conf_free(&conf);
	rootfs_close(&root);
	notes_free(&notes);
}

static void nccl_conf_file_replaces_the_home_file(void)
{
	char *envp[] = { "NCCL_CONF_FILE=/opt/job/nccl.conf", "HOME=/home/tutu", NULL };
	char *empty[] = { "NCCL_CONF_FILE=", "HOME=/home/tutu", NULL };
	char *relative[] = { "NCCL_CONF_FILE=job.conf", NULL };
	const struct nccl_setting *s;
	struct nccl_conf conf;
	struct probe_root r;

	if (!probe_root_tree(&r))
		return;
	TREE_PUT(&r.tree, "opt/job/nccl.conf", "# job\r\nNCCL_SOCKET_IFNAME=eth0\r\n");
	TREE_PUT(&r.tree, "home/tutu/.nccl.conf", "NCCL_SOCKET_IFNAME=ib0\n");
	CHECK(nccl_conf_read(&r.root, envp, NULL, false, &conf, &r.notes) == 0);
	s = nccl_conf_get(&conf, "NCCL_SOCKET_IFNAME");
	CHECK(s && strcmp(s->value, "eth0") == 0 && strcmp(s->source, "/opt/job/nccl.conf:2") == 0);
	CHECK(conf.count == 2);   /* NCCL_CONF_FILE itself, from the environment */
	nccl_conf_free(&conf);
	CHECK(nccl_conf_read(&r.root, empty, NULL, false, &conf, &r.notes) == 0);
	s = nccl_conf_get(&conf, "NCCL_SOCKET_IFNAME");
	CHECK(s && strcmp(s->value, "ib0") == 0);
	nccl_conf_free(&conf);
	CHECK(nccl_conf_read(&r.root, relative, NULL, false, &conf, &r.notes) == 0);
	CHECK(!nccl_conf_get(&conf, "NCCL_SOCKET_IFNAME") && notes_mention(&r.notes, "relative path"));
	nccl_conf_free(&conf);
	/* check --user alice: alice's job has alice's HOME, whatever the caller's environment says */
	TREE_PUT(&r.tree, "home/alice/.nccl.conf", "NCCL_SOCKET_IFNAME=bond0\n");
	CHECK(nccl_conf_read(&r.root, empty, "/home/alice", true, &conf, &r.notes) == 0);
	s = nccl_conf_get(&conf, "NCCL_SOCKET_IFNAME");
	CHECK(s && strcmp(s->value, "bond0") == 0 && strcmp(conf.user_file, "/home/alice/.nccl.conf") == 0);
	nccl_conf_free(&conf);
	CHECK(nccl_conf_read(&r.root, empty, "/home/alice", false, &conf, &r.notes) == 0);
	s = nccl_conf_get(&conf, "NCCL_SOCKET_IFNAME");
	CHECK(s && strcmp(s->value, "ib0") == 0);   /* without --user the environment's HOME wins */
	nccl_conf_free(&conf);
	probe_root_done(&r);
}

static void long_lines_are_read_in_fgets_pieces(void)
{
	static char text[6000];
	struct nccl_conf conf;
	struct probe_root r;
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "NCCL_A=");
	memset(text + n, 'x', 5000);
	n += 5000;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\nNCCL_B=1\n");
	if (!probe_root_tree(&r))
		return;
	tree_put(&r.tree, "etc/nccl.conf", text, n);
	CHECK(nccl_conf_read(&r.root, NULL, NULL, false, &conf, &r.notes) == 0);
	CHECK(conf.count == 2);
	if (conf.count == 2) {
		CHECK(strlen(conf.items[0].value) == 1023);
		CHECK_STR(conf.items[1].name, "NCCL_B");
		CHECK(conf.items[1].line == 2);
	}
	nccl_conf_free(&conf);
	probe_root_done(&r);
}

static void seed000_typo_matches_nothing(void)
{
	struct nccl_if_candidate ports[] = { { "mlx5_0", 1 }, { "mlx5_1", 1 } };
	struct nccl_if_list l;
	unsigned hits[NCCL_IB_HCA_ENTRIES_MAX];
	bool selected[2];

	nccl_if_list_parse("mlx5_0,mlx_1", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(l.count == 2 && !l.exclude && !l.exact);
	nccl_if_list_match(&l, ports, 2, selected, hits);
	CHECK(selected[0] && !selected[1]);
	CHECK(hits[0] == 1 && hits[1] == 0);
	CHECK_STR(l.entries[1].prefix, "mlx_1");
}

static void prefix_match_takes_longer_names_exact_does_not(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse("mlx5_1", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(nccl_if_list_selects(&l, "mlx5_1", 1) && nccl_if_list_selects(&l, "mlx5_10", 1));
	CHECK(!nccl_if_list_selects(&l, "mlx5_0", 1));
	nccl_if_list_parse("=mlx5_1", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(l.exact && nccl_if_list_selects(&l, "mlx5_1", 1) && !nccl_if_list_selects(&l, "mlx5_10", 1));
	nccl_if_list_parse("=mlx5", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(!nccl_if_list_selects(&l, "mlx5_0", 1));
}

static void caret_excludes_and_comes_before_equals(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse("^docker,lo", NCCL_SOCKET_IFNAME_ENTRIES_MAX, &l);
	CHECK(l.exclude && l.count == 2);
	CHECK(!nccl_if_list_selects(&l, "docker0", -1) && !nccl_if_list_selects(&l, "lo", -1));
	CHECK(nccl_if_list_selects(&l, "ens19f0np0", -1));
	nccl_if_list_parse("^=mlx5_1", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(l.exclude && l.exact);
	CHECK(!nccl_if_list_selects(&l, "mlx5_1", 1) && nccl_if_list_selects(&l, "mlx5_10", 1));
	nccl_if_list_parse("=^mlx5_1", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(!l.exclude && l.exact && strcmp(l.entries[0].prefix, "^mlx5_1") == 0);
}

static void ports_restrict_hcas_but_not_netdevs(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse("mlx5_0:1,mlx5_1:2", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(l.entries[0].port == 1 && l.entries[1].port == 2);
	CHECK(nccl_if_list_selects(&l, "mlx5_0", 1) && !nccl_if_list_selects(&l, "mlx5_0", 2));
	CHECK(!nccl_if_list_selects(&l, "mlx5_1", 1) && nccl_if_list_selects(&l, "mlx5_1", 2));
	CHECK(nccl_if_list_selects(&l, "mlx5_1", -1));
}

static void empty_entries_and_empty_lists(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse(",,mlx5_0,:1,mlx5_1:,", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(l.count == 2 && l.entries[1].port == -1);
	nccl_if_list_parse(NULL, NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(l.count == 0 && nccl_if_list_selects(&l, "anything", 1));
	nccl_if_list_parse("", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(nccl_if_list_selects(&l, "anything", 1));
	nccl_if_list_parse("^", NCCL_IB_HCA_ENTRIES_MAX, &l);
	CHECK(!nccl_if_list_selects(&l, "anything", 1));
}

static void entries_past_nccls_limit_are_ignored(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", NCCL_SOCKET_IFNAME_ENTRIES_MAX, &l);
	CHECK(l.count == 16 && l.ignored == 1);
	CHECK(!nccl_if_list_selects(&l, "q0", -1) && nccl_if_list_selects(&l, "p0", -1));
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(user_file_beats_etc_and_first_line_wins);
	RUN(lines_nccl_takes_literally_are_noted);
	RUN(environment_wins_and_its_home_is_used);
	RUN(nccl_conf_file_replaces_the_home_file);
	RUN(long_lines_are_read_in_fgets_pieces);
	RUN(seed000_typo_matches_nothing);
	RUN(prefix_match_takes_longer_names_exact_does_not);
	RUN(caret_excludes_and_comes_before_equals);
	RUN(ports_restrict_hcas_but_not_netdevs);
	RUN(empty_entries_and_empty_lists);
	RUN(entries_past_nccls_limit_are_ignored);
	TAP_DONE();
}
