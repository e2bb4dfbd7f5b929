// SPDX-License-Identifier: GPL-2.0-only
/* nccl.*: the NCCL settings NCCL will really see (environment, ~/.nccl.conf, /etc/nccl.conf), judged with
 * NCCL's own matching against what exists here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checks.h"
#include "core/nccl_env_names.h"
#include "core/nccl_hca_fix.h"
#include "core/nccl_hca_syntax.h"
#include "core/nccl_net_plugin.h"
#include "core/nccl_setting_fix.h"
#include "util/text_append.h"

bool nccl_hca_port_selected(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p)
{
	return nccl_if_list_selects(in->selection, d->name, (int)p->num);
}

bool nccl_hca_names_port(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p)
{
	const struct nccl_if_list *list = in->port_selected == nccl_hca_port_selected ? in->selection : NULL;

	for (size_t i = 0; list && !list->exclude && i < list->count; i++)
		if (strcmp(list->entries[i].prefix, d->name) == 0 &&
		    (list->entries[i].port == -1 || list->entries[i].port == (int)p->num))
			return true;
	return false;
}

/* How to change a setting where it comes from, as one runnable line: an export, or the file's line
 * rewritten in place (a file setting is NCCL's only when the environment leaves the name unset). */
static void where_fix(const struct nccl_setting *s, const char *line, char *fix, size_t size)
{
	const char *eq = strchr(line, '=');
	char name[128];

	snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - line) : (int)strlen(line), line);
	nccl_setting_fix(s->source, name, eq ? eq + 1 : "", fix, size);
}

/* "=dev:port,..." of every usable RoCE port. */
static size_t usable_ports(const struct check_input *in, char *buf, size_t size)
{
	const struct host *h = in->host;
	size_t n = 0, len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++)
			if (port_usable(in, &h->devices[i].ports[j]) && len < size) {
				len += (size_t)snprintf(buf + len, size - len, "%s%s:%u", n ? "," : "=",
							h->devices[i].name, h->devices[i].ports[j].num);
				n++;
			}
	return n;
}

/* Whether value selects a port as the newest NCCL on the node reads it. */
static bool selects_any(const char *value, const struct nccl_hca_readings *r, const struct nccl_if_candidate *cand,
			size_t n)
{
	struct nccl_if_list list;

	nccl_hca_read_as(value, r->reference_known ? &r->reference_version : NULL, &list);
	for (size_t i = 0; i < n; i++)
		if (nccl_if_list_selects(&list, cand[i].name, cand[i].port))
			return true;
	return false;
}

/* How to put a newer NCCL where this one is: by the package it came in. */
static void upgrade_fix(const struct nccl_lib *l, const char *version, char *fix, size_t size)
{
	if (strcmp(l->package_manager, "pip") == 0)
		snprintf(fix, size, "pip install -U '%s>=%s'", l->package_name, version);
	else if (strncmp(l->places[0].where, "conda", 5) == 0)
		snprintf(fix, size, "conda install -c conda-forge 'nccl>=%s'   # in %s", version, l->places[0].where);
	else if (strcmp(l->package_manager, "dpkg") == 0)
		snprintf(fix, size, "apt-get install --only-upgrade %s   # to %s or later", l->package_name, version);
	else
		snprintf(fix, size, "pip install -U 'nvidia-nccl-cu12>=%s'   # in place of %s", version, l->real_path);
}

/* The NCCLs on the node that read the value otherwise than the newest one: each named, with what it reads
 * and the spelling every version reads alike (or the upgrade, when there is none). */
