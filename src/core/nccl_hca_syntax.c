// SPDX-License-Identifier: GPL-2.0-only
/* NCCL_IB_HCA read the way each NCCL version on the node reads it (rules in nccl_hca_syntax.h), so that
 * nccl.ib_hca judges the value by the NCCL that will run, and says when two NCCLs read it differently. */
#include "core/nccl_hca_syntax.h"

#include <stdio.h>
#include <string.h>

#include "util/text_append.h"

/* v >= major.minor.patch; a series without a patch counts as its newest release. */
static bool at_least(const struct nccl_version *v, unsigned major, unsigned minor, unsigned patch)
{
	if (v->major != major)
		return v->major > major;
	if (v->minor != minor)
		return v->minor > minor;
	return !v->has_patch || v->patch >= patch;
}

static bool reads_rail_plane(const struct nccl_version *v)
{
	return !v || at_least(v, 2, 30, 7);
}

static size_t max_entries(const struct nccl_version *v)
{
	return !v || at_least(v, 2, 18, 5) ? 32 : 16;
}

void nccl_hca_read_as(const char *value, const struct nccl_version *v, struct nccl_if_list *out)
{
	if (reads_rail_plane(v))
		nccl_if_list_parse(value, max_entries(v), out);
	else
		nccl_if_list_parse_legacy(value, max_entries(v), out);
}

/* Entry j as the user wrote it: the j-th comma-separated token with a non-empty name. */
static void entry_as_written(const char *value, size_t j, char *buf, size_t size)
{
	const char *p = value + (*value == '^');

	p += *p == '=';
	buf[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len && *p != ':' && j-- == 0) {
			snprintf(buf, size, "%.*s", (int)len, p);
			return;
		}
		p += len + (p[len] == ',');
	}
}

/* What version v reads otherwise than the newest syntax does, as clauses; "" when nothing. */
static void syntax_notes(const char *value, const struct nccl_version *v, char *buf, size_t size)
{
	struct nccl_if_list newest, old;
	char text[96], zero[320] = "", rails[320] = "", dropped[320] = "";

	buf[0] = '\0';
	if (!v || !value)
		return;
	nccl_if_list_parse(value, NCCL_IB_HCA_ENTRIES_MAX, &newest);
	nccl_hca_read_as(value, v, &old);
	for (size_t j = 0; j < newest.count; j++) {
		const struct nccl_if_entry *e = &newest.entries[j];

		entry_as_written(value, j, text, sizeof(text));
		if (j >= old.count) {
			text_append(dropped, sizeof(dropped), "%s'%s'", dropped[0] ? ", " : "", text);
			continue;
		}
		if (reads_rail_plane(v))
			continue;
		if (e->port == -1 && old.entries[j].port == 0)
			text_append(zero, sizeof(zero), "%s'%s'", zero[0] ? ", " : "", text);
		if (e->rail != -1 || e->plane != -1)
			text_append(rails, sizeof(rails), "%s'%s'", rails[0] ? ", " : "", text);
	}
	if (zero[0])
		text_append(buf, size, "it reads the empty port of %s as port 0, which no HCA has (an empty port is "
			    "every port from " NCCL_HCA_RAIL_PLANE_SINCE " on)", zero);
	if (rails[0])
		text_append(buf, size, "%sit does not read the ':rail:plane' fields of %s (read from "
			    NCCL_HCA_RAIL_PLANE_SINCE " on)", buf[0] ? "; " : "", rails);
	if (dropped[0])
		text_append(buf, size, "%sit reads only the first 16 entries (32 from 2.18.5 on): %s not read",
			    buf[0] ? "; " : "", dropped);
}

static void select_ports(const struct nccl_if_list *list, const struct host *host, bool *selected, size_t max,
			 size_t *count)
{
	size_t n = 0;

	*count = 0;
	for (size_t d = 0; d < host->device_count; d++)
		for (size_t p = 0; p < host->devices[d].port_count && n < max; p++, n++) {
			selected[n] = nccl_if_list_selects(list, host->devices[d].name, (int)host->devices[d].ports[p].num);
			*count += selected[n];
		}
}

static bool newer(const struct nccl_version *a, const struct nccl_version *b)
{
	if (a->major != b->major)
		return a->major > b->major;
	if (a->minor != b->minor)
		return a->minor > b->minor;
	return a->patch > b->patch;
}

