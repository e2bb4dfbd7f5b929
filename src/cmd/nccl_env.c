// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
/* roce-doctor nccl-env: the NCCL environment for this host, as sh, env-file, docker flags, k8s YAML or JSON. */
#include <string.h>

#include "cmd/commands.h"
#include "cmd/peer_source.h"
#include "cmd/nccl_env_peer.h"
#include "cmd/nccl_versions.h"
#include "core/nccl_env.h"
#include "core/nccl_env_versions.h"
#include "core/pair.h"
#include "core/nccl_rails.h"
#include "output/render.h"
#include "probe/pci_topology.h"
#include "probe/qos.h"

enum { OPT_FORMAT = 0x100, OPT_SOCKET_IF, OPT_PEER, OPT_PEER_FIXTURE, OPT_MASTER_PORT };
enum env_format { FORMAT_SH, FORMAT_ENV, FORMAT_JSON, FORMAT_DOCKER, FORMAT_K8S };

struct nccl_env_args {
	enum env_format format;
	const char *socket_if;
	bool format_given;
	const char *peer, *peer_fixture;  /* --peer: one environment for this node and the peer (nccl_env_peer.c) */
	unsigned master_port;
	const char *nccl_version;         /* --nccl-version */
};

static const struct argp_option nccl_env_options[] = {
	{ "format", OPT_FORMAT, "FORMAT", 0, "sh (default, safe to eval), env (KEY=VALUE), json, docker (-e flags), k8s "
	  "(a YAML env list)", 0 },
	{ "socket-if", OPT_SOCKET_IF, "IFACE", 0, "Interface for NCCL's bootstrap socket (default: the netdev of the "
	  "first usable port with an address of --family)", 0 },
	{ "peer", OPT_PEER, "ADDR", 0, "One environment right on this node and the peer at ADDR (running roce-doctor "
	  "serve), with the torchrun and mpirun lines; --format sh or json", 1 },
	{ "master-port", OPT_MASTER_PORT, "N", 0, "With --peer: torchrun's --master-port in the launch lines (default "
	  "29500)", 1 },
	{ "peer-fixture", OPT_PEER_FIXTURE, "DIR", 0, "With --peer, for tests: the peer's snapshot from "
	  "DIR/snapshot.json instead of a serve", 1 },
	NCCL_VERSION_OPTION,
	{ 0 }
};

static error_t parse_nccl_env(int key, char *arg, struct argp_state *state)
{
	static const char *const formats[] = { "sh", "env", "json", "docker", "k8s" };
	struct nccl_env_args *a = state->input;

	switch (key) {
	case OPT_FORMAT:
		for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			if (strcmp(arg, formats[i]) == 0) {
				a->format = (enum env_format)i;
				a->format_given = true;
				return 0;
			}
		argp_error(state, "bad --format '%s': expected sh, env, json, docker or k8s", arg);
		return 0;
	case OPT_NCCL_VERSION_KEY:
		a->nccl_version = arg;
		return nccl_version_option(state, arg);
	case OPT_SOCKET_IF:
		a->socket_if = arg;
		return 0;
	case OPT_PEER: {
		char host[256], why[256];
		unsigned port;

		if (peer_split(arg, host, sizeof(host), &port, why, sizeof(why)) < 0)
			argp_error(state, "%s", why);
		a->peer = arg;
		return 0;
	}
	case OPT_PEER_FIXTURE:
		a->peer_fixture = arg;
		return 0;
	case OPT_MASTER_PORT:
		a->master_port = (unsigned)parse_count(state, "--master-port", arg, 1, 65535);
		return 0;
	case ARGP_KEY_END:
		if ((a->peer_fixture || a->master_port) && !a->peer)
			argp_error(state, "--master-port and --peer-fixture need --peer ADDR");
		if (a->peer && a->socket_if)
			argp_error(state, "--socket-if cannot be used with --peer: each node's bootstrap netdev is its own");
		if (a->peer && a->format != FORMAT_SH && a->format != FORMAT_JSON)
			argp_error(state, "--peer prints sh or json: --format docker, env and k8s describe one node");
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp nccl_env_argp = {
	nccl_env_options, parse_nccl_env, NULL,
	"Print the NCCL environment that matches this host: NCCL_IB_HCA (usable RoCE ports as dev:port), "
	"NCCL_SOCKET_IFNAME, NCCL_IB_GID_INDEX (when every chosen port agrees), NCCL_IB_DISABLE=0.\v"
	"eval \"$(roce-doctor nccl-env)\" sets them in a shell. Exit status 2 when no usable RoCE port exists.",
	NULL, NULL, NULL,
};

/* Single quotes for sh: everything literal, a quote itself as '\'' */
static void put_sh_quoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/* "# NCCL 2.28.9 (venv ...): leave it unset; it will pick 5 on every HCA", one line per NCCL found. */
static void print_versions(FILE *out, const json_t *doc, const char *indent)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(doc, "nccl_versions"), i, v)
		fprintf(out, "%s# %s: %s\n", indent, json_string_value(json_object_get(v, "name")),
			json_string_value(json_object_get(v, "advice")));
}

