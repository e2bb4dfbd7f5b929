// SPDX-License-Identifier: GPL-2.0-only
/* The host model to JSON and back. Writer and reader sit side by side, member for member in the same order,
 * so a member added to one is seen missing from the other. The reader trusts nothing: it validates and builds
 * in one walk (a first, validating walk was a quarter of compare's reading), and frees what it built when a
 * member is wrong. */
#include "model/host_json.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json_io.h"
#include "util/gidaddr.h"

#define ADDRESS_TEXT_MAX 64      /* "ffff:...:ffff/128" with room for any prefix number */

static const char *const gid_type_names[] = { "v1", "IB", "v2" };   /* v1 on Ethernet, IB on InfiniBand */
static const char *const link_layer_names[] = { "Ethernet", "InfiniBand" };
static const char *const netdev_sources[] = { "gid_attrs", "parent", "dev_port", "netlink" };

/* ---- writer ---- */

static json_t *gid_to_json(const struct gid_entry *g, enum link_layer ll)
{
	json_t *o = json_object();
	char text[40];

	gid_format_sysfs(&g->gid, text);
	return finished(o, o && put(o, "index", json_integer(g->index)) && put(o, "gid", json_string(text)) &&
			   put(o, "type", g->type == GID_TYPE_UNKNOWN ? json_null() : json_string(gid_type_name(g->type, ll))) &&
			   put(o, "netdev", string_or_null(g->netdev)));
}

static json_t *netlink_to_json(const struct rdma_port *p)
{
	json_t *o;

	if (!p->netlink_known)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "netdev", string_or_null(p->netdev_netlink)) &&
			   put(o, "ifindex", positive_or_null(p->netdev_netlink_index)));
}

static json_t *port_to_json(const struct rdma_port *p)
{
	json_t *o = json_object(), *gids = NULL;
	bool ok = o && put(o, "port", json_integer(p->num)) &&
		  put(o, "state", string_or_null(p->state_name)) &&
		  put(o, "state_num", p->state >= 0 ? json_integer(p->state) : json_null()) &&
		  put(o, "phys_state", string_or_null(p->phys_state_name)) &&
		  put(o, "phys_state_num", p->phys_state >= 0 ? json_integer(p->phys_state) : json_null()) &&
		  put(o, "rate", string_or_null(p->rate)) &&
		  put(o, "rate_gbps", p->rate_gbps > 0 && isfinite(p->rate_gbps) ? json_real(p->rate_gbps) : json_null()) &&
		  put(o, "link_layer", p->link_layer == LINK_LAYER_UNKNOWN ? json_null() : json_string(link_layer_name(p->link_layer))) &&
		  put(o, "netdev", string_or_null(p->netdev)) &&
		  put(o, "netdev_source", string_or_null(p->netdev_source)) &&
		  put(o, "netlink", netlink_to_json(p)) &&
		  put(o, "active_mtu", positive_or_null(p->active_mtu)) &&
		  put(o, "max_mtu", positive_or_null(p->max_mtu)) &&
		  put(o, "lid", p->lid_known ? json_integer(p->lid) : json_null()) &&
		  put(o, "sm_lid", p->sm_lid_known ? json_integer(p->sm_lid) : json_null()) &&
		  put(o, "gids", gids = json_array());

	for (size_t i = 0; ok && i < p->gid_count; i++)
		ok = append(gids, gid_to_json(&p->gids[i], p->link_layer));
	return finished(o, ok);
}

static json_t *device_to_json(const struct rdma_device *d)
{
	json_t *o = json_object(), *ports = NULL;
	bool ok = o && put(o, "device", json_string(d->name)) &&
		  put(o, "fw_ver", string_or_null(d->fw_ver)) &&
		  put(o, "node_guid", string_or_null(d->node_guid)) &&
		  put(o, "pci_address", string_or_null(d->pci_address)) &&
		  put(o, "numa_node", d->numa_known ? json_integer(d->numa_node) : json_null()) &&
		  put(o, "driver", string_or_null(d->driver)) &&
		  put(o, "parent", string_or_null(d->parent)) &&
		  put(o, "ports", ports = json_array());

	for (size_t i = 0; ok && i < d->port_count; i++)
		ok = append(ports, port_to_json(&d->ports[i]));
	return finished(o, ok);
}

