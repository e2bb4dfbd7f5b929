// SPDX-License-Identifier: GPL-2.0-only
/* explain's reader with no I/O: the pattern table is well formed (regexes compile, check ids exist, each
 * problem has a meaning and a fix), prefixes strip, lines split and bound, text is cleaned. */
#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "core/check_catalog.h"
#include "core/log/log_causes.h"
#include "core/log/log_input.h"
#include "core/log/log_line.h"
#include "core/log/log_ranks.h"
#include "core/log/log_scan.h"
#include "tap.h"

static void log_patterns_compile_and_name_real_check_ids(void)
{
	struct log_scan scan;

	CHECK(log_scan_init(&scan) == 0);
	log_scan_free(&scan);
	for (size_t i = 0; i < log_pattern_count; i++) {
		const struct log_pattern *p = &log_patterns[i];
		char ids[256];

		CHECK(strncmp(p->id, "log.", 4) == 0 && p->needle[0] && p->source[0]);
		CHECK(p->severity == SEVERITY_INFO ? p->fact && p->value : p->meaning && p->fix && p->fix[0]);
		/* the needle must be in every line the regex matches, or the row could never fire */
		CHECK(!p->regex || strstr(p->regex, p->needle) || strchr(p->needle, ' ') || strlen(p->needle) < 12);
		snprintf(ids, sizeof(ids), "%s", p->checks);
		for (char *id = strtok(ids, ","); id; id = strtok(NULL, ","))
			if (!check_catalog_has(id)) {
				printf("# %s names check id '%s', which check does not have\n", p->id, id);
				CHECK(0);
			}
	}
}

static size_t strip(const char *line)
{
	return log_line_message(line, strlen(line));
}

static void log_line_strips_launcher_prefixes(void)
{
#define STRIPS(prefix, rest) CHECK(strip(prefix rest) == strlen(prefix))
	STRIPS("[rank0]:[W1124 21:25:56.649645092 ProcessGroupNCCL.cpp:1575] ", "Warning: x");
	STRIPS("vm:891:891 [0] NCCL INFO ", "NET/IB : No device found.");
	STRIPS("[2026-11-24 21:25:56] vm:926:926 [0] plugin/net.cc:379 NCCL WARN ", "Failed");
	STRIPS("[1,0]<stdout>:node-a: ", "x");
	STRIPS("[default3]:  0: 2026-11-24T21:25:56Z ", "y");
	/* not prefixes: an exception name, a perftest header line, a traceback, a lone bracket */
	CHECK(strip("torch.distributed.DistStoreError: Timed out") == 0);
	CHECK(strip(" GID index       : 3") == 0);
	CHECK(strip("  File \"/tmp/ar.py\", line 5") == 0);
	CHECK(strip("[") == 0 && strip("") == 0 && strip("[1,") == 0 && strip("x:1:2 [") == 0);
}

/* Each launcher's prefix gives the rank or host, NCCL's the host and pid, timestamps a comparable time. */
static void log_line_origin_names_host_rank_and_time(void)
{
	struct log_origin o;
#define ORIGIN(line) log_line_origin(line, strlen(line), &o)

	ORIGIN("[1,3]<stderr>:[rank3]:[E1128 03:19:25.254611676 ProcessGroupNCCL.cpp:689] x");
	CHECK(o.rank == 3 && !o.host[0] && strcmp(o.time, "1128 03:19:25.254611676") == 0 && o.at > 0);
	ORIGIN("  12: node-b:955:957 [0] bootstrap.cc:114 NCCL WARN Bootstrap : no socket interface found");
	CHECK(o.rank == 12 && strcmp(o.host, "node-b") == 0 && o.pid == 955 && o.at < 0);
	ORIGIN("node-a: [2026-11-24 21:26:00] [default1]:   File \"x\"");
	CHECK(o.rank == 1 && strcmp(o.host, "node-a") == 0 && strcmp(o.time, "2026-11-24 21:26:00") == 0);
	ORIGIN("3:   File \"/tmp/ar.py\", line 5");   /* srun keeps the message's indent */
	CHECK(o.rank == 3);
	ORIGIN("Traceback (most recent call last):");
	CHECK(o.rank == -1 && !o.host[0] && o.at < 0);
	{
		struct log_origin a, b;

		log_line_origin("Nov 24 21:25:56 x", 17, &a);
		log_line_origin("2026-11-24T21:25:57Z x", 22, &b);
		CHECK(a.at >= 0 && b.at == a.at + 1);
	}
	CHECK(log_rank_from_file_name("logs/rank12.log") == 12 && log_rank_from_file_name("job-r3.out") == 3 &&
	      log_rank_from_file_name("node-7.log.gz") == 7 && log_rank_from_file_name("3.log") == 3 &&
	      log_rank_from_file_name("nccl.log") == -1 && log_rank_from_file_name("h100.log") == -1);
#undef ORIGIN
}