/* "# NCCL_IB_TC left unset: ...": what nccl-env chose not to set, and why. */
static void print_notes(FILE *out, const json_t *doc, const char *indent)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(doc, "notes"), i, v)
		fprintf(out, "%s# %s\n", indent, json_string_value(v));
}

static void print_sh(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *v;

	fprintf(out, "# roce-doctor nccl-env: %s\n", json_string_value(json_object_get(doc, "summary")));
	print_versions(out, doc, "");
	json_array_foreach(json_object_get(doc, "variables"), i, v) {
		fprintf(out, "export %s=", json_string_value(json_object_get(v, "name")));
		put_sh_quoted(out, json_string_value(json_object_get(v, "value")));
		fprintf(out, "   # %s\n", json_string_value(json_object_get(v, "comment")));
	}
	print_notes(out, doc, "");
}

static void print_env(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *v;

	fprintf(out, "# roce-doctor nccl-env: %s\n", json_string_value(json_object_get(doc, "summary")));
	print_versions(out, doc, "");
	json_array_foreach(json_object_get(doc, "variables"), i, v) {
		fprintf(out, "# %s\n%s=%s\n", json_string_value(json_object_get(v, "comment")),
			json_string_value(json_object_get(v, "name")), json_string_value(json_object_get(v, "value")));
	}
	print_notes(out, doc, "");
}

static void print_docker(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(doc, "variables"), i, v) {
		char kv[600];

		snprintf(kv, sizeof(kv), "%s=%s", json_string_value(json_object_get(v, "name")),
			 json_string_value(json_object_get(v, "value")));
		fprintf(out, "%s-e ", i ? " " : "");
		put_sh_quoted(out, kv);
	}
	fputc('\n', out);
}

/* YAML double-quoted scalars: backslash and quote escaped, the values hold nothing else special. */
static void print_k8s(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *v;

	fprintf(out, "# roce-doctor nccl-env: %s\n", json_string_value(json_object_get(doc, "summary")));
	print_versions(out, doc, "");
	print_notes(out, doc, "");
	fprintf(out, "env:\n");
	json_array_foreach(json_object_get(doc, "variables"), i, v) {
		fprintf(out, "  # %s\n  - name: %s\n    value: \"", json_string_value(json_object_get(v, "comment")),
			json_string_value(json_object_get(v, "name")));
		for (const char *s = json_string_value(json_object_get(v, "value")); *s; s++)
			fprintf(out, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
		fprintf(out, "\"\n");
	}
}

/* Ports NCCL_IB_HCA leaves out, one line each on stderr: a silent omission reads as "all ports used". */
static void print_left_out(const struct nccl_env *env)
{
	for (size_t i = 0; i < env->left_out_count; i++) {
		const struct nccl_left_out *lo = &env->left_out[i];

		fprintf(stderr, "roce-doctor: nccl-env: left out %s/%u%s%s%s: %s\n", lo->device, lo->port,
			lo->netdev[0] ? " (" : "", lo->netdev, lo->netdev[0] ? ")" : "", lo->reason);
	}
	if (env->left_out_dropped)
		fprintf(stderr, "roce-doctor: nccl-env: and %zu more ports left out\n", env->left_out_dropped);
}

static json_t *left_out_json(const struct nccl_env *env)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < env->left_out_count; i++) {
		const struct nccl_left_out *lo = &env->left_out[i];

		json_array_append_new(rows, json_pack("{s:s, s:I, s:o, s:s}", "device", lo->device, "port",
						      (json_int_t)lo->port, "netdev", json_str_or_null(lo->netdev),
						      "reason", lo->reason));
	}
	return rows;
}

