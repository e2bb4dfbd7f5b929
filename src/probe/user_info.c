// SPDX-License-Identifier: GPL-2.0-only
/* Account lookup: NSS for the running host, passwd/group files for a replayed tree. */
#include "probe/user_info.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/text_file.h"

#define ACCOUNT_FILE_MAX (4u << 20)

static void add_group(struct user_info *u, const char *name, unsigned gid)
{
	if (user_in_gid(u, gid))
		return;
	if (u->group_count >= USER_GROUPS_MAX) {
		u->groups_truncated = true;
		return;
	}
	snprintf(u->groups[u->group_count].name, sizeof(u->groups[0].name), "%s", name);
	u->groups[u->group_count++].gid = gid;
}

static int copy_field(char *dst, size_t size, const char *src)
{
	if (strlen(src) >= size)
		return -ENAMETOOLONG;
	strcpy(dst, src);
	return 0;
}

static int resolve_live(const char *name, struct user_info *u)
{
	struct passwd *pw;
	gid_t gids[USER_GROUPS_MAX];
	int n = USER_GROUPS_MAX;

	errno = 0;
	pw = name ? getpwnam(name) : getpwuid(getuid());
	if (!pw)
		return errno ? -errno : -ENOENT;
	if (copy_field(u->name, sizeof(u->name), pw->pw_name) < 0)
		return -ENAMETOOLONG;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	snprintf(u->home, sizeof(u->home), "%s", pw->pw_dir ? pw->pw_dir : "");
	if (getgrouplist(u->name, pw->pw_gid, gids, &n) < 0) {
		u->groups_truncated = true;
		n = USER_GROUPS_MAX;
	}
	for (int i = 0; i < n; i++) {
		struct group *gr = getgrgid(gids[i]);
		char num[16];

		snprintf(num, sizeof(num), "%u", (unsigned)gids[i]);
		add_group(u, gr ? gr->gr_name : num, gids[i]);
	}
	return 0;
}

/* Splits a colon-separated account line into at most max fields; returns how many. */
static size_t split_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;

	while (n < max) {
		fields[n++] = line;
		line = strchr(line, ':');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static int parse_id(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	v = strtoul(s, &end, 10);
	if (*end || v > 0xffffffffUL)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int find_passwd(const struct rootfs *root, const char *name, struct user_info *u)
{
	struct text_file f;
	char *line, *fld[7];
	int ret = text_file_read(root, "etc/passwd", ACCOUNT_FILE_MAX, &f);

	if (ret < 0)
		return ret;
	ret = -ENOENT;
	while ((line = text_file_next(&f))) {
		if (split_fields(line, fld, 7) != 7 || strcmp(fld[0], name) != 0)
			continue;
		if (copy_field(u->name, sizeof(u->name), fld[0]) < 0 || parse_id(fld[2], &u->uid) < 0 ||
		    parse_id(fld[3], &u->gid) < 0)
			continue;
		snprintf(u->home, sizeof(u->home), "%s", fld[5]);
		ret = 0;
		break;
	}
	text_file_free(&f);
	return ret;
}

static bool member_listed(char *members, const char *name)
{
	char *save = NULL;

	for (char *m = strtok_r(members, ",", &save); m; m = strtok_r(NULL, ",", &save))
		if (strcmp(m, name) == 0)
			return true;
	return false;
}

/* The primary group (named by its gid, as a number if the group file lacks it), then every group that
 * lists the user as a member. */
static void find_groups(const struct rootfs *root, struct user_info *u)
{
	struct text_file f;
	char *line, *fld[4], num[16];
	bool primary_named = false;
	unsigned gid;

	snprintf(num, sizeof(num), "%u", u->gid);
	add_group(u, num, u->gid);
	if (text_file_read(root, "etc/group", ACCOUNT_FILE_MAX, &f) < 0)
		return;
	while ((line = text_file_next(&f))) {
		if (split_fields(line, fld, 4) != 4 || parse_id(fld[2], &gid) < 0)
			continue;
		if (gid == u->gid) {
			if (!primary_named)
				snprintf(u->groups[0].name, sizeof(u->groups[0].name), "%s", fld[0]);
			primary_named = true;
		} else if (member_listed(fld[3], u->name)) {
			add_group(u, fld[0], gid);
		}
	}
	text_file_free(&f);
}

int user_info_resolve(const struct rootfs *root, const char *name, struct user_info *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (root->live)
		return resolve_live(name, out);
	ret = find_passwd(root, name ? name : "root", out);
	if (ret == 0)
		find_groups(root, out);
	return ret;
}