/* "10.0.0.1/24", "fe80::1/64"; -EAFNOSUPPORT for a family JSON has no spelling for here. */
static int address_text(const struct ip_address *a, char buf[ADDRESS_TEXT_MAX])
{
	char ip[INET6_ADDRSTRLEN];

	if (a->family == AF_INET)
		inet_ntop(AF_INET, &a->addr.s6_addr[12], ip, sizeof(ip));
	else if (a->family == AF_INET6)
		inet_ntop(AF_INET6, &a->addr, ip, sizeof(ip));
	else
		return -EAFNOSUPPORT;
	snprintf(buf, ADDRESS_TEXT_MAX, "%s/%u", ip, a->prefix_len);
	return 0;
}

static json_t *addresses_to_json(const struct netdev *nd)
{
	json_t *list;
	bool ok;

	if (!nd->addrs_known)
		return json_null();
	list = json_array();
	ok = list != NULL;
	for (size_t i = 0; ok && i < nd->addr_count; i++) {
		char text[ADDRESS_TEXT_MAX];

		ok = address_text(&nd->addrs[i], text) == 0 && append(list, json_string(text));
	}
	return finished(list, ok);
}

static json_t *link_modes_to_json(const struct netdev *nd)
{
	json_t *o;

	if (!nd->modes_known)
		return json_null();
	o = json_object();
	return finished(o, o && put(o, "max_supported_mbps", json_integer(nd->max_supported_mbps)) &&
			   put(o, "max_supported_mode", string_or_null(nd->max_supported_mode)));
}

static json_t *netdev_to_json(const struct netdev *nd)
{
	json_t *o = json_object();

	return finished(o, o && put(o, "netdev", json_string(nd->name)) &&
			   put(o, "ifindex", positive_or_null(nd->ifindex)) &&
			   put(o, "mtu", positive_or_null(nd->mtu)) &&
			   put(o, "operstate", string_or_null(nd->operstate)) &&
			   put(o, "carrier", nd->carrier >= 0 ? json_boolean(nd->carrier) : json_null()) &&
			   put(o, "speed_mbps", positive_or_null(nd->speed_mbps)) &&
			   put(o, "link_modes", link_modes_to_json(nd)) &&
			   put(o, "addresses", addresses_to_json(nd)));
}

json_t *host_to_json(const struct host *host)
{
	json_t *doc = json_object(), *devices = NULL, *netdevs = NULL, *warnings = NULL;
	bool ok = doc && put(doc, "schema", json_string(HOST_JSON_SCHEMA)) && put(doc, "live", json_boolean(host->live)) &&
		  put(doc, "devices", devices = json_array()) && put(doc, "netdevs", netdevs = json_array()) &&
		  put(doc, "warnings", warnings = json_array()) &&
		  put(doc, "warnings_dropped", json_integer((json_int_t)host->warnings.dropped));

	for (size_t i = 0; ok && i < host->device_count; i++)
		ok = append(devices, device_to_json(&host->devices[i]));
	for (size_t i = 0; ok && i < host->netdev_count; i++)
		ok = append(netdevs, netdev_to_json(&host->netdevs[i]));
	for (size_t i = 0; ok && i < host->warnings.count; i++)
		ok = append(warnings, json_string(host->warnings.items[i]));
	return finished(doc, ok);
}

/* ---- reader ---- */

static int read_gid_text(struct reader *r, const struct jnode *obj, struct in6_addr *gid)
{
	static const char expected[] = "a GID in sysfs spelling (\"fe80:0000:0000:0000:0000:0000:0000:0001\")";
	size_t mark = path_member(r, "gid");
	const struct jnode *v;
	int ret = member(r, obj, "gid", expected, &v);

	if (ret == 0 && !jnode_is_string(v))
		ret = invalid(r, "expected %s, got %s", expected, type_name(v));
	else if (ret == 0 && (jnode_string_length(v) != 39 || gid_parse_sysfs(jnode_string_value(v), gid) < 0))
		ret = invalid(r, "expected %s, got \"%.64s\"", expected, jnode_string_value(v));
	else if (ret == 0 && gid_is_zero(gid))
		ret = invalid(r, "expected a non-zero GID (the model keeps used entries only)");
	path_leave(r, mark);
	return ret;
}

