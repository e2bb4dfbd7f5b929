// SPDX-License-Identifier: GPL-2.0-only
/* The data pattern a receiver checks: a pseudo-random byte stream from a 32-bit seed, same on both sides. */
#ifndef ROCE_DOCTOR_PATTERN_H
#define ROCE_DOCTOR_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void pattern_fill(uint8_t *buf, size_t len, uint32_t seed);

/* true when buf holds the pattern; otherwise the first differing offset and the two bytes there. */
bool pattern_check(const uint8_t *buf, size_t len, uint32_t seed, size_t *offset, uint8_t *expected,
		   uint8_t *got);

/* The seeds each side fills its slots with for a START seed: what the client sends last, what it sends
 * before, and the same two for the serve. */
static inline uint32_t pattern_seed(uint32_t start_seed, bool serve, bool final)
{
	return start_seed ^ (serve ? 0x5a5a5a5au : 0) ^ (final ? 0 : 0x9e3779b9u);
}

/* The bytes of a message the receiver checks: all of them, but lat's last byte is its ping-pong mark. */
static inline size_t pattern_checked_len(bool lat, uint32_t size)
{
	return lat ? size - 1 : size;
}

#endif
