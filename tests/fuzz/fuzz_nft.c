// SPDX-License-Identifier: GPL-2.0-only
/* The nftables ruleset as the kernel dumps it: three replies (tables, chains, rules) through the same callbacks
 * nft_ruleset_read runs on the socket's bytes (nft_ruleset_parse). Input: two little-endian 16-bit lengths
 * (the tables reply, the chains reply), then those replies, then the rules reply (the rest); each copied to its
 * own aligned buffer as a socket read gives it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "netcfg/nftables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nft_dumps dumps = { 0 };
	struct nft_ruleset rs;
	void *part[3] = { NULL, NULL, NULL };
	size_t pos = 4;

	if (size < 4 || size > 256 * 1024)
		return 0;
	dumps.len[0] = (size_t)data[0] | (size_t)data[1] << 8;
	dumps.len[1] = (size_t)data[2] | (size_t)data[3] << 8;
	for (int i = 0; i < 3; i++) {
		if (i == 2 || dumps.len[i] > size - pos)
			dumps.len[i] = size - pos;
		part[i] = malloc(dumps.len[i] ? dumps.len[i] : 1);
		if (!part[i])
			goto out;
		memcpy(part[i], data + pos, dumps.len[i]);
		dumps.buf[i] = part[i];
		pos += dumps.len[i];
	}
	if (nft_ruleset_parse(&dumps, &rs) == 0) {
		for (size_t i = 0; i < rs.rule_count; i++)
			if (rs.rules[i].chain >= rs.chain_count)
				abort();
		for (size_t c = 0; c < rs.chain_count; c++)
			if (rs.chains[c].first_rule + rs.chains[c].rule_count > rs.rule_count)
				abort();
		nft_ruleset_free(&rs);
	}
out:
	for (int i = 0; i < 3; i++)
		free(part[i]);
	return 0;
}
