// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor serve: the other end of bw and lat. One test at a time; logs one line per event. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/commands.h"
#include "cmd/perf_common.h"
#include "cmd/snapshot_take.h"
#include "core/allow_list.h"
#include "output/render.h"
#include "proto/channel.h"
#include "proto/server.h"
#include "util/time_text.h"

enum { OPT_BIND = 0x100, OPT_MAX_QPS, OPT_MAX_MEM, OPT_MAX_SECONDS, OPT_ALLOW };

struct serve_args {
	const char *bind;
	unsigned port;
	int gid_index;
	unsigned max_qps;
	unsigned long max_mem_mib;
	unsigned max_seconds;
	struct allow_list allow;      /* --allow; empty (and not any): the default, taken for each client */
};

/* How long the default allow list, read from this host's RDMA netdevs, serves the clients inside it: a probe of
 * the host per connection costs 10-50 ms on a server but 2-3 s in the TCG VMs of tests/vm, past a short client
 * --timeout, and check --peer opens five connections. A client outside the list reads it again at once (an
 * address just added); one that was removed is out of it within this time. */
#define DEFAULT_ALLOW_TTL_NS (10 * 1000000000ull)

struct serve_state {
	struct app *app;
	const struct serve_args *args;
	struct allow_list recent;     /* the default list as last read; read_at 0: never */
	uint64_t read_at;             /* CLOCK_MONOTONIC ns */
};

static const struct argp_option serve_options[] = {
	{ "bind", OPT_BIND, "ADDR", 0, "Listen on this address only (default: every address)", 0 },
	{ "port", 'p', "N", 0, "TCP port (default 18516; 0: a free one, which the log names)", 0 },
	{ "gid-index", 'x', "INDEX", 0, "GID index (default: what 'gid --suggest --peer CLIENT' picks)", 0 },
	{ "max-qps", OPT_MAX_QPS, "N", 0, "Refuse tests with more QPs (default 64)", 0 },
	{ "max-mem", OPT_MAX_MEM, "MiB", 0, "Refuse tests that need more registered memory (default 512)", 0 },
	{ "max-seconds", OPT_MAX_SECONDS, "S", 0, "Stop a message size that runs longer (default 120)", 0 },
	{ "allow", OPT_ALLOW, "CIDR", 0, "Answer only clients in this network (repeatable; IPv4 or IPv6, a bare "
	  "address is one host; 'any' or 0.0.0.0/0: every client). Default: loopback and the subnets of this host's "
	  "RDMA netdevs", 0 },
	{ 0 }
};

