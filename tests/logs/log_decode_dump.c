// SPDX-License-Identifier: GPL-2.0-only
/* For tests: explain's number tables (core/log/log_decode.h), one tab-separated row per entry, for
 * tests/logs/decode_check.py to compare with the source text they were copied from.
 *   log_decode_dump > TABLES.tsv
 *   log_decode_dump KIND VALUE      what explain writes for VALUE as a KIND number */
#include <stdio.h>

#include "core/log/log_decode.h"

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

int main(int argc, char **argv)
{
	char out[512];

	if (argc == 3) {
		log_decode(out, sizeof(out), argv[1], argv[2]);
		puts(out);
		return fflush(stdout) == 0 ? 0 : 3;
	}
	for (size_t i = 0; i < log_wc_status_count; i++)
		printf("wc\t%d\t%s\t%s\n", log_wc_statuses[i].value, log_wc_statuses[i].name, log_wc_statuses[i].text);
	for (size_t i = 0; i < log_mlx5_syndrome_count; i++)
		printf("synd\t%d\t%s\t%d\t%s\n", log_mlx5_syndromes[i].value, log_mlx5_syndromes[i].name,
		       log_mlx5_syndromes[i].wc_status, log_mlx5_syndromes[i].ucx_text);
	for (size_t i = 0; i < log_mlx5_vendor_count; i++)
		printf("vend\t%d\t%s\n", log_mlx5_vendors[i].value, log_mlx5_vendors[i].name);
	for (size_t i = 0; i < log_errno_count; i++)
		printf("errno\t%d\t%s\t%s\n", log_errnos[i].value, log_errnos[i].name, log_errnos[i].text);
	for (size_t i = 0; i < log_nccl_result_count; i++) {
		const struct log_nccl_result *r = &log_nccl_results[i];

		printf("nccl\t%d\t%s\t%s\t%s\t%s\t%s\n", r->value, r->name, r->first, or_empty(r->text_old), r->text,
		       or_empty(r->torch));
	}
	return fflush(stdout) == 0 ? 0 : 3;
}
