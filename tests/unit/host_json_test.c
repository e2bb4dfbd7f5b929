// SPDX-License-Identifier: GPL-2.0-only
/* The host model through JSON and back (model/host_json.c): every fixture host and a model with every member
 * known round-trip byte for byte; every kind of bad document is refused with one message naming its JSON path,
 * and leaves the host empty (the suite also runs under ASan: nothing leaks on either path). */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "fixture_host.h"
#include "model/host_json.h"
#include "json_text.h"
#include "tap.h"
#include "util/gidaddr.h"

/* host -> JSON -> model -> JSON; 1 when both texts are the same. back receives the model read back. */
static int round_trips(const struct host *host, struct host *back, const char *name)
{
	json_t *first = host_to_json(host), *second = NULL;
	char why[512] = "";
	int same = 0;

	memset(back, 0, sizeof(*back));
	if (!first) {
		printf("# %s: host_to_json failed\n", name);
		return 0;
	}
	if (host_from_json(first, back, why, sizeof(why)) < 0)
		printf("# %s: host_from_json refused what host_to_json wrote: %s\n", name, why);
	else
		same = json_texts_same(first, second = host_to_json(back), name);
	json_decref(first);
	json_decref(second);
	return same;
}

static void every_fixture_host_round_trips_byte_identical(void)
{
	DIR *dir = opendir(fixtures_dir);
	struct dirent *de;
	int hosts = 0;

	CHECK(dir != NULL);
	while (dir && (de = readdir(dir))) {
		struct host host, back;
		char path[1024];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", fixtures_dir, de->d_name);
		if (de->d_name[0] == '.' || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		CHECK(probe_fixture(de->d_name, &host) == 0);
		CHECK(round_trips(&host, &back, de->d_name));
		CHECK(back.device_count == host.device_count && back.netdev_count == host.netdev_count);
		CHECK(back.warnings.count == host.warnings.count);
		host_free(&host);
		host_free(&back);
		hosts++;
	}
	if (dir)
		closedir(dir);
	CHECK(hosts >= 10);
}

/* A live host with every member known, and each way of being unknown, where the fixtures have none. */
static void full_host(struct host *h)
{
	struct rdma_device *d;
	struct rdma_port *p;
	struct netdev *nd;

	memset(h, 0, sizeof(*h));
	h->live = true;
	h->devices = calloc(2, sizeof(*h->devices));
	h->device_count = 2;
	d = &h->devices[0];
	snprintf(d->name, sizeof(d->name), "mlx5_0");
	snprintf(d->fw_ver, sizeof(d->fw_ver), "26.36.1010");
	snprintf(d->node_guid, sizeof(d->node_guid), "b83f:d203:0079:4a5e");
	snprintf(d->pci_address, sizeof(d->pci_address), "0000:39:00.0");
	d->numa_known = true;
	d->numa_node = -1;
	snprintf(d->driver, sizeof(d->driver), "mlx5_core");
	d->ports = calloc(1, sizeof(*d->ports));
	d->port_count = 1;
	p = &d->ports[0];
	p->num = 1;
	p->state = 4;
	snprintf(p->state_name, sizeof(p->state_name), "ACTIVE");
	p->phys_state = 5;
	snprintf(p->phys_state_name, sizeof(p->phys_state_name), "LinkUp");
	snprintf(p->rate, sizeof(p->rate), "25 Gb/sec (1X EDR)");
	p->rate_gbps = 25;
	p->link_layer = LINK_LAYER_ETHERNET;
	snprintf(p->netdev, sizeof(p->netdev), "ens19f0np0");
	snprintf(p->netdev_source, sizeof(p->netdev_source), "gid_attrs");
	p->netlink_known = true;
	snprintf(p->netdev_netlink, sizeof(p->netdev_netlink), "ens19f0np0");
	p->netdev_netlink_index = 4;
	p->active_mtu = 1024;
	p->max_mtu = 4096;
	p->gids = calloc(8, sizeof(*p->gids));
	p->gid_count = 8;
	for (unsigned i = 0; i < 8; i++) {
		p->gids[i].index = i;
		ip_parse_as_gid(i < 4 ? "fe80::ba3f:d2ff:fe79:4a5e" : "10.88.0.1", &p->gids[i].gid);
		p->gids[i].gid.s6_addr[15] += (uint8_t)i;
		p->gids[i].type = i % 2 ? GID_TYPE_ROCE_V2 : GID_TYPE_IB_ROCE_V1;
		snprintf(p->gids[i].netdev, sizeof(p->gids[i].netdev), "ens19f0np0");
	}

	d = &h->devices[1];   /* InfiniBand, most things unknown */
	snprintf(d->name, sizeof(d->name), "mlx5_1");
	d->ports = calloc(1, sizeof(*d->ports));
	d->port_count = 1;
	p = &d->ports[0];
	p->num = 1;
	p->state = p->phys_state = -1;
	p->link_layer = LINK_LAYER_INFINIBAND;
	p->lid_known = true;       /* a LID, its subnet manager's unknown */
	p->lid = 0xbeef;
	p->netlink_known = true;   /* asked, and it named no netdev */
	p->gids = calloc(1, sizeof(*p->gids));
	p->gid_count = 1;
	p->gids[0].index = 0;
	gid_parse_sysfs("fe80:0000:0000:0000:b83f:d203:0079:4a5f", &p->gids[0].gid);
	p->gids[0].type = GID_TYPE_IB_ROCE_V1;

	h->netdevs = calloc(3, sizeof(*h->netdevs));
	h->netdev_count = 3;
	nd = &h->netdevs[0];
	snprintf(nd->name, sizeof(nd->name), "ens19f0np0");
	nd->ifindex = 4;
	nd->mtu = 9000;
	snprintf(nd->operstate, sizeof(nd->operstate), "up");
	nd->carrier = 1;
	nd->speed_mbps = 25000;
	nd->modes_known = true;
	nd->max_supported_mbps = 25000;
	snprintf(nd->max_supported_mode, sizeof(nd->max_supported_mode), "25000baseCR/Full");
	nd->addrs_known = true;
	nd->addrs = calloc(2, sizeof(*nd->addrs));
	nd->addr_count = 2;
	nd->addrs[0].family = AF_INET;
	ip_parse_as_gid("10.88.0.1", &nd->addrs[0].addr);
	nd->addrs[0].prefix_len = 24;
	nd->addrs[1].family = AF_INET6;
	ip_parse_as_gid("fe80::ba3f:d2ff:fe79:4a5e", &nd->addrs[1].addr);
	nd->addrs[1].prefix_len = 64;
	nd = &h->netdevs[1];   /* known to have no address, no carrier file */
	snprintf(nd->name, sizeof(nd->name), "lo");
	nd->ifindex = 1;
	nd->mtu = 65536;
	nd->carrier = -1;
	nd->speed_mbps = -1;
	nd->addrs_known = true;
	nd = &h->netdevs[2];   /* down, speed and addresses unknown */
	snprintf(nd->name, sizeof(nd->name), "eth9");
	nd->carrier = 0;
	nd->speed_mbps = -1;
	notes_add(&h->warnings, "RDMA netlink unavailable (%s): port-to-netdev map from sysfs only", "EPERM");
	notes_add(&h->warnings, "second warning");
	h->warnings.dropped = 3;
}

static void full_host_round_trips_and_reads_back_every_member(void)
{
	struct host host, back;

	full_host(&host);
	CHECK(round_trips(&host, &back, "full host"));
	CHECK(back.live && back.device_count == 2 && back.netdev_count == 3);
	if (back.device_count == 2 && back.netdev_count == 3) {
		const struct rdma_port *p = &back.devices[0].ports[0], *ib = &back.devices[1].ports[0];

		CHECK(back.devices[0].numa_known && back.devices[0].numa_node == -1 && !back.devices[1].numa_known);
		CHECK_STR(back.devices[0].fw_ver, "26.36.1010");
		CHECK(p->state == 4 && p->phys_state == 5 && p->rate_gbps == 25.0);
		CHECK(p->netlink_known && p->netdev_netlink_index == 4 && p->active_mtu == 1024 && p->max_mtu == 4096);
		CHECK(p->gid_count == 8 && memcmp(&p->gids[7].gid, &host.devices[0].ports[0].gids[7].gid, 16) == 0);
		CHECK(p->gids[6].type == GID_TYPE_IB_ROCE_V1 && p->gids[7].type == GID_TYPE_ROCE_V2);
		CHECK(ib->state == -1 && ib->link_layer == LINK_LAYER_INFINIBAND && ib->gids[0].type == GID_TYPE_IB_ROCE_V1);
		CHECK(ib->netlink_known && ib->netdev_netlink[0] == '\0' && ib->active_mtu == 0);
		CHECK(ib->lid_known && ib->lid == 0xbeef && !ib->sm_lid_known && !p->lid_known);
		CHECK(back.netdevs[0].addrs_known && back.netdevs[0].addr_count == 2);
		if (back.netdevs[0].addr_count == 2) {
			CHECK(back.netdevs[0].addrs[0].family == AF_INET && back.netdevs[0].addrs[0].prefix_len == 24);
			CHECK(memcmp(&back.netdevs[0].addrs[0].addr, &host.netdevs[0].addrs[0].addr, 16) == 0);
			CHECK(back.netdevs[0].addrs[1].family == AF_INET6 && back.netdevs[0].addrs[1].prefix_len == 64);
		}
		CHECK(back.netdevs[0].modes_known && back.netdevs[0].max_supported_mbps == 25000);
		CHECK(back.netdevs[1].addrs_known && back.netdevs[1].addr_count == 0 && back.netdevs[1].carrier == -1);
		CHECK(!back.netdevs[2].addrs_known && back.netdevs[2].carrier == 0 && back.netdevs[2].speed_mbps == -1);
		CHECK(back.netdevs[2].ifindex == 0 && back.netdevs[2].mtu == 0 && !back.netdevs[2].modes_known);
		CHECK(back.warnings.count == 2 && back.warnings.dropped == 3);
	}
	host_free(&host);
	host_free(&back);
}

static json_t *device_at(json_t *doc, size_t d)
{
	return json_array_get(json_object_get(doc, "devices"), d);
}

static json_t *port_at(json_t *doc, size_t d, size_t p)
{
	return json_array_get(json_object_get(device_at(doc, d), "ports"), p);
}

static json_t *gid_at(json_t *doc, size_t d, size_t p, size_t g)
{
	return json_array_get(json_object_get(port_at(doc, d, p), "gids"), g);
}

static json_t *netdev_at(json_t *doc, size_t n)
{
	return json_array_get(json_object_get(doc, "netdevs"), n);
}

static const char *member_text(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? "null" : json_string_value(v);
}

static void unknowns_are_null_and_spellings_are_documented(void)
{
	struct host host;
	json_t *doc;

	full_host(&host);
	doc = host_to_json(&host);
	CHECK(doc != NULL);
	CHECK_STR(member_text(doc, "schema"), "roce-doctor/host/v1");
	CHECK_STR(member_text(gid_at(doc, 0, 0, 7), "gid"), "0000:0000:0000:0000:0000:ffff:0a58:0008");
	CHECK_STR(member_text(gid_at(doc, 0, 0, 6), "type"), "v1");
	CHECK_STR(member_text(gid_at(doc, 1, 0, 0), "type"), "IB");
	CHECK_STR(member_text(gid_at(doc, 1, 0, 0), "netdev"), "null");
	CHECK_STR(member_text(port_at(doc, 1, 0), "link_layer"), "InfiniBand");
	CHECK(json_is_null(json_object_get(port_at(doc, 1, 0), "state_num")));
	CHECK(json_is_null(json_object_get(port_at(doc, 1, 0), "active_mtu")));
	CHECK(json_is_null(json_object_get(port_at(doc, 1, 0), "rate_gbps")));
	CHECK(json_is_null(json_object_get(json_object_get(port_at(doc, 1, 0), "netlink"), "netdev")));
	CHECK(json_integer_value(json_object_get(device_at(doc, 0), "numa_node")) == -1);
	CHECK(json_is_null(json_object_get(device_at(doc, 1), "numa_node")));
	CHECK_STR(json_string_value(json_array_get(json_object_get(netdev_at(doc, 0), "addresses"), 0)), "10.88.0.1/24");
	CHECK_STR(json_string_value(json_array_get(json_object_get(netdev_at(doc, 0), "addresses"), 1)),
		  "fe80::ba3f:d2ff:fe79:4a5e/64");
	CHECK(json_array_size(json_object_get(netdev_at(doc, 1), "addresses")) == 0);
	CHECK(json_is_null(json_object_get(netdev_at(doc, 2), "addresses")));
	CHECK(json_is_null(json_object_get(netdev_at(doc, 1), "carrier")));
	CHECK(json_is_false(json_object_get(netdev_at(doc, 2), "carrier")));
	CHECK(json_is_null(json_object_get(netdev_at(doc, 2), "speed_mbps")));
	CHECK(json_is_null(json_object_get(netdev_at(doc, 2), "link_modes")));
	CHECK(json_integer_value(json_object_get(doc, "warnings_dropped")) == 3);
	json_decref(doc);
	host_free(&host);
}

static void writer_refuses_what_json_cannot_carry(void)
{
	struct host host;

	full_host(&host);
	host.netdevs[2].name[0] = (char)0xff;   /* not UTF-8 */
	CHECK(host_to_json(&host) == NULL);
	host_free(&host);
	full_host(&host);
	host.netdevs[0].addrs[1].family = AF_UNIX;
	CHECK(host_to_json(&host) == NULL);
	host_free(&host);
}

static json_t *good_doc(void)
{
	struct host host;
	json_t *doc;

	full_host(&host);
	doc = host_to_json(&host);
	host_free(&host);
	return doc;
}

static int host_is_empty(const struct host *host)
{
	static const struct host empty;

	return memcmp(host, &empty, sizeof(empty)) == 0;
}

/* Reads doc (and drops it): -EINVAL with exactly message, and nothing left in the host. */
#define REFUSED(doc, message) refused(doc, message, __LINE__)
static void refused(json_t *doc, const char *message, int line)
{
	struct host host;
	char why[512] = "";
	int ret;

	memset(&host, 0xa5, sizeof(host));   /* whatever was there is overwritten, not freed */
	ret = host_from_json(doc, &host, why, sizeof(why));
	if (ret != -EINVAL || strcmp(why, message) != 0 || !host_is_empty(&host)) {
		printf("# line %d: ret %d, host %s\n#   got:  %s\n#   want: %s\n", line, ret,
		       host_is_empty(&host) ? "empty" : "NOT EMPTY", why, message);
		tap_failed_checks++;
	}
	if (ret == 0)
		host_free(&host);
	json_decref(doc);
}

static void another_schema_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(doc, "schema", json_string("roce-doctor/devices/v1"));
	REFUSED(doc, "schema: expected \"roce-doctor/host/v1\", got \"roce-doctor/devices/v1\"");
	doc = good_doc();
	json_object_del(doc, "schema");
	REFUSED(doc, "schema: missing (expected \"roce-doctor/host/v1\")");
	doc = good_doc();
	json_object_set_new(doc, "schema", json_integer(1));
	REFUSED(doc, "schema: expected \"roce-doctor/host/v1\", got an integer");
	doc = good_doc();
	json_object_set_new(doc, "schema", json_stringn("roce-doctor/host/v1\0x", 21));
	REFUSED(doc, "schema: expected \"roce-doctor/host/v1\", got a string with a NUL character");
	REFUSED(json_array(), "document: expected an object, got an array");
}

