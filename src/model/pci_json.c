// SPDX-License-Identifier: GPL-2.0-only
/* model/pci.h to JSON and back. Unknown is null everywhere (an empty speed, a width of 0, NUMA -1), so that
 * probe -> JSON -> model -> JSON is byte-identical. */
#include "model/pci_json.h"

#include <limits.h>

static const char *const roles[] = { "gpu", "nic" };
static const char *const acs_states[] = { "unknown", "absent", "present" };

static json_t *link_to_json(const struct pci_link *l)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "current_speed", string_or_null(l->cur_speed)) &&
				   put(o, "current_width", positive_or_null(l->cur_width)) &&
				   put(o, "max_speed", string_or_null(l->max_speed)) &&
				   put(o, "max_width", positive_or_null(l->max_width)));
}

static json_t *function_to_json(const struct pci_function *f)
{
	json_t *o = json_object(), *chain = json_array();
	bool ok = o && chain;

	for (size_t i = 0; ok && i < f->chain_len; i++)
		ok = append(chain, json_string(f->chain[i]));
	if (!ok)
		json_decref(chain);
	return finished(o, ok && put(o, "pci_address", json_string(f->address)) &&
				   put(o, "role", json_string(roles[f->role])) &&
				   put(o, "device", string_or_null(f->rdma_device)) &&
				   put(o, "vendor", json_integer(f->vendor)) && put(o, "device_id", json_integer(f->device_id)) &&
				   put(o, "class_code", json_integer(f->class_code)) &&
				   put(o, "host_bridge", json_string(f->host_bridge)) && put(o, "bridges", chain) &&
				   put(o, "numa_node", f->numa_node >= 0 ? json_integer(f->numa_node) : json_null()) &&
				   put(o, "cpulist", string_or_null(f->cpulist)) && put(o, "link", link_to_json(&f->link)));
}

static json_t *bridge_to_json(const struct pci_bridge *b)
{
	json_t *o = json_object();
	bool present = b->acs == ACS_PRESENT;

	return finished(o, o && put(o, "pci_address", json_string(b->address)) &&
				   put(o, "acs", json_string(acs_states[b->acs])) &&
				   put(o, "acs_offset", present ? json_integer(b->acs_offset) : json_null()) &&
				   put(o, "acs_ctrl", present ? json_integer(b->acs_ctrl) : json_null()) &&
				   put(o, "link", link_to_json(&b->link)));
}

json_t *pci_topology_to_json(const struct pci_topology *t)
{
	json_t *o = json_object(), *functions = json_array(), *bridges = json_array();
	bool ok = o && functions && bridges;

	for (size_t i = 0; ok && i < t->count; i++)
		ok = append(functions, function_to_json(&t->functions[i]));
	for (size_t i = 0; ok && i < t->bridge_count; i++)
		ok = append(bridges, bridge_to_json(&t->bridges[i]));
	if (!ok) {
		json_decref(functions);
		json_decref(bridges);
		json_decref(o);
		return NULL;
	}
	return finished(o, put(o, "functions", functions) && put(o, "bridges", bridges));
}

/* ---- reader ---- */

static int read_uint(struct reader *r, const struct jnode *o, const char *key, json_int_t max, bool nullable,
		     json_int_t null_value, int *out)
{
	json_int_t v = 0;
	int ret = read_integer(r, o, key, 0, max, nullable, null_value, &v);

	*out = (int)v;
	return ret;
}

static const char *const link_members[] = { "current_speed", "current_width", "max_speed", "max_width" };

static int read_link(struct reader *r, const struct jnode *o, struct pci_link *l)
{
	size_t mark = path_member(r, "link");
	const struct jnode *v = jnode_object_get(o, "link");
	int ret = v ? check_object(r, v, link_members, COUNT(link_members)) : invalid(r, "missing (expected an object)");

	if (ret == 0)
		ret = read_string(r, v, "current_speed", true, l->cur_speed, sizeof(l->cur_speed));
	if (ret == 0)
		ret = read_uint(r, v, "current_width", 64, true, 0, &l->cur_width);
	if (ret == 0)
		ret = read_string(r, v, "max_speed", true, l->max_speed, sizeof(l->max_speed));
	if (ret == 0)
		ret = read_uint(r, v, "max_width", 64, true, 0, &l->max_width);
	path_leave(r, mark);
	return ret;
}

static int read_address(struct reader *r, const struct jnode *o, const char *key, char *dst)
{
	return read_string(r, o, key, false, dst, PCI_ADDRESS_LEN);
}

static const char *const function_members[] = { "pci_address", "role", "device", "vendor", "device_id",
						"class_code", "host_bridge", "bridges", "numa_node", "cpulist", "link" };

