// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor nccl: the NCCL libraries and net plugins a job on this node could load, and for each NCCL
 * version the GID index it will use on each RoCE port, with the setting that makes it right. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/check_probe.h"
#include "cmd/commands.h"
#include "core/checks.h"
#include "core/nccl_advice.h"
#include "model/nccl_libs_json.h"
#include "output/render.h"
#include "probe/nccl_conf.h"

enum { OPT_NCCL_VERSION = 0x300 };

struct nccl_args {
	const char *version;   /* --nccl-version */
};

static const struct argp_option nccl_options[] = {
	{ "nccl-version", OPT_NCCL_VERSION, "X.Y[.Z]", 0, "Predict for this NCCL version instead of the ones found", 0 },
	{ 0 }
};

static error_t parse_nccl(int key, char *arg, struct argp_state *state)
{
	struct nccl_args *a = state->input;
	struct nccl_version v;

	switch (key) {
	case OPT_NCCL_VERSION:
		if (nccl_version_parse(arg, &v) < 0)
			argp_error(state, "bad --nccl-version '%s': expected X.Y or X.Y.Z (2.18, 2.21.5)", arg);
		a->version = arg;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp nccl_argp = {
	nccl_options, parse_nccl, NULL,
	"List the NCCL libraries and net plugins a job on this node could load (the linker's cache and ld.so's "
	"system directories, LD_LIBRARY_PATH, CUDA, conda and Python environments, on PATH or not), each with its "
	"version read from the file, where it was found and the package that installed it, and which one a torch "
	"job and a plain program load (as ld.so searches: LD_PRELOAD, DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, the "
	"cache, its system directories); then, for each NCCL version, the GID index it will use on each RoCE port "
	"(NCCL before 2.21: NCCL_IB_GID_INDEX, default 0; from 2.21: its own choice per HCA) and the setting that "
	"makes it right.\v"
	"Exit status: 0 when every NCCL found uses a routable RoCE v2 GID everywhere, 1 when one does not or two "
	"would differ, 2 when no NCCL library is found (and no --nccl-version given), 3 when it cannot run.",
	NULL, NULL, NULL,
};

static json_t *places_json(const struct nccl_lib *l)
{
	json_t *list = json_array();

	for (size_t i = 0; i < l->place_count; i++)
		json_array_append_new(list, json_pack("{s:s, s:s}", "path", l->places[i].path, "where",
						      l->places[i].where));
	return list;
}

static json_t *libraries_json(const struct nccl_libs *libs)
{
	json_t *list = json_array();

	for (size_t i = 0; i < libs->count; i++) {
		const struct nccl_lib *l = &libs->items[i];
		json_t *package = l->package_manager[0]
			? json_pack("{s:s, s:s, s:o}", "manager", l->package_manager, "name", l->package_name, "version",
				    json_str_or_null(l->package_version))
			: json_null();

		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			"kind", l->kind == NCCL_LIB_CORE ? "nccl" : "net_plugin", "real_path", l->real_path,
			"found", places_json(l), "version", json_str_or_null(l->version), "cuda", json_str_or_null(l->cuda),
			"elf_version", json_str_or_null(l->elf_version), "name_version", json_str_or_null(l->name_version),
			"package", package));
	}
	return list;
}