/* Intel MPI's "[rank:host] " and DAPL 2.1's dapl_log() "host:PROVIDER:pid:tid: N us(N us): " (hex pid and
 * tid, "!!!" after a delta over half a second): the host and rank of a DAPL failure. */
static void log_line_origin_reads_intel_mpi_and_dapl(void)
{
	struct log_origin o;
	size_t n;
#define ORIGIN(line) (n = log_line_origin(line, strlen(line), &o))

	ORIGIN("cu34:CMA:65dd:a1ebf700: 60167511 us(7 us): dapl_cma_active: CM ADDR ERROR: -> DST 10.0.0.32 retry (1)..");
	CHECK(strcmp(o.host, "cu34") == 0 && o.pid == 0x65dd && o.rank == -1 &&
	      n == strlen("cu34:CMA:65dd:a1ebf700: 60167511 us(7 us): "));
	ORIGIN("node-b:UCM:4d2:9c1f7700: 6008420 us(3004209 us!!!):  CM_REQ: RETRIES EXHAUSTED: 0x2 5a1 0x48");
	CHECK(strcmp(o.host, "node-b") == 0 && o.pid == 0x4d2 && n == strlen("node-b:UCM:4d2:9c1f7700: 6008420 us(3004209 us!!!): "));
	ORIGIN("n1::4d2:9c1f7700: 1 us(1 us): x");   /* PROVIDER_NAME is "" in a build for no provider */
	CHECK(strcmp(o.host, "n1") == 0 && n == strlen("n1::4d2:9c1f7700: 1 us(1 us): "));
	ORIGIN("[18:cu40] unexpected DAPL event 0x4008");
	CHECK(strcmp(o.host, "cu40") == 0 && o.rank == 18 && n == strlen("[18:cu40] "));
	ORIGIN("node-b:4d2:9c1f7700: x");   /* no time after the ids: not DAPL's */
	CHECK(!o.host[0] && n == 0);
	ORIGIN("[18:56:16] x");   /* a time is no rank and host */
	CHECK(!o.host[0] && o.rank == -1 && n == 0);
#undef ORIGIN
}

/* Open MPI and UCX (tests/logs/job-vm-pair): mpirun --timestamp-output's ctime glued to its tag, UCX's
 * "[epoch] [host:pid  :thread]" and fatal "[host:pid:thread:tid]", Open MPI's "[host:pid]", libfabric's
 * "libfabric:pid:seconds::...<warn> ". */
