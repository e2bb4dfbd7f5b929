// SPDX-License-Identifier: GPL-2.0-only
/* memlock.*: can this process, a new login and a systemd service pin the memory RDMA registration needs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/checks.h"

/* Below this the 256 MiB NCCL-sized registration cannot succeed. */
#define MEMLOCK_FAIL_BELOW (256ull << 20)

static const char *value_text(const struct memlock_value *v, char *buf, size_t size)
{
	if (v->unlimited)
		snprintf(buf, size, "unlimited");
	else if (v->bytes >= (1ull << 20) && v->bytes % (1ull << 20) == 0)
		snprintf(buf, size, "%llu MiB", (unsigned long long)(v->bytes >> 20));
	else
		snprintf(buf, size, "%llu KiB", (unsigned long long)(v->bytes >> 10));
	return buf;
}

/* Whether the live registration ran and ibv_reg_mr, the call that pins memory, failed: only then may
 * memlock.limit name that call. Not tried (--root, no usable device) or a device that did not open says
 * nothing about memory. */
static bool register_failed_on_memory(const struct register_probe *r)
{
	return r && r->tried && r->err && r->step && strcmp(r->step, "ibv_reg_mr") == 0;
}

static bool in_container(const struct check_input *in)
{
	return in->container && in->container->kind[0];
}

/* One runnable line that writes the file, so the fix can be pasted as is. */
static void pam_fix(const char *domain, char *fix, size_t size)
{
	snprintf(fix, size, "mkdir -p /etc/security/limits.d && printf '%s soft memlock unlimited\\n%s hard memlock unlimited\\n' > "
		 "/etc/security/limits.d/99-nccl.conf   # pam_limits applies it at the next login", domain, domain);
}

static void check_rlimit(const struct check_input *in, struct findings *out)
{
	const struct memlock_rlimit *r = in->rlimit;
	char soft[32], hard[32], fix[640], why[160];
	enum severity s;

	if (!r || !findings_wanted(out, "memlock.limit"))
		return;
	if (!r->known) {
		finding_add(out, "memlock.limit", SEVERITY_INFO, "/proc/self/limits", NULL,
			    "Max locked memory could not be read: unknown");
		return;
	}
	value_text(&r->soft, soft, sizeof(soft));
	value_text(&r->hard, hard, sizeof(hard));
	if (r->soft.unlimited) {
		finding_add(out, "memlock.limit", SEVERITY_OK, "RLIMIT_MEMLOCK", NULL, "soft %s, hard %s", soft, hard);
		return;
	}
	s = r->soft.bytes < MEMLOCK_FAIL_BELOW ? SEVERITY_FAIL : SEVERITY_WARN;
	/* The registration worked anyway: this process has CAP_IPC_LOCK (root), which the kernel lets past the
	 * limit; a job under another user still gets the limit. */
	if (in->reg && in->reg->tried && in->reg->err == 0)
		s = SEVERITY_WARN;
	if (in_container(in))
		snprintf(fix, sizeof(fix), "docker run --ulimit memlock=-1:-1 ...   # inside a %s container (seen in %s) "
			 "the limit comes from the runtime, not from PAM or systemd; Kubernetes: the container "
			 "runtime's default ulimits (containerd/CRI-O config)", in->container->kind,
			 in->container->evidence);
	else if (r->hard.unlimited)
		snprintf(fix, sizeof(fix), "ulimit -l unlimited   # this shell and what it starts (the hard limit allows it)\n"
			 "for every login: memlock.pam's limits.d file; for services and Jupyter: memlock.systemd's drop-in");
	else
		snprintf(fix, sizeof(fix), "sudo prlimit --pid $$ --memlock=unlimited:unlimited   # this shell only\n"
			 "for every login: memlock.pam's limits.d file; for services and Jupyter: memlock.systemd's drop-in");
	if (s == SEVERITY_FAIL && register_failed_on_memory(in->reg))
		snprintf(why, sizeof(why), ": too small to register NCCL's buffers (%s of %zu MiB failed here: %s)",
			 in->reg->step, in->reg->bytes >> 20, strerror(-in->reg->err));
	else if (s == SEVERITY_FAIL)
		snprintf(why, sizeof(why), ": too small for the %llu MiB of buffers NCCL registers", MEMLOCK_FAIL_BELOW >> 20);
	else if (r->soft.bytes < MEMLOCK_FAIL_BELOW)
		snprintf(why, sizeof(why), ": ibv_reg_mr worked only because this process has CAP_IPC_LOCK (root); a "
			 "job under another user gets this limit and fails");
	else
		snprintf(why, sizeof(why), ": large registrations may still fail");
	finding_add(out, "memlock.limit", s, "RLIMIT_MEMLOCK", fix, "locked memory limit is soft %s, hard %s%s", soft,
		    hard, why);
}