static const char *const gid_members[] = { "index", "gid", "type", "netdev" };

static int read_gid(struct reader *r, const struct jnode *j, struct gid_entry *g)
{
	json_int_t index = 0;
	int type = -1;
	int ret = check_object(r, j, gid_members, COUNT(gid_members));

	if (ret == 0)
		ret = read_integer(r, j, "index", 0, UINT_MAX, false, 0, &index);
	if (ret == 0)
		ret = read_gid_text(r, j, &g->gid);
	if (ret == 0)
		ret = read_name(r, j, "type", gid_type_names, COUNT(gid_type_names), "\"v1\", \"v2\", \"IB\" or null", &type);
	if (ret == 0)
		ret = read_string(r, j, "netdev", true, g->netdev, sizeof(g->netdev));
	g->index = (unsigned)index;
	g->type = type < 0 ? GID_TYPE_UNKNOWN : type <= 1 ? GID_TYPE_IB_ROCE_V1 : GID_TYPE_ROCE_V2;
	return ret;
}

/* Ascending indexes, as the probe lists them: rules that look up an index may stop at the first larger one. */
static int read_gids(struct reader *r, const struct jnode *port, struct rdma_port *p)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, port, "gids", false, HOST_GIDS_MAX, &list);

	if (ret < 0)
		return ret;
	p->gids = entries(r, jnode_array_size(list), sizeof(*p->gids), &ret);
	if (ret < 0)
		return ret;
	p->gid_count = jnode_array_size(list);
	mark = path_member(r, "gids");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		struct gid_entry *g = &p->gids[i];
		size_t at = path_index(r, i);
		unsigned previous = i ? (unsigned)jnode_integer_value(jnode_object_get(jnode_array_get(list, i - 1), "index")) : 0;

		memset(g, 0, sizeof(*g));
		ret = read_gid(r, jnode_array_get(list, i), g);
		if (ret == 0 && i > 0 && g->index <= previous) {
			size_t m = path_member(r, "index");

			ret = invalid(r, "expected an index above the previous entry's (%u), got %u", previous, g->index);
			path_leave(r, m);
		}
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const netlink_members[] = { "netdev", "ifindex" };

/* null: RDMA netlink was not asked (or did not answer); otherwise what it said, netdev null for none. */
static int read_netlink(struct reader *r, const struct jnode *port, struct rdma_port *p)
{
	size_t mark = path_member(r, "netlink");
	const struct jnode *v;
	json_int_t ifindex = 0;
	int ret = member(r, port, "netlink", "an object or null", &v);

	if (ret == 0 && !jnode_is_null(v) && !jnode_is_object(v)) {
		ret = invalid(r, "expected an object or null, got %s", type_name(v));
	} else if (ret == 0 && !jnode_is_null(v)) {
		ret = check_object(r, v, netlink_members, COUNT(netlink_members));
		if (ret == 0)
			ret = read_string(r, v, "netdev", true, p->netdev_netlink, sizeof(p->netdev_netlink));
		if (ret == 0)
			ret = read_integer(r, v, "ifindex", 1, INT_MAX, true, 0, &ifindex);
		p->netlink_known = true;
		p->netdev_netlink_index = (unsigned)ifindex;
	}
	path_leave(r, mark);
	return ret;
}

