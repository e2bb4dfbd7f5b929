// SPDX-License-Identifier: GPL-2.0-only
/* explain's progress line on stderr: "\r" and an erase, as bw's. */
#include "cmd/explain_progress.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INTERVAL 0.25   /* seconds between updates */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void explain_progress_start(struct explain_progress *p, FILE *file, const char *name)
{
	struct stat st;

	*p = (struct explain_progress){ .tty = isatty(STDERR_FILENO) == 1, .name = name };
	if (fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		p->total = (unsigned long long)st.st_size;
}

void explain_progress_add(struct explain_progress *p, size_t n)
{
	double t;

	p->read += n;
	if (!p->tty || (p->total <= EXPLAIN_PROGRESS_MIN && p->read <= EXPLAIN_PROGRESS_MIN))
		return;
	/* the first line as soon as the input is known to be large, then every INTERVAL */
	t = now();
	if (p->shown && t < p->next)
		return;
	p->next = t + INTERVAL;
	if (p->total)   /* a file that grows while it is read: 100% at most */
		fprintf(stderr, "\r\033[Kroce-doctor: explain: %s: %llu of %llu MB read (%llu%%)", p->name,
			p->read / 1000000, p->total / 1000000,
			p->read * 100 / (p->read > p->total ? p->read : p->total));
	else
		fprintf(stderr, "\r\033[Kroce-doctor: explain: %s: %llu MB read", p->name, p->read / 1000000);
	fflush(stderr);
	p->shown = true;
}

void explain_progress_end(struct explain_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r\033[K");
	p->shown = false;
}
