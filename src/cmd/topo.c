// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor topo: the GPU x NIC matrix of nvidia-smi topo -m from sysfs, each GPU's nearest NICs (the rails),
 * and the PCIe bridges and links on their paths. */
#include <string.h>

#include "cmd/commands.h"
#include "core/topo.h"
#include "output/render.h"
#include "output/topo_text.h"
#include "probe/pci_topology.h"

static error_t parse_topo(int key, char *arg, struct argp_state *state)
{
	(void)state;
	switch (key) {
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp topo_argp = {
	NULL, parse_topo, "",
	"Show where the NVIDIA GPUs and RDMA NICs sit on PCIe, read from sysfs alone (no nvidia-smi or driver "
	"needed): the GPU x NIC matrix as nvidia-smi topo -m prints it (PIX, PXB, PHB, NODE, SYS), NUMA nodes, each "
	"GPU's nearest NICs (its rails), NICs that are no GPU's nearest (front-end), PCIe links below their "
	"capability and bridges whose ACS redirects peer-to-peer traffic.\vUnder --root the tree is read from DIR.",
	NULL, NULL, NULL,
};

static json_t *link_json(const struct pci_link *l)
{
	json_t *o = json_object();

	json_object_set_new(o, "current_speed", json_str_or_null(l->cur_speed));
	json_object_set_new(o, "current_width", l->cur_width > 0 ? json_integer(l->cur_width) : json_null());
	json_object_set_new(o, "max_speed", json_str_or_null(l->max_speed));
	json_object_set_new(o, "max_width", l->max_width > 0 ? json_integer(l->max_width) : json_null());
	json_object_set_new(o, "degraded", json_boolean(topo_link_degraded(l)));
	return o;
}

static json_t *path_json(const struct pci_function *f)
{
	json_t *list = json_array();

	for (size_t i = 0; i < f->chain_len; i++)
		json_array_append_new(list, json_string(f->chain[i]));
	return list;
}

static const char *acs_name(const struct pci_bridge *b)
{
	if (b->acs == ACS_UNKNOWN)
		return "unknown";
	if (b->acs == ACS_ABSENT)
		return "absent";
	return topo_acs_redirects(b) ? "redirect" : "off";
}

/* The bridges between gpu and nic whose ACS redirects, or is unknown. */
static json_t *acs_on_path(const struct pci_topology *t, const struct pci_function *gpu, const struct pci_function *nic,
			   const char *which)
{
	size_t idx[2 * PCI_CHAIN_MAX], n = topo_bridges_between(t, gpu, nic, idx, 2 * PCI_CHAIN_MAX);
	json_t *list = json_array();

	for (size_t i = 0; i < n; i++)
		if (strcmp(acs_name(&t->bridges[idx[i]]), which) == 0)
			json_array_append_new(list, json_string(t->bridges[idx[i]].address));
	return list;
}

/* Adds the names of from not yet in to (two nearest NICs share bridges), and drops from. */
static void append_new_names(json_t *to, json_t *from)
{
	size_t i, k;
	json_t *v, *w;

	json_array_foreach(from, i, v) {
		bool seen = false;

		json_array_foreach(to, k, w)
			seen = seen || json_equal(v, w);
		if (!seen)
			json_array_append(to, v);
	}
	json_decref(from);
}

static json_t *function_json(const struct pci_topology *t, size_t i)
{
	const struct pci_function *f = &t->functions[i];
	json_t *o = json_object();

	json_object_set_new(o, "pci_address", json_string(f->address));
	if (f->role == PCI_ROLE_NIC)
		json_object_set_new(o, "device", json_string(f->rdma_device));
	json_object_set_new(o, "device_id", json_integer(f->device_id));
	json_object_set_new(o, "numa_node", f->numa_node >= 0 ? json_integer(f->numa_node) : json_null());
	json_object_set_new(o, "cpulist", json_str_or_null(f->cpulist));
	json_object_set_new(o, "host_bridge", json_string(f->host_bridge));
	json_object_set_new(o, "bridges", path_json(f));
	json_object_set_new(o, "link", link_json(&f->link));
	return o;
}

static json_t *gpu_json(const struct pci_topology *t, size_t g, size_t index)
{
	json_t *o = function_json(t, g), *rel = json_array(), *near = json_array(), *acs = json_array(),
	       *unknown = json_array();
	size_t idx[PCI_FUNCTIONS_MAX], n;
	enum topo_relation best;

	json_object_set_new(o, "gpu", json_sprintf("GPU%zu", index));
	for (size_t i = 0; i < t->count; i++)
		if (t->functions[i].role == PCI_ROLE_NIC) {
			json_t *r = json_object();

			json_object_set_new(r, "device", json_string(t->functions[i].rdma_device));
			json_object_set_new(r, "relation",
					    json_string(topo_relation_name(topo_relation(&t->functions[g], &t->functions[i]))));
			json_array_append_new(rel, r);
		}
	json_object_set_new(o, "relations", rel);
	n = topo_nearest(t, g, idx, PCI_FUNCTIONS_MAX, &best);
	for (size_t i = 0; i < n; i++) {
		json_t *r = acs_on_path(t, &t->functions[g], &t->functions[idx[i]], "redirect");
		json_t *u = acs_on_path(t, &t->functions[g], &t->functions[idx[i]], "unknown");

		json_array_append_new(near, json_string(t->functions[idx[i]].rdma_device));
		append_new_names(acs, r);
		append_new_names(unknown, u);
	}
	json_object_set_new(o, "nearest", near);
	json_object_set_new(o, "nearest_relation", n ? json_string(topo_relation_name(best)) : json_null());
	json_object_set_new(o, "acs_redirect", acs);
	json_object_set_new(o, "acs_unknown", unknown);
	return o;
}

static json_t *nic_json(const struct pci_topology *t, size_t i)
{
	json_t *o = function_json(t, i);
	long twin = topo_twin_of(t, i);

	json_object_set_new(o, "rail", json_boolean(topo_is_rail(t, i)));
	json_object_set_new(o, "twin", twin >= 0 ? json_string(t->functions[twin].rdma_device) : json_null());
	return o;
}

static json_t *bridge_json(const struct pci_bridge *b)
{
	json_t *o = json_object();

	json_object_set_new(o, "pci_address", json_string(b->address));
	json_object_set_new(o, "acs", json_string(acs_name(b)));
	json_object_set_new(o, "acs_ctrl", b->acs == ACS_PRESENT ? json_integer(b->acs_ctrl) : json_null());
	json_object_set_new(o, "acs_offset", b->acs == ACS_PRESENT ? json_integer(b->acs_offset) : json_null());
	json_object_set_new(o, "link", link_json(&b->link));
	return o;
}

static json_t *topo_doc(const struct pci_topology *t)
{
	json_t *doc = doc_new("topo"), *gpus = json_array(), *nics = json_array(), *bridges = json_array();
	size_t gpu_index = 0;

	for (size_t i = 0; i < t->count; i++) {
		if (t->functions[i].role == PCI_ROLE_GPU)
			json_array_append_new(gpus, gpu_json(t, i, gpu_index++));
		else
			json_array_append_new(nics, nic_json(t, i));
	}
	for (size_t i = 0; i < t->bridge_count; i++)
		json_array_append_new(bridges, bridge_json(&t->bridges[i]));
	json_object_set_new(doc, "gpus", gpus);
	json_object_set_new(doc, "nics", nics);
	json_object_set_new(doc, "bridges", bridges);
	return doc;
}

/* --from: the PCI placement the snapshot recorded for check's gpu.* findings, the same model topo reads. */
static int topo_from_snapshot(struct app *app)
{
	struct system_state system;
	struct host host;
	bool known = false;
	json_t *doc;
	int code = app_read_snapshot(app, &host, &system, &known);

	if (code != EXIT_OK)
		return code;
	if (!known || !system.pci_read) {
		fprintf(stderr, "roce-doctor topo: snapshot %s has no PCI placement (an older roce-doctor took it): take it "
			"again with `roce-doctor snapshot > FILE`\n", app_from_name(app));
		code = EXIT_CANNOT_RUN;
	} else {
		struct notes none = { 0 };

		doc = topo_doc(&system.pci);
		code = app_emit(app, doc, &none, topo_print_text, EXIT_OK);
		json_decref(doc);
	}
	if (known)
		system_free(&system);
	host_free(&host);
	return code;
}

int cmd_topo(struct app *app, int argc, char **argv)
{
	struct notes notes = { 0 };
	struct pci_topology t;
	struct rootfs root;
	json_t *doc;
	int ret, code;

	if (command_parse(&topo_argp, COMMON_ROOT | COMMON_FROM, argc, argv, NULL, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "topo", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	if (app->from_file)
		return topo_from_snapshot(app);
	ret = rootfs_open(&root, app->root_dir);
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: cannot open root directory %s: %s\n", app->root_dir ? app->root_dir : "/",
			strerror(-ret));
		return EXIT_CANNOT_RUN;
	}
	ret = pci_topology_read(&root, &t, &notes);
	rootfs_close(&root);
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: cannot read the PCI tree: %s\n", strerror(-ret));
		notes_free(&notes);
		return EXIT_CANNOT_RUN;
	}
	doc = topo_doc(&t);
	code = app_emit(app, doc, &notes, topo_print_text, EXIT_OK);
	json_decref(doc);
	pci_topology_free(&t);
	notes_free(&notes);
	return code;
}
