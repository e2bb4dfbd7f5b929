// SPDX-License-Identifier: GPL-2.0-only
/* The system model through JSON and back (model/system_json.c): what check reads on every fixture tree, and a
 * live-like state with every member known, round-trip byte for byte, and the rules give the same findings from
 * the state read back as from the sources read; every kind of bad document is refused with one message naming
 * its JSON path, and leaves the state empty (the suite also runs under ASan: nothing leaks on either path). */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "cmd/check_probe.h"
#include "core/system_input.h"
#include "fixture_host.h"
#include "model/system_json.h"
#include "json_text.h"
#include "tap.h"

/* state -> JSON -> model -> JSON; 1 when both texts are the same. back receives the model read back. */
static int round_trips(const struct system_state *s, struct system_state *back, const char *name)
{
	json_t *first = system_to_json(s), *second = NULL;
	char why[512] = "";
	int same = 0;

	memset(back, 0, sizeof(*back));
	if (!first) {
		printf("# %s: system_to_json failed\n", name);
		return 0;
	}
	if (system_from_json(first, back, why, sizeof(why)) < 0)
		printf("# %s: system_from_json refused what system_to_json wrote: %s\n", name, why);
	else
		same = json_texts_same(first, second = system_to_json(back), name);
	json_decref(first);
	json_decref(second);
	return same;
}

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Every finding the same, in the same order: id, severity, subject, message and fix. */
static int same_findings(const struct findings *a, const struct findings *b, const char *name)
{
	if (a->count != b->count) {
		printf("# %s: %zu findings from the sources, %zu from the state read back\n", name, a->count, b->count);
		return 0;
	}
	for (size_t i = 0; i < a->count; i++) {
		const struct finding *x = &a->items[i], *y = &b->items[i];

		if (strcmp(x->id, y->id) || x->severity != y->severity || strcmp(x->subject, y->subject) ||
		    !same_text(x->message, y->message) || !same_text(x->fix, y->fix)) {
			printf("# %s: finding %zu differs: %s %s \"%s\" / %s %s \"%s\"\n", name, i, x->id, x->subject,
			       x->message, y->id, y->subject, y->message);
			return 0;
		}
	}
	return 1;
}

/* On one fixture tree: read the sources as check does under --root, carry them through JSON, and judge both. */
static void fixture_round_trips(const char *name)
{
	struct findings everything = { 0 }, direct = { 0 }, replayed = { 0 };
	struct check_input in = { .family = AF_INET }, again = { .family = AF_INET };
	struct system_state s, back;
	struct nccl_if_list hca;
	struct check_probe p;
	struct host host;
	char path[1024], why[256] = "";

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	CHECK(probe_fixture(name, &host) == 0);
	in.host = again.host = &host;
	if (check_probe_read(&p, path, NULL, &host, &everything, &in, &host.warnings, why, sizeof(why)) < 0) {
		printf("# %s: check_probe_read: %s\n", name, why);
		CHECK(0);
		check_probe_free(&p);
		host_free(&host);
		return;
	}
	CHECK(system_from_check_input(&in, p.envp, &s) == 0);
	CHECK(round_trips(&s, &back, name));
	system_to_check_input(&back, &hca, &again);
	checks_run(&in, &direct);
	checks_run(&again, &replayed);
	CHECK(direct.count > 0);
	CHECK(same_findings(&direct, &replayed, name));
	findings_free(&direct);
	findings_free(&replayed);
	system_free(&s);
	system_free(&back);
	check_probe_free(&p);
	host_free(&host);
}