static void newer_version_is_refused_before_its_members(void)
{
	json_t *doc = good_doc();

	json_object_set_new(doc, "schema", json_string("roce-doctor/host/v2"));
	json_object_set_new(doc, "devices", json_string("a v2 may say anything here"));
	REFUSED(doc, "schema: \"roce-doctor/host/v2\" is newer than this roce-doctor reads (roce-doctor/host/v1)");
	doc = good_doc();
	json_object_set_new(doc, "schema", json_string("roce-doctor/host/v10"));
	REFUSED(doc, "schema: \"roce-doctor/host/v10\" is newer than this roce-doctor reads (roce-doctor/host/v1)");
	doc = good_doc();
	json_object_set_new(doc, "schema", json_string("roce-doctor/host/v0"));
	REFUSED(doc, "schema: expected \"roce-doctor/host/v1\", got \"roce-doctor/host/v0\"");
}

static void member_of_wrong_type_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(port_at(doc, 0, 0), "state_num", json_string("4"));
	REFUSED(doc, "devices[0].ports[0].state_num: expected an integer from 0 to 2147483647 or null, got a string");
	doc = good_doc();
	json_object_set_new(doc, "live", json_integer(1));
	REFUSED(doc, "live: expected true or false, got an integer");
	doc = good_doc();
	json_object_set_new(netdev_at(doc, 0), "carrier", json_string("yes"));
	REFUSED(doc, "netdevs[0].carrier: expected true, false or null, got a string");
	doc = good_doc();
	json_object_set_new(device_at(doc, 1), "ports", json_object());
	REFUSED(doc, "devices[1].ports: expected an array of at most 64 entries, got an object");
	doc = good_doc();
	json_array_set_new(json_object_get(doc, "netdevs"), 2, json_string("eth9"));
	REFUSED(doc, "netdevs[2]: expected an object, got a string");
	doc = good_doc();
	json_object_set_new(port_at(doc, 0, 0), "netlink", json_true());
	REFUSED(doc, "devices[0].ports[0].netlink: expected an object or null, got a boolean");
	doc = good_doc();
	json_array_set_new(json_object_get(doc, "warnings"), 1, json_null());
	REFUSED(doc, "warnings[1]: expected a string, got null");
}

