// SPDX-License-Identifier: GPL-2.0-only
/* The memlock sources as data: this process's RLIMIT_MEMLOCK, the pam_limits lines and systemd's
 * DefaultLimitMEMLOCK. probe/memlock.h reads them (and says how each decides); the system model carries them. */
#ifndef ROCE_DOCTOR_MODEL_MEMLOCK_H
#define ROCE_DOCTOR_MODEL_MEMLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/user.h"

struct memlock_value {
	bool unlimited;
	uint64_t bytes;              /* when !unlimited */
};

/* The process's own limit from <root>/proc/self/limits ("Max locked memory"): the same path live and
 * under --root. */
struct memlock_rlimit {
	bool known;
	struct memlock_value soft, hard;
};

/* --- pam_limits --- */

enum limits_line_kind {
	LIMITS_LINE_MEMLOCK,         /* <domain> <type> memlock <value> */
	LIMITS_LINE_NO_LIMITS,       /* <domain> -   (no limits at all for whom it applies) */
};

enum memlock_type { MEMLOCK_SOFT = 1, MEMLOCK_HARD = 2, MEMLOCK_BOTH = 3 };   /* "soft", "hard", "-" */

enum id_range { ID_RANGE_NONE, ID_RANGE_ONE, ID_RANGE_MIN, ID_RANGE_MIN_MAX };  /* ":n", "n:", "n:m" */

struct limits_line {
	char file[256];              /* as on the host: "/etc/security/limits.d/99-nccl.conf" */
	unsigned line;
	enum limits_line_kind kind;
	char domain[64];             /* as written: "tutu", "@rdma", "*", "1000:", "@:27" */
	enum id_range range;         /* parsed from domain */
	unsigned range_min, range_max;
	enum memlock_type type;
	struct memlock_value value;
};

struct pam_limits {
	struct limits_line *lines;   /* memlock and no-limit lines, in the order pam_limits reads them */
	size_t count;
};

/* --- systemd --- */

enum systemd_manager {
	SYSTEMD_MANAGER_UNKNOWN,     /* a replayed tree without /run */
	SYSTEMD_MANAGER_RUNNING,     /* /run/systemd/system exists, as sd_booted(3) tests */
	SYSTEMD_MANAGER_ABSENT,      /* /run without it: PID 1 is not systemd (a container, another init) */
};

struct systemd_memlock {
	enum systemd_manager manager;
	bool set;                    /* false: no valid DefaultLimitMEMLOCK= anywhere (systemd default 8M) */
	struct memlock_value soft, hard;
	char file[256];              /* as on the host: "/etc/systemd/system.conf.d/90-memlock.conf" */
	unsigned line;
};

struct pam_memlock {
	const struct limits_line *no_limits;   /* an applicable "<domain> -": PAM sets nothing */
	const struct limits_line *soft_line;   /* NULL: PAM leaves the soft limit as inherited */
	const struct limits_line *hard_line;
	struct memlock_value soft, hard;
	bool soft_clamped;                     /* soft was above hard: lowered to hard */
};

/* What pam_limits would set for user, with the deciding lines (pointers into conf). */
void pam_limits_memlock(const struct pam_limits *conf, const struct user_info *user, struct pam_memlock *out);

#endif