static void log_line_origin_reads_open_mpi_and_ucx(void)
{
	struct log_origin o;
	size_t n;
#define ORIGIN(line) (n = log_line_origin(line, strlen(line), &o))

	ORIGIN("Sat Nov 28 09:59:02 2026[1,1]<stderr>:[node-b:323  :0:323]       ud_ep.c:276  Fatal: UD x");
	CHECK(o.rank == 1 && strcmp(o.host, "node-b") == 0 && o.pid == 323 && strcmp(o.time, "Nov 28 09:59:02") == 0);
	CHECK(n == strlen("Sat Nov 28 09:59:02 2026[1,1]<stderr>:[node-b:323  :0:323]       "));
	ORIGIN("[1795859452.763917] [node-a:249  :0]          select.c:549  UCX  ERROR   no auxiliary transport");
	CHECK(strcmp(o.host, "node-a") == 0 && o.pid == 249 && o.rank == -1 &&
	      strcmp(o.time, "2026-11-28 09:50:52.763917") == 0);
	ORIGIN("[node-b:00292] *** Process received signal ***");
	CHECK(strcmp(o.host, "node-b") == 0 && o.pid == 292 && n == strlen("[node-b:00292] "));
	{
		struct log_origin a, b;

		/* the same second, in ctime, syslog and epoch form: the same time */
		log_line_origin("Sat Nov 28 09:50:52 2026[1,0]<stdout>:x", 39, &a);
		log_line_origin("[1795859452.000000] x", 21, &b);
		CHECK(a.at >= 0 && a.at == b.at);
	}
	/* libfabric's FI_LOG_LEVEL lines (tests/logs/job-vm-pair-midrun): the pid and whole seconds */
	ORIGIN("libfabric:464:1795871708::ofi_rxm:cq:rxm_handle_comp_error():1725<warn> fi_cq_readerr: err: x");
	CHECK(o.pid == 464 && !o.host[0] && o.rank == -1 && strcmp(o.time, "2026-11-28 13:15:08") == 0 &&
	      n == strlen("libfabric:464:1795871708::ofi_rxm:cq:rxm_handle_comp_error():1725<warn> "));
	ORIGIN("Sat Nov 28 13:14:38 2026[1,1]<stderr>:libfabric:314:1795871678::ofi_rxm:cq:f():1<warn> x");
	CHECK(o.rank == 1 && o.pid == 314 && strcmp(o.time, "Nov 28 13:14:38") == 0);
	ORIGIN("libfabric:464:17:: short seconds<warn> x");   /* not libfabric's form: left as it is */
	CHECK(n == 0 && o.pid == 0);
	ORIGIN("[09:56:16] x");   /* a time in brackets is no host */
	CHECK(!o.host[0] && n == 0);
	ORIGIN("Sat Nov 28 09:59:02 2026: x");   /* no tag or blank after the year */
	CHECK(o.at < 0 && n == 0);
	CHECK(log_rank_from_file_name("ranks/1/rank.1/stderr") == 1 && log_rank_from_file_name("rank.12/stdout") == 12 &&
	      log_rank_from_file_name("ranks/1/rank.x/stderr") == -1 && log_rank_from_file_name("rank.1x/stderr") == -1);
#undef ORIGIN
}

static void log_text_clean_replaces_invalid_utf8_and_controls(void)
{
	char out[16];

	CHECK(log_text_clean(out, sizeof(out), "a\xc3\xa9\xff\x01\tb", 7) && strcmp(out, "a\xc3\xa9??\tb") == 0);
	CHECK(!log_text_clean(out, sizeof(out), "plain", 5) && strcmp(out, "plain") == 0);
	/* truncation never cuts a character in two */
	CHECK(!log_text_clean(out, 4, "ab\xc3\xa9", 4) && strcmp(out, "ab") == 0);
	CHECK(log_text_clean(out, sizeof(out), "\xed\xa0\x80\xe0\x80\x80", 6) && strcmp(out, "??????") == 0);
}

static void log_scan_splits_any_chunking_the_same(void)
{
	static const char log[] = "x\r\nNCCL INFO NET/IB : No device found.\n\n  \nCall to ibv_create_qp failed";
	struct log_scan whole, bytes;

	CHECK(log_scan_buffer(&whole, log, sizeof(log) - 1) == 0);
	CHECK(log_scan_init(&bytes) == 0);
	for (size_t i = 0; i < sizeof(log) - 1; i++)
		log_scan_feed(&bytes, log + i, 1);
	log_scan_finish(&bytes);
	CHECK(whole.lines == 5 && bytes.lines == 5 && whole.blank == 2 && bytes.blank == 2);
	CHECK(whole.recognised == 2 && bytes.recognised == 2 && whole.hit_count == 2 && bytes.hit_count == 2);
	CHECK(whole.hit_count == 2 && whole.hits[1].lines[0] == 5 && bytes.hits[1].lines[0] == 5);
	CHECK(log_scan_worst(&whole) == SEVERITY_FAIL);
	log_scan_free(&whole);
	log_scan_free(&bytes);
}

/* Real lines of tests/logs/vm-pair-rxe: a serve's refusal that quotes its memlock failure is the memlock
 * problem (a fail with the memlock fix), not the generic refusal (a warn); the fix names the address. */