static void missing_or_unknown_member_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_del(netdev_at(doc, 1), "mtu");
	REFUSED(doc, "netdevs[1].mtu: missing (expected an integer from 1 to 2147483647 or null)");
	doc = good_doc();
	json_object_del(port_at(doc, 1, 0), "gids");
	REFUSED(doc, "devices[1].ports[0].gids: missing (expected an array of at most 4096 entries)");
	doc = good_doc();
	json_object_del(json_object_get(netdev_at(doc, 0), "link_modes"), "max_supported_mode");
	REFUSED(doc, "netdevs[0].link_modes.max_supported_mode: missing (expected a string or null)");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 1, 0, 0), "flags", json_integer(0));
	REFUSED(doc, "devices[1].ports[0].gids[0].flags: unknown member");
}

/* lid and sm_lid came after host/v1's first snapshots: absent reads as unknown, present is checked. */
static void lid_absent_is_unknown_out_of_range_is_refused(void)
{
	json_t *doc = good_doc();
	struct host host;
	char why[512] = "";

	CHECK(json_integer_value(json_object_get(port_at(doc, 1, 0), "lid")) == 0xbeef);
	CHECK(json_is_null(json_object_get(port_at(doc, 1, 0), "sm_lid")));
	json_object_del(port_at(doc, 1, 0), "lid");
	json_object_del(port_at(doc, 1, 0), "sm_lid");
	CHECK(host_from_json(doc, &host, why, sizeof(why)) == 0);
	CHECK(host.device_count == 2 && !host.devices[1].ports[0].lid_known && !host.devices[1].ports[0].sm_lid_known);
	host_free(&host);
	json_decref(doc);
	doc = good_doc();
	json_object_set_new(port_at(doc, 1, 0), "lid", json_integer(65536));
	REFUSED(doc, "devices[1].ports[0].lid: expected an integer from 0 to 65535 or null, got 65536");
	doc = good_doc();
	json_object_set_new(port_at(doc, 1, 0), "sm_lid", json_string("0x1"));
	REFUSED(doc, "devices[1].ports[0].sm_lid: expected an integer from 0 to 65535 or null, got a string");
}

