// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor gid: every non-empty GID (show_gids), or with --suggest the NCCL_IB_GID_INDEX to use. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/nccl_versions.h"
#include "core/gid_suggest.h"
#include "core/nccl_env.h"
#include "netcfg/route_lookup.h"
#include "output/render.h"
#include "util/gidaddr.h"

enum { OPT_PEER = 0x100, OPT_NETDEV };

struct gid_args {
	const struct app *app;   /* --family is a common option */
	bool suggest;
	int family;          /* 0 until chosen */
	const char *peer_text;
	struct in6_addr peer;
	const char *netdev;  /* --netdev */
	const char *nccl_version;   /* --nccl-version */
	struct port_selection sel;
};

static const struct argp_option gid_options[] = {
	{ "suggest", 's', NULL, 0, "Print the NCCL_IB_GID_INDEX to use, and why", 0 },
	{ "peer", OPT_PEER, "ADDR", 0, "Prefer the GID whose subnet reaches ADDR", 0 },
	{ "netdev", OPT_NETDEV, "IF", 0, "Where GIDs of one address sit on several netdevs (a bond and a VLAN on it), "
	  "take the one on IF (default: the port's own netdev)", 0 },
	NCCL_VERSION_OPTION,
	{ 0 }
};

static error_t parse_gid(int key, char *arg, struct argp_state *state)
{
	struct gid_args *a = state->input;

	switch (key) {
	case 's':
		a->suggest = true;
		return 0;
	case OPT_PEER:
		if (ip_parse_as_gid(arg, &a->peer) < 0)
			argp_error(state, "bad --peer '%s': expected an IPv4 or IPv6 address", arg);
		a->peer_text = arg;
		return 0;
	case OPT_NCCL_VERSION_KEY:
		a->nccl_version = arg;
		return nccl_version_option(state, arg);
	case OPT_NETDEV:
		if (!arg[0] || strlen(arg) >= IF_NAMESIZE)
			argp_error(state, "bad --netdev '%s': expected an interface name", arg);
		a->netdev = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "unexpected argument '%s'", arg);
		parse_selection_arg(state, arg, &a->sel);
		return 0;
	case ARGP_KEY_END:
		a->family = a->app->family;
		if (!a->suggest && (a->family || a->peer_text || a->netdev || a->nccl_version))
			argp_error(state, "--family, --peer, --netdev and --nccl-version apply only with --suggest");
		if (a->peer_text && a->family &&
		    (a->family == AF_INET) != gid_is_ipv4_mapped(&a->peer))
			argp_error(state, "--peer %s is not an address of the --family asked for", a->peer_text);
		if (!a->family)
			a->family = a->peer_text && !gid_is_ipv4_mapped(&a->peer) ? AF_INET6 : AF_INET;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp gid_argp = {
	gid_options, parse_gid, "[DEV[/PORT]|NETDEV]",
	"List the GID table of every RDMA port (index, GID, IPv4, RoCE version, netdev), or with --suggest the "
	"RoCE v2 GID index NCCL should use.\v"
	"--suggest leaves out the ports NCCL would not use or that have no address (down, no carrier, only fe80:: "
	"GIDs) and says why. It exits 0 when every other port agrees on one index, 1 when they disagree (no single "
	"NCCL_IB_GID_INDEX fits them all), 2 when such a port has no usable GID, when no port is left to answer, "
	"or when the DEV:PORT named is left out.",
	NULL, NULL, NULL,
};

static bool selected(const struct gid_args *a, const struct rdma_device *d, const struct rdma_port *p)
{
	return port_selection_matches(&a->sel, d, p);
}

/* ---- the table ---- */

static const struct column gid_columns[] = {
	{ "device", "DEVICE" }, { "port", "PORT" }, { "index", "INDEX" }, { "gid", "GID" },
	{ "ipv4", "IPv4" },  { "type", "VER" },  { "netdev", "NETDEV" },
};

static void print_gid_table(FILE *out, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "gids");

	render_table(out, rows, gid_columns, sizeof(gid_columns) / sizeof(gid_columns[0]));
	fprintf(out, "n_gids_found=%zu\n", json_array_size(rows));
}