static void every_fixture_round_trips_and_judges_the_same(void)
{
	DIR *dir = opendir(fixtures_dir);
	struct dirent *de;
	int trees = 0;

	CHECK(dir != NULL);
	while (dir && (de = readdir(dir))) {
		char path[1024];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", fixtures_dir, de->d_name);
		if (de->d_name[0] == '.' || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		fixture_round_trips(de->d_name);
		trees++;
	}
	if (dir)
		closedir(dir);
	CHECK(trees >= 10);
}

/* The fixtures that capture an environment keep its NCCL_* variables and nothing else. */
static void replayed_environment_keeps_only_nccl_and_home(void)
{
	char *envp[] = { "NCCL_IB_HCA=mlx5_0:1", "AWS_SECRET_ACCESS_KEY=hunter2", "HOME=/home/tutu", "NCCL_DEBUG=",
			 "NCCL_=x", "HOMEDIR=/x", "PATH=/usr/bin", "NOEQUALS", NULL };
	struct user_info user = { .name = "tutu" };
	struct check_input in = { .user = &user };
	struct system_state s;
	json_t *doc;
	char *text;

	CHECK(system_from_check_input(&in, envp, &s) == 0);
	CHECK(s.env_count == 3);
	CHECK(s.env_count == 3 && !strcmp(s.env[0].name, "NCCL_IB_HCA") && !strcmp(s.env[0].value, "mlx5_0:1"));
	CHECK(s.env_count == 3 && !strcmp(s.env[1].name, "HOME") && !strcmp(s.env[2].name, "NCCL_DEBUG") &&
	      s.env[2].value[0] == '\0');
	doc = system_to_json(&s);
	text = dump(doc);
	CHECK(text && !strstr(text, "hunter2") && !strstr(text, "PATH") && !strstr(text, "HOMEDIR"));
	free(text);
	json_decref(doc);
	system_free(&s);
}

static struct memlock_value bytes(uint64_t b)
{
	return (struct memlock_value){ .bytes = b };
}

static void mapped(struct in6_addr *a, const char *ipv4)
{
	memset(a, 0, sizeof(*a));
	a->s6_addr[10] = a->s6_addr[11] = 0xff;
	inet_pton(AF_INET, ipv4, &a->s6_addr[12]);
}

/* A live host with every source read and every member known, and each way of being unknown, where the fixtures
 * have none (they are --root trees: no nftables, ip rules, device access or registration). */
static void full_state(struct system_state *s)
{
	struct limits_line *l;
	struct nft_chain *c;
	struct nft_rule *r;
	struct nccl_setting *n;

	memset(s, 0, sizeof(*s));
	s->live = true;
	snprintf(s->user.name, sizeof(s->user.name), "tutu");
	s->user.uid = 1000;
	s->user.gid = 1000;
	snprintf(s->user.home, sizeof(s->user.home), "/home/tutu");
	snprintf(s->user.groups[0].name, sizeof(s->user.groups[0].name), "tutu");
	s->user.groups[0].gid = 1000;
	snprintf(s->user.groups[1].name, sizeof(s->user.groups[1].name), "rdma");
	s->user.groups[1].gid = 27;
	s->user.group_count = 2;
	s->user.groups_truncated = true;
	snprintf(s->container.kind, sizeof(s->container.kind), "docker");
	snprintf(s->container.evidence, sizeof(s->container.evidence), "/.dockerenv");

	s->verbs_providers_read = true;
	s->verbs_providers.dir_exists = true;
	snprintf(s->verbs_providers.names[0], sizeof(s->verbs_providers.names[0]), "mlx5");
	snprintf(s->verbs_providers.names[1], sizeof(s->verbs_providers.names[1]), "rxe");
	s->verbs_providers.count = 2;

	s->modules_read = true;
	s->modules.proc_known = true;
	s->modules.items = calloc(2, sizeof(*s->modules.items));
	s->modules.count = 2;
	snprintf(s->modules.items[0].name, sizeof(s->modules.items[0].name), "ib_uverbs");
	snprintf(s->modules.items[1].name, sizeof(s->modules.items[1].name), "nvidia_peermem");
	s->modules.items[1].builtin = true;

	s->uverbs_read = true;
	s->uverbs.devs = calloc(2, sizeof(*s->uverbs.devs));
	s->uverbs.count = 2;
	snprintf(s->uverbs.devs[0].name, sizeof(s->uverbs.devs[0].name), "uverbs0");
	snprintf(s->uverbs.devs[0].ibdev, sizeof(s->uverbs.devs[0].ibdev), "mlx5_0");
	s->uverbs.devs[0].node = (struct dev_node){ .exists = true, .access_known = true, .read_write = true };
	snprintf(s->uverbs.devs[1].name, sizeof(s->uverbs.devs[1].name), "uverbs1");
	s->uverbs.devs[1].node = (struct dev_node){ .exists = true, .access_known = true, .read_write = false };
	s->uverbs.rdma_cm = (struct dev_node){ .exists = false };

	s->rlimit_read = true;
	s->rlimit = (struct memlock_rlimit){ .known = true, .soft = bytes(8u << 20), .hard = { .unlimited = true } };

	s->pam_read = true;
	s->pam.lines = l = calloc(3, sizeof(*s->pam.lines));
	s->pam.count = 3;
	snprintf(l[0].file, sizeof(l[0].file), "/etc/security/limits.conf");
	l[0].line = 61;
	snprintf(l[0].domain, sizeof(l[0].domain), "*");
	l[0].type = MEMLOCK_BOTH;
	l[0].value.unlimited = true;
	snprintf(l[1].file, sizeof(l[1].file), "/etc/security/limits.d/99-nccl.conf");
	l[1].line = 2;
	snprintf(l[1].domain, sizeof(l[1].domain), "1000:2000");
	l[1].range = ID_RANGE_MIN_MAX;
	l[1].range_min = 1000;
	l[1].range_max = 2000;
	l[1].type = MEMLOCK_SOFT;
	l[1].value = bytes(UINT64_MAX - 1023);   /* above JSON's integers: written as text */
	snprintf(l[2].file, sizeof(l[2].file), "/etc/security/limits.d/99-nccl.conf");
	l[2].line = 3;
	l[2].kind = LIMITS_LINE_NO_LIMITS;
	snprintf(l[2].domain, sizeof(l[2].domain), "@rdma");

	s->systemd_read = true;
	s->systemd = (struct systemd_memlock){ .manager = SYSTEMD_MANAGER_RUNNING, .set = true, .soft = bytes(1u << 30),
					       .hard = { .unlimited = true }, .line = 4 };
	snprintf(s->systemd.file, sizeof(s->systemd.file), "/etc/systemd/system.conf.d/90-memlock.conf");

	s->fw_procs_read = true;
	s->fw_procs = (struct firewall_procs){ .firewalld_running = true, .firewalld_pid = 812, .processes_scanned = 311,
					       .iptables_known = true, .iptables_count = 2 };
	snprintf(s->fw_procs.iptables[0], sizeof(s->fw_procs.iptables[0]), "filter");
	snprintf(s->fw_procs.iptables[1], sizeof(s->fw_procs.iptables[1]), "nat");

	s->nft_read = true;
	s->nft_err = -EPERM;
	s->nft.known = true;
	s->nft.truncated = true;
	s->nft.tables = calloc(1, sizeof(*s->nft.tables));
	s->nft.table_count = 1;
	s->nft.tables[0].family = 1;   /* NFPROTO_INET */
	snprintf(s->nft.tables[0].name, sizeof(s->nft.tables[0].name), "firewalld");
	s->nft.chains = c = calloc(2, sizeof(*s->nft.chains));
	s->nft.chain_count = 2;
	c[0] = (struct nft_chain){ .family = 1, .hook = CHAIN_HOOK_INPUT, .priority = 10, .policy = CHAIN_POLICY_DROP,
				   .first_rule = 0, .rule_count = 2 };
	snprintf(c[0].table, sizeof(c[0].table), "firewalld");
	snprintf(c[0].name, sizeof(c[0].name), "filter_INPUT");
	snprintf(c[0].type, sizeof(c[0].type), "filter");
	c[1] = (struct nft_chain){ .family = 1, .priority = -150, .first_rule = 2, .rule_count = 1 };
	snprintf(c[1].table, sizeof(c[1].table), "firewalld");
	snprintf(c[1].name, sizeof(c[1].name), "filter_IN_public");
	s->nft.rules = r = calloc(3, sizeof(*s->nft.rules));
	s->nft.rule_count = 3;
	r[0] = (struct nft_rule){ .chain = 0, .handle = 7, .verdict = RULE_VERDICT_JUMP, .l4proto = -1, .dport = -1 };
	snprintf(r[0].target, sizeof(r[0].target), "filter_IN_public");
	r[1] = (struct nft_rule){ .chain = 0, .handle = 9, .verdict = RULE_VERDICT_DROP, .l4proto = 17, .dport = 4791,
				  .other_matches = true };
	r[2] = (struct nft_rule){ .chain = 1, .handle = (uint64_t)1 << 40, .l4proto = 6, .dport = -1 };
	snprintf(r[2].dport_set, sizeof(r[2].dport_set), "dport { 29500, 29501 }");
	snprintf(s->port_range, sizeof(s->port_range), "32768-60999");

	s->arp_read = true;
	s->arp = calloc(2, sizeof(*s->arp));
	s->arp_count = 2;
	snprintf(s->arp[0].netdev, sizeof(s->arp[0].netdev), "ens19f0np0");
	s->arp[0].known = true;
	s->arp[0].value = (struct arp_sysctl){ .all_ignore = 0, .dev_ignore = 1, .all_announce = 2, .dev_announce = 0,
					       .ignore = 1, .announce = 2 };
	snprintf(s->arp[1].netdev, sizeof(s->arp[1].netdev), "ens19f1np1");
	s->ip_rules.known = true;
	s->ip_rules.items = calloc(2, sizeof(*s->ip_rules.items));
	s->ip_rules.count = 2;
	s->ip_rules.items[0] = (struct ip_rule){ .family = AF_INET, .priority = 100, .src_len = 32, .table = 101,
						 .action = 1, .fwmark = 0x10 };
	mapped(&s->ip_rules.items[0].src, "10.0.0.1");
	mapped(&s->ip_rules.items[0].dst, "0.0.0.0");
	snprintf(s->ip_rules.items[0].iif, sizeof(s->ip_rules.items[0].iif), "lo");
	s->ip_rules.items[1] = (struct ip_rule){ .family = AF_INET6, .priority = 32766, .dst_len = 64, .table = 254,
						 .action = 1 };
	inet_pton(AF_INET6, "fd00::", &s->ip_rules.items[1].dst);
	snprintf(s->ip_rules.items[1].oif, sizeof(s->ip_rules.items[1].oif), "ens19f1np1");

	s->gpus_read = true;
	s->gpus.items = calloc(2, sizeof(*s->gpus.items));
	s->gpus.count = 2;
	s->gpus.items[0] = (struct nvidia_gpu){ .device_id = 0x2330, .class_code = 0x030200, .numa_node = 0 };
	snprintf(s->gpus.items[0].pci_address, sizeof(s->gpus.items[0].pci_address), "0000:3b:00.0");
	snprintf(s->gpus.items[0].driver, sizeof(s->gpus.items[0].driver), "nvidia");
	s->gpus.items[1] = (struct nvidia_gpu){ .device_id = 0x20b0, .class_code = 0x030000, .numa_node = -1 };
	snprintf(s->gpus.items[1].pci_address, sizeof(s->gpus.items[1].pci_address), "0000:86:00.0");

	s->nccl_read = true;
	s->nccl.items = n = calloc(3, sizeof(*s->nccl.items));
	s->nccl.count = 3;
	snprintf(n[0].name, sizeof(n[0].name), "NCCL_IB_HCA");
	snprintf(n[0].value, sizeof(n[0].value), "=mlx5_0:1");
	snprintf(n[0].source, sizeof(n[0].source), "environment");
	n[0].effective = true;
	snprintf(n[1].name, sizeof(n[1].name), "NCCL_IB_HCA");
	snprintf(n[1].value, sizeof(n[1].value), "mlx5_1");
	n[1].origin = NCCL_FROM_FILE;
	snprintf(n[1].file, sizeof(n[1].file), "/home/tutu/.nccl.conf");
	n[1].line = 3;
	snprintf(n[1].source, sizeof(n[1].source), "/home/tutu/.nccl.conf:3");
	snprintf(n[2].name, sizeof(n[2].name), "NCCL_SOCKET_IFNAME");   /* set to nothing: "" is a value here */
	n[2].origin = NCCL_FROM_FILE;
	snprintf(n[2].file, sizeof(n[2].file), "/etc/nccl.conf");
	n[2].line = 1;
	snprintf(n[2].source, sizeof(n[2].source), "/etc/nccl.conf:1");
	n[2].effective = true;
	snprintf(s->nccl.user_file, sizeof(s->nccl.user_file), "/home/tutu/.nccl.conf");
	s->nccl.user_file_read = s->nccl.system_file_read = true;
	s->env = calloc(2, sizeof(*s->env));
	s->env_count = 2;
	snprintf(s->env[0].name, sizeof(s->env[0].name), "NCCL_IB_HCA");
	snprintf(s->env[0].value, sizeof(s->env[0].value), "=mlx5_0:1");
	snprintf(s->env[1].name, sizeof(s->env[1].name), "NCCL_DEBUG");

	s->reg_read = true;
	s->reg = (struct register_probe){ .tried = true, .err = -ENOMEM, .step = "ibv_reg_mr", .bytes = 256u << 20 };
	snprintf(s->reg.device, sizeof(s->reg.device), "mlx5_0");
}

static void full_state_round_trips_byte_identical(void)
{
	struct system_state s, back;

	full_state(&s);
	CHECK(round_trips(&s, &back, "full state"));
	CHECK(back.pam.count == 3 && back.pam.lines[1].value.bytes == UINT64_MAX - 1023);
	CHECK(back.rlimit.known && back.rlimit.hard.unlimited && back.rlimit.soft.bytes == 8u << 20);
	CHECK(back.nft.rule_count == 3 && back.nft.rules[2].handle == (uint64_t)1 << 40 && back.nft_err == -EPERM);
	CHECK(back.ip_rules.count == 2 && !memcmp(&back.ip_rules.items[0].src, &s.ip_rules.items[0].src, 16));
	CHECK(back.reg.step && !strcmp(back.reg.step, "ibv_reg_mr") && back.reg.err == -ENOMEM);
	CHECK(back.gpus.count == 2 && back.gpus.items[1].numa_node == -1 && back.arp_count == 2 && !back.arp[1].known);
	CHECK(back.uverbs.count == 2 && back.uverbs.devs[1].node.access_known && !back.uverbs.rdma_cm.access_known);
	system_free(&s);
	system_free(&back);
}

/* Nothing read at all: every source null, and null read back as not read. */
static void nothing_read_round_trips(void)
{
	struct system_state s = { 0 }, back;

	snprintf(s.user.name, sizeof(s.user.name), "root");
	CHECK(round_trips(&s, &back, "nothing read"));
	CHECK(!back.modules_read && !back.nft_read && !back.arp_read && !back.nccl_read && !back.reg_read);
	system_free(&back);
}

/* The writer writes nothing the reader would refuse: it fails instead. */
static void writer_refuses_what_json_cannot_carry(void)
{
	struct system_state s;
	json_t *doc;

	full_state(&s);
	s.user.name[0] = '\0';
	CHECK((doc = system_to_json(&s)) == NULL);
	json_decref(doc);
	snprintf(s.user.name, sizeof(s.user.name), "tutu");
	s.nft.tables[0].family = 99;
	CHECK((doc = system_to_json(&s)) == NULL);
	json_decref(doc);
	s.nft.tables[0].family = 1;
	s.nft.rules[0].handle = UINT64_MAX;
	CHECK((doc = system_to_json(&s)) == NULL);
	json_decref(doc);
	s.nft.rules[0].handle = 7;
	s.ip_rules.items[1].family = AF_UNIX;
	CHECK((doc = system_to_json(&s)) == NULL);
	json_decref(doc);
	s.ip_rules.items[1].family = AF_INET6;
	s.reg.step = "ibv_create_qp";
	CHECK((doc = system_to_json(&s)) == NULL);
	json_decref(doc);
	s.reg.step = "ibv_reg_mr";
	snprintf(s.env[1].name, sizeof(s.env[1].name), "NCCL_\xff");
	CHECK((doc = system_to_json(&s)) == NULL);
	json_decref(doc);
	snprintf(s.env[1].name, sizeof(s.env[1].name), "NCCL_DEBUG");
	CHECK((doc = system_to_json(&s)) != NULL);   /* and whole again */
	json_decref(doc);
	system_free(&s);
}

/* Sets (value) or removes (NULL) the member at path ("nftables.ruleset.rules[0].chain") in doc. */
static int set_at(json_t *doc, const char *path, json_t *value)
{
	char key[64];
	json_t *at = doc;

	while (*path) {
		size_t n = strcspn(path, ".[");
		const char *next = path + n;

		if (n == 0 && *path == '[') {
			size_t i = strtoul(path + 1, (char **)&next, 10);

			next++;   /* ']' */
			if (*next == '.')
				next++;
			if (!*next) {
				json_array_set_new(at, i, value);
				return 0;
			}
			at = json_array_get(at, i);
		} else {
			snprintf(key, sizeof(key), "%.*s", (int)n, path);
			if (*next == '.')
				next++;
			if (!*next) {
				if (value)
					json_object_set_new(at, key, value);
				else
					json_object_del(at, key);
				return 0;
			}
			at = json_object_get(at, key);
		}
		if (!at)
			return -1;
		path = next;
	}
	return -1;
}

static int all_zero(const void *p, size_t size)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < size; i++)
		if (b[i])
			return 0;
	return 1;
}