/* ibv_query_port knows these five; 0 (null) is unknown. */
static int read_mtu(struct reader *r, const struct jnode *port, const char *key, int *mtu)
{
	static const char expected[] = "256, 512, 1024, 2048, 4096 or null";
	size_t mark = path_member(r, key);
	const struct jnode *v;
	json_int_t bytes;
	int ret = member(r, port, key, expected, &v);

	*mtu = 0;
	if (ret == 0 && !jnode_is_null(v)) {
		bytes = jnode_integer_value(v);
		if (!jnode_is_integer(v))
			ret = invalid(r, "expected %s, got %s", expected, type_name(v));
		else if (bytes < 256 || bytes > 4096 || (bytes & (bytes - 1)))
			ret = invalid(r, "expected %s, got %lld", expected, (long long)bytes);
		else
			*mtu = (int)bytes;
	}
	path_leave(r, mark);
	return ret;
}

static int read_rate_gbps(struct reader *r, const struct jnode *port, double *gbps)
{
	static const char expected[] = "a number above 0 or null";
	size_t mark = path_member(r, "rate_gbps");
	const struct jnode *v;
	int ret = member(r, port, "rate_gbps", expected, &v);

	if (ret == 0 && jnode_is_null(v))
		*gbps = 0;
	else if (ret == 0 && !jnode_is_number(v))
		ret = invalid(r, "expected %s, got %s", expected, type_name(v));
	else if (ret == 0 && !(jnode_number_value(v) > 0 && isfinite(jnode_number_value(v))))
		ret = invalid(r, "expected %s, got %g", expected, jnode_number_value(v));
	else if (ret == 0)
		*gbps = jnode_number_value(v);
	path_leave(r, mark);
	return ret;
}

static const char *const port_members[] = { "port", "state", "state_num", "phys_state", "phys_state_num", "rate",
					     "rate_gbps", "link_layer", "netdev", "netdev_source", "netlink",
					     "active_mtu", "max_mtu", "lid", "sm_lid", "gids" };

/* A 16-bit LID or null; absent reads as null too: snapshots taken before roce-doctor read LIDs have none, and
 * refusing them would lose a job's record for a value only InfiniBand ports carry. */
static int read_lid(struct reader *r, const struct jnode *port, const char *key, bool *known, unsigned *lid)
{
	json_int_t v = -1;
	int ret = jnode_object_get(port, key) ? read_integer(r, port, key, 0, 0xffff, true, -1, &v) : 0;

	*known = v >= 0;
	*lid = v >= 0 ? (unsigned)v : 0;
	return ret;
}

static int read_port(struct reader *r, const struct jnode *j, struct rdma_port *p)
{
	json_int_t num = 0, state = -1, phys_state = -1;
	int ll = -1, source = -1;
	int ret = check_object(r, j, port_members, COUNT(port_members));

	if (ret == 0)
		ret = read_integer(r, j, "port", 0, UINT_MAX, false, 0, &num);
	if (ret == 0)
		ret = read_string(r, j, "state", true, p->state_name, sizeof(p->state_name));
	if (ret == 0)
		ret = read_integer(r, j, "state_num", 0, INT_MAX, true, -1, &state);
	if (ret == 0)
		ret = read_string(r, j, "phys_state", true, p->phys_state_name, sizeof(p->phys_state_name));
	if (ret == 0)
		ret = read_integer(r, j, "phys_state_num", 0, INT_MAX, true, -1, &phys_state);
	if (ret == 0)
		ret = read_string(r, j, "rate", true, p->rate, sizeof(p->rate));
	if (ret == 0)
		ret = read_rate_gbps(r, j, &p->rate_gbps);
	if (ret == 0)
		ret = read_name(r, j, "link_layer", link_layer_names, COUNT(link_layer_names),
				"\"Ethernet\", \"InfiniBand\" or null", &ll);
	if (ret == 0)
		ret = read_string(r, j, "netdev", true, p->netdev, sizeof(p->netdev));
	if (ret == 0)
		ret = read_name(r, j, "netdev_source", netdev_sources, COUNT(netdev_sources),
				"\"gid_attrs\", \"parent\", \"dev_port\", \"netlink\" or null", &source);
	if (ret == 0 && source >= 0)
		snprintf(p->netdev_source, sizeof(p->netdev_source), "%s", netdev_sources[source]);
	if (ret == 0)
		ret = read_netlink(r, j, p);
	if (ret == 0)
		ret = read_mtu(r, j, "active_mtu", &p->active_mtu);
	if (ret == 0)
		ret = read_mtu(r, j, "max_mtu", &p->max_mtu);
	if (ret == 0)
		ret = read_lid(r, j, "lid", &p->lid_known, &p->lid);
	if (ret == 0)
		ret = read_lid(r, j, "sm_lid", &p->sm_lid_known, &p->sm_lid);
	p->num = (unsigned)num;
	p->state = (int)state;
	p->phys_state = (int)phys_state;
	p->link_layer = ll == 0 ? LINK_LAYER_ETHERNET : ll == 1 ? LINK_LAYER_INFINIBAND : LINK_LAYER_UNKNOWN;
	if (ret == 0)
		ret = read_gids(r, j, p);
	return ret;
}