static json_t *gid_rows(const struct host *host, const struct gid_args *a)
{
	json_t *rows = json_array();

	for (size_t d = 0; d < host->device_count; d++) {
		const struct rdma_device *dev = &host->devices[d];

		for (size_t p = 0; p < dev->port_count; p++) {
			const struct rdma_port *port = &dev->ports[p];

			if (!selected(a, dev, port))
				continue;
			for (size_t g = 0; g < port->gid_count; g++) {
				const struct gid_entry *e = &port->gids[g];
				char text[64];

				gid_format_sysfs(&e->gid, text);
				json_t *row = json_pack("{s:s, s:I, s:I, s:s}", "device", dev->name, "port",
							(json_int_t)port->num, "index", (json_int_t)e->index, "gid", text);
				gid_format_ip(&e->gid, text);
				json_object_set_new(row, "ipv4", gid_is_ipv4_mapped(&e->gid) ? json_string(text) : json_null());
				json_object_set_new(row, "type", json_string(gid_type_name(e->type, port->link_layer)));
				json_object_set_new(row, "netdev", json_str_or_null(e->netdev));
				json_array_append_new(rows, row);
			}
		}
	}
	return rows;
}

/* ---- the suggestion ---- */

#define PORTS_MAX 256   /* ports listed as left out or answered; a host has a few dozen at most */

struct left_out {
	struct nccl_port_ref ref;
	enum port_use use;
	char why[256];
};

static const struct netdev *port_netdev(const struct host *host, const struct rdma_port *p)
{
	return p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
}

static json_t *port_row(const struct rdma_device *d, const struct rdma_port *p)
{
	return json_pack("{s:s, s:I, s:o}", "device", d->name, "port", (json_int_t)p->num, "netdev",
			 json_str_or_null(p->netdev));
}

/* Live, the netdev the kernel routes the peer through (`ip route get PEER`); NULL under --root or without one. */
static const char *route_netdev(const struct host *host, const struct gid_args *a)
{
	int ifindex;

	if (!host->live || !a->peer_text || route_lookup_oif(&a->peer, &ifindex) < 0)
		return NULL;
	for (size_t i = 0; i < host->netdev_count; i++)
		if (host->netdevs[i].ifindex == ifindex)
			return host->netdevs[i].name;
	return NULL;
}

static json_t *choice_row(const struct host *host, const struct rdma_device *d, const struct rdma_port *p,
			  const struct gid_args *a, const char *route, bool *found)
{
	struct gid_prefs prefs = { .family = a->family, .peer = a->peer_text ? &a->peer : NULL,
				   .route_netdev = route, .routes_unknown = !host->live };
	struct gid_choice c;
	json_t *row = port_row(d, p), *others = json_array();
	char text[64];

	if (a->netdev && gid_port_has_candidate_on(p, a->family, a->netdev))
		prefs.netdev = a->netdev;
	gid_suggest_port_prefs(p, port_netdev(host, p), &prefs, &c);
	*found = c.found;
	json_object_set_new(row, "link_layer", json_string(link_layer_name(p->link_layer)));
	if (!c.found) {
		json_object_set_new(row, "gid_index", json_null());
		json_object_set_new(row, "gid", json_null());
		json_object_set_new(row, "address", json_null());
	} else {
		json_object_set_new(row, "gid_index", json_integer(c.entry->index));
		gid_format_sysfs(&c.entry->gid, text);
		json_object_set_new(row, "gid", json_string(text));
		gid_format_ip(&c.entry->gid, text);
		json_object_set_new(row, "address", json_string(text));
	}
	for (size_t i = 0; i < c.other_count; i++) {
		gid_format_ip(&c.others[i]->gid, text);
		json_array_append_new(others, json_pack("{s:I, s:s, s:o}", "index", (json_int_t)c.others[i]->index,
							"address", text, "netdev", json_str_or_null(c.others[i]->netdev)));
	}
	json_object_set_new(row, "other_candidates", others);
	json_object_set_new(row, "reason", json_string(c.reason));
	return row;
}

/* "mlx5_0/1 (ens19f0np0): " - the port as iproute2's rdma spells it, then its netdev. */
static void print_port(FILE *out, const json_t *row)
{
	const char *nd = json_string_value(json_object_get(row, "netdev"));

	fprintf(out, "%s/%lld", json_string_value(json_object_get(row, "device")),
		(long long)json_integer_value(json_object_get(row, "port")));
	if (nd)
		fprintf(out, " (%s)", nd);
	fputs(": ", out);
}