/* The full document with one member changed must be refused with a message starting with want. */
static void refused(const char *path, json_t *value, const char *want)
{
	struct system_state s, out;
	json_t *doc;
	char why[512] = "";
	int ret, ok;

	full_state(&s);
	doc = system_to_json(&s);
	system_free(&s);
	if (!doc || set_at(doc, path, value) < 0) {
		printf("# cannot set %s in the document\n", path);
		CHECK(0);
		json_decref(doc);
		return;
	}
	memset(&out, 0xa5, sizeof(out));
	ret = system_from_json(doc, &out, why, sizeof(why));
	ok = ret == -EINVAL && strncmp(why, want, strlen(want)) == 0 && !strchr(why, '\n') && all_zero(&out, sizeof(out));
	if (!ok)
		printf("# %s: got %d \"%s\", want \"%s...\"\n", path, ret, why, want);
	CHECK(ok);
	if (ret == 0)
		system_free(&out);
	json_decref(doc);
}

static json_t *groups_over_bound(void)
{
	json_t *list = json_array();

	for (int i = 0; i <= USER_GROUPS_MAX; i++)
		json_array_append_new(list, json_pack("{s:s, s:i}", "name", "g", "gid", i));
	return list;
}

static void schema_and_member_names_are_refused_by_path(void)
{
	struct system_state s = { 0 };
	char why[256];

	CHECK(system_from_json(json_null(), &s, why, sizeof(why)) == -EINVAL &&
	      !strcmp(why, "document: expected an object, got null"));
	refused("schema", json_string("roce-doctor/system/v2"), "schema: \"roce-doctor/system/v2\" is newer than this");
	refused("schema", json_string("roce-doctor/host/v1"), "schema: expected \"roce-doctor/system/v1\", got \"roce-doctor/host/v1\"");
	refused("secrets", json_true(), "secrets: unknown member");
	refused("environment", NULL, "environment: missing (expected an array of at most 512 entries)");
	refused("user.groups[1].nickname", json_string("x"), "user.groups[1].nickname: unknown member");
}