static int read_ports(struct reader *r, const struct jnode *device, struct rdma_device *d)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, device, "ports", false, HOST_PORTS_MAX, &list);

	if (ret < 0)
		return ret;
	d->ports = entries(r, jnode_array_size(list), sizeof(*d->ports), &ret);
	if (ret < 0)
		return ret;
	d->port_count = jnode_array_size(list);
	mark = path_member(r, "ports");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		struct rdma_port *p = &d->ports[i];
		size_t at = path_index(r, i);
		unsigned previous = i ? (unsigned)jnode_integer_value(jnode_object_get(jnode_array_get(list, i - 1), "port")) : 0;

		memset(p, 0, sizeof(*p));
		ret = read_port(r, jnode_array_get(list, i), p);
		if (ret == 0 && i > 0 && p->num <= previous) {
			size_t m = path_member(r, "port");

			ret = invalid(r, "expected a port number above the previous port's (%u), got %u", previous, p->num);
			path_leave(r, m);
		}
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const device_members[] = { "device", "fw_ver", "node_guid", "pci_address", "numa_node",
					       "driver", "parent", "ports" };

static int read_device(struct reader *r, const struct jnode *j, struct rdma_device *d)
{
	json_int_t numa = 0;
	int ret = check_object(r, j, device_members, COUNT(device_members));

	if (ret == 0)
		ret = read_string(r, j, "device", false, d->name, sizeof(d->name));
	if (ret == 0)
		ret = read_string(r, j, "fw_ver", true, d->fw_ver, sizeof(d->fw_ver));
	if (ret == 0)
		ret = read_string(r, j, "node_guid", true, d->node_guid, sizeof(d->node_guid));
	if (ret == 0)
		ret = read_string(r, j, "pci_address", true, d->pci_address, sizeof(d->pci_address));
	/* -1 is the kernel's own "no NUMA affinity", a known answer; null is not asked or unreadable */
	if (ret == 0)
		ret = read_integer(r, j, "numa_node", -1, INT_MAX, true, LLONG_MIN, &numa);
	d->numa_known = ret == 0 && numa != LLONG_MIN;
	d->numa_node = d->numa_known ? (int)numa : 0;
	if (ret == 0)
		ret = read_string(r, j, "driver", true, d->driver, sizeof(d->driver));
	if (ret == 0)
		ret = read_string(r, j, "parent", true, d->parent, sizeof(d->parent));
	if (ret == 0)
		ret = read_ports(r, j, d);
	return ret;
}

static int read_devices(struct reader *r, const struct jnode *doc, struct host *h)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, doc, "devices", false, HOST_DEVICES_MAX, &list);

	if (ret < 0)
		return ret;
	h->devices = entries(r, jnode_array_size(list), sizeof(*h->devices), &ret);
	if (ret < 0)
		return ret;
	h->device_count = jnode_array_size(list);
	mark = path_member(r, "devices");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		struct rdma_device *d = &h->devices[i];
		size_t at = path_index(r, i);

		memset(d, 0, sizeof(*d));
		ret = read_device(r, jnode_array_get(list, i), d);
		if (ret == 0)
			ret = check_unique(r, list, i, "device");
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