static void print_suggestion(FILE *out, const json_t *doc)
{
	const json_t *index = json_object_get(doc, "gid_index");
	size_t i;
	json_t *row;

	if (json_is_integer(index))
		fprintf(out, "NCCL_IB_GID_INDEX=%lld\n", (long long)json_integer_value(index));
	else if (json_is_false(json_object_get(doc, "consistent")))
		fprintf(out, "# no single NCCL_IB_GID_INDEX fits: the ports disagree and the variable is global to the "
			"process.\n# With NCCL >= 2.21 leave it unset and let NCCL pick per HCA: "
			"NCCL_IB_ADDR_FAMILY=%s NCCL_IB_ROCE_VERSION_NUM=2\n",
			strcmp(json_string_value(json_object_get(doc, "family")), "ipv4") == 0 ? "AF_INET" : "AF_INET6");
	json_array_foreach(json_object_get(doc, "ports"), i, row) {
		const json_t *gi = json_object_get(row, "gid_index");
		char idx[32];

		render_cell(gi, idx, sizeof(idx));
		print_port(out, row);
		fprintf(out, "%s - %s\n", json_is_integer(gi) ? idx : "none",
			json_string_value(json_object_get(row, "reason")));
	}
	json_array_foreach(json_object_get(doc, "left_out"), i, row) {
		print_port(out, row);
		fprintf(out, "left out - %s\n", json_string_value(json_object_get(row, "reason")));
	}
	/* What each NCCL on the node does with the index unset: whether the line above is needed at all. */
	json_array_foreach(json_object_get(doc, "nccl_versions"), i, row)
		fprintf(out, "%s: %s\n", json_string_value(json_object_get(row, "name")),
			json_string_value(json_object_get(row, "advice")));
}

/* The ports left out, each with its reason; an ACTIVE one without an address is still opened by NCCL, so its
 * reason carries the NCCL_IB_HCA that excludes it, and the one that keeps only the ports with an answer. */
static json_t *left_out_rows(const struct host *host, const struct left_out *out, size_t n_out,
			     const struct nccl_port_ref *answered, size_t n_answered)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < n_out; i++) {
		const struct rdma_device *d = host_find_device(host, out[i].ref.device);
		const struct rdma_port *p = NULL;
		char reason[1024 + 256], exclude[64], keep[1024];
		json_t *row;

		for (size_t j = 0; d && j < d->port_count; j++)
			if (d->ports[j].num == out[i].ref.port)
				p = &d->ports[j];
		if (!p)
			continue;
		snprintf(reason, sizeof(reason), "%s", out[i].why);
		if (out[i].use == PORT_NO_ADDRESS) {
			nccl_hca_value(host, &out[i].ref, 1, true, exclude, sizeof(exclude));
			snprintf(reason + strlen(reason), sizeof(reason) - strlen(reason),
				 "; the port is ACTIVE, so NCCL would still open it: exclude it with NCCL_IB_HCA=%s",
				 exclude);
			if (n_answered) {
				nccl_hca_value(host, answered, n_answered, false, keep, sizeof(keep));
				snprintf(reason + strlen(reason), sizeof(reason) - strlen(reason),
					 ", or name the ports with an answer: NCCL_IB_HCA=%s", keep);
			}
		}
		row = port_row(d, p);
		json_object_set_new(row, "reason", json_string(reason));
		json_array_append_new(rows, row);
	}
	return rows;
}

static json_t *suggestion_doc(const struct host *host, const struct gid_args *a, int *code)
{
	json_t *doc = doc_new("gid-suggest"), *rows = json_array();
	static struct left_out out[PORTS_MAX];
	struct nccl_port_ref answered[PORTS_MAX];
	size_t n_out = 0, n_answered = 0, in_scope = 0;
	json_int_t common = -1;
	bool consistent = true, unanswered = false, named_left_out = false;
	const char *route = route_netdev(host, a);

	json_object_set_new(doc, "family", json_string(a->family == AF_INET ? "ipv4" : "ipv6"));
	json_object_set_new(doc, "peer", json_str_or_null(a->peer_text));
	for (size_t d = 0; d < host->device_count; d++) {
		const struct rdma_device *dev = &host->devices[d];

		for (size_t p = 0; p < dev->port_count; p++) {
			const struct rdma_port *port = &dev->ports[p];
			struct left_out *lo = &out[n_out < PORTS_MAX ? n_out : PORTS_MAX - 1];
			enum port_use u;
			json_t *gi;
			bool found;

			if (!selected(a, dev, port))   /* InfiniBand too: listed with why it needs no index */
				continue;
			in_scope++;
			u = gid_port_use(port, port_netdev(host, port), lo->why, sizeof(lo->why));
			if (u != PORT_IN_USE) {
				named_left_out |= a->sel.port != 0;
				lo->ref = (struct nccl_port_ref){ dev->name, port->num };
				lo->use = u;
				if (n_out < PORTS_MAX)
					n_out++;
				continue;
			}
			json_array_append_new(rows, choice_row(host, dev, port, a, route, &found));
			gi = json_object_get(json_array_get(rows, json_array_size(rows) - 1), "gid_index");
			if (!found) {
				/* InfiniBand has no index to answer; alone, the host still has no answer at all */
				unanswered |= port->link_layer != LINK_LAYER_INFINIBAND;
				continue;
			}
			if (n_answered < PORTS_MAX)
				answered[n_answered++] = (struct nccl_port_ref){ dev->name, port->num };
			if (common >= 0 && common != json_integer_value(gi))
				consistent = false;
			common = json_integer_value(gi);
		}
	}
	if (in_scope == 0)
		fprintf(stderr, "roce-doctor: no RDMA ports to choose a GID on\n");
	json_object_set_new(doc, "gid_index", consistent && common >= 0 ? json_integer(common) : json_null());
	json_object_set_new(doc, "consistent", json_boolean(consistent));
	json_object_set_new(doc, "ports", rows);
	json_object_set_new(doc, "left_out", left_out_rows(host, out, n_out, answered, n_answered));
	*code = unanswered || n_answered == 0 || named_left_out ? EXIT_NOT_FOUND : consistent ? EXIT_OK : 1;
	return doc;
}