static void check_ib_hca_versions(const struct check_input *in, const struct nccl_setting *s,
				  const struct nccl_hca_readings *r, struct findings *out)
{
	const struct nccl_hca_reading *ref = r->reference_known ? &r->items[r->reference] : NULL;
	char portable[1100], line[1200], fix[1600], subject[96];
	bool has_portable = nccl_hca_portable(s->value, in->host, portable, sizeof(portable)) &&
			    strcmp(portable, s->value) != 0;

	for (size_t k = 0; ref && k < r->count; k++) {
		const struct nccl_hca_reading *v = &r->items[k];

		/* Rails and planes not read by an NCCL whose selection is otherwise right: said once per version
		 * (a reference that selects other ports says it in the main finding). */
		if (!(v->differs && k != r->reference) && !(v->ignores_rail_plane && !v->differs_from_newest))
			continue;
		snprintf(subject, sizeof(subject), "NCCL_IB_HCA for NCCL %s", v->version);
		if (has_portable && v->differs && k != r->reference) {
			snprintf(line, sizeof(line), "NCCL_IB_HCA=%s", portable);
			where_fix(s, line, fix, sizeof(fix));
		} else {
			upgrade_fix(v->first, NCCL_HCA_RAIL_PLANE_SINCE, fix, sizeof(fix));
		}
		if (v->differs && k != r->reference)
			finding_add(out, "nccl.ib_hca", v->selected ? SEVERITY_WARN : SEVERITY_FAIL, subject, fix,
				    "NCCL %s (%s) reads NCCL_IB_HCA=%s otherwise than NCCL %s (%s): %s; it selects %zu "
				    "port(s) where %s selects %zu", v->version, v->first->real_path, s->value,
				    ref->version, ref->first->real_path, v->how, v->selected, ref->version, ref->selected);
		else
			finding_add(out, "nccl.ib_hca", SEVERITY_INFO, subject, fix, "NCCL %s (%s) reads NCCL_IB_HCA=%s "
				    "without its rails and planes: %s", v->version, v->first->real_path, s->value, v->how);
	}
}

