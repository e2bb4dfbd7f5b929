// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor mesh: every pair's bandwidth over a job's nodes. --plan N prints the plan and its time;
 * --dry-run reads the launcher's environment and prints this node's rank, size, rendezvous and the plan;
 * without either, the run (cmd/mesh_run.c): registration with rank 0, the rounds of bw, the answer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/mesh_run.h"
#include "core/mesh/launcher.h"
#include "core/mesh/plan.h"
#include "core/mesh/rails.h"
#include "output/mesh_text.h"
#include "output/render.h"
#include "proto/wire.h"
#include "util/byte_size.h"

extern char **environ;

/* Up to this many nodes and tests the JSON document lists every round's tests (256 nodes: 32,640 pairs, a
 * document of 1 MB). The tests bound it too: a rail plan of 256 nodes with 64 rails has 2 million, 70 MB of
 * JSON and over a GB to build it. */
#define MESH_JSON_SCHEDULE_NODES_MAX 256
#define MESH_JSON_SCHEDULE_TESTS_MAX 32640
#define MESH_BW_SECONDS_DEFAULT 2.0   /* bw's own -D default: a mesh test is a short bw */

enum { OPT_PLAN = 0x100, OPT_PLAN_KIND, OPT_RAILS, OPT_SECONDS, OPT_DRY_RUN, OPT_RANK, OPT_SIZE, OPT_RENDEZVOUS,
       OPT_MESSAGE_SIZE, OPT_EXPECT_GBPS, OPT_EXPECT_LINK_PCT, OPT_TIME_LIMIT, OPT_REGISTER_TIMEOUT, OPT_SERVE_PORT,
       OPT_PLOT };

struct mesh_args {
	long plan;                   /* --plan N; -1 when not given */
	enum mesh_plan_kind kind;
	unsigned rails;              /* --rails; 0 when not given */
	double seconds;
	bool dry_run;
	struct mesh_options launch;
	struct mesh_run_args run;
	char rendezvous_host[256];
	bool run_option;              /* an option only a run takes was given */
};

static const struct argp_option mesh_options[] = {
	{ "plan", OPT_PLAN, "N", 0, "Print the plan for N nodes and its estimated time; run nothing", 0 },
	{ "plan-kind", OPT_PLAN_KIND, "all-pairs|ring|rail", 0, "all-pairs (default: every pair once, N-1 rounds), "
	  "ring (each node with the next: 2 rounds, 3 for an odd N) or rail (per rail, same-index NICs only)", 0 },
	{ "rails", OPT_RAILS, "R", 0, "Rails (RoCE ports) per node (default 1 with --plan; with --dry-run this "
	  "node's RoCE ports)", 0 },
	{ "seconds", OPT_SECONDS, "S", 0, "Seconds of bw per test (bw's -D; default 2)", 0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0, "Inside a launcher (srun, mpirun, torchrun): print this node's rank, size, "
	  "rendezvous and the plan; run nothing", 0 },
	{ "rank", OPT_RANK, "N", 0, "This node's rank (with --size and --rendezvous: pdsh, or no launcher)", 0 },
	{ "size", OPT_SIZE, "N", 0, "The number of nodes", 0 },
	{ "rendezvous", OPT_RENDEZVOUS, "HOST[:PORT]", 0, "Rank 0's host (over MASTER_ADDR or SLURM_NODELIST's "
	  "first) and the TCP port the ranks register on (default 18517)", 0 },
	{ "message-size", OPT_MESSAGE_SIZE, "BYTES", 0, "bw's message size per test (bw's -s; default 64K)", 0 },
	{ "expect-gbps", OPT_EXPECT_GBPS, "N", 0, "A link is odd below N Gb/s (default: below the median of its rail "
	  "- 3 x MAD and below 90% of it)", 0 },
	{ "expect-link-pct", OPT_EXPECT_LINK_PCT, "P", 0, "A link is odd below P% of its port's link rate", 0 },
	{ "time-limit", OPT_TIME_LIMIT, "S", 0, "Stop before a round that would end past S seconds; the pairs left "
	  "are listed as not measured", 0 },
	{ "register-timeout", OPT_REGISTER_TIMEOUT, "S", 0, "Rank 0 waits S seconds for every rank to register, then "
	  "goes on without the missing (default 60); the others try to reach rank 0 as long", 0 },
	{ "serve-port", OPT_SERVE_PORT, "N", 0, "TCP port of this node's serve (default 18516; 0: a free one)", 0 },
	{ "plot", OPT_PLOT, "FILE", 0, "Rank 0 writes the N x N matrix per rail as an SVG heatmap, odd cells marked", 0 },
	{ 0 }
};