static json_t *copies(const json_t *entry, size_t count)
{
	json_t *list = json_array();

	for (size_t i = 0; i < count; i++)
		json_array_append_new(list, json_deep_copy(entry));
	return list;
}

static json_t *strings(const char *text, size_t count)
{
	json_t *entry = json_string(text), *list = copies(entry, count);

	json_decref(entry);
	return list;
}

static void oversized_array_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(port_at(doc, 0, 0), "gids", copies(gid_at(doc, 0, 0, 0), HOST_GIDS_MAX + 1));
	REFUSED(doc, "devices[0].ports[0].gids: expected an array of at most 4096 entries, got 4097");
	doc = good_doc();
	json_object_set_new(doc, "devices", copies(device_at(doc, 0), HOST_DEVICES_MAX + 1));
	REFUSED(doc, "devices: expected an array of at most 256 entries, got 257");
	doc = good_doc();
	json_object_set_new(netdev_at(doc, 0), "addresses", strings("10.0.0.1/8", HOST_ADDRS_MAX + 1));
	REFUSED(doc, "netdevs[0].addresses: expected an array of at most 64 entries or null, got 65");
	doc = good_doc();
	json_object_set_new(doc, "warnings", strings("w", NOTES_MAX + 1));
	REFUSED(doc, "warnings: expected an array of at most 256 entries, got 257");
}

