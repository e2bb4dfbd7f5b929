// SPDX-License-Identifier: GPL-2.0-only
/* An NCCL WARN or UCX ERROR no pattern row reads: the printf-format matcher, the lookup in the catalogue's
 * wordings (the most specific one, none for a line no release prints), and the scan's one finding for such
 * lines, first failure of its rank when PyTorch's NCCL error follows. */
#include <stdlib.h>
#include <string.h>

#include "core/log/log_ranks.h"
#include "core/log/log_scan.h"
#include "core/log/log_unlisted.h"
#include "tap.h"

static const struct log_wording *nccl(const char *text)
{
	return log_wording_find(log_nccl_warnings, log_nccl_warning_count, text);
}

static void log_format_matches_what_printf_prints(void)
{
	CHECK(log_format_matches("Cuda failure '%s'", "Cuda failure 'out of memory'"));
	CHECK(log_format_matches("rank %d of %d: %s", "rank 3 of 16: done"));
	CHECK(log_format_matches("rank %d", "rank -1"));
	CHECK(!log_format_matches("rank %u", "rank -1"));
	CHECK(log_format_matches("size=0x%lx at %p", "size=0x1A2b at 0x7f3a5c000000"));
	CHECK(log_format_matches("buffer %p", "buffer (nil)"));
	CHECK(log_format_matches("100%% of %s", "100% of it"));
	CHECK(log_format_matches("Call to <name> failed : %s", "Call to ibv_reg_mr failed : Cannot allocate memory"));
	CHECK(log_format_matches("%s:%d -> %d", "init.cc:1234 -> 2  "));   /* trailing spaces */
	CHECK(!log_format_matches("rank %d", "rank x"));
	CHECK(!log_format_matches("rank %d", "rank 3 more"));
	CHECK(!log_format_matches("Cuda failure '%s'", "Cuda failure"));
	CHECK(!log_format_matches("Call to <name> failed", "Call to  failed"));
}

/* A text that makes a format of many %s backtrack: bounded, an answer either way, and fast */
static void log_format_matches_is_bounded(void)
{
	size_t n = 100000;
	char *text = malloc(n + 1);

	CHECK(text != NULL);
	if (!text)
		return;
	memset(text, 'a', n);
	text[n] = '\0';
	CHECK(!log_format_matches("%s %s %s %s %s %s %s %s;", text));
	CHECK(nccl(text) == NULL);
	free(text);
}

static void log_nccl_warning_find_names_the_source(void)
{
	const struct log_wording *w = nccl("Cuda failure 'out of memory'");

	CHECK(w && strcmp(w->format, "Cuda failure '%s'") == 0 && strstr(w->file, "checks.h") != NULL);
	CHECK(w && strcmp(w->first, "v2.4.2-1") == 0);
	/* NCCL 2.20 to 2.22's async event with the device and port, not the older "%s"-only wording */
	w = nccl("NET/IB : mlx5_0:1 Got async event : port error");
	CHECK(w && strcmp(w->format, "NET/IB : %s:%d Got async event : %s") == 0 && strcmp(w->first, "v2.20.3-1") == 0);
	CHECK(nccl("this wording is in no NCCL release at all") == NULL);
	CHECK(nccl("x") == NULL);   /* "%s" alone names nothing */
	CHECK(log_nccl_warning_count > 900);
	w = log_wording_find(log_ucx_errors, log_ucx_error_count, "ep 0x5612d2a0: failed to allocate ID: Out of memory");
	CHECK(w && strcmp(w->file, "src/ucp/core/ucp_ep.c") == 0);
	CHECK(log_ucx_error_count > 200);
}

/* ucs_log's line, its time and host already skipped: where the message begins, only for ERROR and FATAL */
static void log_ucx_failure_message_finds_the_text(void)
{
	static const char error[] = "         select.c:549  UCX  ERROR   no active messages transport";
	static const char warn[] = "    ucp_context.c:1014 UCX  WARN  network device 'rxe0:1' is not available";

	CHECK(strcmp(error + log_ucx_failure_message(error, sizeof(error) - 1), "no active messages transport") == 0);
	CHECK(log_ucx_failure_message(warn, sizeof(warn) - 1) == 0);
	CHECK(log_ucx_failure_message("UCX  ERROR x", 12) == 0);   /* no file:line before it */
	CHECK(log_ucx_failure_message("a.c:1 UCX  ERROR ", 17) == 0);   /* no message after it */
}

