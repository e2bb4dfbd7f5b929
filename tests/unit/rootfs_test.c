// SPDX-License-Identifier: GPL-2.0-only
/* Root-relative reads: newline handling, truncation, and symlinks that must stay inside the root. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "util/rootfs.h"

static char tree[] = "/tmp/roce-doctor-rootfs-XXXXXX";

static void put(const char *rel, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

static void make_tree(void)
{
	char path[512];

	if (!mkdtemp(tree))
		abort();
	snprintf(path, sizeof(path), "%s/etc", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys", tree);
	mkdir(path, 0755);
	put("etc/value", "42\n");
	put("etc/long", "0123456789abcdef0123456789abcdef\n");
	/* An absolute link: inside the root it must mean DIR/etc/value, never the host's /etc/value. */
	snprintf(path, sizeof(path), "%s/sys/abs", tree);
	if (symlink("/etc/value", path) != 0)
		abort();
	snprintf(path, sizeof(path), "%s/sys/escape", tree);
	if (symlink("../../../../../../etc/hostname", path) != 0)
		abort();
	snprintf(path, sizeof(path), "%s/sys/device", tree);
	if (symlink("../../../0000:39:00.0", path) != 0)
		abort();
}

static void reads_and_strips_one_newline(void)
{
	struct rootfs root;
	char buf[64];

	CHECK(rootfs_open(&root, tree) == 0);
	CHECK(!root.live);
	CHECK(rootfs_read(&root, buf, sizeof(buf), "etc/%s", "value") == 2);
	CHECK_STR(buf, "42");
	CHECK(rootfs_read(&root, buf, sizeof(buf), "/etc/value") == 2);
	CHECK(rootfs_read(&root, buf, sizeof(buf), "etc/missing") == -ENOENT);
	rootfs_close(&root);
}

static void reports_overflow_instead_of_truncating(void)
{
	struct rootfs root;
	char buf[16];

	CHECK(rootfs_open(&root, tree) == 0);
	CHECK(rootfs_read(&root, buf, sizeof(buf), "etc/long") == -EOVERFLOW);
	rootfs_close(&root);
}

static void absolute_and_escaping_links_stay_inside_the_root(void)
{
	struct rootfs root;
	char buf[64];

	CHECK(rootfs_open(&root, tree) == 0);
	CHECK(rootfs_read(&root, buf, sizeof(buf), "sys/abs") == 2);
	CHECK_STR(buf, "42");
	/* ../ past the root clamps at the root: DIR/etc/hostname does not exist. */
	CHECK(rootfs_read(&root, buf, sizeof(buf), "sys/escape") == -ENOENT);
	rootfs_close(&root);
}

static void link_name_gives_the_last_component(void)
{
	struct rootfs root;
	char buf[64];

	CHECK(rootfs_open(&root, tree) == 0);
	CHECK(rootfs_link_name(&root, buf, sizeof(buf), "sys/device") > 0);
	CHECK_STR(buf, "0000:39:00.0");
	CHECK(rootfs_link_name(&root, buf, sizeof(buf), "etc/value") == -EINVAL);
	rootfs_close(&root);
}

static void live_root_is_recognised(void)
{
	struct rootfs root;

	CHECK(rootfs_open(&root, NULL) == 0);
	CHECK(root.live);
	rootfs_close(&root);
	CHECK(rootfs_open(&root, "/nonexistent-roce-doctor") == -ENOENT);
}

int main(void)
{
	char cmd[600];

	make_tree();
	RUN(reads_and_strips_one_newline);
	RUN(reports_overflow_instead_of_truncating);
	RUN(absolute_and_escaping_links_stay_inside_the_root);
	RUN(link_name_gives_the_last_component);
	RUN(live_root_is_recognised);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tree);
	TAP_DONE();
}
