// SPDX-License-Identifier: GPL-2.0-only
/* What the table's rows matched in a message, remembered by the message's text. A big log says the same
 * things over and over once its prefixes (host, pid, rank, time) are stripped: NCCL's channel and transport
 * lines on every rank, a warning repeated by each retry. glibc's regexec costs microseconds a call, so each
 * message text is matched once and its rows and groups are reused while the text stays in this table.
 * Which rows match a text and where their groups lie depend on the text alone, so the answer is the same as
 * matching again. Memory: LOG_MEMO_SLOTS fixed entries. */
#ifndef ROCE_DOCTOR_LOG_MEMO_H
#define ROCE_DOCTOR_LOG_MEMO_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOG_MEMO_SLOTS 8192     /* explain's: direct-mapped by a hash of the text (about 4 MiB when all used) */
#define LOG_MEMO_TEXT 320       /* longer messages are matched every time */
#define LOG_MEMO_MATCHES 4      /* rows one text may match and still be kept */
#define LOG_MEMO_GROUPS 5       /* the whole match and {1}..{4} */

/* A row a message matched, and its groups. */
struct log_match {
	size_t row;
	regmatch_t groups[LOG_MEMO_GROUPS];
};

struct log_memo_slot {
	uint64_t hash;
	uint16_t len;               /* 0: empty (empty messages are never looked up) */
	char text[LOG_MEMO_TEXT];
	size_t count;
	struct log_match matches[LOG_MEMO_MATCHES];   /* in table order */
};

struct log_memo {
	struct log_memo_slot *slots;   /* NULL: nothing is remembered */
	size_t count;
};

/* count slots (LOG_MEMO_SLOTS; the tests use a few, so that texts share them). 0 or -ENOMEM. */
int log_memo_init(struct log_memo *memo, size_t count);
void log_memo_free(struct log_memo *memo);
uint64_t log_memo_hash(const char *text, size_t len);
/* The matches remembered for text[0..len) (*count of them), or NULL. */
const struct log_match *log_memo_get(const struct log_memo *memo, uint64_t hash, const char *text, size_t len,
				     size_t *count);
/* Remembers matches[0..count) for the text (a text too long, or with too many matches, is not kept). */
void log_memo_put(struct log_memo *memo, uint64_t hash, const char *text, size_t len,
		  const struct log_match *matches, size_t count);

#endif