static void oversized_or_empty_string_is_refused(void)
{
	char name[80];
	json_t *doc = good_doc();
	struct host host;
	char why[512];

	memset(name, 'x', sizeof(name));
	json_object_set_new(device_at(doc, 0), "device", json_stringn(name, 64));
	REFUSED(doc, "devices[0].device: expected a string of at most 63 bytes, got 64 bytes");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 0, 0, 7), "netdev", json_stringn(name, IF_NAMESIZE));
	REFUSED(doc, "devices[0].ports[0].gids[7].netdev: expected a string of at most 15 bytes, got 16 bytes");
	doc = good_doc();
	json_object_set_new(device_at(doc, 0), "fw_ver", json_string(""));
	REFUSED(doc, "devices[0].fw_ver: expected a non-empty string or null, got \"\"");
	doc = good_doc();
	json_object_set_new(netdev_at(doc, 0), "netdev", json_stringn("ens\0f0", 6));
	REFUSED(doc, "netdevs[0].netdev: expected a string without NUL characters");

	doc = good_doc();   /* the longest that fits is read whole, never cut */
	json_object_set_new(device_at(doc, 0), "device", json_stringn(name, 63));
	CHECK(host_from_json(doc, &host, why, sizeof(why)) == 0);
	CHECK(host.device_count == 2 && strlen(host.devices[0].name) == 63);
	host_free(&host);
	json_decref(doc);
}