static void check_pam(const struct check_input *in, struct findings *out)
{
	struct pam_memlock m;
	char fix[512], soft[32], hard[32], subject[300];
	const struct limits_line *decider;

	if (!in->pam || !in->user || !findings_wanted(out, "memlock.pam"))
		return;
	pam_limits_memlock(in->pam, in->user, &m);
	if (m.no_limits) {
		snprintf(subject, sizeof(subject), "%s:%u", m.no_limits->file, m.no_limits->line);
		pam_fix("*", fix, sizeof(fix));
		finding_add(out, "memlock.pam", SEVERITY_WARN, subject, fix,
			    "\"%s -\" applies to %s: pam_limits sets no limit at all, logins keep sshd's own (delete that "
			    "line too)", m.no_limits->domain,
			    in->user->name);
		return;
	}
	if (m.soft_line && m.hard_line && m.soft.unlimited && m.hard.unlimited) {
		snprintf(subject, sizeof(subject), "%s:%u", m.soft_line->file, m.soft_line->line);
		finding_add(out, "memlock.pam", SEVERITY_OK, subject, NULL, "logins of %s get memlock unlimited",
			    in->user->name);
		return;
	}
	/* A user or group line beats "*": the fix must name the user when such a line decides. */
	decider = m.soft_line && strcmp(m.soft_line->domain, "*") ? m.soft_line :
		  m.hard_line && strcmp(m.hard_line->domain, "*") ? m.hard_line : NULL;
	pam_fix(decider ? in->user->name : "*", fix, sizeof(fix));
	if (m.soft_line || m.hard_line) {
		const struct limits_line *l = m.soft_line ? m.soft_line : m.hard_line;

		snprintf(subject, sizeof(subject), "%s:%u", l->file, l->line);
		finding_add(out, "memlock.pam", in_container(in) ? SEVERITY_INFO : SEVERITY_WARN, subject, fix,
			    "logins of %s get memlock soft %s, hard %s%s", in->user->name,
			    m.soft_line ? value_text(&m.soft, soft, sizeof(soft)) : "inherited",
			    m.hard_line ? value_text(&m.hard, hard, sizeof(hard)) : "inherited",
			    in_container(in) ? " (in a container PAM rarely applies: see memlock.limit)" : "");
	} else {
		finding_add(out, "memlock.pam", in_container(in) ? SEVERITY_INFO : SEVERITY_WARN,
			    "/etc/security/limits.d", fix, "no memlock line in limits.conf or limits.d applies to %s: "
			    "ssh logins keep sshd's limit (usually 8 MiB)", in->user->name);
	}
}

