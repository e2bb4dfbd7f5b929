// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor devices: the ibdev2netdev view, one row per RDMA device and port. */
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "output/render.h"
#include "output/terminal.h"
#include "util/gidaddr.h"

struct devices_args {
	bool brief;
	struct port_selection sel;
};

static const struct argp_option devices_options[] = {
	{ "brief", 'b', NULL, 0, "Print exactly ibdev2netdev's lines: 'mlx5_0 port 1 ==> ens1f0np0 (Up)'", 0 },
	{ 0 }
};

static error_t parse_devices(int key, char *arg, struct argp_state *state)
{
	struct devices_args *a = state->input;

	switch (key) {
	case 'b':
		a->brief = true;
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "unexpected argument '%s'", arg);
		parse_selection_arg(state, arg, &a->sel);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp devices_argp = {
	devices_options, parse_devices, "[DEV[/PORT]|NETDEV]",
	"List RDMA devices and ports with the netdev under each, link state, rate, MTUs, firmware and PCI "
	"placement. DEV/PORT, DEV:PORT or a netdev name selects ports.\vPort MTUs come from verbs and the "
	"port-to-netdev link also from RDMA netlink; under --root they are unknown. -v says on stderr which source "
	"answered for each port.",
	NULL, NULL, NULL,
};

static json_t *mtu_or_null(int mtu)
{
	return mtu > 0 ? json_integer(mtu) : json_null();
}

/* "10.88.0.1/24" for each address, or null when only netlink could tell (under --root). */
static json_t *address_list(const struct netdev *nd, int family)
{
	json_t *list;

	if (!nd || !nd->addrs_known)
		return json_null();
	list = json_array();
	for (size_t i = 0; i < nd->addr_count; i++) {
		char ip[64];

		if (nd->addrs[i].family != family)
			continue;
		gid_format_ip(&nd->addrs[i].addr, ip);
		json_array_append_new(list, json_sprintf("%s/%u", ip, nd->addrs[i].prefix_len));
	}
	return list;
}

static json_t *port_row(const struct host *host, const struct rdma_device *d, const struct rdma_port *p)
{
	const struct netdev *nd = p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
	json_t *row = json_object();
	char rate[80];

	json_object_set_new(row, "device", json_string(d->name));
	json_object_set_new(row, "port", json_integer(p->num));
	json_object_set_new(row, "netdev", json_str_or_null(p->netdev));
	json_object_set_new(row, "netdev_source", json_str_or_null(p->netdev_source));
	json_object_set_new(row, "netdev_netlink", p->netlink_known ? json_str_or_null(p->netdev_netlink) : json_null());
	json_object_set_new(row, "link_layer", json_string(link_layer_name(p->link_layer)));
	json_object_set_new(row, "state", json_str_or_null(p->state_name));
	json_object_set_new(row, "phys_state", json_str_or_null(p->phys_state_name));
	port_rate_text(p, rate, sizeof(rate));
	json_object_set_new(row, "rate", json_str_or_null(rate));
	json_object_set_new(row, "rate_gbps", p->rate_gbps > 0 ? json_real(p->rate_gbps) : json_null());
	json_object_set_new(row, "netdev_state", nd ? json_str_or_null(nd->operstate) : json_null());
	json_object_set_new(row, "netdev_carrier", nd && nd->carrier >= 0 ? json_boolean(nd->carrier) : json_null());
	json_object_set_new(row, "netdev_mtu", nd ? mtu_or_null(nd->mtu) : json_null());
	json_object_set_new(row, "ipv4", address_list(nd, AF_INET));
	json_object_set_new(row, "ipv6", address_list(nd, AF_INET6));
	json_object_set_new(row, "active_mtu", mtu_or_null(p->active_mtu));
	json_object_set_new(row, "max_mtu", mtu_or_null(p->max_mtu));
	json_object_set_new(row, "fw_ver", json_str_or_null(d->fw_ver));
	json_object_set_new(row, "node_guid", json_str_or_null(d->node_guid));
	json_object_set_new(row, "pci_address", json_str_or_null(d->pci_address));
	json_object_set_new(row, "numa_node", d->numa_known ? json_integer(d->numa_node) : json_null());
	json_object_set_new(row, "driver", json_str_or_null(d->driver));
	return row;
}

static const struct column device_columns[] = {
	{ "device", "DEVICE" },       { "port", "PORT" },         { "netdev", "NETDEV" },
	{ "link_layer", "LINK_LAYER" }, { "state", "STATE" },     { "phys_state", "PHYS" },
	{ "rate", "RATE" },           { "ipv4_text", "IPv4" },    { "netdev_mtu", "MTU" },     { "active_mtu", "ACTIVE_MTU" },
	{ "max_mtu", "MAX_MTU" },     { "fw_ver", "FIRMWARE" },   { "node_guid", "NODE_GUID" },
	{ "pci_address", "PCI" },     { "numa_node", "NUMA" },    { "driver", "DRIVER" },
};
/* On a narrow terminal the columns a bring-up looks at last go first (0: always shown): what names the port,
 * its state, rate, addresses and MTUs stay. */
static const unsigned device_columns_drop[] = {
	0, 0, 0,
	8, 0, 9,
	0, 0, 0, 3,
	10, 4, 12,
	6, 5, 11,
};
_Static_assert(sizeof(device_columns_drop) / sizeof(device_columns_drop[0]) ==
	       sizeof(device_columns) / sizeof(device_columns[0]), "one drop rank per devices column");

/* app_emit()'s text callback takes no context: the terminal's width for this run, resolved in cmd_devices(). */
static unsigned table_width;

static void print_devices_table(FILE *out, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "ports");

	json_t *view;
	size_t i;
	json_t *row;

	if (json_array_size(rows) == 0) {
		fprintf(out, "no RDMA devices\n");
		return;
	}
	/* The table shows the IPv4 list as one cell; the document keeps the array. */
	view = json_deep_copy(rows);
	json_array_foreach(view, i, row) {
		const json_t *list = json_object_get(row, "ipv4");
		char *joined = NULL;
		size_t len = 0;
		FILE *f;

		if (!json_is_array(list) || !(f = open_memstream(&joined, &len)))
			continue;
		for (size_t k = 0; k < json_array_size(list); k++)
			fprintf(f, "%s%s", k ? "," : "", json_string_value(json_array_get(list, k)));
		fclose(f);
		json_object_set_new(row, "ipv4_text", json_string(len ? joined : "none"));
		free(joined);
	}
	render_table_fit(out, view, device_columns, device_columns_drop, sizeof(device_columns) / sizeof(device_columns[0]),
			 table_width);
	json_decref(view);
}