static void check_ib_hca(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	const struct nccl_setting *s = nccl_conf_get(in->nccl, "NCCL_IB_HCA");
	struct nccl_if_candidate cand[256];
	bool selected[256];
	unsigned hits[NCCL_IB_HCA_ENTRIES_MAX];
	struct nccl_if_list list;
	size_t n = 0, chosen = 0;
	char usable[512], line[1200], fix[1600], missing[512] = "", subject[340], corrected[1100], why[512] = "",
	     fixed[540] = "", note[800] = "", portable[1100];
	struct nccl_hca_readings readings;

	if (!findings_wanted(out, "nccl.ib_hca"))
		return;
	if (!s && h->device_count == 0)
		return;   /* no HCA and none asked for: rdma.devices says the rest */
	if (!s) {
		finding_add(out, "nccl.ib_hca", SEVERITY_OK, "NCCL_IB_HCA", NULL, "unset: NCCL uses every HCA");
		return;
	}
	if (h->device_count == 0) {
		/* Nothing to match the names against: the job runs on TCP sockets whatever they say. */
		snprintf(subject, sizeof(subject), "NCCL_IB_HCA (%s)", s->source);
		if (s->origin == NCCL_FROM_FILE)
			snprintf(fix, sizeof(fix), "sed -i '%ud' %s   # only if this node is meant to run NCCL over TCP; "
				 "otherwise give it its RDMA device (see rdma.devices)", s->line, s->file);
		else
			snprintf(fix, sizeof(fix), "unset NCCL_IB_HCA   # in the job's launcher or shell, only if this node "
				 "is meant to run NCCL over TCP; otherwise give it its RDMA device (see rdma.devices)");
		finding_add(out, "nccl.ib_hca", SEVERITY_WARN, subject, fix, "NCCL_IB_HCA=%s names HCAs, but this node "
			    "has no RDMA device: NCCL finds no IB device and falls back to TCP sockets", s->value);
		return;
	}
	/* Judged as the newest NCCL on the node reads it; the others, where they read it otherwise, below. */
	nccl_hca_readings_build(s->value, h, in->nccl_libs, &readings);
	nccl_hca_read_as(s->value, readings.reference_known ? &readings.reference_version : NULL, &list);
	if (readings.reference_known && readings.items[readings.reference].how[0])
		snprintf(note, sizeof(note), " (NCCL %s, the newest here: %s)", readings.items[readings.reference].version,
			 readings.items[readings.reference].how);
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count && n < 256; j++)
			cand[n++] = (struct nccl_if_candidate){ h->devices[i].name, (int)h->devices[i].ports[j].num };
	nccl_if_list_match(&list, cand, n, selected, hits);
	for (size_t i = 0; i < n; i++)
		chosen += selected[i];
	for (size_t j = 0; j < list.count; j++) {
		size_t len = strlen(missing);

		if (!hits[j])
			snprintf(missing + len, sizeof(missing) - len, list.entries[j].port == -1 ? "%s'%s'" : "%s'%s:%d'",
				 len ? ", " : "", list.entries[j].prefix, list.entries[j].port);
	}
	snprintf(subject, sizeof(subject), "NCCL_IB_HCA (%s)", s->source);
	/* A typo is fixed where it is, keeping the rest of the user's list; only when nothing of it can be kept
	 * (or it is all right and still selects nothing) is the fix the list of usable ports. */
	if (note[0] && nccl_hca_portable(s->value, h, portable, sizeof(portable)) &&
	    strcmp(portable, s->value) != 0 && selects_any(portable, &readings, cand, n))
		/* Only the spelling is wrong for this NCCL: the one every version reads alike keeps the intent. */
		snprintf(line, sizeof(line), "NCCL_IB_HCA=%s", portable);
	else if (missing[0] && nccl_hca_fix(&list, hits, h, corrected, sizeof(corrected), why, sizeof(why)) > 0 &&
	    nccl_hca_fix_selects(corrected, cand, n))
		snprintf(line, sizeof(line), "NCCL_IB_HCA=%s", corrected);
	else if (usable_ports(in, usable, sizeof(usable)))
		snprintf(line, sizeof(line), "NCCL_IB_HCA=%s", usable);
	else
		snprintf(line, sizeof(line), "NCCL_IB_HCA=");
	where_fix(s, line, fix, sizeof(fix));
	if (why[0])
		snprintf(fixed, sizeof(fixed), "; the fix: %s", why);
	if (chosen == 0) {
		finding_add(out, "nccl.ib_hca", SEVERITY_FAIL, subject, fix, "NCCL_IB_HCA=%s selects no HCA port here%s%s: "
			    "NCCL falls back to sockets or fails%s%s", s->value, missing[0] ? "; no HCA matches " : "", missing,
			    note, fixed);
	} else if (missing[0] && !list.exclude) {
		finding_add(out, "nccl.ib_hca", SEVERITY_FAIL, subject, fix, "NCCL_IB_HCA=%s: %s matches no HCA "
			    "(NCCL matches each entry as a name prefix, '=' for exact names); %zu port(s) selected%s%s", s->value,
			    missing, chosen, note, fixed);
	} else if (missing[0]) {
		finding_add(out, "nccl.ib_hca", SEVERITY_WARN, subject, fix, "NCCL_IB_HCA=%s: excluded %s matches no HCA%s%s",
			    s->value, missing, note, fixed);
	} else {
		finding_add(out, "nccl.ib_hca", SEVERITY_OK, subject, NULL, "NCCL_IB_HCA=%s selects %zu port(s)%s",
			    s->value, chosen, note);
	}
	check_ib_hca_versions(in, s, &readings, out);
}

static bool netdev_has_address(const struct netdev *nd)
{
	return nd->addrs_known && nd->addr_count > 0;
}

static bool loopback_or_docker(const char *name)
{
	return strcmp(name, "lo") == 0 || strncmp(name, "docker", 6) == 0;
}

/* The netdev of the first usable port with an address (or just the first usable port's netdev). */
static const char *suggested_socket_if(const struct check_input *in)
{
	const struct host *h = in->host;
	const char *fallback = NULL;

	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];
			const struct netdev *nd = p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL;

			if (!nd || !port_usable(in, p))
				continue;
			if (netdev_has_address(nd))
				return nd->name;
			if (!fallback)
				fallback = nd->name;
		}
	/* No RoCE netdev (a host without RDMA): the first interface that is up with an address, as NCCL's own
	 * default would take it */
	for (size_t i = 0; !fallback && i < h->netdev_count; i++) {
		const struct netdev *nd = &h->netdevs[i];

		if (!loopback_or_docker(nd->name) && strcmp(nd->operstate, "up") == 0 &&
		    (netdev_has_address(nd) || !nd->addrs_known))
			return nd->name;
	}
	return fallback;
}

