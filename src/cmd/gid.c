/* roce-doctor gid: every non-empty GID (show_gids), or with --suggest the NCCL_IB_GID_INDEX to use. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "core/gid_suggest.h"
#include "output/render.h"
#include "util/gidaddr.h"

enum { OPT_FAMILY = 0x100, OPT_PEER };

struct gid_args {
	bool suggest;
	int family;          /* 0 until chosen */
	const char *peer_text;
	struct in6_addr peer;
	char dev[64];
	unsigned port;
};

static const struct argp_option gid_options[] = {
	{ "suggest", 's', NULL, 0, "Print the NCCL_IB_GID_INDEX to use, and why", 0 },
	{ "family", OPT_FAMILY, "ipv4|ipv6", 0, "Address family of the GID to suggest (default ipv4)", 0 },
	{ "peer", OPT_PEER, "ADDR", 0, "Prefer the GID whose subnet reaches ADDR", 0 },
	{ 0 }
};

static error_t parse_gid(int key, char *arg, struct argp_state *state)
{
	struct gid_args *a = state->input;

	switch (key) {
	case 's':
		a->suggest = true;
		return 0;
	case OPT_FAMILY:
		a->family = parse_family_option(state, arg);
		return 0;
	case OPT_PEER:
		if (ip_parse_as_gid(arg, &a->peer) < 0)
			argp_error(state, "bad --peer '%s': expected an IPv4 or IPv6 address", arg);
		a->peer_text = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "unexpected argument '%s'", arg);
		if (parse_dev_port(arg, a->dev, sizeof(a->dev), &a->port) < 0)
			argp_error(state, "bad device '%s': expected DEV or DEV:PORT", arg);
		return 0;
	case ARGP_KEY_END:
		if (!a->suggest && (a->family || a->peer_text))
			argp_error(state, "--family and --peer apply only with --suggest");
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
	gid_options, parse_gid, "[DEV[:PORT]]",
	"List the GID table of every RDMA port (index, GID, IPv4, RoCE version, netdev), or with --suggest the "
	"RoCE v2 GID index NCCL should use.\v"
	"--suggest exits 0 when every selected port agrees on one index, 1 when they disagree (no single "
	"NCCL_IB_GID_INDEX fits them all), 2 when a port has no usable GID.",
	NULL, NULL, NULL,
};

static bool selected(const struct gid_args *a, const struct rdma_device *d, const struct rdma_port *p)
{
	return (!a->dev[0] || strcmp(a->dev, d->name) == 0) && (!a->port || a->port == p->num);
}

/* ---- the table ---- */