/* The host, and its PCIe placement: read under the root, or both as the snapshot recorded them (in one read:
 * stdin cannot be read twice; a snapshot without the placement gives no rails, as before). With --from, *known
 * says whether *s holds the snapshot's system sources (then the caller frees it). */
static int host_and_pci(const struct app *app, struct host *host, struct pci_topology *t, struct system_state *s,
			bool *known)
{
	struct notes ignored = { 0 };   /* topo and check report what reading the tree warns about */
	struct rootfs root;
	int code;

	*known = false;
	if (app->from_file) {
		code = app_read_snapshot(app, host, s, known);
		if (code == EXIT_OK && *known && s->pci_read) {
			*t = s->pci;
			memset(&s->pci, 0, sizeof(s->pci));
		}
		return code;
	}
	code = app_probe_host(app, host);
	if (code == EXIT_OK && rootfs_open(&root, app->root_dir) == 0) {
		if (pci_topology_read(&root, t, &ignored) < 0)
			memset(t, 0, sizeof(*t));
		rootfs_close(&root);
	}
	notes_free(&ignored);
	return code;
}

/* The lossless chain of the host's RoCE ports: as the snapshot recorded it (moved out of *recorded), else read
 * (dcbnl live, the captured mlnx_qos text under --root); empty when neither has it. 0 or -ENOMEM. */
static int read_qos(const struct app *app, const struct host *host, struct system_state *recorded,
		    bool recorded_known, struct qos_host *q)
{
	struct rootfs root;
	int ret = 0;

	memset(q, 0, sizeof(*q));
	if (app->from_file) {
		if (recorded_known && recorded->qos_read) {
			*q = recorded->qos;
			memset(&recorded->qos, 0, sizeof(recorded->qos));
		}
		return 0;
	}
	if (rootfs_open(&root, app->root_dir) < 0)
		return 0;
	ret = qos_probe(&root, host, q);
	rootfs_close(&root);
	return ret;
}