static int read_function(struct reader *r, const struct jnode *o, struct pci_function *f)
{
	const struct jnode *chain = NULL;
	int role = 0, v = 0, ret = check_object(r, o, function_members, COUNT(function_members));

	if (ret == 0)
		ret = read_address(r, o, "pci_address", f->address);
	if (ret == 0)
		ret = read_name(r, o, "role", roles, COUNT(roles), "\"gpu\" or \"nic\"", &role);
	if (ret == 0 && role < 0)
		ret = invalid(r, "role: expected \"gpu\" or \"nic\", got null");
	f->role = role > 0 ? PCI_ROLE_NIC : PCI_ROLE_GPU;
	if (ret == 0)
		ret = read_string(r, o, "device", true, f->rdma_device, sizeof(f->rdma_device));
	if (ret == 0 && (ret = read_uint(r, o, "vendor", 0xffff, false, 0, &v)) == 0)
		f->vendor = (unsigned)v;
	if (ret == 0 && (ret = read_uint(r, o, "device_id", 0xffff, false, 0, &v)) == 0)
		f->device_id = (unsigned)v;
	if (ret == 0 && (ret = read_uint(r, o, "class_code", 0xffffff, false, 0, &v)) == 0)
		f->class_code = (unsigned)v;
	if (ret == 0)
		ret = read_address(r, o, "host_bridge", f->host_bridge);
	if (ret == 0)
		ret = read_array(r, o, "bridges", false, PCI_CHAIN_MAX, &chain);
	for (size_t i = 0; ret == 0 && i < jnode_array_size(chain); i++) {
		size_t mark = path_member(r, "bridges"), at = path_index(r, i);

		ret = string_value(r, jnode_array_get(chain, i), false, f->chain[i], PCI_ADDRESS_LEN);
		path_leave(r, at);
		path_leave(r, mark);
	}
	f->chain_len = jnode_array_size(chain);
	if (ret == 0)
		ret = read_uint(r, o, "numa_node", INT_MAX, true, -1, &f->numa_node);
	if (ret == 0)
		ret = read_string(r, o, "cpulist", true, f->cpulist, sizeof(f->cpulist));
	if (ret == 0)
		ret = read_link(r, o, &f->link);
	return ret;
}

static const char *const bridge_members[] = { "pci_address", "acs", "acs_offset", "acs_ctrl", "link" };

static int read_bridge(struct reader *r, const struct jnode *o, struct pci_bridge *b)
{
	int acs = 0, v = 0, ret = check_object(r, o, bridge_members, COUNT(bridge_members));
	bool present;

	if (ret == 0)
		ret = read_address(r, o, "pci_address", b->address);
	if (ret == 0)
		ret = read_name(r, o, "acs", acs_states, COUNT(acs_states), "\"unknown\", \"absent\" or \"present\"", &acs);
	if (ret == 0 && acs < 0)
		ret = invalid(r, "acs: expected \"unknown\", \"absent\" or \"present\", got null");
	b->acs = acs == 2 ? ACS_PRESENT : acs == 1 ? ACS_ABSENT : ACS_UNKNOWN;
	present = b->acs == ACS_PRESENT;
	/* present: both registers known; otherwise both null, as the writer spells them */
	if (ret == 0 && (ret = read_uint(r, o, "acs_offset", present ? 0xffc : 0, !present, 0, &v)) == 0)
		b->acs_offset = (unsigned)v;
	if (ret == 0 && (ret = read_uint(r, o, "acs_ctrl", present ? 0xffff : 0, !present, 0, &v)) == 0)
		b->acs_ctrl = (unsigned)v;
	if (ret == 0)
		ret = read_link(r, o, &b->link);
	return ret;
}

static const char *const topology_members[] = { "functions", "bridges" };

int pci_topology_from_json(struct reader *r, const struct jnode *v, struct pci_topology *t)
{
	const struct jnode *functions = NULL, *bridges = NULL;
	int ret = check_object(r, v, topology_members, COUNT(topology_members));

	memset(t, 0, sizeof(*t));
	if (ret == 0)
		ret = read_array(r, v, "functions", false, PCI_FUNCTIONS_MAX, &functions);
	if (ret == 0)
		ret = read_array(r, v, "bridges", false, PCI_BRIDGES_MAX, &bridges);
	if (ret == 0)
		t->functions = entries(r, jnode_array_size(functions), sizeof(*t->functions), &ret);
	if (ret == 0)
		t->bridges = entries(r, jnode_array_size(bridges), sizeof(*t->bridges), &ret);
	for (size_t i = 0; ret == 0 && i < jnode_array_size(functions); i++) {
		size_t mark = path_member(r, "functions"), at = path_index(r, i);
		struct pci_function *f = &t->functions[i];

		memset(f, 0, sizeof(*f));
		ret = read_function(r, jnode_array_get(functions, i), f);
		path_leave(r, at);
		path_leave(r, mark);
	}
	for (size_t i = 0; ret == 0 && i < jnode_array_size(bridges); i++) {
		size_t mark = path_member(r, "bridges"), at = path_index(r, i);
		struct pci_bridge *b = &t->bridges[i];

		memset(b, 0, sizeof(*b));
		ret = read_bridge(r, jnode_array_get(bridges, i), b);
		path_leave(r, at);
		path_leave(r, mark);
	}
	t->count = jnode_array_size(functions);
	t->bridge_count = jnode_array_size(bridges);
	return ret;
}

void pci_topology_json_free(struct pci_topology *t)
{
	free(t->functions);
	free(t->bridges);
	memset(t, 0, sizeof(*t));
}