/* RoCE and InfiniBand ports in the host's order. */
static json_t *ports_json(const struct nccl_version_advice *va)
{
	const struct nccl_port_prediction *ib = va->ports + va->port_count;
	json_t *list = json_array();
	size_t r = 0, i = 0;

	while (r < va->port_count || i < va->ib_port_count) {
		const struct nccl_port_prediction *p = i == va->ib_port_count ||
			(r < va->port_count && va->ports[r].order < ib[i].order) ? &va->ports[r++] : &ib[i++];
		char name[96], gid[64] = "";

		snprintf(name, sizeof(name), "%s/%u", p->device->name, p->port->num);
		if (p->gid.entry)
			inet_ntop(AF_INET6, &p->gid.entry->gid, gid, sizeof(gid));
		json_array_append_new(list, json_pack("{s:s, s:s, s:I, s:o, s:s, s:o, s:o, s:i, s:o, s:o, s:s, s:b, s:b, "
						      "s:o, s:s}",
			"port", name, "device", p->device->name, "port_num", (json_int_t)p->port->num,
			"netdev", json_str_or_null(p->port->netdev), "link_layer", link_layer_name(p->port->link_layer),
			"state", json_str_or_null(p->port->state_name),
			"lid", p->port->lid_known ? json_integer(p->port->lid) : json_null(),
			"index", p->gid.index, "gid", json_str_or_null(gid),
			"type", p->gid.entry ? json_string(gid_type_name(p->gid.entry->type, p->port->link_layer)) : json_null(),
			"verdict", nccl_gid_verdict_name(p->gid.verdict), "pinned", p->gid.pinned, "chosen_by_nccl",
			p->gid.chose, "suggested", p->suggested >= 0 ? json_integer(p->suggested) : json_null(),
			"reason", p->gid.reason));
	}
	return list;
}

static json_t *predictions_json(const struct nccl_advice *a, const struct nccl_libs *libs)
{
	json_t *list = json_array();

	for (size_t k = 0; k < a->count; k++) {
		const struct nccl_version_advice *va = &a->versions[k];
		struct nccl_version v;
		json_t *paths = json_array();
		bool known = nccl_version_parse(va->version, &v) == 0;

		for (size_t i = 0; va->first && i < libs->count; i++)
			if (libs->items[i].kind == NCCL_LIB_CORE && strcmp(libs->items[i].version, va->version) == 0)
				json_array_append_new(paths, json_string(libs->items[i].real_path));
		json_array_append_new(list, json_pack("{s:o, s:o, s:b, s:o, s:b, s:s, s:o}",
			"version", json_str_or_null(va->version), "libraries", paths,
			"chooses_gid", !known || nccl_version_chooses_gid(&v),
			"ports", ports_json(va), "ok", va->ok, "advice", va->advice, "fix", json_str_or_null(va->fix)));
	}
	return list;
}

static json_t *setting_json(const struct nccl_conf *conf, const char *name)
{
	const struct nccl_setting *s = nccl_conf_get(conf, name);

	return s ? json_pack("{s:s, s:s}", "value", s->value, "source", s->source) : json_null();
}

static const char *const gid_settings[] = { "NCCL_IB_GID_INDEX", "NCCL_IB_ADDR_FAMILY", "NCCL_IB_ADDR_RANGE",
					    "NCCL_IB_ROCE_VERSION_NUM" };

/* check's nccl.net_plugin, when the plugin NCCL_NET_PLUGIN names is not on the node. */
static void net_plugin_finding(const struct system_state *s, json_t *findings)
{
	const struct check_input in = { .nccl = &s->nccl, .nccl_libs = &s->nccl_libs };
	const char *const only[] = { "nccl.net_plugin", NULL };
	struct findings f = { .only = only };

	check_nccl_net_plugin(&in, &f);
	for (size_t i = 0; i < f.count; i++)
		if (f.items[i].severity != SEVERITY_OK)
			json_array_append_new(findings, json_pack("{s:s, s:s, s:s, s:o}", "id", f.items[i].id, "severity",
				severity_name(f.items[i].severity), "message", f.items[i].message, "fix",
				json_str_or_null(f.items[i].fix)));
	findings_free(&f);
}

static json_t *build_doc(const struct nccl_args *args, const struct system_state *s, const struct nccl_advice *a)
{
	json_t *doc = doc_new("nccl"), *settings = json_object(), *findings = json_array();

	for (size_t i = 0; i < sizeof(gid_settings) / sizeof(gid_settings[0]); i++)
		json_object_set_new(settings, gid_settings[i], setting_json(&s->nccl, gid_settings[i]));
	if (a->differ)
		json_array_append_new(findings, json_pack("{s:s, s:s, s:s, s:o}", "id", "nccl.versions_differ",
			"severity", "warn", "message", a->differ_message, "fix", json_str_or_null(a->differ_fix)));
	net_plugin_finding(s, findings);
	json_object_set_new(doc, "libraries", libraries_json(&s->nccl_libs));
	json_object_set_new(doc, "libraries_truncated", json_boolean(s->nccl_libs.truncated));
	json_object_set_new(doc, "net_plugin", s->nccl_libs.net_plugin_set ? json_string(s->nccl_libs.net_plugin)
									    : json_null());
	json_object_set_new(doc, "loads", nccl_loads_to_json(&s->nccl_libs));
	json_object_set_new(doc, "nccl_version", json_str_or_null(args->version));
	json_object_set_new(doc, "settings", settings);
	json_object_set_new(doc, "predictions", predictions_json(a, &s->nccl_libs));
	json_object_set_new(doc, "findings", findings);
	return doc;
}