/* "10.0.0.1/24" or "fe80::1/64": the prefix in decimal without leading zeros, within the family's width. */
static int parse_address(const char *text, size_t len, struct ip_address *a)
{
	const char *slash = memchr(text, '/', len);
	char ip[INET6_ADDRSTRLEN];
	const char *digits;
	unsigned long prefix;
	size_t ip_len, ndigits;

	if (!slash || memchr(text, '\0', len))
		return -EINVAL;
	ip_len = (size_t)(slash - text);
	digits = slash + 1;
	ndigits = len - ip_len - 1;
	if (ip_len == 0 || ip_len >= sizeof(ip) || ndigits == 0 || ndigits > 3 || (digits[0] == '0' && ndigits > 1) ||
	    strspn(digits, "0123456789") != ndigits)
		return -EINVAL;
	memcpy(ip, text, ip_len);
	ip[ip_len] = '\0';
	prefix = strtoul(digits, NULL, 10);
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, ip, &a->addr.s6_addr[12]) == 1) {
		a->family = AF_INET;
		a->addr.s6_addr[10] = 0xff;
		a->addr.s6_addr[11] = 0xff;
	} else if (inet_pton(AF_INET6, ip, &a->addr) == 1) {
		a->family = AF_INET6;
	} else {
		return -EINVAL;
	}
	if (prefix > (a->family == AF_INET ? 32UL : 128UL))
		return -EINVAL;
	a->prefix_len = (unsigned)prefix;
	return 0;
}

/* null: not known (addresses come only from netlink, so never under --root). */
static int read_addresses(struct reader *r, const struct jnode *j, struct netdev *nd)
{
	static const char expected[] = "an address with its prefix length (\"10.0.0.1/24\", \"fe80::1/64\")";
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, j, "addresses", true, HOST_ADDRS_MAX, &list);

	if (ret < 0 || !list)
		return ret;
	nd->addrs_known = true;
	nd->addrs = entries(r, jnode_array_size(list), sizeof(*nd->addrs), &ret);
	if (ret < 0)
		return ret;
	nd->addr_count = jnode_array_size(list);
	mark = path_member(r, "addresses");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		const struct jnode *v = jnode_array_get(list, i);
		size_t at = path_index(r, i);

		if (!jnode_is_string(v))
			ret = invalid(r, "expected %s, got %s", expected, type_name(v));
		else if (parse_address(jnode_string_value(v), jnode_string_length(v), &nd->addrs[i]) < 0)
			ret = invalid(r, "expected %s, got \"%.64s\"", expected, jnode_string_value(v));
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static const char *const link_modes_members[] = { "max_supported_mbps", "max_supported_mode" };

/* null: ethtool netlink was not asked (under --root) or did not answer. */
static int read_link_modes(struct reader *r, const struct jnode *j, struct netdev *nd)
{
	size_t mark = path_member(r, "link_modes");
	json_int_t mbps = 0;
	const struct jnode *v;
	int ret = member(r, j, "link_modes", "an object or null", &v);

	if (ret == 0 && !jnode_is_null(v) && !jnode_is_object(v)) {
		ret = invalid(r, "expected an object or null, got %s", type_name(v));
	} else if (ret == 0 && !jnode_is_null(v)) {
		ret = check_object(r, v, link_modes_members, COUNT(link_modes_members));
		if (ret == 0)
			ret = read_integer(r, v, "max_supported_mbps", 0, UINT_MAX, false, 0, &mbps);
		if (ret == 0)
			ret = read_string(r, v, "max_supported_mode", true, nd->max_supported_mode,
					  sizeof(nd->max_supported_mode));
		nd->modes_known = true;
		nd->max_supported_mbps = (unsigned)mbps;
	}
	path_leave(r, mark);
	return ret;
}

static const char *const netdev_members[] = { "netdev", "ifindex", "mtu", "operstate", "carrier", "speed_mbps",
					       "link_modes", "addresses" };

