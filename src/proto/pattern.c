// SPDX-License-Identifier: GPL-2.0-only
/* splitmix64 over 8-byte words: fast enough to fill and check 8 MiB per size, and no two seeds alike. */
#include "proto/pattern.h"

#include <string.h>

static uint64_t word(uint32_t seed, uint64_t index)
{
	uint64_t z = ((uint64_t)seed << 32 | 0x1234567u) + (index + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint8_t byte_at(uint32_t seed, size_t off)
{
	return (uint8_t)(word(seed, off / 8) >> (8 * (off % 8)));
}

void pattern_fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w = word(seed, i / 8);
		uint8_t b[8];

		for (unsigned k = 0; k < 8; k++)
			b[k] = (uint8_t)(w >> (8 * k));
		memcpy(buf + i, b, 8);
	}
	for (; i < len; i++)
		buf[i] = byte_at(seed, i);
}

bool pattern_check(const uint8_t *buf, size_t len, uint32_t seed, size_t *offset, uint8_t *expected, uint8_t *got)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t want;

		/* Whole words first: the common case is a match. */
		if (i % 8 == 0 && i + 8 <= len) {
			uint64_t w = word(seed, i / 8);
			uint8_t b[8];

			for (unsigned k = 0; k < 8; k++)
				b[k] = (uint8_t)(w >> (8 * k));
			if (memcmp(buf + i, b, 8) == 0) {
				i += 7;
				continue;
			}
		}
		want = byte_at(seed, i);
		if (buf[i] != want) {
			*offset = i;
			*expected = want;
			*got = buf[i];
			return false;
		}
	}
	return true;
}