/* ---- text ---- */

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "-";
}

static void print_library(FILE *out, const json_t *l)
{
	const json_t *package = json_object_get(l, "package"), *place;
	bool plugin = strcmp(str(l, "kind"), "net_plugin") == 0;
	size_t i;

	if (plugin)
		fprintf(out, "  %-16s %s\n", "net plugin", str(l, "real_path"));
	else {
		char version[64];

		snprintf(version, sizeof(version), "%s%s%s", str(l, "version"),
			 json_is_string(json_object_get(l, "cuda")) ? "+cuda" : "",
			 json_is_string(json_object_get(l, "cuda")) ? str(l, "cuda") : "");
		fprintf(out, "  %-16s %s\n", version, str(l, "real_path"));
	}
	/* one line per name, with every search that found it under that name */
	json_array_foreach(json_object_get(l, "found"), i, place) {
		const json_t *other;
		size_t j;
		bool seen = false;

		for (j = 0; j < i && !seen; j++)
			seen = strcmp(str(json_array_get(json_object_get(l, "found"), j), "path"), str(place, "path")) == 0;
		if (seen)
			continue;
		fprintf(out, "      found as %s (%s", str(place, "path"), str(place, "where"));
		json_array_foreach(json_object_get(l, "found"), j, other)
			if (j > i && strcmp(str(other, "path"), str(place, "path")) == 0)
				fprintf(out, "; %s", str(other, "where"));
		fprintf(out, ")\n");
	}
	if (json_is_object(package))
		fprintf(out, "      package: %s %s %s\n", str(package, "manager"), str(package, "name"),
			str(package, "version"));
	if (!plugin && json_is_string(json_object_get(l, "elf_version")) && json_is_string(json_object_get(l, "name_version")) &&
	    strcmp(str(l, "elf_version"), str(l, "name_version")) != 0)
		fprintf(out, "      the file name says %s, the library itself %s\n", str(l, "name_version"),
			str(l, "elf_version"));
}

/* "a torch job here (venv X) loads NCCL 2.28.9 (PATH): how ld.so got there". */
static void print_load(FILE *out, const json_t *doc, const json_t *load)
{
	const char *by = str(load, "by"), *program = str(load, "program"), *version = "of unknown version";
	const json_t *l;
	size_t i;
	bool torch = json_is_string(json_object_get(load, "program"));

	if (torch)
		fprintf(out, "a torch job here (%s) ", str(load, "where"));
	else
		fprintf(out, "a plain program here (dlopen(\"%s\")) ", str(load, "needed"));
	if (!json_is_string(json_object_get(load, "by"))) {
		fprintf(out, "finds no %s: it fails with \"%s: cannot open shared object file\"\n", str(load, "needed"),
			str(load, "needed"));
		return;
	}
	json_array_foreach(json_object_get(doc, "libraries"), i, l)
		if (strcmp(str(l, "real_path"), str(load, "real_path")) == 0 && json_is_string(json_object_get(l, "version")))
			version = str(l, "version");
	fprintf(out, "loads NCCL %s (%s): ", version, str(load, "real_path"));
	if (strcmp(by, "LD_PRELOAD") == 0)
		fprintf(out, "LD_PRELOAD names it (%s), so it is loaded before anything else\n", str(load, "path"));
	else if (strcmp(by, "DT_RPATH") == 0)
		fprintf(out, "the DT_RPATH of %s finds it before LD_LIBRARY_PATH and the linker's cache; only LD_PRELOAD "
			"changes that\n", program);
	else if (strcmp(by, "DT_RUNPATH") == 0)
		fprintf(out, "the DT_RUNPATH of %s finds it (LD_LIBRARY_PATH comes first)\n", program);
	else if (strcmp(by, "LD_LIBRARY_PATH") == 0)
		fprintf(out, "LD_LIBRARY_PATH finds it first (%s)\n", str(load, "path"));
	else if (strcmp(by, "ld.so.cache") == 0)
		fprintf(out, "the linker's cache (/etc/ld.so.cache) names it (%s)\n", str(load, "path"));
	else
		fprintf(out, "ld.so's system directory holds it (%s), though /etc/ld.so.cache does not name it (ldconfig "
			"adds it)\n", str(load, "path"));
}

