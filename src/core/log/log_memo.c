// SPDX-License-Identifier: GPL-2.0-only
/* The match memo: a direct-mapped table, the newest text winning its slot; the text is kept whole and
 * compared on each hit, so two texts whose hashes collide are never taken for each other. */
#include "core/log/log_memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int log_memo_init(struct log_memo *memo, size_t count)
{
	memo->slots = calloc(count, sizeof(*memo->slots));
	memo->count = memo->slots ? count : 0;
	return memo->slots ? 0 : -ENOMEM;
}

void log_memo_free(struct log_memo *memo)
{
	free(memo->slots);
	memo->slots = NULL;
	memo->count = 0;
}

/* FNV-1a over eight bytes at a time: the hash is read for each line that holds a needle */
uint64_t log_memo_hash(const char *text, size_t len)
{
	uint64_t h = 14695981039346656037ull ^ len;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, text + i, sizeof(w));
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
	return h ^ h >> 32;
}

static struct log_memo_slot *slot(const struct log_memo *memo, uint64_t hash)
{
	return &memo->slots[hash % memo->count];
}

const struct log_match *log_memo_get(const struct log_memo *memo, uint64_t hash, const char *text, size_t len,
				     size_t *count)
{
	const struct log_memo_slot *s;

	if (!memo->slots)
		return NULL;
	s = slot(memo, hash);
	if (len == 0 || len > LOG_MEMO_TEXT || s->len != len || s->hash != hash ||
	    memcmp(s->text, text, len) != 0)
		return NULL;
	*count = s->count;
	return s->matches;
}

void log_memo_put(struct log_memo *memo, uint64_t hash, const char *text, size_t len,
		  const struct log_match *matches, size_t count)
{
	struct log_memo_slot *s;

	if (!memo->slots || len == 0 || len > LOG_MEMO_TEXT || count > LOG_MEMO_MATCHES)
		return;
	s = slot(memo, hash);
	s->hash = hash;
	s->len = (uint16_t)len;
	memcpy(s->text, text, len);
	s->count = count;
	memcpy(s->matches, matches, count * sizeof(*matches));
}