static void bad_gid_text_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(gid_at(doc, 0, 0, 7), "gid", json_string("fe80::1"));
	REFUSED(doc, "devices[0].ports[0].gids[7].gid: expected a GID in sysfs spelling "
		     "(\"fe80:0000:0000:0000:0000:0000:0000:0001\"), got \"fe80::1\"");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 0, 0, 3), "gid", json_string("fe80:0000:0000:0000:0000:0000:0000:000g"));
	REFUSED(doc, "devices[0].ports[0].gids[3].gid: expected a GID in sysfs spelling "
		     "(\"fe80:0000:0000:0000:0000:0000:0000:0001\"), got \"fe80:0000:0000:0000:0000:0000:0000:000g\"");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 0, 0, 0), "gid", json_string("0000:0000:0000:0000:0000:0000:0000:0000"));
	REFUSED(doc, "devices[0].ports[0].gids[0].gid: expected a non-zero GID (the model keeps used entries only)");
}

static void bad_address_text_is_refused(void)
{
	static const char *const bad[] = { "10.0.0.1", "10.0.0.1/33", "fe80::1/129", "10.0.0.256/24", "10.0.0.1/024",
					   "10.0.0.1/ 24", "10.0.0.1/24x", "/24", "10.0.0.1/", "fe80::1%eth0/64" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *doc = good_doc();
		char want[256];

		json_array_set_new(json_object_get(netdev_at(doc, 0), "addresses"), 1, json_string(bad[i]));
		snprintf(want, sizeof(want), "netdevs[0].addresses[1]: expected an address with its prefix length "
			 "(\"10.0.0.1/24\", \"fe80::1/64\"), got \"%s\"", bad[i]);
		REFUSED(doc, want);
	}
}