static void log_scan_vm_pair_lines_give_their_own_problem(void)
{
	static const char log[] =
		"roce-doctor: the serve at 10.88.0.2:18516 refused the test: cannot set up the test on rxe0/1 GID 1: "
		"ibv_reg_mr of 3072 KiB: Cannot allocate memory (RLIMIT_MEMLOCK is 64 KiB: raise it, see "
		"'roce-doctor check --only memlock')\n"
		"roce-doctor: cannot connect to 10.88.0.2:18516: Connection refused (is 'roce-doctor serve' running "
		"there, listening on that port?)\n"
		" Found Incompatibility issue with GID types.\n";
	struct log_scan scan;

	CHECK(log_scan_buffer(&scan, log, sizeof(log) - 1) == 0);
	CHECK(scan.hit_count == 3 && scan.recognised == 3);
	CHECK(strcmp(scan.hits[0].pattern->id, "log.roce_doctor.memlock") == 0);
	CHECK(strstr(scan.hits[0].message, "ibv_reg_mr of 3072 KiB failed") && strstr(scan.hits[0].message, "is 64 KiB"));
	CHECK(strcmp(scan.hits[1].pattern->id, "log.roce_doctor.connect") == 0);
	CHECK(strstr(scan.hits[1].fix, "nc -zv 10.88.0.2 18516") != NULL);
	CHECK(strcmp(scan.hits[2].pattern->id, "log.perftest.gid_incompatible") == 0 && scan.hits[2].lines[0] == 3);
	log_scan_free(&scan);
}

/* n problems of ids ids[] (in order), the first line of the first one first_line */
static bool problems(const char *log, size_t n, const char *const *ids, unsigned long first_line)
{
	struct log_scan scan;
	bool same;

	if (log_scan_buffer(&scan, log, strlen(log)) != 0)
		return false;
	same = scan.hit_count == n && (!n || scan.hits[0].lines[0] == first_line);
	for (size_t i = 0; same && i < n; i++)
		same = strcmp(scan.hits[i].pattern->id, ids[i]) == 0;
	log_scan_free(&scan);
	return same;
}

static void log_scan_results_header_without_row_is_a_hang(void)
{
#define BW_HEADER " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
#define LAT_HEADER " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]\n"
	static const char *const hang[] = { "log.perftest.no_result" };
	static const char *const other[] = { "log.perftest.exchange_failed" };
	struct log_scan scan;

	/* the header and then nothing: a hang, at the header's line */
	CHECK(problems(" GID index       : 1\n" BW_HEADER, 1, hang, 2));
	CHECK(problems(LAT_HEADER "\n\n", 1, hang, 1));
	/* a row under it, bw or lat (a -nan column as rxe's lat prints), clears it */
	CHECK(problems(BW_HEADER " 65536      200              13.66              7.98   \t\t   0.000128\n", 0, NULL, 0));
	CHECK(problems(LAT_HEADER " 2       200          346.85         138599.46      5964.37  \t       8532.07     \t-nan\n",
		       0, NULL, 0));
	/* a sweep (-a) that stops after some sizes has rows: not this; a second run's header without rows is */
	CHECK(problems(BW_HEADER " 2          5000           0.13               0.12   \t\t   0.062500\n", 0, NULL, 0));
	CHECK(problems(BW_HEADER " 2 5000 0.13 0.12 0.06\n" LAT_HEADER, 1, hang, 3));
	/* another problem after the header says what went wrong: that one alone */
	CHECK(problems(BW_HEADER "ethernet_read_keys: Couldn't read remote address\n", 1, other, 2));
	/* fed a byte at a time, the same */
	CHECK(log_scan_init(&scan) == 0);
	for (const char *c = "x\n" BW_HEADER; *c; c++)
		log_scan_feed(&scan, c, 1);
	log_scan_finish(&scan);
	CHECK(scan.hit_count == 1 && scan.hits[0].lines[0] == 2 && scan.hits[0].count == 1 &&
	      strstr(scan.hits[0].quote, "#bytes") && strstr(scan.hits[0].fix, "4791"));
	log_scan_free(&scan);
#undef BW_HEADER
#undef LAT_HEADER
}