static void add_versions(const struct nccl_libs *libs, struct nccl_hca_readings *out)
{
	for (size_t i = 0; libs && i < libs->count; i++) {
		const struct nccl_lib *l = &libs->items[i];
		struct nccl_version v;
		size_t k = 0;

		if (l->kind != NCCL_LIB_CORE || nccl_version_parse(l->version, &v) < 0)
			continue;
		while (k < out->count && strcmp(out->items[k].version, l->version) != 0)
			k++;
		if (k < out->count || out->count == sizeof(out->items) / sizeof(out->items[0]))
			continue;
		snprintf(out->items[k].version, sizeof(out->items[k].version), "%s", l->version);
		out->items[k].first = l;
		out->count++;
		if (!out->reference_known || newer(&v, &out->reference_version)) {
			out->reference = k;
			out->reference_version = v;
			out->reference_known = true;
		}
	}
}

#define PORTS_MAX 256

void nccl_hca_readings_build(const char *value, const struct host *host, const struct nccl_libs *libs,
			     struct nccl_hca_readings *out)
{
	bool reference[PORTS_MAX], mine[PORTS_MAX], newest_sel[PORTS_MAX];
	struct nccl_if_list list;
	size_t n;

	memset(out, 0, sizeof(*out));
	add_versions(libs, out);
	nccl_hca_read_as(value, NULL, &list);
	select_ports(&list, host, newest_sel, PORTS_MAX, &n);
	nccl_hca_read_as(value, out->reference_known ? &out->reference_version : NULL, &list);
	select_ports(&list, host, reference, PORTS_MAX, &n);
	for (size_t k = 0; k < out->count; k++) {
		struct nccl_hca_reading *r = &out->items[k];
		struct nccl_version v;
		struct nccl_if_list newest;
		size_t total = 0;

		nccl_version_parse(r->version, &v);
		nccl_hca_read_as(value, &v, &list);
		select_ports(&list, host, mine, PORTS_MAX, &r->selected);
		for (size_t d = 0; d < host->device_count; d++)
			total += host->devices[d].port_count;
		for (size_t i = 0; i < total && i < PORTS_MAX; i++)
		{
			r->differs |= mine[i] != reference[i];
			r->differs_from_newest |= mine[i] != newest_sel[i];
		}
		nccl_if_list_parse(value, NCCL_IB_HCA_ENTRIES_MAX, &newest);
		for (size_t j = 0; !reads_rail_plane(&v) && j < newest.count; j++)
			r->ignores_rail_plane |= newest.entries[j].rail != -1 || newest.entries[j].plane != -1;
		syntax_notes(value, &v, r->how, sizeof(r->how));
	}
}

void nccl_hca_read_as_newest(const char *value, const struct nccl_libs *libs, struct nccl_if_list *out)
{
	struct nccl_hca_readings r;

	memset(&r, 0, sizeof(r));
	add_versions(libs, &r);
	nccl_hca_read_as(value, r.reference_known ? &r.reference_version : NULL, out);
}

/* The one port number every HCA that name (a prefix, or an exact name) matches has; -1: none or several. */
static int common_port(const struct host *host, const char *name, bool exact)
{
	int port = -1;

	for (size_t d = 0; d < host->device_count; d++) {
		const struct rdma_device *dev = &host->devices[d];

		if (exact ? strcmp(dev->name, name) != 0 : strncmp(dev->name, name, strlen(name)) != 0)
			continue;
		for (size_t p = 0; p < dev->port_count; p++) {
			if (port != -1 && port != (int)dev->ports[p].num)
				return -1;
			port = (int)dev->ports[p].num;
		}
	}
	return port;
}

bool nccl_hca_portable(const char *value, const struct host *host, char *buf, size_t size)
{
	struct nccl_if_list list;

	nccl_if_list_parse(value, NCCL_IB_HCA_ENTRIES_MAX, &list);
	if (list.count > 16 || list.ignored)
		return false;
	snprintf(buf, size, "%s%s", list.exclude ? "^" : "", list.exact ? "=" : "");
	for (size_t j = 0; j < list.count; j++) {
		const struct nccl_if_entry *e = &list.entries[j];
		bool rail_plane = e->rail != -1 || e->plane != -1;
		int port = e->port;

		if (port == -1 && rail_plane && (port = common_port(host, e->prefix, list.exact)) == -1)
			return false;
		text_append(buf, size, "%s%s", j ? "," : "", e->prefix);
		if (port != -1)
			text_append(buf, size, ":%d", port);
		if (e->rail != -1)
			text_append(buf, size, ":%d", e->rail);
		else if (rail_plane)
			text_append(buf, size, ":");
		if (e->plane != -1)
			text_append(buf, size, ":%d", e->plane);
	}
	return true;
}