/* Each torch's choice; a plain program's where no torch was found or where it differs from one. */
static void print_loads(FILE *out, const json_t *doc)
{
	const json_t *loads = json_object_get(doc, "loads"), *load, *plain = NULL;
	size_t i;
	bool torch = false, differs = false;

	json_array_foreach(loads, i, load) {
		if (!json_is_string(json_object_get(load, "program"))) {
			plain = load;
			continue;
		}
		torch = true;
		print_load(out, doc, load);
	}
	json_array_foreach(loads, i, load)
		if (plain && load != plain && strcmp(str(load, "real_path"), str(plain, "real_path")) != 0)
			differs = true;
	if (plain && (!torch || differs))
		print_load(out, doc, plain);
}

/* "  fix: LINE" and each later line of the fix under the first. */
static void print_fix(FILE *out, const char *fix)
{
	const char *nl;

	fprintf(out, "  fix: ");
	for (; (nl = strchr(fix, '\n')); fix = nl + 1)
		fprintf(out, "%.*s\n       ", (int)(nl - fix), fix);
	fprintf(out, "%s\n", fix);
}

static void print_text(FILE *out, const json_t *doc)
{
	const json_t *libs = json_object_get(doc, "libraries"), *l, *p, *port, *f, *settings;
	size_t i, j, plugins = 0;
	const char *key;
	const json_t *value;

	json_array_foreach(libs, i, l)
		plugins += strcmp(str(l, "kind"), "net_plugin") == 0;
	fprintf(out, "NCCL libraries: %zu, net plugins: %zu\n", json_array_size(libs) - plugins, plugins);
	json_array_foreach(libs, i, l)
		print_library(out, l);
	if (plugins || json_is_string(json_object_get(doc, "net_plugin")))
		fprintf(out, "  a net plugin may replace NCCL's IB transport, and with it everything below "
			"(NCCL_NET_PLUGIN%s%s; NCCL_DEBUG=INFO logs \"NET/Plugin\" with the one it loaded)\n",
			json_is_string(json_object_get(doc, "net_plugin")) ? "=" : " unset: NCCL loads libnccl-net.so when "
			"the linker finds it", json_is_string(json_object_get(doc, "net_plugin")) ? str(doc, "net_plugin") : "");
	if (json_array_size(libs) - plugins)
		print_loads(out, doc);
	if (json_array_size(json_object_get(doc, "predictions")) == 0) {
		fprintf(out, "no NCCL library found (searched the linker's cache and ld.so's system directories, "
			"LD_LIBRARY_PATH, /usr/local/cuda*, conda and Python environments); --nccl-version X.Y predicts for "
			"a version\n");
		goto findings;
	}
	settings = json_object_get(doc, "settings");
	fprintf(out, "\nGID index each NCCL will use (");
	i = 0;
	json_object_foreach((json_t *)settings, key, value) {
		if (json_is_object(value))
			fprintf(out, "%s%s=%s from %s", i++ ? ", " : "", key, str(value, "value"), str(value, "source"));
	}
	fprintf(out, "%s):\n", i ? "" : "NCCL_IB_* unset");
	json_array_foreach(json_object_get(doc, "predictions"), i, p) {
		fprintf(out, "NCCL %s%s: %s\n", json_is_string(json_object_get(p, "version")) ? str(p, "version") :
			"of unknown version", json_array_size(json_object_get(p, "libraries")) ? "" : " (--nccl-version)",
			json_is_true(json_object_get(p, "ok")) ? "ok" : "FAIL");
		json_array_foreach(json_object_get(p, "ports"), j, port) {
			char index[24] = "LID";   /* an InfiniBand port has no index to pick: say what NCCL uses */

			if (strcmp(str(port, "link_layer"), "InfiniBand") != 0)
				snprintf(index, sizeof(index), "%lld",
					 (long long)json_integer_value(json_object_get(port, "index")));
			fprintf(out, "  %s (%s): %s - %s\n", str(port, "port"), str(port, "netdev"), index,
				str(port, "reason"));
		}
		fprintf(out, "  %s\n", str(p, "advice"));
		if (json_is_string(json_object_get(p, "fix")))
			print_fix(out, str(p, "fix"));
	}
findings:
	json_array_foreach(json_object_get(doc, "findings"), i, f) {
		fprintf(out, "\n%s  %s  %s\n", str(f, "severity"), str(f, "id"), str(f, "message"));
		if (json_is_string(json_object_get(f, "fix")))
			print_fix(out, str(f, "fix"));
	}
}