static const struct log_hit *hit_of(const struct log_scan *scan, const char *id)
{
	for (size_t i = 0; i < scan->hit_count; i++)
		if (strcmp(scan->hits[i].pattern->id, id) == 0)
			return &scan->hits[i];
	return NULL;
}

static void log_scan_reads_an_unlisted_warn(void)
{
	static const char log[] = "h:1:2 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
				  "h:1:2 [0] enqueue.cc:99 NCCL WARN Cuda failure 'out of memory'\n"
				  "h:1:2 [0] NCCL WARN this wording is in no NCCL release\n"
				  "h:1:2 [0] NCCL INFO Cuda failure 'out of memory'\n";
	struct log_scan scan;
	const struct log_hit *hit;

	CHECK(log_scan_buffer(&scan, log, sizeof(log) - 1) == 0);
	hit = hit_of(&scan, "log.nccl.warn_unlisted");
	CHECK(hit && hit->line_count == 2 && hit->lines[0] == 2 && hit->lines[1] == 3);   /* not the INFO */
	CHECK(hit && strcmp(hit->quote, "Cuda failure 'out of memory'") == 0);
	CHECK(hit && strstr(hit->message, "from src/include/checks.h") != NULL);
	CHECK(hit && strstr(hit->fix, "https://github.com/NVIDIA/nccl/blob/v2.") != NULL);
	CHECK(scan.recognised == 3);   /* the INFO line is no row's */
	log_scan_free(&scan);
}

static void log_scan_reads_an_unlisted_ucx_error(void)
{
	static const char log[] = "[1795861602.840321] [node-b:303  :0]       ucp_ep.c:123  UCX  ERROR ep 0x5612d2a0: "
				  "failed to allocate ID: Out of memory\n"
				  "[1795861602.840321] [node-b:303  :0]       ucp_ep.c:123  UCX  ERROR no release says this\n";
	struct log_scan scan;
	const struct log_hit *hit;

	CHECK(log_scan_buffer(&scan, log, sizeof(log) - 1) == 0);
	hit = hit_of(&scan, "log.ucx.error_unlisted");
	CHECK(hit && hit->line_count == 2 && strcmp(hit->quote, "ep 0x5612d2a0: failed to allocate ID: Out of memory") == 0);
	CHECK(hit && strstr(hit->message, "UCX printed this ERROR from src/ucp/core/ucp_ep.c") != NULL);
	CHECK(hit && strstr(hit->fix, "https://github.com/openucx/ucx/blob/v1.") != NULL);
	log_scan_free(&scan);
}

/* NCCL's WARN, then PyTorch's wrapping of the error NCCL returned: the WARN is the rank's first failure */
static void log_ranks_take_the_warn_as_the_cause(void)
{
	static const char log[] = "[rank1]: h:1:2 [0] NCCL WARN this wording is in no NCCL release\n"
				  "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
				  "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n";
	struct log_scan scan;
	struct log_ranks ranks;
	const struct log_rank *first;

	CHECK(log_scan_init(&scan) == 0 && log_ranks_init(&ranks) == 0);
	scan.ranks = &ranks;
	log_ranks_file(&ranks, "job.log", 0);
	log_scan_feed(&scan, log, sizeof(log) - 1);
	log_scan_finish(&scan);
	CHECK(hit_of(&scan, "log.torch.nccl_error") != NULL);
	CHECK(ranks.first >= 0);
	first = ranks.first >= 0 ? &ranks.items[ranks.first] : NULL;
	CHECK(first && strcmp(first->failure->id, "log.nccl.warn_unlisted") == 0 && first->failure_line == 1);
	CHECK(first && first->failure_explains && strcmp(first->failure_explains->id, "log.torch.nccl_error") == 0);
	scan.ranks = NULL;
	log_ranks_free(&ranks);
	log_scan_free(&scan);
}

int main(void)
{
	RUN(log_format_matches_what_printf_prints);
	RUN(log_format_matches_is_bounded);
	RUN(log_nccl_warning_find_names_the_source);
	RUN(log_ucx_failure_message_finds_the_text);
	RUN(log_scan_reads_an_unlisted_warn);
	RUN(log_scan_reads_an_unlisted_ucx_error);
	RUN(log_ranks_take_the_warn_as_the_cause);
	TAP_DONE();
}