static void check_systemd(const struct check_input *in, struct findings *out)
{
	const struct systemd_memlock *sd = in->systemd;
	char soft[32], hard[32], subject[300];
	static const char write_dropin[] = "mkdir -p /etc/systemd/system.conf.d && printf '[Manager]\\nDefaultLimitMEMLOCK=infinity\\n' > "
					   "/etc/systemd/system.conf.d/90-memlock.conf";
	char fix[512];

	if (!sd || !findings_wanted(out, "memlock.systemd"))
		return;
	if (sd->manager == SYSTEMD_MANAGER_ABSENT)
		snprintf(fix, sizeof(fix), "%s\n# systemd is not PID 1 here (no /run/systemd/system): it reads the drop-in "
			 "when it next starts", write_dropin);
	else
		snprintf(fix, sizeof(fix), "%s && systemctl daemon-reexec\n# then restart the services that need it "
			 "(jupyter, slurmd, ...): they keep the limit they started with", write_dropin);
	if (sd->set && sd->soft.unlimited && sd->hard.unlimited) {
		snprintf(subject, sizeof(subject), "%s:%u", sd->file, sd->line);
		finding_add(out, "memlock.systemd", SEVERITY_OK, subject, NULL, "DefaultLimitMEMLOCK=infinity");
		return;
	}
	if (sd->set) {
		snprintf(subject, sizeof(subject), "%s:%u", sd->file, sd->line);
		finding_add(out, "memlock.systemd", in_container(in) ? SEVERITY_INFO : SEVERITY_WARN, subject, fix,
			    "DefaultLimitMEMLOCK is soft %s, hard %s: services (Jupyter, Slurm) get that",
			    value_text(&sd->soft, soft, sizeof(soft)), value_text(&sd->hard, hard, sizeof(hard)));
	} else {
		finding_add(out, "memlock.systemd", in_container(in) ? SEVERITY_INFO : SEVERITY_WARN,
			    "/etc/systemd/system.conf", fix, "DefaultLimitMEMLOCK is not set: services (Jupyter, Slurm) "
			    "get systemd's default of 8 MiB");
	}
}

static void check_register(const struct check_input *in, struct findings *out)
{
	const struct register_probe *r = in->reg;
	char subject[96];
	/* A live outcome read back from a snapshot says so: it answered then, on that host. */
	const char *when = in->recorded && in->live ? "recorded in the snapshot: " : "";

	if (!r || !findings_wanted(out, "memlock.register"))
		return;
	if (!r->tried) {
		finding_add(out, "memlock.register", SEVERITY_INFO, "ibv_reg_mr", NULL, "%s%s", when,
			    in->live ? "not tried: no usable RDMA device" :
				       "unknown: ibv_reg_mr runs only on the live host, not under --root");
		return;
	}
	snprintf(subject, sizeof(subject), "%s", r->device[0] ? r->device : "ibv_reg_mr");
	if (r->err && r->step && (!strcmp(r->step, "ibv_open_device") || !strcmp(r->step, "ibv_get_device_list"))) {
		/* Not a memory question: rdma.uverbs and kernel.modules say why the device does not open. */
		finding_add(out, "memlock.register", SEVERITY_INFO, subject, NULL, "%snot tried: %s failed: %s "
			    "(see rdma.uverbs)", when, r->step, strerror(-r->err));
		return;
	}
	if (r->err == 0) {
		finding_add(out, "memlock.register", SEVERITY_OK, subject, NULL, "%sregistered %zu MiB with ibv_reg_mr",
			    when, r->bytes >> 20);
		return;
	}
	finding_add(out, "memlock.register", SEVERITY_FAIL, subject,
		    r->err == -ENOMEM || r->err == -EPERM || r->err == -EAGAIN ?
			    (in_container(in) ? "docker run --ulimit memlock=-1:-1 ...   # the container runtime sets the limit" :
			     "sudo prlimit --pid $$ --memlock=unlimited:unlimited   # this shell; for logins and services "
			     "the memlock.pam and memlock.systemd fixes") :
			    NULL,
		    "%s%s for a %zu MiB registration failed: %s", when, r->step ? r->step : "ibv_reg_mr", r->bytes >> 20,
		    strerror(-r->err));
}

void check_memlock(const struct check_input *in, struct findings *out)
{
	check_rlimit(in, out);
	check_pam(in, out);
	check_systemd(in, out);
	check_register(in, out);
}
