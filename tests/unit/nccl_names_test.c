// SPDX-License-Identifier: GPL-2.0-only
/* The names NCCL reads (generated from its sources), the typo a name is close to, the split of a configuration
 * into settings and names NCCL never reads, and NCCL_NET_PLUGIN against the plugins found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nccl_env_names.h"
#include "core/nccl_net_plugin.h"
#include "tap.h"

static void table_is_sorted_and_holds_the_settings_we_judge(void)
{
	for (size_t i = 1; i < nccl_env_names_count; i++)
		CHECK(strcmp(nccl_env_names[i - 1], nccl_env_names[i]) < 0);
	CHECK(nccl_env_name_known("NCCL_IB_GID_INDEX"));
	CHECK(nccl_env_name_known("NCCL_NET_PLUGIN"));
	CHECK(nccl_env_name_known("NCCL_CONF_FILE"));
	CHECK(nccl_env_name_known("NCCL_NVLS_ENABLE"));
	CHECK(!nccl_env_name_known("NCCL_VERSION"));   /* NVIDIA's images set it; NCCL never reads it */
}

static void nearest_is_a_typo_or_nothing(void)
{
	const char *n = nccl_env_name_nearest("NCCL_IB_GID_INDX");

	CHECK(n && strcmp(n, "NCCL_IB_GID_INDEX") == 0);
	n = nccl_env_name_nearest("NCCL_SOCKET_IFNAM");
	CHECK(n && strcmp(n, "NCCL_SOCKET_IFNAME") == 0);
	CHECK(nccl_env_name_nearest("NCCL_VERSION") == NULL);
	CHECK(nccl_env_name_nearest("NCCL_IB_GID_INDEX") == NULL);   /* known: no typo */
	CHECK(nccl_env_name_nearest("NCCL_TESTS_SPLIT_MASK") == NULL);
}

static void set_aside_keeps_order_and_effective_flags(void)
{
	struct nccl_conf c = { 0 };

	c.items = calloc(4, sizeof(*c.items));
	if (!c.items)
		return;
	snprintf(c.items[0].name, sizeof(c.items[0].name), "NCCL_VERSION");
	snprintf(c.items[1].name, sizeof(c.items[1].name), "NCCL_IB_HCA");
	snprintf(c.items[2].name, sizeof(c.items[2].name), "NCCL_IB_GID_INDX");
	snprintf(c.items[3].name, sizeof(c.items[3].name), "NCCL_DEBUG");
	for (size_t i = 0; i < 4; i++)
		c.items[i].effective = true;
	c.count = 4;
	CHECK(nccl_conf_set_aside_unknown(&c) == 0);
	CHECK(c.count == 2 && c.not_read_count == 2);
	CHECK_STR(c.items[0].name, "NCCL_IB_HCA");
	CHECK_STR(c.items[1].name, "NCCL_DEBUG");
	CHECK_STR(c.not_read[0].name, "NCCL_VERSION");
	CHECK_STR(c.not_read[1].name, "NCCL_IB_GID_INDX");
	CHECK(nccl_conf_get(&c, "NCCL_IB_HCA") && !nccl_conf_get(&c, "NCCL_VERSION"));
	free(c.items);
	free(c.not_read);
}

static void net_plugin_by_nccls_names(void)
{
	struct nccl_lib libs[2] = { { .kind = NCCL_LIB_CORE, .real_path = "/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3",
				      .places = { { "/usr/lib/x86_64-linux-gnu/libnccl.so.2", "ld.so.cache" } },
				      .place_count = 1 },
				    { .kind = NCCL_LIB_NET_PLUGIN, .real_path = "/opt/aws-ofi-nccl/lib/libnccl-net.so.0.0.0",
				      .places = { { "/opt/aws-ofi-nccl/lib/libnccl-net-ofi.so", "LD_LIBRARY_PATH" } },
				      .place_count = 1 } };
	struct nccl_libs l = { .items = libs, .count = 2 };
	char entry[64], tried[128], found[NCCL_LIB_PATH_MAX];

	CHECK(nccl_net_plugin_missing("aws-ofi", &l, entry, sizeof(entry), tried, sizeof(tried), found,
				      sizeof(found)) == 1);
	CHECK_STR(entry, "aws-ofi");
	CHECK_STR(tried, "aws-ofi libnccl-net-aws-ofi.so");
	/* NAME -> libnccl-net-NAME.so; a lib*.so name and a path are taken as they are */
	CHECK(nccl_net_plugin_missing("ofi", &l, entry, sizeof(entry), tried, sizeof(tried), found, sizeof(found)) == 0);
	CHECK_STR(found, "/opt/aws-ofi-nccl/lib/libnccl-net.so.0.0.0");
	CHECK(nccl_net_plugin_missing("libnccl-net-ofi.so", &l, entry, sizeof(entry), tried, sizeof(tried), found,
				      sizeof(found)) == 0);
	CHECK(nccl_net_plugin_missing("/opt/aws-ofi-nccl/lib/libnccl-net-ofi.so", &l, entry, sizeof(entry), tried,
				      sizeof(tried), found, sizeof(found)) == 0);
	CHECK(nccl_net_plugin_missing("libnccl-net-gdr.so", &l, entry, sizeof(entry), tried, sizeof(tried), found,
				      sizeof(found)) == 1);
	CHECK_STR(tried, "libnccl-net-gdr.so");
	/* a list: each entry on its own; "none" and STATIC_PLUGIN load nothing from disk */
	CHECK(nccl_net_plugin_missing("ofi,spectrum", &l, entry, sizeof(entry), tried, sizeof(tried), found,
				      sizeof(found)) == 1);
	CHECK_STR(entry, "spectrum");
	CHECK(nccl_net_plugin_missing("NONE", &l, entry, sizeof(entry), tried, sizeof(tried), found, sizeof(found)) == 0);
	CHECK(nccl_net_plugin_missing("STATIC_PLUGIN", &l, entry, sizeof(entry), tried, sizeof(tried), found,
				      sizeof(found)) == 0);
}

int main(void)
{
	RUN(table_is_sorted_and_holds_the_settings_we_judge);
	RUN(nearest_is_a_typo_or_nothing);
	RUN(set_aside_keeps_order_and_effective_flags);
	RUN(net_plugin_by_nccls_names);
	TAP_DONE();
}
