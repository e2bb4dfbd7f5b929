// SPDX-License-Identifier: GPL-2.0-only
/* check's findings and port rows as one JSON document; the text layout renders the same document. */
#include "cmd/check_report.h"

#include <string.h>

#include "output/render.h"

static const char *const column_members[PORT_COL_COUNT] = {
	[PORT_COL_PORT] = "port", [PORT_COL_NETDEV] = "netdev", [PORT_COL_STATE] = "state",
	[PORT_COL_SPEED] = "rate_gbps", [PORT_COL_MTU] = "netdev_mtu", [PORT_COL_GID] = "gid_index",
	[PORT_COL_NUMA] = "numa_node",
};

json_t *split_json(const char *text, char sep)
{
	const char seps[2] = { sep, '\0' };
	json_t *parts = json_array();

	while (text && *text) {
		size_t len = strcspn(text, seps);

		json_array_append_new(parts, json_stringn(text, len));
		text += len + (text[len] == sep);
	}
	return parts;
}

json_t *finding_json(const struct finding *it)
{
	json_t *covers = json_array();
	char area[40];

	snprintf(area, sizeof(area), "%.*s", (int)strcspn(it->id, "."), it->id);
	for (size_t k = 0; k < it->cover_count; k++)
		json_array_append_new(covers, json_string(it->covers[k]));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id", it->id, "area", area,
			 "severity", severity_name(it->severity), "subject", it->subject, "message", it->message, "fix",
			 json_str_or_null(it->fix), "fix_lines", split_json(it->fix, '\n'), "device",
			 json_str_or_null(it->device), "port", it->port ? json_integer(it->port) : json_null(), "netdev",
			 json_str_or_null(it->netdev), "file", json_str_or_null(it->file), "covers", covers);
}

static json_t *row_json(const struct port_row *r)
{
	json_t *marked = json_object();

	for (int c = 0; c < PORT_COL_COUNT; c++)
		if (r->marked[c] != SEVERITY_OK)
			json_object_set_new(marked, column_members[c], json_string(severity_name(r->marked[c])));
	return json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "device", r->device->name, "port",
			 (int)r->port->num, "netdev", json_str_or_null(r->port->netdev), "netdev_state",
			 r->netdev ? json_str_or_null(r->netdev->operstate) : json_null(), "state",
			 json_str_or_null(r->port->state_name), "rate_gbps",
			 r->port->rate_gbps > 0 ? json_real(r->port->rate_gbps) : json_null(), "netdev_mtu",
			 r->netdev && r->netdev->mtu > 0 ? json_integer(r->netdev->mtu) : json_null(), "gid_index",
			 r->gid_index >= 0 ? json_integer(r->gid_index) : json_null(), "numa_node",
			 r->device->numa_known ? json_integer(r->device->numa_node) : json_null(), "selected",
			 r->selected, "marked", marked);
}

json_t *severity_counts_json(const size_t counts[4])
{
	return json_pack("{s:I, s:I, s:I, s:I}", "ok", (json_int_t)counts[0], "info", (json_int_t)counts[1], "warn",
			 (json_int_t)counts[2], "fail", (json_int_t)counts[3]);
}

json_t *check_report_doc(const struct findings *f, const struct port_row *rows, size_t row_count)
{
	json_t *doc = doc_new("check"), *list = json_array(), *ports = json_array();
	size_t counts[4] = { 0 };

	if (!doc || !list || !ports)
		goto fail;
	for (size_t i = 0; i < f->count; i++) {
		counts[f->items[i].severity]++;
		if (json_array_append_new(list, finding_json(&f->items[i])) < 0)
			goto fail;
	}
	for (size_t i = 0; i < row_count; i++)
		if (json_array_append_new(ports, row_json(&rows[i])) < 0)
			goto fail;
	json_object_set_new(doc, "verdict", json_string(severity_name(findings_worst(f))));
	json_object_set_new(doc, "counts", severity_counts_json(counts));
	json_object_set_new(doc, "findings", list);
	json_object_set_new(doc, "ports", ports);
	return doc;
fail:
	json_decref(doc);
	json_decref(list);
	json_decref(ports);
	return NULL;
}