static error_t parse_serve(int key, char *arg, struct argp_state *state)
{
	struct serve_args *a = state->input;

	switch (key) {
	case OPT_BIND:
		a->bind = arg;
		return 0;
	case 'p':
		a->port = (unsigned)parse_count(state, "--port", arg, 0, 65535);
		return 0;
	case 'x':
		a->gid_index = (int)parse_count(state, "-x", arg, 0, 65535);
		return 0;
	case OPT_MAX_QPS:
		a->max_qps = (unsigned)parse_count(state, "--max-qps", arg, 1, PERF_MAX_QPS);
		return 0;
	case OPT_MAX_MEM:
		a->max_mem_mib = parse_count(state, "--max-mem", arg, 1, 1u << 20);
		return 0;
	case OPT_MAX_SECONDS:
		a->max_seconds = (unsigned)parse_count(state, "--max-seconds", arg, 1, PROTO_MAX_DURATION_MS / 1000);
		return 0;
	case OPT_ALLOW: {
		struct allow_net net;
		char why[256];
		bool any;

		if (allow_parse(arg, &net, &any, why, sizeof(why)) < 0)
			argp_error(state, "%s", why);
		else if (any)
			a->allow.any = true;
		else if (allow_add(&a->allow, &net) < 0)
			argp_error(state, "more than %d --allow networks", ALLOW_MAX);
		return 0;
	}
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp serve_argp = {
	serve_options, parse_serve, NULL,
	"Serve bw and lat tests from other nodes: 'roce-doctor bw THIS-NODE' there. One test at a time; other "
	"clients are refused with the reason. Every test's QPs, memory and descriptors are released when it ends, "
	"however it ends. Logs one line per event on stdout (with --json, one JSON object per line). SIGINT and "
	"SIGTERM stop it cleanly.\v"
	"Exit status: 0 after SIGINT or SIGTERM, 2 when the --device named does not exist, 3 when it cannot listen, "
	"64 for usage errors. -v says on stderr, for each client, which sources answered for the port chosen. "
	"The test hook "
	"ROCE_DOCTOR_TEST_CORRUPT=1 flips one byte of the last message of each size (for testing the check).",
	NULL, NULL, NULL,
};

static void log_event(void *arg, const char *client, const char *event, const char *detail)
{
	const struct serve_state *st = arg;
	time_t now = time(NULL);
	char stamp[TIME_TEXT_SIZE];

	time_text(now, stamp, sizeof(stamp));
	if (st->app->json) {
		json_t *line = json_pack("{s:s, s:s, s:o, s:s, s:o}", "schema", "roce-doctor/serve/v1", "time", stamp,
					 "client", json_str_or_null(client), "event", event, "detail",
					 json_str_or_null(detail));

		json_dumpf(line, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(line);
	} else {
		printf("%s %s %s%s%s\n", stamp, client ? client : "serve", event, detail && *detail ? ": " : "",
		       detail ? detail : "");
	}
	fflush(stdout);
}

static void client_gid(const struct sockaddr_storage *ss, struct in6_addr *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (ss->ss_family == AF_INET6) {
		*gid = ((const struct sockaddr_in6 *)ss)->sin6_addr;
	} else if (ss->ss_family == AF_INET) {
		gid->s6_addr[10] = gid->s6_addr[11] = 0xff;
		memcpy(&gid->s6_addr[12], &((const struct sockaddr_in *)ss)->sin_addr, 4);
	}
}

/* Test hook: ROCE_DOCTOR_TEST_HELLO_TIMEOUT_MS=N (100..10000) shortens how long a silent connection holds the
 * serve, so a soak can send many silent clients in little time. 0: the protocol's 10 s. */
static unsigned test_hello_timeout_ms(void)
{
	const char *v = getenv("ROCE_DOCTOR_TEST_HELLO_TIMEOUT_MS");
	char *end;
	unsigned long ms;

	if (!v || !*v)
		return 0;
	ms = strtoul(v, &end, 10);
	return *end || ms < 100 || ms > SERVE_HELLO_TIMEOUT_S * 1000 ? 0 : (unsigned)ms;
}

/* Probes the host for every client: GIDs move, devices come and go while a serve runs for days. 0, or -1 with
 * why. */
static int probe_own_host(const struct serve_state *st, struct host *host, char *why, size_t why_size)
{
	struct rootfs root;
	int ret = rootfs_open(&root, st->app->root_dir);

	if (ret == 0) {
		ret = host_probe(host, &root);
		rootfs_close(&root);
	}
	if (ret < 0) {
		snprintf(why, why_size, "the serve cannot probe its host: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

static int choose(void *arg, const struct sockaddr_storage *client, struct serve_device *out, char *why,
		  size_t why_size)
{
	const struct serve_state *st = arg;
	struct perf_target target;
	struct in6_addr gid;
	struct host host;
	int ret;

	client_gid(client, &gid);
	if (probe_own_host(st, &host, why, why_size) < 0)
		return -1;
	ret = perf_choose_target(&host, &st->app->device, st->args->gid_index, &gid, &target,
				 &host.warnings, why, why_size);
	if (ret == 0) {
		struct port_selection chosen = { .port = target.port };

		snprintf(chosen.name, sizeof(chosen.name), "%s", target.device);
		app_say_sources(st->app, &host, &chosen);
		snprintf(out->device, sizeof(out->device), "%s", target.device);
		out->port = target.port;
		out->gid_index = target.gid_index;
		out->wait = perf_wait_for(&target);
	} else {
		/* Name the serve's side, so the client knows whose host lacks what. */
		char mine[512];

		snprintf(mine, sizeof(mine), "on the serve: %s", why);
		snprintf(why, why_size, "%s", mine);
	}
	host_free(&host);
	return ret;
}

/* The default allow list, from this host as it is now: addresses come and go while a serve runs for days. */
static void default_allow(const struct serve_state *st, struct allow_list *list)
{
	struct host host;
	char why[256];

	if (probe_own_host(st, &host, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: serve: %s: allowing loopback only\n", why);
		memset(&host, 0, sizeof(host));
		allow_default(list, &host);
		return;
	}
	allow_default(list, &host);
	host_free(&host);
}

static bool allow_given(const struct serve_args *a)
{
	return a->allow.any || a->allow.count;
}

/* Whether a client may talk to this serve at all; a refusal is logged on stderr too, with its address. */
static uint64_t monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int admit(void *arg, const struct sockaddr_storage *client, char *why, size_t why_size)
{
	struct serve_state *st = arg;
	struct allow_list *list = malloc(sizeof(*list));
	char who[80], nets[1024];
	bool ok;

	if (!list) {
		snprintf(why, why_size, "the serve is out of memory");
		return -1;
	}
	if (allow_given(st->args)) {
		*list = st->args->allow;
	} else if (st->read_at && monotonic_ns() - st->read_at < DEFAULT_ALLOW_TTL_NS &&
		   allow_match(&st->recent, client)) {
		*list = st->recent;
	} else {
		default_allow(st, list);
		st->recent = *list;
		st->read_at = monotonic_ns();
	}
	ok = allow_match(list, client);
	if (!ok) {
		chan_addr_text((const struct sockaddr *)client, who, sizeof(who), true);
		allow_list_text(list, nets, sizeof(nets));
		snprintf(why, why_size, "%.80s is not in this serve's allow list (%.140s%s): on the serve, add "
			 "--allow ADDRESS/PREFIX for it", who, nets, allow_given(st->args) ? "" : ": loopback and the "
			 "subnets of its RDMA netdevs");
		fprintf(stderr, "roce-doctor: serve: refused %s: not in the allow list (%s)\n", who, nets);
	}
	free(list);
	return ok ? 0 : -1;
}

/* SNAPSHOT_REQ: the document `roce-doctor snapshot --json-lines` prints, taken now, as this serve's user. */
static int snapshot_text(void *arg, char **text, size_t *len, char *why, size_t why_size)
{
	const struct serve_state *st = arg;
	struct snapshot *s = calloc(1, sizeof(*s));
	json_t *doc = NULL;
	int code;

	if (!s) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	code = snapshot_take(st->app, s);
	if (code == EXIT_OK)
		doc = snapshot_to_json(s);
	snapshot_free(s);
	free(s);
	if (code != EXIT_OK) {
		snprintf(why, why_size, "probing its host failed (the serve's stderr says why)");
		return -1;
	}
	*text = doc ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(doc);
	if (!*text) {
		snprintf(why, why_size, "out of memory, or a host file holds text that is not UTF-8");
		return -1;
	}
	*len = strlen(*text);
	return 0;
}

/* HELLO_ON: the rail's end on this host, as check --peer's client names it: it must exist, be ACTIVE and hold
 * a GID at that index. */
static int rail_end(void *arg, const char *device, unsigned port, int gid_index, struct serve_device *out,
		    char *why, size_t why_size)
{
	const struct serve_state *st = arg;
	const struct rdma_device *dev;
	const struct rdma_port *p = NULL;
	bool has_gid = false;
	struct host host;
	int ret;

	if (probe_own_host(st, &host, why, why_size) < 0)
		return -1;
	ret = -1;
	dev = host_find_device(&host, device);
	for (size_t i = 0; dev && i < dev->port_count; i++)
		if (dev->ports[i].num == port)
			p = &dev->ports[i];
	for (size_t i = 0; p && i < p->gid_count; i++)
		has_gid = has_gid || p->gids[i].index == (unsigned)gid_index;
	if (!dev)
		snprintf(why, why_size, "on the serve: no RDMA device %s (ls /sys/class/infiniband there)", device);
	else if (!p)
		snprintf(why, why_size, "on the serve: %s has no port %u", device, port);
	else if (p->state != 4)
		snprintf(why, why_size, "on the serve: %s/%u is %s, not ACTIVE", device, port,
			 p->state_name[0] ? p->state_name : "in an unknown state");
	else if (!has_gid)
		snprintf(why, why_size, "on the serve: %s/%u has no GID at index %d (roce-doctor gid there)", device,
			 port, gid_index);
	else
		ret = 0;
	if (ret == 0) {
		snprintf(out->device, sizeof(out->device), "%s", device);
		out->port = port;
		out->gid_index = gid_index;
		out->wait = dev->parent[0] ? PERF_WAIT_ADAPTIVE : PERF_WAIT_POLL;   /* rxe, siw: see perf_wait_for */
	}
	host_free(&host);
	return ret;
}

int cmd_serve(struct app *app, int argc, char **argv)
{
	struct serve_args a = { .port = PROTO_DEFAULT_PORT, .gid_index = -1, .max_qps = PERF_MAX_QPS,
				.max_mem_mib = 512, .max_seconds = 120 };
	struct serve_state st = { .app = app, .args = &a };
	struct serve_config cfg;
	struct secret *secret;
	struct host host;
	char err[512], nets[1024];
	int code;

	if (command_parse(&serve_argp, COMMON_DEVICE | COMMON_EVENT_LOG | COMMON_SECRET, argc, argv, &a, app) != 0)
		return EXIT_USAGE;
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	code = check_selection(&host, &app->device);
	if (code == EXIT_OK && host.device_count == 0)
		fprintf(stderr, "roce-doctor: warning: no RDMA devices on this host: every test is refused until one "
			"appears\n");
	host_free(&host);
	if (code != EXIT_OK)
		return code;
	code = app_read_secret(app, &secret);
	if (code != EXIT_OK)
		return code;
	if (a.allow.any) {
		snprintf(nets, sizeof(nets), "any address (--allow any): every client that reaches the port may run "
			 "tests and fetch this host's snapshot%s", secret ? ", with the secret" : "");
	} else {
		struct allow_list now;
		size_t used;

		if (allow_given(&a))
			now = a.allow;
		else
			default_allow(&st, &now);
		allow_list_text(&now, nets, sizeof(nets));
		used = strlen(nets);
		if (!allow_given(&a) && used < sizeof(nets))
			snprintf(nets + used, sizeof(nets) - used, " (the default: loopback and the subnets of the RDMA "
				 "netdevs, read again for a client outside it or after 10 s)");
	}
	if (secret && strlen(nets) + 60 < sizeof(nets))
		strcat(nets, "; each must prove the shared secret (--secret-file)");
	cfg = (struct serve_config){
		.bind_addr = a.bind, .port = a.port,
		.limits = { .max_qps = a.max_qps, .max_memory = (uint64_t)a.max_mem_mib << 20,
			    .max_seconds = a.max_seconds },
		.corrupt = perf_test_corrupt(), .admit = admit, .secret = secret,
		.allowing = nets, .hello_timeout_ms = test_hello_timeout_ms(), .choose = choose,
		.snapshot = snapshot_text, .rail = rail_end,
		.log = log_event, .arg = &st,
	};
	code = EXIT_OK;
	if (serve_run(&cfg, err, sizeof(err))) {
		fprintf(stderr, "roce-doctor: %s\n", err);
		code = EXIT_CANNOT_RUN;
	}
	app_free_secret(secret);
	return code;
}