static void negative_or_huge_number_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(port_at(doc, 0, 0), "port", json_integer(-1));
	REFUSED(doc, "devices[0].ports[0].port: expected an integer from 0 to 4294967295, got -1");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 0, 0, 5), "index", json_integer(4294967296LL));
	REFUSED(doc, "devices[0].ports[0].gids[5].index: expected an integer from 0 to 4294967295, got 4294967296");
	doc = good_doc();
	json_object_set_new(netdev_at(doc, 0), "mtu", json_integer(2147483648LL));
	REFUSED(doc, "netdevs[0].mtu: expected an integer from 1 to 2147483647 or null, got 2147483648");
	doc = good_doc();
	json_object_set_new(netdev_at(doc, 0), "ifindex", json_integer(0));
	REFUSED(doc, "netdevs[0].ifindex: expected an integer from 1 to 2147483647 or null, got 0");
	doc = good_doc();
	json_object_set_new(port_at(doc, 0, 0), "active_mtu", json_integer(1500));
	REFUSED(doc, "devices[0].ports[0].active_mtu: expected 256, 512, 1024, 2048, 4096 or null, got 1500");
	doc = good_doc();
	json_object_set_new(port_at(doc, 0, 0), "max_mtu", json_integer(9000));
	REFUSED(doc, "devices[0].ports[0].max_mtu: expected 256, 512, 1024, 2048, 4096 or null, got 9000");
	doc = good_doc();
	json_object_set_new(port_at(doc, 0, 0), "rate_gbps", json_real(-25));
	REFUSED(doc, "devices[0].ports[0].rate_gbps: expected a number above 0 or null, got -25");
	doc = good_doc();
	json_object_set_new(device_at(doc, 0), "numa_node", json_integer(-2));
	REFUSED(doc, "devices[0].numa_node: expected an integer from -1 to 2147483647 or null, got -2");
	doc = good_doc();
	json_object_set_new(doc, "warnings_dropped", json_integer(-1));
	REFUSED(doc, "warnings_dropped: expected an integer from 0 to 2147483647, got -1");
}

static void duplicate_or_unordered_keys_are_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(device_at(doc, 1), "device", json_string("mlx5_0"));
	REFUSED(doc, "devices[1].device: expected a name no other entry has, got \"mlx5_0\" again (entry 0 has it)");
	doc = good_doc();
	json_object_set_new(netdev_at(doc, 2), "netdev", json_string("lo"));
	REFUSED(doc, "netdevs[2].netdev: expected a name no other entry has, got \"lo\" again (entry 1 has it)");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 0, 0, 4), "index", json_integer(3));
	REFUSED(doc, "devices[0].ports[0].gids[4].index: expected an index above the previous entry's (3), got 3");
	doc = good_doc();
	json_array_append_new(json_object_get(device_at(doc, 0), "ports"), json_deep_copy(port_at(doc, 0, 0)));
	REFUSED(doc, "devices[0].ports[1].port: expected a port number above the previous port's (1), got 1");
}

static void enum_by_unknown_name_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(port_at(doc, 0, 0), "link_layer", json_string("ethernet"));
	REFUSED(doc, "devices[0].ports[0].link_layer: expected \"Ethernet\", \"InfiniBand\" or null, got \"ethernet\"");
	doc = good_doc();
	json_object_set_new(gid_at(doc, 0, 0, 2), "type", json_string("v3"));
	REFUSED(doc, "devices[0].ports[0].gids[2].type: expected \"v1\", \"v2\", \"IB\" or null, got \"v3\"");
	doc = good_doc();
	json_object_set_new(port_at(doc, 0, 0), "netdev_source", json_string("sysfs"));
	REFUSED(doc, "devices[0].ports[0].netdev_source: expected \"gid_attrs\", \"parent\", \"dev_port\", \"netlink\" "
		     "or null, got \"sysfs\"");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(every_fixture_host_round_trips_byte_identical);
	RUN(full_host_round_trips_and_reads_back_every_member);
	RUN(unknowns_are_null_and_spellings_are_documented);
	RUN(writer_refuses_what_json_cannot_carry);
	RUN(another_schema_is_refused);
	RUN(newer_version_is_refused_before_its_members);
	RUN(member_of_wrong_type_is_refused);
	RUN(missing_or_unknown_member_is_refused);
	RUN(lid_absent_is_unknown_out_of_range_is_refused);
	RUN(oversized_array_is_refused);
	RUN(oversized_or_empty_string_is_refused);
	RUN(bad_gid_text_is_refused);
	RUN(bad_address_text_is_refused);
	RUN(negative_or_huge_number_is_refused);
	RUN(duplicate_or_unordered_keys_are_refused);
	RUN(enum_by_unknown_name_is_refused);
	TAP_DONE();
}
