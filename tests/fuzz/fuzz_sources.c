// SPDX-License-Identifier: GPL-2.0-only
/* The system sources check reads besides the host model, each through its own reader over a --root tree built
 * from the input (fuzz_tree.h): /proc/self/limits, PAM's limits.conf and limits.d, systemd's system.conf and
 * drop-ins, nccl.conf (/etc, ~/.nccl.conf, $NCCL_CONF_FILE from the environment file), the environment files,
 * /proc/modules and /sys/module, the verbs nodes, container marks, firewalld processes, ARP sysctls, the
 * local port range, passwd and group. Then the rules' own questions of what was read (pam_limits_memlock,
 * nccl_conf_get), so what a reader keeps is also used. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tree.h"
#include "model/memlock.h"
#include "model/nccl.h"
#include "probe/container.h"
#include "probe/firewall_proc.h"
#include "probe/local_ports.h"
#include "probe/memlock.h"
#include "probe/modules.h"
#include "probe/nccl_conf.h"
#include "probe/proc_environ.h"
#include "probe/sysctl_arp.h"
#include "probe/user_info.h"
#include "probe/uverbs.h"
#include "util/notes.h"
#include "util/rootfs.h"

#define ENV_MAX 512

static void read_memlock(const struct rootfs *root, const struct user_info *user, struct notes *notes)
{
	struct memlock_rlimit rlimit;
	struct systemd_memlock systemd;
	struct pam_limits pam;
	struct pam_memlock verdict;

	(void)memlock_rlimit_read(root, &rlimit);
	memset(&pam, 0, sizeof(pam));
	if (pam_limits_read(root, &pam, notes) == 0)
		pam_limits_memlock(&pam, user, &verdict);
	pam_limits_free(&pam);
	(void)systemd_memlock_read(root, &systemd, notes);
}

static void read_nccl(const struct rootfs *root, const struct user_info *user, bool home_wins, struct notes *notes)
{
	static char environ_buf[64 * 1024];
	char *envp[ENV_MAX + 1];
	struct nccl_conf conf;

	if (proc_environ_read(root, "proc/self/environ", environ_buf, sizeof(environ_buf), envp, ENV_MAX) < 0)
		envp[0] = NULL;
	memset(&conf, 0, sizeof(conf));
	if (nccl_conf_read(root, envp, user->home[0] ? user->home : NULL, home_wins, &conf, notes) == 0) {
		(void)nccl_conf_get(&conf, "NCCL_IB_HCA");
		(void)nccl_conf_get(&conf, "NCCL_IB_GID_INDEX");
	}
	nccl_conf_free(&conf);
}

static void read_others(const struct rootfs *root, struct notes *notes)
{
	struct module_list modules;
	struct uverbs_probe uverbs;
	struct container_info container;
	struct firewall_procs fw;
	struct arp_sysctl arp;
	unsigned low, high;

	memset(&modules, 0, sizeof(modules));
	(void)module_list_read(root, &modules, notes);
	module_list_free(&modules);
	memset(&uverbs, 0, sizeof(uverbs));
	(void)uverbs_probe(root, &uverbs, notes);
	uverbs_probe_free(&uverbs);
	(void)container_detect(root, &container);
	(void)firewall_procs_read(root, &fw, notes);
	(void)arp_sysctl_read(root, "eth0", &arp);
	(void)local_port_range_read(root, &low, &high);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct notes notes = { 0 };
	const uint8_t *preamble;
	size_t preamble_len;
	struct user_info user;
	struct rootfs root;
	const char *dir;

	dir = fuzz_tree_unpack(data, size, &preamble, &preamble_len);
	if (!dir || rootfs_open(&root, dir) < 0)
		return 0;
	/* The preamble names the user the job runs as (check --user); root when it names none. */
	char name[64] = "root";
	if (preamble_len > 0 && preamble_len < sizeof(name)) {
		memcpy(name, preamble, preamble_len);
		name[preamble_len] = '\0';
		name[strcspn(name, "\n")] = '\0';
	}
	memset(&user, 0, sizeof(user));
	(void)user_info_resolve(&root, name, &user);
	read_memlock(&root, &user, &notes);
	read_nccl(&root, &user, preamble_len > 0, &notes);
	read_others(&root, &notes);
	notes_free(&notes);
	rootfs_close(&root);
	return 0;
}
