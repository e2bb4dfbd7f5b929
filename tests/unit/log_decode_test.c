// SPDX-License-Identifier: GPL-2.0-only
/* explain's decoded numbers: each kind by number and by name, what is not in a table, a buffer too small,
 * and a pattern's {KIND:N} filled from its line. The tables themselves are checked against the sources by
 * tests/logs/decode_check.py. */
#include <string.h>

#include "core/log/log_decode.h"
#include "core/log/log_scan.h"
#include "tap.h"

static int starts(const char *kind, const char *value, const char *want)
{
	char out[512];

	log_decode(out, sizeof(out), kind, value);
	return strncmp(out, want, strlen(want)) == 0;
}

static void log_decode_reads_numbers_and_names(void)
{
	CHECK(starts("wc", "12", "12, IBV_WC_RETRY_EXC_ERR (\"transport retry counter exceeded\")"));
	CHECK(starts("wc", "IBV_WC_REM_ACCESS_ERR", "10, IBV_WC_REM_ACCESS_ERR"));
	CHECK(starts("wc", "0", "0, IBV_WC_SUCCESS (\"success\")"));
	CHECK(starts("synd", "0x15", "0x15, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR"));
	CHECK(starts("synd", "34", "0x22, MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR"));
	CHECK(starts("vend", "0x93", "0x93, MLX5_CQE_VENDOR_SYNDROME_ODP_PFAULT"));
	CHECK(starts("vend", "129", "0x81, an mlx5 firmware syndrome no public source names"));
	CHECK(starts("errno", "110", "110, ETIMEDOUT (\"Connection timed out\")"));
	CHECK(starts("errno", "ENOMEM", "12, ENOMEM"));
	CHECK(starts("nccl", "6", "6, ncclRemoteError"));
	CHECK(starts("nccl", "unhandled system error", "2, ncclSystemError"));
	CHECK(starts("nccl", "invalid usage (run with NCCL_DEBUG=WARN for details)", "5, ncclInvalidUsage"));
	CHECK(starts("nccl", "timeout", "8, ncclTimeout"));
}

static void log_decode_says_what_it_does_not_know(void)
{
	CHECK(starts("wc", "99", "99 (unknown)"));
	CHECK(starts("wc", "-1", "-1 (unknown)"));
	CHECK(starts("errno", "12x", "12x (unknown)"));
	CHECK(starts("synd", "0x99", "0x99 (unknown)"));
	CHECK(starts("nccl", "ncclNope", "ncclNope (unknown)"));
	CHECK(starts("color", "12", "12 (unknown)"));
	CHECK(starts("vend", "", " (unknown)"));
}

static void log_decode_fits_its_buffer(void)
{
	char out[8] = "xxxxxxx";

	CHECK(log_decode(out, sizeof(out), "wc", "12") == 7 && strlen(out) == 7 && strcmp(out, "12, IBV") == 0);
	CHECK(log_decode(out, 0, "wc", "12") == 0 && out[0] == '1');
	CHECK(log_decode(out, 1, "wc", "12") == 0 && out[0] == '\0');
}

/* A row's {KIND:N}: the group decoded; a group that did not match gives nothing, not a crash */
static void log_scan_fills_decoded_groups(void)
{
	static const char line[] = "h:1:2 [0] NCCL WARN NET/IB : Got completion with error 5, opcode 0, len 0, "
				   "vendor err 244\n";
	static const char ucx[] = "[1.2] [h:1:0] ib_mlx5_log.c:177 UCX ERROR Remote access error on mlx5_0:1/RoCE "
				  "(synd 0x13 vend 0x88 hw_synd 0/0)\n";
	struct log_scan scan;

	CHECK(log_scan_buffer(&scan, line, sizeof(line) - 1) == 0 && scan.hit_count == 1);
	CHECK(strstr(scan.hits[0].message, "Status 5, IBV_WC_WR_FLUSH_ERR") != NULL);
	CHECK(strstr(scan.hits[0].message, "Vendor err 0xf4, an mlx5 firmware syndrome") != NULL);
	log_scan_free(&scan);
	CHECK(log_scan_buffer(&scan, ucx, sizeof(ucx) - 1) == 0 && scan.hit_count == 1);
	CHECK(strcmp(scan.hits[0].pattern->id, "log.ucx.completion_error") == 0);
	CHECK(strstr(scan.hits[0].message, "CQE syndrome 0x13, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR (UCX: \"Remote "
		     "access error\"; libibverbs status 10, IBV_WC_REM_ACCESS_ERR)") != NULL);
	log_scan_free(&scan);
}

int main(void)
{
	RUN(log_decode_reads_numbers_and_names);
	RUN(log_decode_says_what_it_does_not_know);
	RUN(log_decode_fits_its_buffer);
	RUN(log_scan_fills_decoded_groups);
	TAP_DONE();
}
