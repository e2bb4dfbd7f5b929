// SPDX-License-Identifier: GPL-2.0-only
/* NCCL_IB_HCA read as each NCCL version reads it: the parser before 2.30.7 (atoi of everything after ':'),
 * the one from 2.30.7 on (hca:port:rail:plane), the 16-entry limit before 2.18.5, the readings of the NCCLs
 * on a node, and the spelling every version reads alike. */
#include <stdio.h>
#include <string.h>

#include "core/nccl_hca_syntax.h"
#include "tap.h"

static struct rdma_port one_port[1] = { { .num = 1 } };
static struct rdma_port two_ports[2] = { { .num = 1 }, { .num = 2 } };
static struct rdma_device devices[3] = {
	{ .name = "mlx5_0", .ports = one_port, .port_count = 1 },
	{ .name = "mlx5_1", .ports = one_port, .port_count = 1 },
	{ .name = "bnxt_re0", .ports = two_ports, .port_count = 2 },
};
static struct host host = { .devices = devices, .device_count = 3 };

static struct nccl_version version(const char *text)
{
	struct nccl_version v;

	nccl_version_parse(text, &v);
	return v;
}

static void legacy_parser_reads_an_empty_port_as_port_0(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse_legacy("^=mlx5_0:,mlx5_1:1:0:1,,:3,bnxt_re0::2", 32, &l);
	CHECK(l.exclude && l.exact);
	CHECK(l.count == 3);
	CHECK_STR(l.entries[0].prefix, "mlx5_0");
	CHECK(l.entries[0].port == 0 && !l.entries[0].extra_fields);
	CHECK(l.entries[1].port == 1 && l.entries[1].rail == -1 && l.entries[1].extra_fields);
	CHECK_STR(l.entries[2].prefix, "bnxt_re0");
	CHECK(l.entries[2].port == 0 && l.entries[2].extra_fields);
}

static void current_parser_reads_rail_and_plane_and_an_empty_port_as_any(void)
{
	struct nccl_if_list l;

	nccl_if_list_parse("mlx5_0:,mlx5_1:1:0:1,bnxt_re0::2", 32, &l);
	CHECK(l.count == 3);
	CHECK(l.entries[0].port == -1 && l.entries[0].rail == -1 && l.entries[0].plane == -1);
	CHECK(l.entries[1].port == 1 && l.entries[1].rail == 0 && l.entries[1].plane == 1);
	CHECK(l.entries[2].port == -1 && l.entries[2].rail == 2 && l.entries[2].plane == -1);
}

static void versions_pick_their_parser_and_entry_limit(void)
{
	struct nccl_version v2183 = version("2.18.3"), v2185 = version("2.18.5"), v2289 = version("2.28.9"),
			    v2307 = version("2.30.7"), v230 = version("2.30"), v2304 = version("2.30.4");
	char many[400] = "";
	struct nccl_if_list l;

	nccl_hca_read_as("mlx5_0:", &v2289, &l);
	CHECK(l.entries[0].port == 0 && !nccl_if_list_selects(&l, "mlx5_0", 1));
	nccl_hca_read_as("mlx5_0:", &v2304, &l);
	CHECK(l.entries[0].port == 0);
	nccl_hca_read_as("mlx5_0:", &v2307, &l);
	CHECK(l.entries[0].port == -1 && nccl_if_list_selects(&l, "mlx5_0", 1));
	nccl_hca_read_as("mlx5_0:", &v230, &l);    /* a series is its newest release */
	CHECK(l.entries[0].port == -1);
	nccl_hca_read_as("mlx5_0:", NULL, &l);
	CHECK(l.entries[0].port == -1);
	for (int i = 0; i < 20; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%sdev%d", i ? "," : "", i);
	nccl_hca_read_as(many, &v2183, &l);
	CHECK(l.count == 16 && l.ignored == 4);
	nccl_hca_read_as(many, &v2185, &l);
	CHECK(l.count == 20 && l.ignored == 0);
}

static void readings_name_the_versions_that_select_otherwise(void)
{
	struct nccl_lib items[3] = {
		{ .kind = NCCL_LIB_CORE, .version = "2.28.9", .real_path = "/venv/libnccl.so.2" },
		{ .kind = NCCL_LIB_NET_PLUGIN, .real_path = "/x/libnccl-net.so" },
		{ .kind = NCCL_LIB_CORE, .version = "2.30.7", .real_path = "/usr/lib/libnccl.so.2" },
	};
	struct nccl_libs libs = { .items = items, .count = 3 };
	struct nccl_hca_readings r;

	nccl_hca_readings_build("mlx5_0:,mlx5_1:", &host, &libs, &r);
	CHECK(r.count == 2 && r.reference_known && r.reference == 1);
	CHECK(r.items[0].differs && r.items[0].selected == 0 && r.items[0].differs_from_newest);
	CHECK(!r.items[1].differs && r.items[1].selected == 2);
	CHECK(strstr(r.items[0].how, "empty port of 'mlx5_0:', 'mlx5_1:' as port 0") != NULL);
	CHECK(r.items[1].how[0] == '\0');

	nccl_hca_readings_build("=mlx5_0:1:0:0", &host, &libs, &r);
	CHECK(!r.items[0].differs && r.items[0].ignores_rail_plane && !r.items[1].ignores_rail_plane);
	CHECK(strstr(r.items[0].how, "':rail:plane' fields of 'mlx5_0:1:0:0'") != NULL);

	nccl_hca_readings_build("mlx5_0:1", &host, NULL, &r);
	CHECK(r.count == 0 && !r.reference_known);
}

static void portable_spelling_keeps_rails_where_the_port_is_known(void)
{
	char buf[256];

	CHECK(nccl_hca_portable("mlx5_0:,mlx5_1:", &host, buf, sizeof(buf)));
	CHECK_STR(buf, "mlx5_0,mlx5_1");
	CHECK(nccl_hca_portable("^mlx5::0:1,mlx5_1::2", &host, buf, sizeof(buf)));
	CHECK_STR(buf, "^mlx5:1:0:1,mlx5_1:1:2");
	/* bnxt_re0 has ports 1 and 2: no single port keeps "every port, rail 0" for old NCCL */
	CHECK(!nccl_hca_portable("bnxt_re0::0:0", &host, buf, sizeof(buf)));
	CHECK(nccl_hca_portable("bnxt_re0:", &host, buf, sizeof(buf)));
	CHECK_STR(buf, "bnxt_re0");
}

int main(void)
{
	RUN(legacy_parser_reads_an_empty_port_as_port_0);
	RUN(current_parser_reads_rail_and_plane_and_an_empty_port_as_any);
	RUN(versions_pick_their_parser_and_entry_limit);
	RUN(readings_name_the_versions_that_select_otherwise);
	RUN(portable_spelling_keeps_rails_where_the_port_is_known);
	TAP_DONE();
}