/* --netdev must name a netdev that holds a candidate GID on a selected port: anything else is a typo. */
static int check_netdev_option(const struct host *host, const struct gid_args *a)
{
	char seen[512] = "";
	size_t len = 0;

	for (size_t d = 0; d < host->device_count; d++)
		for (size_t p = 0; p < host->devices[d].port_count; p++) {
			const struct rdma_port *port = &host->devices[d].ports[p];

			if (!selected(a, &host->devices[d], port))
				continue;
			if (gid_port_has_candidate_on(port, a->family, a->netdev))
				return EXIT_OK;
			for (size_t g = 0; g < port->gid_count && len < sizeof(seen); g++) {
				const char *nd = port->gids[g].netdev;
				char quoted[IF_NAMESIZE + 2];

				snprintf(quoted, sizeof(quoted), " %s,", nd);
				if (nd[0] && gid_port_has_candidate_on(port, a->family, nd) && !strstr(seen, quoted))
					len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s", quoted);
			}
		}
	if (len)
		seen[strlen(seen) - 1] = '\0';
	fprintf(stderr, "roce-doctor: --netdev %s holds no RoCE v2 %s GID on the selected ports (%s%s)\n", a->netdev,
		a->family == AF_INET ? "IPv4" : "IPv6", len ? "candidates on:" : "no candidate on any netdev",
		len ? seen : "");
	return EXIT_NOT_FOUND;
}

int cmd_gid(struct app *app, int argc, char **argv)
{
	struct gid_args args = { .app = app };
	struct system_state recorded = { 0 };
	bool recorded_known = false;
	struct host host;
	json_t *doc;
	int code;

	if (command_parse(&gid_argp, COMMON_ROOT | COMMON_FROM | COMMON_FAMILY, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "gid", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	/* --from reads the snapshot once (stdin cannot be read twice), with the NCCL libraries it recorded. */
	code = app->from_file ? app_read_snapshot(app, &host, &recorded, &recorded_known) : app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	code = check_selection(&host, &args.sel);
	if (code == EXIT_OK && host.device_count == 0) {
		char path[4200];

		app_infiniband_path(app, path, sizeof(path));
		fprintf(stderr, "roce-doctor: no RDMA devices on this host (%s is empty or missing)\n", path);
		code = EXIT_NOT_FOUND;
	}
	if (code == EXIT_OK && args.netdev)
		code = check_netdev_option(&host, &args);
	if (code != EXIT_OK) {
		if (recorded_known)
			system_free(&recorded);
		host_free(&host);
		return code;
	}
	app_say_sources(app, &host, &args.sel);
	if (args.suggest) {
		struct nccl_advice advice;

		doc = suggestion_doc(&host, &args, &code);
		if (nccl_versions_advise(app, &host, recorded_known ? &recorded : NULL, args.nccl_version, &advice) < 0) {
			fprintf(stderr, "roce-doctor: out of memory\n");
			code = EXIT_CANNOT_RUN;
			json_decref(doc);
			goto out;
		}
		json_object_set_new(doc, "nccl_versions", nccl_versions_json(&advice));
		nccl_advice_free(&advice);
		code = app_emit(app, doc, &host.warnings, print_suggestion, code);
	} else {
		doc = doc_new("gid");
		json_object_set_new(doc, "gids", gid_rows(&host, &args));
		code = app_emit(app, doc, &host.warnings, print_gid_table, EXIT_OK);
	}
	json_decref(doc);
out:
	if (recorded_known)
		system_free(&recorded);
	host_free(&host);
	return code;
}