static long parse_whole(const struct argp_state *state, const char *option, const char *arg, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v > max)
		argp_error(state, "bad %s '%s': expected a whole number from 0 to %ld", option, arg, max);
	return v;
}

static double parse_positive(const struct argp_state *state, const char *option, const char *arg, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v > 0) || v > max)
		argp_error(state, "bad %s '%s': expected a number more than 0 and at most %g", option, arg, max);
	return v;
}

/* HOST, HOST:PORT or [V6]:PORT; a bare IPv6 address (several colons) is a host. */
static void parse_rendezvous(const struct argp_state *state, const char *arg, struct mesh_args *a)
{
	const char *colon = strrchr(arg, ':'), *host = arg;
	size_t len = strlen(arg);

	if (colon && (arg[0] == '[' ? colon > arg && colon[-1] == ']' : strchr(arg, ':') == colon)) {
		a->run.rendezvous_port = (unsigned)parse_count(state, "--rendezvous port", colon + 1, 1, 65535);
		len = (size_t)(colon - arg);
		if (arg[0] == '[') {
			host = arg + 1;
			len -= 2;
		}
	}
	if (len == 0 || len >= sizeof(a->rendezvous_host))
		argp_error(state, "bad --rendezvous '%s': expected HOST or HOST:PORT, rank 0's host", arg);
	memcpy(a->rendezvous_host, host, len);
	a->rendezvous_host[len] = '\0';
	a->launch.rendezvous = a->rendezvous_host;
}