static int read_netdev(struct reader *r, const struct jnode *j, struct netdev *nd)
{
	json_int_t ifindex = 0, mtu = 0, speed = -1;
	int carrier = -1;
	int ret = check_object(r, j, netdev_members, COUNT(netdev_members));

	if (ret == 0)
		ret = read_string(r, j, "netdev", false, nd->name, sizeof(nd->name));
	if (ret == 0)
		ret = read_integer(r, j, "ifindex", 1, INT_MAX, true, 0, &ifindex);
	if (ret == 0)
		ret = read_integer(r, j, "mtu", 1, INT_MAX, true, 0, &mtu);
	if (ret == 0)
		ret = read_string(r, j, "operstate", true, nd->operstate, sizeof(nd->operstate));
	if (ret == 0)
		ret = read_bool(r, j, "carrier", true, &carrier);
	if (ret == 0)
		ret = read_integer(r, j, "speed_mbps", 1, INT_MAX, true, -1, &speed);
	nd->ifindex = (int)ifindex;
	nd->mtu = (int)mtu;
	nd->carrier = carrier;
	nd->speed_mbps = (int)speed;
	if (ret == 0)
		ret = read_link_modes(r, j, nd);
	if (ret == 0)
		ret = read_addresses(r, j, nd);
	return ret;
}

static int read_netdevs(struct reader *r, const struct jnode *doc, struct host *h)
{
	const struct jnode *list = NULL;
	size_t mark;
	int ret = read_array(r, doc, "netdevs", false, HOST_NETDEVS_MAX, &list);

	if (ret < 0)
		return ret;
	h->netdevs = entries(r, jnode_array_size(list), sizeof(*h->netdevs), &ret);
	if (ret < 0)
		return ret;
	h->netdev_count = jnode_array_size(list);
	mark = path_member(r, "netdevs");
	for (size_t i = 0; ret == 0 && i < jnode_array_size(list); i++) {
		struct netdev *nd = &h->netdevs[i];
		size_t at = path_index(r, i);

		memset(nd, 0, sizeof(*nd));
		ret = read_netdev(r, jnode_array_get(list, i), nd);
		if (ret == 0)
			ret = check_unique(r, list, i, "netdev");
		path_leave(r, at);
	}
	path_leave(r, mark);
	return ret;
}

static int read_warnings(struct reader *r, const struct jnode *doc, struct host *h)
{
	json_int_t dropped = 0;
	int ret = read_notes(r, doc, &h->warnings);

	if (ret == 0)
		ret = read_integer(r, doc, "warnings_dropped", 0, INT_MAX, false, 0, &dropped);
	h->warnings.dropped = (size_t)dropped;
	return ret;
}

static const char *const host_members[] = { "schema", "live", "devices", "netdevs", "warnings", "warnings_dropped" };

static int read_host(struct reader *r, const struct jnode *doc, struct host *h)
{
	int live = 0;
	int ret;

	if (!jnode_is_object(doc))
		return invalid(r, "expected an object, got %s", type_name(doc));
	ret = read_schema(r, doc, HOST_JSON_SCHEMA);
	if (ret == 0)
		ret = check_object(r, doc, host_members, COUNT(host_members));
	if (ret == 0)
		ret = read_bool(r, doc, "live", false, &live);
	h->live = live == 1;
	if (ret == 0)
		ret = read_devices(r, doc, h);
	if (ret == 0)
		ret = read_netdevs(r, doc, h);
	if (ret == 0)
		ret = read_warnings(r, doc, h);
	return ret;
}

int host_from_tree(const struct jnode *doc, struct host *host, char *why, size_t why_size)
{
	struct reader r = { .why = why, .why_size = why_size };
	int ret;

	memset(host, 0, sizeof(*host));
	if (why && why_size)
		why[0] = '\0';
	ret = read_host(&r, doc, host);   /* never a partial host: what was built before a bad member is freed */
	if (ret < 0)
		host_free(host);
	return ret;
}

int host_from_json(const json_t *doc, struct host *host, char *why, size_t why_size)
{
	struct json_tree tree = { 0 };
	int ret = doc ? json_tree_from_jansson(&tree, doc) : 0;

	if (ret < 0) {
		memset(host, 0, sizeof(*host));
		snprintf(why, why_size, "out of memory");
		return ret;
	}
	ret = host_from_tree(tree.root, host, why, why_size);
	json_tree_free(&tree);
	return ret;
}