/* Live and --root: the host, NCCL's settings and the libraries as check reads them (check's gid.env only, so
 * no ibv_reg_mr and no firewall dump); --from: the snapshot's. */
static int get_model(const struct app *app, struct host *host, struct system_state *system)
{
	const char *const only[] = { "gid.env", NULL };
	const struct findings wanted = { .only = only };
	bool known = false;
	int code;

	if (!app->from_file)
		return check_probe_model(app, NULL, AF_INET, &wanted, host, system);
	code = app_read_snapshot(app, host, system, &known);
	if (code != EXIT_OK)
		return code;
	if (known)
		check_probe_keep_warnings(&system->warnings, &wanted);
	if (known && system->nccl_libs_read)
		return EXIT_OK;
	fprintf(stderr, "roce-doctor: snapshot %s was taken without the NCCL libraries (an older roce-doctor): take "
		"it again with `roce-doctor snapshot > FILE`\n", app_from_name(app));
	if (known)
		system_free(system);
	host_free(host);
	return EXIT_CANNOT_RUN;
}

int cmd_nccl(struct app *app, int argc, char **argv)
{
	struct nccl_args args = { 0 };
	struct system_state system;
	struct nccl_advice advice;
	struct nccl_gid_env env;
	struct notes warnings = { 0 };
	struct host host;
	json_t *doc;
	int code;
	const struct nccl_setting *s;

	if (command_parse(&nccl_argp, COMMON_ROOT | COMMON_FROM, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "nccl", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	code = get_model(app, &host, &system);
	if (code != EXIT_OK)
		return code;
	s = nccl_conf_get(&system.nccl, "NCCL_IB_GID_INDEX");
	env.gid_index = s ? s->value : NULL;
	s = nccl_conf_get(&system.nccl, "NCCL_IB_ADDR_FAMILY");
	env.addr_family = s ? s->value : NULL;
	s = nccl_conf_get(&system.nccl, "NCCL_IB_ADDR_RANGE");
	env.addr_range = s ? s->value : NULL;
	s = nccl_conf_get(&system.nccl, "NCCL_IB_ROCE_VERSION_NUM");
	env.roce_version = s ? s->value : NULL;
	if (nccl_advice_build(&host, &system.nccl_libs, &env, args.version, &advice) < 0) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		code = EXIT_CANNOT_RUN;
		goto out;
	}
	doc = build_doc(&args, &system, &advice);
	for (size_t i = 0; i < host.warnings.count; i++)
		notes_add(&warnings, "%s", host.warnings.items[i]);
	for (size_t i = 0; i < system.warnings.count; i++)
		notes_add(&warnings, "%s", system.warnings.items[i]);
	if (advice.count == 0)
		code = EXIT_NOT_FOUND;
	else
		code = advice.differ ? 1 : EXIT_OK;
	for (size_t k = 0; k < advice.count; k++)
		if (!advice.versions[k].ok)
			code = 1;
	code = app_emit(app, doc, &warnings, print_text, code);
	json_decref(doc);
	nccl_advice_free(&advice);
	notes_free(&warnings);
out:
	system_free(&system);
	host_free(&host);
	return code;
}