static error_t parse_mesh(int key, char *arg, struct argp_state *state)
{
	struct mesh_args *a = state->input;
	uint64_t bytes;
	char *end;

	switch (key) {
	case OPT_PLAN:
		a->plan = parse_whole(state, "--plan", arg, MESH_NODES_MAX);
		return 0;
	case OPT_PLAN_KIND:
		if (mesh_plan_kind_parse(arg, &a->kind) < 0)
			argp_error(state, "bad --plan-kind '%s': expected all-pairs, ring or rail", arg);
		return 0;
	case OPT_RAILS:
		a->rails = (unsigned)parse_count(state, "--rails", arg, 1, MESH_RAILS_MAX);
		return 0;
	case OPT_SECONDS:
		errno = 0;
		a->seconds = strtod(arg, &end);
		if (end == arg || *end || errno || !(a->seconds > 0) || a->seconds > 600)
			argp_error(state, "bad --seconds '%s': expected seconds, more than 0 and at most 600", arg);
		return 0;
	case OPT_DRY_RUN:
		a->dry_run = true;
		return 0;
	case OPT_RANK:
		a->launch.rank = parse_whole(state, "--rank", arg, MESH_NODES_MAX);
		return 0;
	case OPT_SIZE:
		a->launch.size = parse_whole(state, "--size", arg, MESH_NODES_MAX);
		return 0;
	case OPT_RENDEZVOUS:
		parse_rendezvous(state, arg, a);
		return 0;
	case OPT_MESSAGE_SIZE:
		if (byte_size_parse(arg, 8u << 20, &bytes) < 0 || bytes == 0)
			argp_error(state, "bad --message-size '%s': expected 1 B to 8M (4096, 64K, 1M)", arg);
		a->run.bytes = (uint32_t)bytes;
		a->run_option = true;
		return 0;
	case OPT_EXPECT_GBPS:
		a->run.expect_gbps = parse_positive(state, "--expect-gbps", arg, 100000);
		a->run_option = true;
		return 0;
	case OPT_EXPECT_LINK_PCT:
		a->run.expect_link_pct = parse_positive(state, "--expect-link-pct", arg, 100);
		a->run_option = true;
		return 0;
	case OPT_TIME_LIMIT:
		a->run.time_limit = parse_positive(state, "--time-limit", arg, 7 * 86400);
		a->run_option = true;
		return 0;
	case OPT_REGISTER_TIMEOUT:
		a->run.register_timeout_s = (unsigned)parse_count(state, "--register-timeout", arg, 1, 3600);
		a->run_option = true;
		return 0;
	case OPT_SERVE_PORT:
		a->run.serve_port = (unsigned)parse_count(state, "--serve-port", arg, 0, 65535);
		a->run_option = true;
		return 0;
	case OPT_PLOT:
		a->run.plot = arg;
		a->run_option = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	case ARGP_KEY_END:
		if (a->plan >= 0 && a->dry_run)
			argp_error(state, "--plan and --dry-run exclude each other: --dry-run takes N from the launcher");
		if (a->plan >= 0 && (a->launch.rank >= 0 || a->launch.size >= 0 || a->launch.rendezvous))
			argp_error(state, "--rank, --size and --rendezvous go with a run or --dry-run, not --plan");
		if ((a->plan >= 0 || a->dry_run) && a->run_option)
			argp_error(state, "--message-size, --expect-gbps, --expect-link-pct, --time-limit, --register-timeout, "
				   "--serve-port and --plot go with a run, not --plan or --dry-run");
		if (a->plan < 0 && !a->dry_run && a->rails)
			argp_error(state, "--rails goes with --plan or --dry-run: a run plans from each node's own rails");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp mesh_argp = {
	mesh_options, parse_mesh, "",
	"Every pair's bandwidth across a job's nodes, started once per node by the job's launcher. --plan N prints "
	"the plan (rounds of disjoint pairs, so no NIC is in two tests at once) and its estimated time: rounds x "
	"(bw's seconds + a 3 s setup measured on the Soft-RoCE VM pair). --dry-run reads rank, size and rank 0's "
	"host from srun (SLURM_PROCID, SLURM_NTASKS, SLURM_NODELIST), mpirun (OMPI_COMM_WORLD_*, PMI_*), torchrun "
	"(RANK, WORLD_SIZE, MASTER_ADDR) or --rank/--size/--rendezvous, and prints them with the plan. Without "
	"either, the run: each node starts its serve and registers with rank 0, rank 0 drives the rounds (a short "
	"bw per pair and rail, a failed one retried once) and prints the answer: the verdict, odd links, suspect "
	"nodes, nodes missing, the matrix per rail.\vExit status: 0 when the plan is printed, or (rank 0) every pair "
	"measured and none odd; 1 (rank 0) for odd links, failed pairs, nodes missing or pairs not measured; other "
	"ranks 0 when they did their part; 3 when this host cannot be read, rank 0 cannot listen, or a rank cannot "
	"reach rank 0, is refused, or does not get rank 0's proof of the job's token (ROCE_DOCTOR_MESH_TOKEN); 64 for "
	"usage errors, a launcher's environment that is half there and a token under 16 bytes. docs/mesh.md gives "
	"the times at 8 to 4096 nodes and the token's threat model.",
	NULL, NULL, NULL,
};

static json_t *schedule_json(const struct mesh_plan *p)
{
	struct mesh_test *t = malloc((p->round_tests_max + 1) * sizeof(*t));
	bool *in = malloc(p->nodes * sizeof(*in));
	json_t *list = json_array();

	for (size_t r = 0; t && in && r < p->rounds; r++) {
		long n = mesh_plan_round(p, r, t);
		json_t *round = json_object(), *tests = json_array(), *byes = json_array();

		memset(in, 0, p->nodes * sizeof(*in));
		for (long i = 0; i < n; i++) {
			json_array_append_new(tests, json_pack("{s:I, s:I, s:o}", "a", (json_int_t)t[i].a, "b",
							       (json_int_t)t[i].b, "rail", t[i].rail == MESH_RAIL_EVERY ?
							       json_null() : json_integer(t[i].rail)));
			in[t[i].a] = in[t[i].b] = true;
		}
		for (size_t k = 0; k < p->nodes; k++)
			if (!in[k])
				json_array_append_new(byes, json_integer((json_int_t)k));
		json_object_set_new(round, "round", json_integer((json_int_t)r + 1));
		json_object_set_new(round, "tests", tests);
		json_object_set_new(round, "byes", byes);
		json_array_append_new(list, round);
	}
	free(t);
	free(in);
	return list;
}

static json_t *plan_doc(const struct mesh_plan *p, double bw_seconds)
{
	json_t *doc = doc_new("mesh-plan");
	double round_s = mesh_plan_round_seconds(p, bw_seconds);

	json_object_set_new(doc, "kind", json_string(mesh_plan_kind_name(p->kind)));
	json_object_set_new(doc, "nodes", json_integer((json_int_t)p->nodes));
	json_object_set_new(doc, "rails", json_integer(p->rails_max));
	json_object_set_new(doc, "rounds", json_integer((json_int_t)p->rounds));
	json_object_set_new(doc, "tests", json_integer((json_int_t)p->tests));
	json_object_set_new(doc, "round_tests_max", json_integer((json_int_t)p->round_tests_max));
	json_object_set_new(doc, "bw_seconds", json_real(bw_seconds));
	json_object_set_new(doc, "setup_seconds", json_real(MESH_TEST_SETUP_S));
	json_object_set_new(doc, "round_seconds", json_real(round_s));
	json_object_set_new(doc, "estimated_seconds", json_real(round_s * (double)p->rounds));
	json_object_set_new(doc, "schedule", p->nodes <= MESH_JSON_SCHEDULE_NODES_MAX &&
			    p->tests <= MESH_JSON_SCHEDULE_TESTS_MAX ? schedule_json(p) : json_null());
	return doc;
}

static json_t *launch_json(const struct mesh_launch *l)
{
	return json_pack("{s:s, s:I, s:I, s:s, s:s, s:o}", "launcher", mesh_launcher_name(l->launcher), "rank",
			 (json_int_t)l->rank, "size", (json_int_t)l->size, "rendezvous", l->rendezvous,
			 "rendezvous_from", l->rendezvous_from, "host", json_str_or_null(l->host));
}

static json_t *rails_json(const struct mesh_rail *r, size_t n)
{
	json_t *list = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:I, s:s, s:I, s:o}", "rail", (json_int_t)i, "device",
						      r[i].device, "port", (json_int_t)r[i].port, "netdev",
						      json_str_or_null(r[i].netdev)));
	return list;
}

