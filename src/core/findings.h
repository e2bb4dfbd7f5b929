// SPDX-License-Identifier: GPL-2.0-only
/* Findings: what check reports. Each has a stable id, a severity, a subject, a message and the exact fix. */
#ifndef ROCE_DOCTOR_FINDINGS_H
#define ROCE_DOCTOR_FINDINGS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

enum severity { SEVERITY_OK, SEVERITY_INFO, SEVERITY_WARN, SEVERITY_FAIL };

#define FINDING_COVERS_MAX 4

struct finding {
	char id[40];            /* "port.state": area before the dot */
	enum severity severity;
	char subject[128];      /* "mlx5_0/1", "ens19f0np0", "/etc/security/limits.d" */
	char *message;
	char *fix;              /* NULL for ok findings; may hold several lines (file contents) */
	/* What the finding is about, derived from the subject by findings_locate(); empty (0) when not about one. */
	char device[64];
	unsigned port;
	char netdev[IF_NAMESIZE];
	char file[128];         /* the path the subject names, or the file that set an NCCL variable (no :LINE) */
	/* Ids of the findings merged into this one because one fix cures them all (findings_merge_root_causes). */
	char covers[FINDING_COVERS_MAX][40];
	size_t cover_count;
};

#define FINDINGS_MAX 1024

struct findings {
	struct finding *items;
	size_t count;
	size_t capacity;
	const char *const *only; /* NULL-terminated prefixes: keep ids starting with one of them (NULL or empty: all) */
	const char *const *skip; /* NULL-terminated ids to drop */
	bool ids_only;           /* keep id, severity and subject; message and fix stay NULL: for compare, which
				  * counts each node's findings by id and formatting their text was most of its checks */
};

/* fix may be NULL. The message is printf-formatted (not at all under ids_only). Ids filtered by only/skip are dropped silently. */
void finding_add(struct findings *f, const char *id, enum severity severity, const char *subject, const char *fix,
		 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Empties f but keeps its array for the next run: a caller that runs checks on 10,000 nodes (compare). */
void findings_clear(struct findings *f);
void findings_free(struct findings *f);

/* Whether a check producing this id would be kept by --only/--skip. */
int findings_wanted(const struct findings *f, const char *id);

enum severity findings_worst(const struct findings *f);
const char *severity_name(enum severity s);   /* "ok", "info", "warn", "fail" */

#endif