static void wrong_types_and_out_of_bounds_are_refused_by_path(void)
{
	refused("live", json_integer(1), "live: expected true or false, got an integer");
	refused("user.uid", json_integer(-1), "user.uid: expected an integer from 0 to 4294967295, got -1");
	refused("user.home", json_string(""), "user.home: expected a non-empty string or null, got \"\"");
	refused("user.groups", groups_over_bound(), "user.groups: expected an array of at most 64 entries, got 65");
	refused("container.kind", json_string("a-container-runtime-nobody-has-heard-of"),
		"container.kind: expected a string of at most 31 bytes");
	refused("modules.modules[0]", json_string("ib_uverbs"), "modules.modules[0]: expected an object, got a string");
	refused("uverbs.rdma_cm.read_write", json_string("yes"), "uverbs.rdma_cm.read_write: expected true, false or null");
	refused("pam_limits[0].line", json_real(2.5), "pam_limits[0].line: expected an integer from 0 to 4294967295");
	refused("systemd.default_limit.soft", json_null(), "systemd.default_limit.soft: expected \"unlimited\"");
	refused("firewall_procs.iptables_tables[1]", json_integer(2), "firewall_procs.iptables_tables[1]: expected a string");
	refused("nftables.errno", json_integer(0), "nftables.errno: expected an integer from 1 to 4095 or null, got 0");
	refused("nftables.ruleset.rules[1].dport", json_integer(65536),
		"nftables.ruleset.rules[1].dport: expected an integer from 0 to 65535 or null");
	refused("arp[0].sysctl.ignore", json_integer(-1), "arp[0].sysctl.ignore: expected an integer from 0 to");
	refused("gpus[0].device_id", json_integer(0x10000), "gpus[0].device_id: expected an integer from 0 to 65535");
	refused("register_probe.bytes", json_integer(-5), "register_probe.bytes: expected an integer from 0 to");
	refused("environment[0].value", json_stringn("a\0z", 3),
		"environment[0].value: expected a string without NUL characters");
}

