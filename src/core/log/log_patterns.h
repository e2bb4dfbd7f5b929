// SPDX-License-Identifier: GPL-2.0-only
/* What explain knows about logs: one table of patterns, each a message of NCCL, perftest, PyTorch or
 * libibverbs in the form a version range prints it, with what it means, the check ids that look at its
 * cause, the next command, and the fact it states. */
#ifndef ROCE_DOCTOR_LOG_PATTERNS_H
#define ROCE_DOCTOR_LOG_PATTERNS_H

#include <stddef.h>

#include "core/findings.h"

struct log_pattern {
	const char *id;          /* "log.nccl.ib_no_device"; several rows share an id where versions differ */
	enum severity severity;  /* SEVERITY_INFO: a fact only; warn or fail: a problem */
	const char *needle;      /* a literal every matching line holds (the fast filter) */
	const char *regex;       /* POSIX ERE over the line without its prefixes; NULL: the needle alone */
	const char *source;      /* where the message is printed and the versions that print it in this form */
	const char *meaning;     /* problems: what it usually means; {1}..{4} are the regex's groups */
	const char *checks;      /* check ids that look at the cause, comma separated; "" when none */
	const char *fix;         /* problems: the next command or the fix itself, {1}..{4} as above */
	const char *fact;        /* the fact the line states ("nccl_version"), or NULL */
	const char *value;       /* the fact's value from the groups: "{1}", "{1}={2}" */
	/* NULL: a problem on its own line. Else an ERE: the line is a problem only if the log ends with no later
	 * line matching it and no other problem after it (perftest's results header with no row under it: a
	 * run that hung, which no single line says). log_scan decides when the log ends. */
	const char *until;
};

extern const struct log_pattern log_patterns[];
extern const size_t log_pattern_count;

#endif