static void check_socket_ifname(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	const struct nccl_setting *s = nccl_conf_get(in->nccl, "NCCL_SOCKET_IFNAME");
	struct nccl_if_list list;
	size_t good = 0, bad = 0, unknown = 0, named = 0;
	char line[128], fix[600], subject[340], names[256] = "";
	const char *suggest = suggested_socket_if(in);

	if (!findings_wanted(out, "nccl.socket_ifname") || !s)
		return;
	nccl_if_list_parse(s->value, NCCL_SOCKET_IFNAME_ENTRIES_MAX, &list);
	for (size_t i = 0; i < h->netdev_count; i++) {
		const struct netdev *nd = &h->netdevs[i];
		size_t len = strlen(names);

		named += nccl_if_list_selects(&list, nd->name, -1);
		if (!nccl_if_list_selects(&list, nd->name, -1) || (strcmp(nd->operstate, "up") != 0 && !loopback_or_docker(nd->name)))
			continue;
		snprintf(names + len, sizeof(names) - len, "%s%s", len ? "," : "", nd->name);
		if (loopback_or_docker(nd->name))
			bad++;
		else if (!nd->addrs_known)
			unknown++;
		else if (nd->addr_count)
			good++;
	}
	snprintf(subject, sizeof(subject), "NCCL_SOCKET_IFNAME (%s)", s->source);
	snprintf(line, sizeof(line), "NCCL_SOCKET_IFNAME==%s", suggest ? suggest : "IFACE");
	where_fix(s, line, fix, sizeof(fix));
	if (good)
		finding_add(out, "nccl.socket_ifname", SEVERITY_OK, subject, NULL, "NCCL_SOCKET_IFNAME=%s matches %s",
			    s->value, names);
	else if (unknown)
		finding_add(out, "nccl.socket_ifname", SEVERITY_INFO, subject, NULL, "NCCL_SOCKET_IFNAME=%s matches %s "
			    "(up); whether it has an address is unknown under --root", s->value, names);
	else if (bad)
		finding_add(out, "nccl.socket_ifname", SEVERITY_FAIL, subject, fix, "NCCL_SOCKET_IFNAME=%s matches only "
			    "%s: other nodes cannot reach this one there", s->value, names);
	else if (!named)
		finding_add(out, "nccl.socket_ifname", SEVERITY_FAIL, subject, fix, "NCCL_SOCKET_IFNAME=%s matches no "
			    "interface of this node: NCCL finds no bootstrap interface and fails", s->value);
	else
		finding_add(out, "nccl.socket_ifname", SEVERITY_FAIL, subject, fix, "NCCL_SOCKET_IFNAME=%s matches no "
			    "up interface with an address%s%s%s", s->value, names[0] ? " (up but no address: " : "",
			    names[0] ? names : "", names[0] ? ")" : "");
}

static void check_ib_disable(const struct check_input *in, struct findings *out)
{
	const struct nccl_setting *s = nccl_conf_get(in->nccl, "NCCL_IB_DISABLE");
	char usable[512], fix[600], subject[320];
	size_t n = usable_ports(in, usable, sizeof(usable));

	if (!findings_wanted(out, "nccl.ib_disable") || !s)
		return;
	snprintf(subject, sizeof(subject), "NCCL_IB_DISABLE (%s)", s->source);
	if (atoi(s->value) == 0) {
		finding_add(out, "nccl.ib_disable", SEVERITY_OK, subject, NULL, "NCCL_IB_DISABLE=%s: RDMA enabled", s->value);
		return;
	}
	if (nccl_source_is_environment(s->source))
		snprintf(fix, sizeof(fix), "unset NCCL_IB_DISABLE   # in the job's launcher (its shell, sbatch script or "
			 "pod spec); or export NCCL_IB_DISABLE=0");
	else
		where_fix(s, "NCCL_IB_DISABLE=0", fix, sizeof(fix));
	finding_add(out, "nccl.ib_disable", n ? SEVERITY_WARN : SEVERITY_INFO, subject, n ? fix : NULL,
		    "NCCL_IB_DISABLE=%s: NCCL uses TCP sockets only%s%s", s->value,
		    n ? " while usable RoCE ports exist: " : "", n ? usable + 1 : "");
}

