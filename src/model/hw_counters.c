// SPDX-License-Identifier: GPL-2.0-only
/* Which hardware counters moved during a test, and which of them say something went wrong. Pure. */
#include "model/hw_counters.h"

#include <string.h>

/* Word beginnings (words are split at '_') in the counter names of rxe (rxe_hw_counters.c), mlx5 (its
 * RDMA hw_counters) and irdma/bnxt_re that mean a retransmit, an error, a NAK, a loss or a congestion
 * signal. Plain traffic (sent_pkts, rcvd_pkts, rdma_sends, rdma_recvs, ack_deferred) has none of them;
 * matching whole words keeps "deferred" from reading as "err". */
static const char *const trouble_words[] = {
	"err", "retr", "seq", "rnr", "nak", "timeout", "discard", "drop", "duplicate", "cnp", "ecn", "downed",
	"resend", "lost", "bad", "invalid", "fail", "icrc", "slow",
};

static bool word_is_trouble(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof(trouble_words) / sizeof(trouble_words[0]); i++) {
		size_t n = strlen(trouble_words[i]);

		if (len >= n && strncmp(word, trouble_words[i], n) == 0)
			return true;
	}
	return false;
}

bool hw_counter_is_trouble(const char *name)
{
	/* out_of_buffer, out_of_sequence: the NIC ran out of receive buffers or saw a gap */
	if (strstr(name, "out_of_"))
		return true;
	for (const char *w = name; *w;) {
		size_t len = strcspn(w, "_/");

		if (word_is_trouble(w, len))
			return true;
		w += len;
		w += strspn(w, "_/");
	}
	return false;
}

size_t hw_counters_moved(const struct hw_counter_set *before, const struct hw_counter_set *after,
			 struct hw_counter_move *out, size_t max)
{
	size_t n = 0, i = 0, j = 0;

	/* Both sets are sorted by name: one merge walk. */
	while (i < before->count && j < after->count && n < max) {
		int c = strcmp(before->items[i].name, after->items[j].name);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if (after->items[j].value > before->items[i].value)
				out[n++] = (struct hw_counter_move){
					.name = after->items[j].name,
					.delta = after->items[j].value - before->items[i].value,
					.trouble = hw_counter_is_trouble(after->items[j].name),
				};
			i++;
			j++;
		}
	}
	return n;
}
