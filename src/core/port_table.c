// SPDX-License-Identifier: GPL-2.0-only
/* The per-port table at the top of check's report: the host model and the findings, cross-referenced. */
#include "core/port_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/gid_suggest.h"

enum port_column port_column_of(const char *id)
{
	/* Ids named here, then by area, so a new netdev.* or gid.* rule marks a sensible cell without an edit. */
	static const struct { const char *id; enum port_column col; } map[] = {
		{ "port.speed", PORT_COL_SPEED }, { "port.rail_speed", PORT_COL_SPEED },
		{ "port.active_mtu", PORT_COL_MTU }, { "netdev.mtu", PORT_COL_MTU },
		{ "port.", PORT_COL_STATE },      { "netdev.", PORT_COL_NETDEV },     { "gid.", PORT_COL_GID },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		size_t len = strlen(map[i].id);

		if (map[i].id[len - 1] == '.' ? strncmp(map[i].id, id, len) == 0 : strcmp(map[i].id, id) == 0)
			return map[i].col;
	}
	return PORT_COL_PORT;
}

static void mark(struct port_row *row, const char *id, enum severity s)
{
	enum port_column c = port_column_of(id);

	if (s > row->marked[c])
		row->marked[c] = s;
}

static void mark_row(struct port_row *row, const struct findings *f)
{
	for (size_t i = 0; i < f->count; i++) {
		const struct finding *it = &f->items[i];

		if (it->severity == SEVERITY_OK || it->port != row->port->num ||
		    strcmp(it->device, row->device->name) != 0)
			continue;
		mark(row, it->id, it->severity);
		for (size_t k = 0; k < it->cover_count; k++)
			mark(row, it->covers[k], it->severity);
	}
}

int port_table_build(const struct check_input *in, const struct findings *f, struct port_row **rows,
		     size_t *count)
{
	const struct host *h = in->host;
	size_t n = 0, k = 0;

	*rows = NULL;
	*count = 0;
	for (size_t i = 0; i < h->device_count; i++)
		n += h->devices[i].port_count;
	if (n == 0)
		return 0;
	*rows = calloc(n, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < h->device_count; i++) {
		for (size_t j = 0; j < h->devices[i].port_count; j++) {
			struct port_row *row = &(*rows)[k++];
			struct gid_choice c;

			row->device = &h->devices[i];
			row->port = &h->devices[i].ports[j];
			row->netdev = row->port->netdev[0] ? host_find_netdev(h, row->port->netdev) : NULL;
			row->selected = input_port_selected(in, row->device, row->port);
			gid_suggest_port(row->port, row->netdev, in->family, NULL, &c);
			row->gid_index = c.found ? (int)c.entry->index : -1;
			mark_row(row, f);
		}
	}
	*count = n;
	return 0;
}