/* --dry-run: the launcher's view, this node's rails, and the plan over size nodes with as many rails each. */
static int dry_run(struct app *app, const struct mesh_args *a, json_t **doc, struct notes *warnings)
{
	struct mesh_rail rails[MESH_RAILS_MAX];
	struct mesh_launch l;
	struct mesh_plan p;
	struct host host = { 0 };
	unsigned *per_node;
	char why[600];
	size_t n;
	int code;

	if (mesh_launch_read(environ, &a->launch, &l, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: %s\n", why);
		notes_free(&l.warnings);
		return EXIT_USAGE;
	}
	code = app_probe_host(app, &host);
	if (code != EXIT_OK) {
		notes_free(&l.warnings);
		return code;
	}
	n = mesh_rails_of_host(&host, rails, MESH_RAILS_MAX);
	host_free(&host);
	if (n == 0 && !a->rails) {
		fprintf(stderr, "roce-doctor: mesh: this host has no RoCE port (no RDMA port with an Ethernet link "
			"layer): nothing for the mesh to test (roce-doctor devices lists what there is)\n");
		notes_free(&l.warnings);
		return EXIT_CANNOT_RUN;
	}
	per_node = malloc(l.size * sizeof(*per_node));
	for (size_t i = 0; per_node && i < l.size; i++)
		per_node[i] = a->rails ? a->rails : (unsigned)n;
	if (!per_node || mesh_plan_init(&p, a->kind, l.size, per_node, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: %s\n", per_node ? why : strerror(ENOMEM));
		free(per_node);
		notes_free(&l.warnings);
		return EXIT_CANNOT_RUN;
	}
	*doc = plan_doc(&p, a->seconds > 0 ? a->seconds : MESH_BW_SECONDS_DEFAULT);
	json_object_set_new(*doc, "launch", launch_json(&l));
	json_object_set_new(*doc, "local_rails", rails_json(rails, n));
	for (size_t i = 0; i < l.warnings.count; i++)
		notes_add(warnings, "%s", l.warnings.items[i]);
	notes_add(warnings, "the plan gives every node this node's %u rail%s: a run would plan from each node's own",
		  per_node[0], per_node[0] == 1 ? "" : "s");
	free(per_node);
	notes_free(&l.warnings);
	return EXIT_OK;
}

/* The job's token for the control connection: ROCE_DOCTOR_MESH_TOKEN (every launcher passes its environment on;
 * a command-line token would show in ps to every user), else --secret-file's secret, else none (*out NULL). */
static int read_token(struct app *app, struct mesh_run_args *run, struct secret **out)
{
	const char *text = getenv("ROCE_DOCTOR_MESH_TOKEN");
	char why[300];

	if (!text) {
		run->token_from = "--secret-file";
		return app_read_secret(app, out);
	}
	run->token_from = "ROCE_DOCTOR_MESH_TOKEN";
	*out = malloc(sizeof(**out));
	if (!*out) {
		fprintf(stderr, "roce-doctor: mesh: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	if (secret_from_text("ROCE_DOCTOR_MESH_TOKEN", text, *out, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: %s\n", why);
		app_free_secret(*out);
		*out = NULL;
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The run: the launcher's view, the token, then this rank's part. */
static int run(struct app *app, struct mesh_args *a)
{
	struct mesh_launch l;
	struct secret *token = NULL;
	char why[600];
	int code;

	if (mesh_launch_read(environ, &a->launch, &l, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: %s\n", why);
		notes_free(&l.warnings);
		return EXIT_USAGE;
	}
	code = read_token(app, &a->run, &token);
	if (code != EXIT_OK) {
		notes_free(&l.warnings);
		return code;
	}
	a->run.token = token;
	for (size_t i = 0; i < l.warnings.count; i++)
		fprintf(stderr, "roce-doctor: warning: %s\n", l.warnings.items[i]);
	a->run.kind = a->kind;
	a->run.seconds = a->seconds > 0 ? a->seconds : MESH_BW_SECONDS_DEFAULT;
	code = mesh_run(app, &a->run, &l);
	app_free_secret(token);
	notes_free(&l.warnings);
	return code;
}

int cmd_mesh(struct app *app, int argc, char **argv)
{
	struct mesh_args a = { .plan = -1, .kind = MESH_PLAN_ALL_PAIRS, .launch = { -1, -1, NULL },
			       .run = { .bytes = 65536, .register_timeout_s = MESH_REGISTER_TIMEOUT_S,
					.serve_port = PROTO_DEFAULT_PORT, .rendezvous_port = MESH_RENDEZVOUS_PORT } };
	struct notes warnings = { 0 };
	json_t *doc = NULL;
	int code;

	if (command_parse(&mesh_argp, COMMON_ROOT | COMMON_FROM | COMMON_TIMEOUT | COMMON_SECRET, argc, argv, &a, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "mesh", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	if (a.plan < 0 && !a.dry_run)
		return run(app, &a);
	if (a.dry_run) {
		code = dry_run(app, &a, &doc, &warnings);
		if (code != EXIT_OK) {
			notes_free(&warnings);
			return code;
		}
	} else {
		unsigned *per_node = malloc((size_t)(a.plan ? a.plan : 1) * sizeof(*per_node));
		struct mesh_plan p;
		char why[300];

		for (long i = 0; per_node && i < a.plan; i++)
			per_node[i] = a.rails ? a.rails : 1;
		if (!per_node || mesh_plan_init(&p, a.kind, (size_t)a.plan, per_node, why, sizeof(why)) < 0) {
			fprintf(stderr, "roce-doctor: mesh: bad --plan %ld: %s\n", a.plan, per_node ? why : strerror(ENOMEM));
			free(per_node);
			return per_node ? EXIT_USAGE : EXIT_CANNOT_RUN;
		}
		doc = plan_doc(&p, a.seconds > 0 ? a.seconds : MESH_BW_SECONDS_DEFAULT);
		free(per_node);
	}
	code = app_emit(app, doc, &warnings, mesh_print_text, EXIT_OK);
	json_decref(doc);
	notes_free(&warnings);
	return code;
}