/* ibdev2netdev's state is the netdev's carrier: Up, Down, or NA when there is no carrier file. */
static void print_devices_brief(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(doc, "ports"), i, row) {
		const char *nd = json_string_value(json_object_get(row, "netdev"));
		const json_t *carrier = json_object_get(row, "netdev_carrier");

		fprintf(out, "%s port %lld ==> %s (%s)\n", json_string_value(json_object_get(row, "device")),
			(long long)json_integer_value(json_object_get(row, "port")), nd ? nd : "<none>",
			json_is_true(carrier) ? "Up" : json_is_false(carrier) ? "Down" : "NA");
	}
}

int cmd_devices(struct app *app, int argc, char **argv)
{
	struct devices_args args = { 0 };
	struct text_style style;
	struct host host;
	json_t *doc, *rows;
	int code;

	if (command_parse(&devices_argp, COMMON_ROOT | COMMON_FROM, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "devices", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	code = check_selection(&host, &args.sel);
	if (code != EXIT_OK) {
		host_free(&host);
		return code;
	}
	app_say_sources(app, &host, &args.sel);
	doc = doc_new("devices");
	json_object_set_new(doc, "root", json_str_or_null(app_root(app)));
	rows = json_array();
	for (size_t d = 0; d < host.device_count; d++) {
		const struct rdma_device *dev = &host.devices[d];

		for (size_t p = 0; p < dev->port_count; p++)
			if (port_selection_matches(&args.sel, dev, &dev->ports[p]))
				json_array_append_new(rows, port_row(&host, dev, &dev->ports[p]));
	}
	json_object_set_new(doc, "ports", rows);
	text_style_resolve(&style, COLOUR_AUTO, app_output_fd(app));
	table_width = style.width;
	code = app_emit(app, doc, &host.warnings, args.brief ? print_devices_brief : print_devices_table, EXIT_OK);
	json_decref(doc);
	host_free(&host);
	return code;
}
