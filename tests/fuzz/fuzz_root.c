// SPDX-License-Identifier: GPL-2.0-only
/* A whole --root tree from the input (fuzz_tree.h), and a command run on it as `roce-doctor --root TREE CMD`
 * runs it: the command's own function from src/cmd, so every reader --root reaches (sysfs devices, ports, GID
 * tables and their attributes, netdevs, PCI functions, bridges and config spaces, GPUs, the system sources,
 * nccl.conf, ld.so.cache and libraries) and every rule and renderer after them. The preamble's first line names
 * the command (the table below; check --json when it names none). Its output goes to /dev/null. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "fuzz_tree.h"

struct run {
	const char *name;                 /* the preamble's first line */
	int (*cmd)(struct app *app, int argc, char **argv);
	bool json;
	const char *argv[4];
};

static const struct run runs[] = {
	{ "check", cmd_check, false, { "check", NULL } },
	{ "check-json", cmd_check, true, { "check", NULL } },
	{ "check-user", cmd_check, true, { "check", "--user", "alice", NULL } },
	{ "topo", cmd_topo, false, { "topo", NULL } },
	{ "nccl", cmd_nccl, true, { "nccl", NULL } },
	{ "nccl-env", cmd_nccl_env, false, { "nccl-env", NULL } },
	{ "gid-suggest", cmd_gid, true, { "gid", "--suggest", NULL } },
	{ "devices", cmd_devices, false, { "devices", NULL } },
	{ "snapshot", cmd_snapshot, true, { "snapshot", NULL } },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	(void)argc;
	(void)argv;
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);   /* reports are not the point; libFuzzer writes to stderr */
		close(null);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct run *run = &runs[1];
	const uint8_t *preamble;
	size_t preamble_len, line;
	char *argv[4];
	struct app app = { 0 };
	int argc = 0;

	app.root_dir = fuzz_tree_unpack(data, size, &preamble, &preamble_len);
	if (!app.root_dir)
		return 0;
	line = preamble_len;
	if (memchr(preamble, '\n', preamble_len))
		line = (size_t)((const uint8_t *)memchr(preamble, '\n', preamble_len) - preamble);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		if (strlen(runs[i].name) == line && memcmp(runs[i].name, preamble, line) == 0)
			run = &runs[i];
	app.json = run->json;
	for (; run->argv[argc]; argc++)
		argv[argc] = (char *)run->argv[argc];   /* argp may permute, never writes the strings */
	argv[argc] = NULL;
	(void)run->cmd(&app, argc, argv);
	fflush(stdout);
	return 0;
}
