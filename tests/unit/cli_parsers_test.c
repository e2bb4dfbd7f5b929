// SPDX-License-Identifier: GPL-2.0-only
/* The command line's value parsers: message sizes in every common spelling, peers that cannot be hosts. */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "util/byte_size.h"
#include "util/host_name.h"

#define MIB (1u << 20)

static void byte_size_takes_the_common_spellings(void)
{
	static const struct { const char *text; uint64_t bytes; } good[] = {
		{ "4096", 4096 },   { "4096B", 4096 },  { "4096b", 4096 },  { "64K", 65536 },   { "64k", 65536 },
		{ "64KB", 65536 },  { "64kb", 65536 },  { "64Kb", 65536 },  { "64KiB", 65536 }, { "64kib", 65536 },
		{ "64KIB", 65536 }, { "1M", MIB },      { "1m", MIB },      { "1MB", MIB },     { "1mb", MIB },
		{ "1MiB", MIB },    { "1mib", MIB },    { "8M", 8 * MIB },  { "8192K", 8 * MIB },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t v = 0;
		int ret = byte_size_parse(good[i].text, 8 * MIB, &v);

		if (ret != 0 || v != good[i].bytes)
			printf("# '%s' -> %d, %llu\n", good[i].text, ret, (unsigned long long)v);
		CHECK(ret == 0 && v == good[i].bytes);
	}
}

static void byte_size_refuses_others_and_bounds(void)
{
	static const char *const bad[] = { "", "K", "-1", " 1", "1 K", "4Q", "4KK", "4KiBs", "1.5M", "4Ki", "0x10" };
	uint64_t v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = byte_size_parse(bad[i], 8 * MIB, &v);

		if (ret != -EINVAL)
			printf("# '%s' -> %d\n", bad[i], ret);
		CHECK(ret == -EINVAL);
	}
	CHECK(byte_size_parse("9M", 8 * MIB, &v) == -ERANGE);
	CHECK(byte_size_parse("8193k", 8 * MIB, &v) == -ERANGE);
	CHECK(byte_size_parse("99999999999999999999", 8 * MIB, &v) == -ERANGE);
	CHECK(byte_size_parse("18014398509481984K", UINT64_MAX, &v) == -ERANGE);   /* 2^54 K overflows 64 bits */
}

static void host_name_takes_addresses_and_names(void)
{
	static const char *const good[] = {
		"10.88.0.2", "node-b", "node_b", "gpu01.cluster.example", "gpu01.cluster.example.", "::1", "fe80::1%eth0",
		"2001:db8::20", "localhost", "1node", "x",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (host_name_check(good[i]) != 0)
			printf("# '%s' refused\n", good[i]);
		CHECK(host_name_check(good[i]) == 0);
	}
}

static void host_name_refuses_what_cannot_be_a_host(void)
{
	static const char *const bad[] = {
		"", " ", "node b", "10.0.0", "1.2.3.999", "12345", "-node", "node-", "a..b", ".node", "node/1", "fe80::1%",
		"[::1]", "node:18516", "a.-b", ".",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (host_name_check(bad[i]) != -EINVAL)
			printf("# '%s' taken\n", bad[i]);
		CHECK(host_name_check(bad[i]) == -EINVAL);
	}
}

static void host_name_bounds_labels_and_length(void)
{
	char name[300];

	memset(name, 'a', 64);
	name[64] = '\0';
	CHECK(host_name_check(name) == -EINVAL);      /* a 64-character label */
	name[63] = '\0';
	CHECK(host_name_check(name) == 0);
	memset(name, 'a', 254);
	for (size_t i = 10; i < 254; i += 11)
		name[i] = '.';
	name[254] = '\0';
	CHECK(host_name_check(name) == -EINVAL);      /* 254 characters */
}

int main(void)
{
	RUN(byte_size_takes_the_common_spellings);
	RUN(byte_size_refuses_others_and_bounds);
	RUN(host_name_takes_addresses_and_names);
	RUN(host_name_refuses_what_cannot_be_a_host);
	RUN(host_name_bounds_labels_and_length);
	TAP_DONE();
}
