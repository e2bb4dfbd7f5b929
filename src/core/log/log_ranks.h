// SPDX-License-Identifier: GPL-2.0-only
/* A job's log is many ranks: per-rank files, or one output of torchrun, mpirun or srun with each line's
 * rank or host in its prefix. Each line is put to the rank it came from (log_line_origin), and per rank a
 * summary is kept, never the lines: its host, file, first failure (time, line, the peer and HCA the line
 * names) and the facts that must agree across a job. At the end the job's first failure is chosen: a fatal
 * cause before a fatal effect ("Connection closed by remote peer", a watchdog timeout, "remote process
 * exited" on other ranks follow one rank's fatal error) before warnings, then the earliest by time where the
 * lines have times, else in the order read. A warning that explains a later failure of its rank (no verbs
 * provider, then "No such device") counts as a fatal cause, in that failure's place. Memory: LOG_RANKS_MAX
 * summaries, whatever the number of lines. */
#ifndef ROCE_DOCTOR_LOG_RANKS_H
#define ROCE_DOCTOR_LOG_RANKS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/log/log_line.h"
#include "core/log/log_patterns.h"

#define LOG_RANKS_MAX 4096   /* ranks kept; the lines of more are counted in cut_lines */

/* The facts that must be the same on every rank of a job: their names in the pattern table. */
enum { RANK_FACT_NCCL_VERSION, RANK_FACT_HCAS, RANK_FACT_GID_INDEX, RANK_FACT_BOOTSTRAP, RANK_FACTS };
extern const char *const log_rank_fact_names[RANK_FACTS];   /* "nccl_version", ... */
extern const char *const log_rank_fact_labels[RANK_FACTS];  /* "NCCL version", ... */

struct log_rank {
	char host[64];                /* "" when no line said */
	long rank;                    /* -1 when no line or file name said */
	long pid;                     /* NCCL's, 0 when not said */
	int file;                     /* the file it was first read from (-1 when that one is no longer kept) */
	char file_name[160];
	unsigned long lines;
	unsigned long last_line;      /* its last line in file_name, counted within that file */
	double last_at;               /* its latest line's time, < 0: none yet */
	char last_time[40];
	const struct log_pattern *failure;   /* its first cause, else its first problem */
	bool failure_effect;
	const struct log_pattern *failure_explains;   /* a warning's: the failure after it that it explains */
	unsigned long failure_line;   /* in failure_file */
	char failure_file[160];       /* the file of that line: a rank's lines may be in two (stdout, stderr) */
	unsigned long failure_seq;    /* the order in which failures were read, for logs without times */
	double failure_at;
	char failure_time[40];
	char peer[64], hca[64];       /* of the failing connection, when its line names them */
	char facts[RANK_FACTS][64];   /* the first value of each, "" when not stated */
	unsigned long fact_lines[RANK_FACTS];   /* the line in its file that stated it */
};

/* What a walk over the ranks compares, packed apart from the large summaries: a walk over thousands of
 * ranks reads 24 bytes of each, not a kilobyte. Kept equal to the item's host, rank, pid and file. */
struct log_rank_key {
	long rank;
	long pid;
	unsigned host_hash;           /* of the item's host; 0 with has_host false when "" */
	bool has_host;
	int file;
};

/* A walk's answer for one (host, rank, pid), valid while no item's key changed (gen). */
struct log_rank_walk {
	char host[64];
	long rank, pid;
	unsigned long gen;            /* 0: empty */
	long at;
};

#define LOG_RANKS_WALKS 4096      /* walk answers kept, by a hash of the key */

struct log_ranks {
	struct log_rank *items;       /* LOG_RANKS_MAX */
	struct log_rank_key *keys;    /* LOG_RANKS_MAX, one per item */
	/* A walk's answer depends on the keys and the file alone: kept until one changes (gen counts the
	 * changes), so that a big log whose ranks are all known walks once per key, not once per line. */
	struct log_rank_walk *walks;  /* LOG_RANKS_WALKS */
	unsigned long gen;
	size_t count;
	unsigned long cut_lines;      /* lines of ranks beyond LOG_RANKS_MAX */
	/* the file being read */
	int file;
	char file_name[160];
	long file_rank;               /* from its name ("rank3.log", "r1.log", "node-3.out"), -1 when none */
	unsigned long file_start;     /* the scan's line count when it began */
	long file_group;              /* the one rank its labelled lines went to, -1 none yet, -2 several */
	long file_unlabelled;         /* the rank its unlabelled lines go to when file_group is -2 */
	long current;                 /* the rank of the line being matched, -1 when cut */
	int recent[256];              /* by a hash of (host, rank, pid): the rank last found so, 0 or index + 1 */
	unsigned long seq;
	long first;                   /* after log_ranks_finish: the job's first failure, -1 when none */
};

/* 0 or -ENOMEM. */
int log_ranks_init(struct log_ranks *r);
void log_ranks_free(struct log_ranks *r);
/* A new file (name already cleaned for output); scan_lines: the scan's line count so far. */
void log_ranks_file(struct log_ranks *r, const char *name, unsigned long scan_lines);
/* The file being read is empty: the rank its name gives (Open MPI's rank.0/stdout of a rank that printed
 * nothing) is one of the job's all the same, with no lines. */
void log_ranks_silent(struct log_ranks *r);
/* The line scan_line of the job came from o: sets r->current. */
void log_ranks_line(struct log_ranks *r, const struct log_origin *o, unsigned long scan_line);
/* The current line is problem p (its message text[0..len)). */
void log_ranks_problem(struct log_ranks *r, const struct log_pattern *p, const char *text, size_t len,
		       unsigned long scan_line);
/* The current line states fact name = value. */
void log_ranks_fact(struct log_ranks *r, const char *name, const char *value, unsigned long line);
struct log_scan;

/* Chooses r->first, once the scan's causes are derived (a cause that names its rank counts for it). */
void log_ranks_finish(struct log_ranks *r, const struct log_scan *scan);
/* Whether the cause of warning makes failure happen (a later failure of the same rank is its effect). */
bool log_warning_explains(const struct log_pattern *warning, const struct log_pattern *failure);
/* Whether problem id is an effect of another rank's failure rather than a cause. */
bool log_problem_is_effect(const char *id);
/* "node-b rank 2", "rank 2", "vm pid 1068", or the file name: for messages. */
void log_rank_name(const struct log_rank *rank, char *out, size_t size);
/* A file name's rank: the digits after "rank", "-r", "_r", ".r" or alone before the extension, else those of
 * its directory "rank.N" (Open MPI's --output-filename); -1. */
long log_rank_from_file_name(const char *name);

#endif