/* A plugin NCCL cannot open is logged at INFO and skipped: the job runs on NCCL's own transports instead of the
 * one it was set up for (EFA through aws-ofi, a vendor's NIC), with nothing in its output to say so. */
void check_nccl_net_plugin(const struct check_input *in, struct findings *out)
{
	const struct nccl_setting *s = nccl_conf_get(in->nccl, "NCCL_NET_PLUGIN");
	char entry[256], tried[600], found[NCCL_LIB_PATH_MAX], fix[1200], subject[340];
	size_t missing;

	if (!findings_wanted(out, "nccl.net_plugin") || !s || !in->nccl_libs)
		return;
	snprintf(subject, sizeof(subject), "NCCL_NET_PLUGIN (%s)", s->source);
	missing = nccl_net_plugin_missing(s->value, in->nccl_libs, entry, sizeof(entry), tried, sizeof(tried), found,
					  sizeof(found));
	if (!missing) {
		finding_add(out, "nccl.net_plugin", SEVERITY_OK, subject, NULL, "NCCL_NET_PLUGIN=%s%s%s", s->value,
			    found[0] ? ": found " : ": no plugin", found[0] ? found : " loaded");
		return;
	}
	if (s->origin == NCCL_FROM_FILE)
		snprintf(fix, sizeof(fix), "sed -i '%ud' %s   # or install %s where the loader finds it (a directory of "
			 "LD_LIBRARY_PATH, or /etc/ld.so.conf.d/ and ldconfig)", s->line, s->file,
			 strchr(tried, ' ') ? strchr(tried, ' ') + 1 : tried);
	else
		snprintf(fix, sizeof(fix), "unset NCCL_NET_PLUGIN   # in the job's launcher or shell; or install %s "
			 "where the loader finds it (a directory of LD_LIBRARY_PATH, or /etc/ld.so.conf.d/ and ldconfig)",
			 strchr(tried, ' ') ? strchr(tried, ' ') + 1 : tried);
	finding_add(out, "nccl.net_plugin", SEVERITY_WARN, subject, fix, "NCCL_NET_PLUGIN=%s: the plugin %s is not on "
		    "this node (NCCL tries %s; none was found by the linker's cache, LD_LIBRARY_PATH or beside an "
		    "NCCL): NCCL logs \"NET/Plugin: Could not find\" and runs on its own IB or socket transport",
		    s->value, entry, tried);
}

/* A name one or two edits from a variable NCCL reads: NCCL ignores it without a word. */
static void check_not_read(const struct check_input *in, struct findings *out)
{
	char fix[1400], subject[440];

	if (!findings_wanted(out, "nccl.unknown_name"))
		return;
	for (size_t i = 0; i < in->nccl->not_read_count; i++) {
		const struct nccl_setting *s = &in->nccl->not_read[i];
		const char *near = nccl_env_name_nearest(s->name);

		if (!near)
			continue;   /* an image's label (NCCL_VERSION) or another tool's variable, no typo */
		snprintf(subject, sizeof(subject), "%s (%s)", s->name, s->source);
		if (s->origin == NCCL_FROM_FILE)
			snprintf(fix, sizeof(fix), "sed -i '%us|^%s=|%s=|' %s", s->line, s->name, near, s->file);
		else
			snprintf(fix, sizeof(fix), "unset %s; export %s=%s   # in the job's launcher or shell", s->name,
				 near, s->value);
		finding_add(out, "nccl.unknown_name", SEVERITY_WARN, subject, fix, "%s=%s is not a variable NCCL reads "
			    "(NCCL ignores it without a word): did you mean %s?", s->name, s->value, near);
	}
}

void check_nccl(const struct check_input *in, struct findings *out)
{
	if (!in->nccl)
		return;
	check_ib_hca(in, out);
	check_socket_ifname(in, out);
	check_ib_disable(in, out);
	check_nccl_net_plugin(in, out);
	check_not_read(in, out);
}