/* Each wording of a cause that NCCL printed in some release (tests/logs/catalogue/nccl-messages.tsv) gives that
 * cause's problem; an async event that is no error gives none. */
static void log_scan_reads_every_nccl_wording_of_a_cause(void)
{
	static const struct {
		const char *line, *id;   /* "-ID": not that problem */
	} cases[] = {
		/* 2.24 to 2.26, 2.27 to 2.28, 2.29 on */
		{ "h:1:2 [0] misc/socket.cc:601 NCCL WARN ncclSocketConnect: connect returned Connection refused, exceeded "
		  "error retry count (35)", "log.nccl.socket_retries" },
		{ "h:1:2 [0] os/linux.cc:455 NCCL WARN ncclOsSocketConnect: connect to 10.0.0.1<4400> returned No route to "
		  "host, exceeded error retry count after 35 attempts", "log.nccl.socket_retries" },
		/* 2.20 to 2.23 */
		{ "h:1:2 [0] misc/socket.cc:484 NCCL WARN socketPollConnect: Connect to 10.0.0.1<4400> returned 113(No route "
		  "to host) errno 113(No route to host)", "log.nccl.socket_connect" },
		/* 2.23 to 2.28.3, 2.28.7 on (a port error is "non-fatal"), 2.4 to 2.19 */
		{ "h:1:2 [0] transport/net_ib.cc:98 NCCL WARN NET/IB : mlx5_0:1 async fatal event on QP (0x55d1c0): local "
		  "work queue catastrophic error", "log.nccl.ib_async_error" },
		{ "h:1:2 [0] transport/net_ib/common.cc:120 NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port "
		  "error(10)", "log.nccl.ib_async_error" },
		{ "h:1:2 [0] transport/net_ib.cc:73 NCCL WARN NET/IB : Got async event : local catastrophic error",
		  "log.nccl.ib_async_error" },
		{ "h:1:2 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port active(9)", "-log.nccl.ib_async_error" },
		{ "h:1:2 [0] NCCL WARN NET/IB : Got async event : GID table change", "-log.nccl.ib_async_error" },
		/* every version: the socket transport, bootstrap's listening side, the IB transport's OOB interface */
		{ "h:1:2 [0] NCCL WARN NET/Socket : No usable listening interface found", "log.nccl.no_socket_interface" },
		{ "h:1:2 [0] NCCL WARN NET/IB : No IP interface found.", "log.nccl.no_socket_interface" },
		/* 2.4 to 2.11 (SYSCHECK), 2.12 on */
		{ "h:1:2 [0] include/shm.h:48 NCCL WARN Call to posix_fallocate failed : No space left on device",
		  "log.nccl.shm_full" },
		{ "h:1:2 [0] misc/shmutils.cc:80 NCCL WARN Error: failed to extend /dev/shm/nccl-x to 9637892 bytes, error: "
		  "No space left on device (28)", "log.nccl.shm_full" },
		/* 2.4 to 2.10 as WARN, later INFO */
		{ "h:1:2 [0] NCCL INFO Failed to open libibverbs.so[.1]", "log.nccl.ibverbs_missing" },
		/* 2.17 to 2.18, 2.28 on; a plugin that is absent is no problem */
		{ "h:1:2 [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: wrong ELF "
		  "class: ELFCLASS32", "log.nccl.net_plugin_broken" },
		{ "h:1:2 [0] NCCL INFO NET/Plugin: libnccl-net-aws.so: libnccl-net-aws.so: undefined symbol: "
		  "fi_getinfo", "log.nccl.net_plugin_broken" },
		{ "h:1:2 [0] NCCL INFO NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object "
		  "file: No such file or directory.", "-log.nccl.net_plugin_broken" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const ids[] = { cases[i].id };
		struct log_scan scan;
		bool found = false;

		if (cases[i].id[0] != '-') {   /* that problem alone */
			if (!problems(cases[i].line, 1, ids, 1)) {
				printf("# not %s: %s\n", cases[i].id, cases[i].line);
				CHECK(0);
			}
			continue;
		}
		CHECK(log_scan_buffer(&scan, cases[i].line, strlen(cases[i].line)) == 0);
		for (size_t h = 0; h < scan.hit_count; h++)
			found = found || strcmp(scan.hits[h].pattern->id, cases[i].id + 1) == 0;
		if (found)
			printf("# %s: %s\n", cases[i].id + 1, cases[i].line);
		CHECK(!found);
		log_scan_free(&scan);
	}
}

/* The cause rows are listed with the table: ids of log., real check ids, and never matched (no regex) */
static void log_cause_rows_are_well_formed(void)
{
	for (size_t i = 0; i < log_cause_count; i++) {
		const struct log_pattern *p = &log_cause_patterns[i];
		char ids[256];

		CHECK(strncmp(p->id, "log.", 4) == 0 && !p->regex && p->source[0] && p->severity > SEVERITY_INFO);
		snprintf(ids, sizeof(ids), "%s", p->checks);
		for (char *id = strtok(ids, ","); id; id = strtok(NULL, ","))
			CHECK(check_catalog_has(id));
	}
}

static void log_text_is_binary_at_a_quarter(void)
{
	char buf[100];
	size_t bad;

	memset(buf, 'a', sizeof(buf));
	memset(buf, 0, 25);   /* a NUL run where a crash cut the file: still text */
	CHECK(!log_text_is_binary(buf, sizeof(buf), &bad) && bad == 25);
	buf[25] = '\x01';
	CHECK(log_text_is_binary(buf, sizeof(buf), &bad) && bad == 26);
	CHECK(!log_text_is_binary("caf\xc3\xa9 \x1b[0m\r\n", 11, &bad) && bad == 0);   /* UTF-8, colour, CRLF */
	CHECK(!log_text_is_binary("", 0, &bad) && bad == 0);
}

/* gzip of text written here with zlib, fed one byte at a time: the same lines as the text itself */
static void log_input_reads_gzip_in_any_chunks(void)
{
	static const char text[] = "NET/IB : No device found.\nhello\n";
	unsigned char gz[256];
	z_stream z = { 0 };
	struct log_scan scan;
	struct log_input in;
	size_t len;

	CHECK(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = sizeof(text) - 1;
	z.next_out = gz;
	z.avail_out = sizeof(gz);
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	len = sizeof(gz) - z.avail_out;
	deflateEnd(&z);
	CHECK(log_scan_init(&scan) == 0 && log_input_init(&in, &scan) == 0);
	for (size_t i = 0; i < len; i++)
		CHECK(log_input_feed(&in, gz + i, 1) == 0);
	CHECK(log_input_finish(&in) == 0 && in.format == LOG_FORMAT_GZIP && !in.binary);
	CHECK(scan.lines == 2 && scan.hit_count == 1 && strcmp(scan.hits[0].pattern->id, "log.nccl.ib_no_device") == 0);
	log_input_free(&in);
	log_scan_free(&scan);
	/* cut before its end: the reason, and no finish */
	CHECK(log_scan_init(&scan) == 0 && log_input_init(&in, &scan) == 0);
	CHECK(log_input_feed(&in, gz, len - 6) == 0);
	CHECK(log_input_finish(&in) == -EBADMSG && strstr(in.why, "gzip data that ends early"));
	log_input_free(&in);
	log_scan_free(&scan);
}

int main(void)
{
	RUN(log_patterns_compile_and_name_real_check_ids);
	RUN(log_line_strips_launcher_prefixes);
	RUN(log_line_origin_names_host_rank_and_time);
	RUN(log_line_origin_reads_open_mpi_and_ucx);
	RUN(log_line_origin_reads_intel_mpi_and_dapl);
	RUN(log_text_clean_replaces_invalid_utf8_and_controls);
	RUN(log_scan_splits_any_chunking_the_same);
	RUN(log_scan_vm_pair_lines_give_their_own_problem);
	RUN(log_scan_results_header_without_row_is_a_hang);
	RUN(log_scan_reads_every_nccl_wording_of_a_cause);
	RUN(log_cause_rows_are_well_formed);
	RUN(log_text_is_binary_at_a_quarter);
	RUN(log_input_reads_gzip_in_any_chunks);
	TAP_DONE();
}
