// SPDX-License-Identifier: GPL-2.0-only
/* explain's progress line: a log of hundreds of MB takes seconds, and someone at a terminal should see that
 * it is being read. Only on a terminal (stderr), only for inputs over EXPLAIN_PROGRESS_MIN bytes, erased
 * when the file ends, so that pipes, CI logs and small logs get nothing. */
#ifndef ROCE_DOCTOR_EXPLAIN_PROGRESS_H
#define ROCE_DOCTOR_EXPLAIN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define EXPLAIN_PROGRESS_MIN 100000000ull   /* 100 MB: a few tenths of a second of reading */

struct explain_progress {
	bool tty;                     /* stderr is a terminal */
	const char *name;             /* the file, as the messages name it */
	unsigned long long total;     /* its size; 0 when not known (a pipe) */
	unsigned long long read;
	double next;                  /* the monotonic time of the next update */
	bool shown;                   /* a line is on the terminal, to be erased */
};

/* For one file (its FILE, to learn its size; name as the messages say it). */
void explain_progress_start(struct explain_progress *p, FILE *file, const char *name);
/* n more bytes were read. */
void explain_progress_add(struct explain_progress *p, size_t n);
/* The file ended: erases the line. */
void explain_progress_end(struct explain_progress *p);

#endif
