// SPDX-License-Identifier: GPL-2.0-only
/* RLIMIT_MEMLOCK: what this process has, and the three places that decide it for a training job —
 * pam_limits (ssh and console logins), systemd's DefaultLimitMEMLOCK (services and everything they start,
 * Jupyter included) and the container runtime (see probe/container.h). Data only: no verdicts here.
 *
 * pam_limits precedence (linux-pam modules/pam_limits/pam_limits.c), as pam_limits_memlock() applies it:
 *  - Files: /etc/security/limits.conf first, then /etc/security/limits.d/ files named *.conf (not dot-files)
 *    in strcmp order of their names. Lines are read in file order. (Distributions built with a vendor dir
 *    also read /usr/etc/security/...; that is not modelled.)
 *  - Each applicable line has a priority by its domain: user name or uid range "min:max" / ":uid" / "min:"
 *    (user) beats "@group" or "@gid-range" (group, ranges compare the primary gid) beats "*" (default).
 *    "%" and "%group" apply to maxlogins only: pam_limits ignores them for memlock.
 *  - A line replaces the soft (or hard) value when its priority is at least as high as that of the line that
 *    set it, so among equals the later line wins: limits.d overrides limits.conf, and 99-x.conf overrides
 *    10-y.conf, but a "*" line anywhere never overrides a user or group line.
 *  - A "-" type line sets soft then hard, and stops at the soft step when soft is held by a higher priority
 *    (so its hard half is dropped too, as pam_limits does).
 *  - A two-field line "<domain> -" that applies to the user (by name, @group, or a uid range; never "*")
 *    makes pam_limits stop reading and set no limit at all.
 *  - Values: "unlimited", "infinity", "-1" or "-" (case-insensitive), otherwise KiB (strtoull, trailing
 *    text ignored as pam_limits does). If the final soft exceeds the hard, pam_limits lowers soft to hard.
 *  - A limit no line sets is left as the login service had it (sshd's own limit: the kernel or systemd
 *    default).
 *
 * systemd precedence (systemd-system.conf(5)): the first of /etc, /run, /usr/local/lib, /usr/lib
 * systemd/system.conf, then drop-ins system.conf.d/<name>.conf from those four directories, a name in an
 * earlier directory hiding the same name in later ones, all sorted by name; the last valid
 * DefaultLimitMEMLOCK= in a [Manager] section wins. Unset everywhere: systemd's compiled-in default, 8M
 * (the kernel's own default since Linux 5.16; 64 KiB before), applies to services. */
#ifndef ROCE_DOCTOR_MEMLOCK_H
#define ROCE_DOCTOR_MEMLOCK_H

#include "model/memlock.h"
#include "probe/user_info.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* <root>/proc/self/limits ("Max locked memory"): the same path live and under --root. */
int memlock_rlimit_read(const struct rootfs *root, struct memlock_rlimit *out);

/* --- pam_limits --- */

/* Reads limits.conf and limits.d; lines pam_limits would skip (malformed, bad value or range, "%"
 * domains) become notes naming file:line. 0 or -errno (missing files are not an error). */
int pam_limits_read(const struct rootfs *root, struct pam_limits *out, struct notes *notes);
void pam_limits_free(struct pam_limits *conf);

/* --- systemd --- */

int systemd_memlock_read(const struct rootfs *root, struct systemd_memlock *out, struct notes *notes);

/* systemd's rlimit syntax for sizes: "infinity", N with an optional B/K/M/G/T/P/E suffix (base 1024,
 * fractions and sums such as "1G 512M" allowed), or SOFT:HARD (soft must not exceed hard). 0 or -EINVAL,
 * -ERANGE, -EILSEQ (soft above hard), as systemd rejects them. */
int systemd_limit_parse(const char *text, struct memlock_value *soft, struct memlock_value *hard);

#endif
