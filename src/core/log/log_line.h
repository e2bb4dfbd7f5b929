// SPDX-License-Identifier: GPL-2.0-only
/* One log line made readable: the prefixes launchers and loggers put before a message stripped, and text
 * made safe to print and to put in JSON (invalid UTF-8 and control bytes replaced). Pure functions. */
#ifndef ROCE_DOCTOR_LOG_LINE_H
#define ROCE_DOCTOR_LOG_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* The offset of the message in line[0..len): past torchrun's "[rank0]:" / "[default0]:", mpirun's
 * "[1,0]<stdout>:", srun's "0: ", pdsh's "host: ", timestamps ("[2026-11-24 21:25:56] ", ISO 8601, syslog's
 * "Nov 24 21:25:56 ", glog's "[E1124 21:26:16.321 socket.cpp:1028] "), NCCL's "host:pid:tid [dev] NCCL INFO "
 * (or "... file.cc:123 NCCL WARN "), Intel MPI's "[0:host] ", DAPL's "host:CMA:pid:tid: 60167511 us(7 us): "
 * and libfabric's "libfabric:pid:seconds::prov:subsys:func():line<warn> ", in any order and nesting. */
size_t log_line_message(const char *line, size_t len);

/* Where a line comes from, as its prefixes say: NCCL's host and pid, the launchers' rank (torchrun's
 * "[rank3]:" or local "[default3]:", mpirun's "[1,3]<stderr>:", srun's "3: ", Intel MPI's "[3:node-a] ") or
 * host (pdsh's "node-a: ", DAPL's "node-a:CMA:..."), and the time (ISO 8601, glog, syslog). */
struct log_origin {
	char host[64];      /* "" when not given */
	long pid;           /* NCCL's, UCX's, Open MPI's, libfabric's; 0 when not given */
	long rank;          /* -1 when not given */
	double at;          /* seconds, comparable within a job (log_line.c); < 0 when not given */
	char time[40];      /* the time as the line writes it */
};

/* log_line_message, filling *o (when not NULL) from the prefixes it skips. */
size_t log_line_origin(const char *line, size_t len, struct log_origin *o);

/* Copies src[0..len) into dst (size > 0, always terminated) as valid UTF-8 without control bytes: each byte
 * that is not part of a well-formed sequence, and each control byte but tab, becomes '?'. Truncates at a
 * character boundary. Returns true when something was replaced. */
bool log_text_clean(char *dst, size_t size, const char *src, size_t len);

/* The length of the well-formed UTF-8 sequence at s[0..len) (1-4), or 0 when it is not one. */
size_t log_utf8_sequence(const unsigned char *s, size_t len);

#endif
