// SPDX-License-Identifier: GPL-2.0-only
/* Fixture roots for the probe tests, and throwaway trees for cases one fixture cannot hold. */
#ifndef ROCE_DOCTOR_PROBE_TREE_H
#define ROCE_DOCTOR_PROBE_TREE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "util/notes.h"
#include "util/rootfs.h"

static const char *fixtures_dir = "tests/fixtures";

static inline int open_fixture(struct rootfs *root, const char *name)
{
	char path[1024];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	ret = rootfs_open(root, path);
	if (ret < 0)
		printf("# cannot open fixture %s: %s\n", path, strerror(-ret));
	return ret;
}

/* Whether some note contains text. */
static inline bool notes_mention(const struct notes *notes, const char *text)
{
	for (size_t i = 0; i < notes->count; i++)
		if (strstr(notes->items[i], text))
			return true;
	return false;
}

static inline void print_notes(const struct notes *notes)
{
	for (size_t i = 0; i < notes->count; i++)
		printf("# note: %s\n", notes->items[i]);
}

/* A temporary root: tree_put("etc/x", "text") creates parent directories as needed. */
struct tree {
	char dir[64];
};

static inline int tree_make(struct tree *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/roce-doctor-probe-XXXXXX");
	if (mkdtemp(t->dir))
		return 0;
	t->dir[0] = '\0';   /* nothing for tree_remove to remove */
	return -errno;
}

static inline void tree_put(const struct tree *t, const char *rel, const char *content, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
	for (char *p = path + strlen(t->dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return;
	fwrite(content, 1, len, f);
	fclose(f);
}

#define TREE_PUT(t, rel, text) tree_put((t), (rel), (text), sizeof(text) - 1)

static inline void tree_remove(const struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", t->dir);
}

/* What nearly every probe test holds: the root its reader reads (a fixture's, or a throwaway tree's), the
 * notes the reader adds, and what has to be undone at the end. One place for the set-up and tear-down
 * that each test would otherwise write out again. */
struct probe_root {
	struct rootfs root;
	struct notes notes;
	struct tree tree;   /* tree.dir is empty for a fixture */
	bool opened;
};

/* Opens fixture NAME: false, and a failed check, when it cannot (the test then returns). */
static inline bool probe_root_fixture(struct probe_root *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->opened = open_fixture(&r->root, name) == 0;
	CHECK(r->opened);
	return r->opened;
}

/* Makes an empty throwaway tree and opens it as the root; TREE_PUT(&r->tree, ...) adds files, before the
 * read or between two reads (the root is a directory descriptor: it sees them). */
static inline bool probe_root_tree(struct probe_root *r)
{
	memset(r, 0, sizeof(*r));
	r->opened = tree_make(&r->tree) == 0 && rootfs_open(&r->root, r->tree.dir) == 0;
	CHECK(r->opened);
	return r->opened;
}

/* Closes the root, frees the notes and removes the throwaway tree, whichever of them there are. */
static inline void probe_root_done(struct probe_root *r)
{
	if (r->opened)
		rootfs_close(&r->root);
	notes_free(&r->notes);
	if (r->tree.dir[0])
		tree_remove(&r->tree);
}

#endif