int cmd_nccl_env(struct app *app, int argc, char **argv)
{
	static void (*const printers[])(FILE *, const json_t *) = { print_sh, print_env, NULL, print_docker, print_k8s };
	struct nccl_env_args args = { 0 };
	struct nccl_left_out rails_lo[NCCL_LEFT_OUT_MAX];
	struct pci_topology pci = { 0 };
	struct nccl_env env;
	struct nccl_advice advice = { 0 };
	json_t *versions = NULL;
	struct system_state recorded = { 0 };
	struct qos_host qos = { 0 };
	bool recorded_known;
	struct host host, view;
	size_t rails_n = 0;
	int built;
	char why[512];
	json_t *doc, *vars, *notes;
	int code;

	if (command_parse(&nccl_env_argp, COMMON_ROOT | COMMON_FROM | COMMON_FAMILY | COMMON_SECRET | COMMON_PEER_TIMEOUT,
			  argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "nccl-env", app->json || args.format == FORMAT_JSON, true) != EXIT_OK)
		return EXIT_USAGE;
	if (app->secret_file && !args.peer) {
		fprintf(stderr, "roce-doctor: nccl-env: --secret-file needs --peer ADDR (it is the secret shared with the "
			"peer's serve)\n");
		return EXIT_USAGE;
	}
	if (app->timeout_s && !args.peer) {
		fprintf(stderr, "roce-doctor: nccl-env: --timeout needs --peer ADDR (nccl-env alone sends nothing)\n");
		return EXIT_USAGE;
	}
	if (args.peer) {
		if (args.format == FORMAT_JSON)
			app->json = true;
		return nccl_env_peer_run(app, args.peer, args.peer_fixture,
					 args.master_port ? args.master_port : PAIR_MASTER_PORT_DEFAULT);
	}
	code = host_and_pci(app, &host, &pci, &recorded, &recorded_known);
	if (code != EXIT_OK)
		return code;
	app_say_sources(app, &host, NULL);
	/* On a GPU node only the rails and the front-end NICs as good as them (core/nccl_rails.h). */
	if (nccl_rails_view(&host, &pci, &view, rails_lo, NCCL_LEFT_OUT_MAX, &rails_n) < 0)
		rails_n = 0, view = host;
	built = nccl_env_build(&view, app->family ? app->family : AF_INET, args.socket_if, &env, why, sizeof(why));
	if (built == 0)
		nccl_rails_finish(&host, rails_lo, rails_n, &env);
	/* The GID index by the NCCLs that will read it, over the ports chosen. */
	if (built == 0 && nccl_versions_advise(app, &view, recorded_known ? &recorded : NULL, args.nccl_version,
						 &advice) < 0) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		built = -ENOMEM;
	}
	if (built == 0) {
		nccl_env_follow_versions(&env, &advice);
		versions = nccl_versions_json(&advice);   /* now: the advice points into view and recorded */
		nccl_advice_free(&advice);
	}
	/* NCCL_IB_TC: the class that lands on the ports' lossless priority, or why none */
	if (built == 0 && read_qos(app, &host, &recorded, recorded_known, &qos) < 0) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		built = -ENOMEM;
	}
	if (built == 0)
		nccl_env_follow_qos(&env, &qos);
	qos_host_free(&qos);
	if (recorded_known)
		system_free(&recorded);
	if (view.devices != host.devices)
		free(view.devices);
	pci_topology_free(&pci);
	if (built == -ENOMEM) {
		host_free(&host);
		return EXIT_CANNOT_RUN;
	}
	if (built < 0) {
		for (size_t i = 0; i < host.warnings.count; i++)
			fprintf(stderr, "roce-doctor: warning: %s\n", host.warnings.items[i]);
		print_left_out(&env);
		fprintf(stderr, "roce-doctor: nccl-env: %s\n", why);
		host_free(&host);
		return EXIT_NOT_FOUND;
	}
	doc = doc_new("nccl-env");
	json_object_set_new(doc, "summary", json_string(env.summary));
	vars = json_array();
	for (size_t i = 0; i < env.count; i++)
		json_array_append_new(vars, json_pack("{s:s, s:s, s:s}", "name", env.vars[i].name, "value",
						      env.vars[i].value, "comment", env.vars[i].comment));
	json_object_set_new(doc, "variables", vars);
	json_object_set_new(doc, "left_out", left_out_json(&env));
	notes = json_array();
	for (size_t i = 0; i < env.note_count; i++)
		json_array_append_new(notes, json_string(env.notes[i]));
	json_object_set_new(doc, "notes", notes);
	json_object_set_new(doc, "nccl_versions", versions);
	if (env.speed_warning[0])
		notes_add(&host.warnings, "%s", env.speed_warning);
	print_left_out(&env);
	if (args.format == FORMAT_JSON)
		app->json = true;
	code = app_emit(app, doc, &host.warnings, printers[args.format], EXIT_OK);
	json_decref(doc);
	host_free(&host);
	return code;
}
