// SPDX-License-Identifier: GPL-2.0-only
/* A bounded walk of /proc for firewalld's comm, and the legacy iptables table list. */
#include "probe/firewall_proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/text_file.h"

#define PROCESSES_MAX 65536

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* firewalld is a Python script: its comm is the script's name, not "python3". */
static void scan_processes(const struct rootfs *root, struct firewall_procs *out)
{
	struct dirent *de;
	DIR *dir = rootfs_opendir(root, "proc");

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		char comm[32];

		if (!all_digits(de->d_name) || strlen(de->d_name) > 10)
			continue;
		if (out->processes_scanned >= PROCESSES_MAX) {
			out->scan_truncated = true;
			break;
		}
		out->processes_scanned++;
		if (rootfs_read(root, comm, sizeof(comm), "proc/%s/comm", de->d_name) < 0)
			continue;   /* exited meanwhile */
		if (strcmp(comm, "firewalld") == 0) {
			int pid = atoi(de->d_name);

			if (!out->firewalld_running || pid < out->firewalld_pid)
				out->firewalld_pid = pid;
			out->firewalld_running = true;
		}
	}
	closedir(dir);
}

static void read_iptables(const struct rootfs *root, struct firewall_procs *out, struct notes *notes)
{
	struct text_file f;
	char *line, shown[4200];
	int ret = text_file_read(root, "proc/net/ip_tables_names", 4096, &f);

	if (ret < 0) {
		if (ret != -ENOENT)
			notes_add(notes, "cannot read %s: %s",
				  rootfs_display(root, shown, sizeof(shown), "proc/net/ip_tables_names"), strerror(-ret));
		return;
	}
	out->iptables_known = true;
	while ((line = text_file_next(&f)) && out->iptables_count < IPTABLES_TABLES_MAX)
		if (*line && strlen(line) < sizeof(out->iptables[0]))
			strcpy(out->iptables[out->iptables_count++], line);
	text_file_free(&f);
}

int firewall_procs_read(const struct rootfs *root, struct firewall_procs *out, struct notes *notes)
{
	memset(out, 0, sizeof(*out));
	scan_processes(root, out);
	if (out->scan_truncated)
		notes_add(notes, "more than %d processes: firewalld looked for among the first only", PROCESSES_MAX);
	read_iptables(root, out, notes);
	return 0;
}