static const struct column gid_columns[] = {
	{ "device", "DEV" }, { "port", "PORT" }, { "index", "INDEX" }, { "gid", "GID" },
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

static json_t *choice_row(const struct host *host, const struct rdma_device *d, const struct rdma_port *p,
			  const struct gid_args *a, int *worst)
{
	const struct netdev *nd = p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
	struct gid_choice c;
	json_t *row, *others = json_array();
	char text[64];

	gid_suggest_port(p, nd, a->family, a->peer_text ? &a->peer : NULL, &c);
	row = json_pack("{s:s, s:I, s:o, s:s}", "device", d->name, "port", (json_int_t)p->num, "netdev",
			json_str_or_null(p->netdev), "link_layer", link_layer_name(p->link_layer));
	if (!c.found) {
		*worst = EXIT_NOT_FOUND;
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
		json_array_append_new(others, json_pack("{s:I, s:s}", "index", (json_int_t)c.others[i]->index, "address",
							text));
	}
	json_object_set_new(row, "other_candidates", others);
	json_object_set_new(row, "reason", json_string(c.reason));
	return row;
}

static void print_suggestion(FILE *out, const json_t *doc)
{
	const json_t *index = json_object_get(doc, "gid_index");
	const json_t *ports = json_object_get(doc, "ports");
	size_t i;
	json_t *row;

	if (json_is_integer(index))
		fprintf(out, "NCCL_IB_GID_INDEX=%lld\n", (long long)json_integer_value(index));
	else if (json_is_false(json_object_get(doc, "consistent")))
		fprintf(out, "# no single NCCL_IB_GID_INDEX fits: the ports disagree and the variable is global to the "
			"process.\n# With NCCL >= 2.21 leave it unset and let NCCL pick per HCA: "
			"NCCL_IB_ADDR_FAMILY=%s NCCL_IB_ROCE_VERSION_NUM=2\n",
			strcmp(json_string_value(json_object_get(doc, "family")), "ipv4") == 0 ? "AF_INET" : "AF_INET6");
	json_array_foreach(ports, i, row) {
		const json_t *gi = json_object_get(row, "gid_index");
		const char *nd = json_string_value(json_object_get(row, "netdev"));
		char idx[32];

		render_cell(gi, idx, sizeof(idx));
		fprintf(out, "%s port %lld%s%s%s: %s - %s\n", json_string_value(json_object_get(row, "device")),
			(long long)json_integer_value(json_object_get(row, "port")), nd ? " (" : "", nd ? nd : "",
			nd ? ")" : "", json_is_integer(gi) ? idx : "none",
			json_string_value(json_object_get(row, "reason")));
	}
}

/* Ethernet ports when there are any: an InfiniBand port beside them needs no GID index. */
static bool port_in_scope(const struct host *host, const struct gid_args *a, const struct rdma_device *d,
			  const struct rdma_port *p)
{
	bool any_ethernet = false;

	if (!selected(a, d, p))
		return false;
	if (a->dev[0])
		return true;
	for (size_t i = 0; i < host->device_count; i++)
		for (size_t j = 0; j < host->devices[i].port_count; j++)
			any_ethernet |= host->devices[i].ports[j].link_layer == LINK_LAYER_ETHERNET;
	return !any_ethernet || p->link_layer == LINK_LAYER_ETHERNET;
}

static json_t *suggestion_doc(const struct host *host, const struct gid_args *a, int *code)
{
	json_t *doc = doc_new("gid-suggest"), *rows = json_array();
	json_int_t common = -1;
	bool consistent = true;
	int worst = EXIT_OK;

	json_object_set_new(doc, "family", json_string(a->family == AF_INET ? "ipv4" : "ipv6"));
	json_object_set_new(doc, "peer", json_str_or_null(a->peer_text));
	for (size_t d = 0; d < host->device_count; d++) {
		const struct rdma_device *dev = &host->devices[d];

		for (size_t p = 0; p < dev->port_count; p++) {
			json_t *row, *gi;

			if (!port_in_scope(host, a, dev, &dev->ports[p]))
				continue;
			row = choice_row(host, dev, &dev->ports[p], a, &worst);
			gi = json_object_get(row, "gid_index");
			if (json_is_integer(gi)) {
				if (common >= 0 && common != json_integer_value(gi))
					consistent = false;
				common = json_integer_value(gi);
			}
			json_array_append_new(rows, row);
		}
	}
	if (json_array_size(rows) == 0) {
		fprintf(stderr, "roce-doctor: no RDMA ports to choose a GID on\n");
		worst = EXIT_NOT_FOUND;
	}
	json_object_set_new(doc, "gid_index", consistent && common >= 0 ? json_integer(common) : json_null());
	json_object_set_new(doc, "consistent", json_boolean(consistent));
	json_object_set_new(doc, "ports", rows);
	*code = worst != EXIT_OK ? worst : consistent ? EXIT_OK : 1;
	return doc;
}

int cmd_gid(struct app *app, int argc, char **argv)
{
	struct gid_args args = { 0 };
	struct host host;
	json_t *doc;
	int code;

	if (command_parse(&gid_argp, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	code = check_selection(&host, args.dev, args.port);
	if (code == EXIT_OK && host.device_count == 0) {
		fprintf(stderr, "roce-doctor: no RDMA devices on this host (%s is empty or missing)\n",
			app->root_dir ? "DIR/sys/class/infiniband" : "/sys/class/infiniband");
		code = EXIT_NOT_FOUND;
	}
	if (code != EXIT_OK) {
		host_free(&host);
		return code;
	}
	if (args.suggest) {
		doc = suggestion_doc(&host, &args, &code);
		code = app_emit(app, doc, &host.warnings, print_suggestion, code);
	} else {
		doc = doc_new("gid");
		json_object_set_new(doc, "gids", gid_rows(&host, &args));
		code = app_emit(app, doc, &host.warnings, print_gid_table, EXIT_OK);
	}
	json_decref(doc);
	host_free(&host);
	return code;
}