static void misspelt_names_and_malformed_texts_are_refused_by_path(void)
{
	refused("memlock_rlimit.soft", json_string("lots"), "memlock_rlimit.soft: expected \"unlimited\", a byte count");
	refused("memlock_rlimit.soft", json_string("123"), "memlock_rlimit.soft: expected \"unlimited\", a byte count");
	refused("pam_limits[1].type", json_string("both"), "pam_limits[1].type: expected \"soft\", \"hard\", \"-\" or null");
	refused("systemd.manager", json_string("upstart"), "systemd.manager: expected \"running\", \"absent\" or null");
	refused("nftables.ruleset.tables[0].family", json_string("ipv4"), "nftables.ruleset.tables[0].family: expected \"inet\"");
	refused("ip_local_port_range", json_string("60999-32768"), "ip_local_port_range: expected \"LOW-HIGH\" ports");
	refused("ip_rules[0].from", json_string("10.0.0.1/33"), "ip_rules[0].from: expected an IPv4 prefix");
	refused("ip_rules[1].to", json_string("10.0.0.0/8"), "ip_rules[1].to: expected an IPv6 prefix");
	refused("nccl.settings[2].origin", json_string("conf"), "nccl.settings[2].origin: expected \"environment\" or \"file\"");
	refused("register_probe.step", json_string("ibv_create_qp"), "register_probe.step: expected \"ibv_get_device_list\"");
}

static void inconsistent_members_are_refused_by_path(void)
{
	refused("memlock_rlimit.hard", json_null(), "memlock_rlimit.hard: expected a value, as soft is");
	refused("nftables.ruleset.rules[2].chain", json_integer(2),
		"nftables.ruleset.rules[2].chain: expected an integer from 0 to 1, got 2");
	refused("nftables.ruleset.chains[1].rule_count", json_integer(2),
		"nftables.ruleset.chains[1].rule_count: expected an integer from 0 to 1, got 2");
	refused("arp", json_null(), "ip_rules: expected null, as arp is");
	refused("nccl.settings[0].line", json_integer(3), "nccl.settings[0].line: expected an integer from 0 to 0 or null");
	refused("nccl.settings[1].file", json_null(), "nccl.settings[1].file: expected a string, got null");
}

static void environment_beyond_nccl_is_refused(void)
{
	refused("environment[1].name", json_string("AWS_SECRET_ACCESS_KEY"),
		"environment[1].name: expected NCCL_* or HOME (no other variable is kept), got \"AWS_SECRET_ACCESS_KEY\"");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(every_fixture_round_trips_and_judges_the_same);
	RUN(replayed_environment_keeps_only_nccl_and_home);
	RUN(full_state_round_trips_byte_identical);
	RUN(nothing_read_round_trips);
	RUN(writer_refuses_what_json_cannot_carry);
	RUN(schema_and_member_names_are_refused_by_path);
	RUN(wrong_types_and_out_of_bounds_are_refused_by_path);
	RUN(misspelt_names_and_malformed_texts_are_refused_by_path);
	RUN(inconsistent_members_are_refused_by_path);
	RUN(environment_beyond_nccl_is_refused);
	TAP_DONE();
}
