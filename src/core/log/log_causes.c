// SPDX-License-Identifier: GPL-2.0-only
/* The cause rules: each reads the facts the pattern rows kept (their values are written by the rows'
 * templates, so each is parsed back here in its one known shape) and, when the log shows the cause, adds
 * one finding that names it, ahead of the generic problems the same failure printed. */
#include "core/log/log_causes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_ranks.h"
#include "core/log/log_scan.h"
#include "core/log/log_unlisted.h"
#include "core/log/paste_scan.h"

#define RERUN_ENV "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV"
#define RANKS_MAX 4096   /* ranks told apart by the init rule; a larger job's higher ranks are not listed */
#define RANKS_SHOWN 16

enum { CAUSE_SKIPPED, CAUSE_INIT, CAUSE_LINK_LOCAL, CAUSE_HCA_NONE, CAUSE_SILENT, CAUSE_TOO_LITTLE,
       CAUSE_RANKS_DIFFER, CAUSE_NCCL_WARN, CAUSE_UCX_ERROR };

const struct log_pattern log_cause_patterns[] = {
	[CAUSE_SKIPPED] = { "log.torch.skipped_collective", SEVERITY_FAIL, "(derived)", NULL,
	  "PyTorch ProcessGroupNCCL.cpp's per-rank counters (last enqueued / last completed work) compared across "
	  "ranks (real: tests/logs/gpu-2rank)", "", "", "", NULL, NULL, NULL },
	[CAUSE_INIT] = { "log.nccl.init_waiting", SEVERITY_FAIL, "(derived)", NULL,
	  "NCCL init.cc \"- Init START\" with no \"- Init COMPLETE\" for a rank, the ranks of the communicator that "
	  "printed neither, and the launcher's stop (real: tests/logs/gpu-2rank)", "", "", "", NULL, NULL, NULL },
	[CAUSE_LINK_LOCAL] = { "log.nccl.link_local_gid", SEVERITY_FAIL, "(derived)", NULL,
	  "NCCL's local GID (net_ib.cc \"localGid %s\" to 2.19, \"GID %ld (%lX/%lX)\" 2.4 on) in fe80::/10 on a RoCE "
	  "port, with NCCL_IB_GID_INDEX from param.cc or the NCCL version's default", "", "gid.env,gid.rocev2", "", NULL,
	  NULL, NULL },
	[CAUSE_HCA_NONE] = { "log.nccl.ib_hca_matches_none", SEVERITY_WARN, "(derived)", NULL,
	  "NCCL param.cc \"NCCL_IB_HCA set by environment to %s\" (\"set to\" in 2.28) before net_ib's \"NET/IB : "
	  "No device found.\" (real: tests/logs/h100-nccl-2.28.9), and other ranks' \"NET/IB : Using\"", "",
	  "nccl.ib_hca,rdma.devices", "", NULL, NULL, NULL },
	[CAUSE_SILENT] = { "log.job.rank_silent", SEVERITY_FAIL, "(derived)", NULL,
	  "a rank of the job with no error of its own while every rank that failed shows an effect of another's "
	  "failure (ncclRemoteError, a peer that closed its connection, a collective timeout) (real: "
	  "tests/logs/gpu-2rank-cascade)", "", "", "", NULL, NULL, NULL },
	[CAUSE_TOO_LITTLE] = { "log.too_little", SEVERITY_WARN, "(derived)", NULL,
	  "a log with no line of NCCL, PyTorch, perftest, libibverbs or roce-doctor that explain reads", "", "", "",
	  NULL, NULL, NULL },
	[CAUSE_RANKS_DIFFER] = { "log.job.ranks_differ", SEVERITY_WARN, "(derived)", NULL,
	  "the NCCL version (init.cc \"NCCL version\"), HCAs (net_ib \"NET/IB : Using\"), GID index and bootstrap "
	  "interface each rank of a job states, compared across ranks", "", "nccl.ib_hca,gid.env,nccl.socket_ifname",
	  "", NULL, NULL, NULL },
	/* not derived: an NCCL WARN line that no row reads (log_unlisted.c), kept here to be listed with them */
	[CAUSE_NCCL_WARN] = { "log.nccl.warn_unlisted", SEVERITY_WARN, "(derived)", NULL,
	  "any NCCL WARN line no other row reads, named by the wording of NCCL 2.4 to the newest release it matches "
	  "(tests/logs/catalogue/nccl-messages.tsv, as src/core/log/nccl_warnings.inc)", "", "", "", NULL, NULL,
	  NULL },
	[CAUSE_UCX_ERROR] = { "log.ucx.error_unlisted", SEVERITY_WARN, "(derived)", NULL,
	  "any UCX ERROR or FATAL line (ucs_log \"%s:%-4d UCX  %-5s ...\") no other row reads, named by the wording of "
	  "UCX 1.12 or 1.22 it matches (tests/logs/catalogue/other-messages.tsv, as src/core/log/ucx_errors.inc)",
	  "", "", "", NULL, NULL, NULL },
};

const size_t log_cause_count = sizeof(log_cause_patterns) / sizeof(log_cause_patterns[0]);
const struct log_pattern *const log_unlisted_nccl_warn = &log_cause_patterns[CAUSE_NCCL_WARN];
const struct log_pattern *const log_unlisted_ucx_error = &log_cause_patterns[CAUSE_UCX_ERROR];

static void text(char *out, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void text(char *out, size_t size, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vsnprintf(out, size, format, ap);
	va_end(ap);
}

/* The job's rank numbered rank (the first kept with that number) showed hit: a cause the rule tells
 * the rank of. */
static void hit_rank_number(const struct log_scan *scan, struct log_hit *hit, long rank)
{
	for (size_t i = 0; scan->ranks && i < scan->ranks->count && !hit->rank_count; i++)
		if (scan->ranks->items[i].rank == rank)
			hit->ranks[hit->rank_count++] = (int)i;
}

static void hit_line(struct log_hit *hit, unsigned long line)
{
	if (line && hit->line_count < LOG_HIT_LINES)
		hit->lines[hit->line_count++] = line;
	hit->count++;
}

/* Puts the cause after the causes already added and before every problem of the scan. */
static void add_cause(struct log_scan *scan, size_t *causes, struct log_hit *hit)
{
	memmove(&scan->hits[*causes + 1], &scan->hits[*causes], (scan->hit_count - *causes) * sizeof(scan->hits[0]));
	scan->hits[*causes] = *hit;
	scan->hit_count++;
	(*causes)++;
}

static const struct log_fact *fact(const struct log_scan *scan, const char *name, const char *prefix)
{
	for (size_t i = 0; i < scan->fact_count; i++)
		if (strcmp(scan->facts[i].name, name) == 0 &&
		    (!prefix || strncmp(scan->facts[i].value, prefix, strlen(prefix)) == 0))
			return &scan->facts[i];
	return NULL;
}

static bool has_problem(const struct log_scan *scan, const char *id)
{
	for (size_t i = 0; i < scan->hit_count; i++)
		if (strcmp(scan->hits[i].pattern->id, id) == 0)
			return true;
	return false;
}

/* ---- a rank that skipped a collective ---- */

struct progress {
	unsigned rank;
	unsigned long enqueued, completed, line;
};

static bool skipped_collective(const struct log_scan *scan, struct log_hit *hit)
{
	struct progress lo = { 0 }, hi = { 0 }, p;
	size_t ranks = 0, at_lo = 0;
	const struct log_fact *told;
	unsigned me, other;

	for (size_t i = 0; i < scan->fact_count; i++) {
		const struct log_fact *f = &scan->facts[i];

		if (strcmp(f->name, "collective_progress") != 0 ||
		    sscanf(f->value, "rank %u: last enqueued %lu, last completed %lu", &p.rank, &p.enqueued,
			   &p.completed) != 3)
			continue;
		p.line = f->line;
		if (!ranks || p.enqueued < lo.enqueued)
			lo = p, at_lo = 0;
		if (p.enqueued == lo.enqueued && p.rank != lo.rank)
			at_lo++;
		if (!ranks || p.enqueued > hi.enqueued)
			hi = p;
		ranks++;
	}
	if (!ranks)
		return false;
	hit->pattern = &log_cause_patterns[CAUSE_SKIPPED];
	if (hi.enqueued > lo.enqueued) {
		text(hit->quote, sizeof(hit->quote), "rank %u: last enqueued work %lu; rank %u: last enqueued work %lu, "
		     "last completed %lu", lo.rank, lo.enqueued, hi.rank, hi.enqueued, hi.completed);
		text(hit->message, sizeof(hit->message), "rank %u%s never issued collective %lu, which rank %u issued "
		     "and waited in until the timeout: a rank skipped a collective. An application bug, not the network: "
		     "the ranks issue collectives in a different order or number (a collective under a rank-dependent "
		     "branch, loop count or early return, an exception caught on one rank)", lo.rank,
		     at_lo ? " (and others with the same count)" : "", lo.enqueued + 1, hi.rank);
		hit_line(hit, lo.line < hi.line ? lo.line : hi.line);
		hit_line(hit, lo.line < hi.line ? hi.line : lo.line);
		hit_rank_number(scan, hit, lo.rank);
	} else {
		/* One rank's log: it has nothing pending while another rank timed out waiting in a collective */
		told = fact(scan, "timeout_from", NULL);
		if (!told || sscanf(told->value, "rank %u told of a timeout on rank %u", &me, &other) != 2 ||
		    me == other || me != lo.rank || lo.enqueued != lo.completed)
			return false;
		text(hit->quote, sizeof(hit->quote), "rank %u: collective timeout on rank %u; last enqueued work %lu, "
		     "last completed %lu", me, other, lo.enqueued, lo.completed);
		text(hit->message, sizeof(hit->message), "rank %u had completed every collective it issued (%lu) when "
		     "rank %u timed out waiting in one: rank %u never issued collective %lu. An application bug, not the "
		     "network: the ranks issue collectives in a different order or number (a collective under a "
		     "rank-dependent branch, loop count or early return, an exception caught on one rank)", me,
		     lo.enqueued, other, me, lo.enqueued + 1);
		hit_line(hit, told->line);
	}
	text(hit->fix, sizeof(hit->fix), "py-spy dump --pid PID    # on rank %u while the others wait: the line it is at "
	     "instead of the collective\nTORCH_NCCL_DESYNC_DEBUG=1 TORCH_DISTRIBUTED_DEBUG=DETAIL    # rerun with "
	     "these: PyTorch checks that every rank calls the same collectives, and names the one that did not",
	     lo.rank);
	return true;
}

/* ---- a job stopped, or a log that ends, while ranks wait in NCCL's communicator init ---- */

static void rank_list(char *out, size_t size, const unsigned char *set, unsigned n)
{
	size_t o = 0, shown = 0, more = 0;

	out[0] = '\0';
	for (unsigned r = 0; r < n && r < RANKS_MAX; r++) {
		if (!(set[r / 8] & (1u << (r % 8))))
			continue;
		if (shown == RANKS_SHOWN) {
			more++;
			continue;
		}
		o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s%u", shown ? ", " : "", r);
		shown++;
	}
	if (more && o < size)
		snprintf(out + o, size - o, " and %zu more", more);
}

static size_t count(const unsigned char *set, unsigned n)
{
	size_t c = 0;

	for (unsigned r = 0; r < n && r < RANKS_MAX; r++)
		c += (set[r / 8] >> (r % 8)) & 1;
	return c;
}

/* The job's first communicator (PyTorch's default group, the one its first collective inits) from NCCL's
 * "comm ... rank R of N: START|COMPLETE": its id into comm (64 bytes), the ranks that started and completed
 * its init, the line of its first START into *first (when not NULL); returns N, 0 when no line says. */
static unsigned first_comm(const struct log_scan *scan, char *comm, unsigned char *started, unsigned char *done,
			   unsigned long *first)
{
	char id[64], state[16];
	unsigned rank, n, nranks = 0;

	comm[0] = '\0';
	for (size_t i = 0; i < scan->fact_count; i++) {
		const struct log_fact *f = &scan->facts[i];

		if (strcmp(f->name, "comm_init") != 0 ||
		    sscanf(f->value, "%63s rank %u of %u: %15s", id, &rank, &n, state) != 4 || rank >= RANKS_MAX)
			continue;
		if (!comm[0]) {
			snprintf(comm, 64, "%s", id);
			nranks = n;
		}
		if (strcmp(id, comm) != 0)
			continue;
		if (strcmp(state, "START") == 0) {
			started[rank / 8] |= (unsigned char)(1u << (rank % 8));
			if (first && !*first)
				*first = f->line;
		} else
			done[rank / 8] |= (unsigned char)(1u << (rank % 8));
	}
	return nranks;
}

static bool init_waiting(const struct log_scan *scan, struct log_hit *hit)
{
	unsigned char started[RANKS_MAX / 8] = { 0 }, done[RANKS_MAX / 8] = { 0 }, waiting[RANKS_MAX / 8];
	unsigned char absent[RANKS_MAX / 8];
	char comm[64], w[160], r[160], a[160];
	unsigned nranks;
	unsigned long first = 0;
	const struct log_fact *stop = fact(scan, "job_stopped", NULL);
	size_t reached;

	nranks = first_comm(scan, comm, started, done, &first);
	for (size_t i = 0; i < sizeof(started); i++) {
		waiting[i] = started[i] & ~done[i];
		absent[i] = (unsigned char)~(started[i] | done[i]);
	}
	/* an error during init is its own problem, and the cause: this rule is for a wait with no error */
	for (size_t i = 0; i < scan->hit_count; i++)
		if (scan->hits[i].pattern->severity == SEVERITY_FAIL)
			return false;
	if (!nranks || !count(waiting, nranks))
		return false;
	reached = count(started, nranks);
	rank_list(w, sizeof(w), waiting, nranks);
	rank_list(r, sizeof(r), started, nranks);
	rank_list(a, sizeof(a), absent, nranks);
	hit->pattern = &log_cause_patterns[CAUSE_INIT];
	text(hit->quote, sizeof(hit->quote), "commId %s: Init START on rank %s, no Init COMPLETE%s%s", comm, w,
	     stop ? "; " : "", stop ? stop->value : "");
	text(hit->message, sizeof(hit->message), "%s%s%s while rank %s waited in NCCL's communicator init (the first "
	     "collective starts it in PyTorch), with no error: ranks that reached it: %s (%zu of %u)%s%s. Init waits "
	     "for every rank; one that never starts it is where the job is stuck",
	     stop ? "the job was stopped (" : "the log ends", stop ? stop->value : "", stop ? ")" : "", w, r, reached,
	     nranks, reached < nranks ? "; not seen starting it: " : "", reached < nranks ? a : "");
	text(hit->fix, sizeof(hit->fix), RERUN_ENV " TORCH_NCCL_DESYNC_DEBUG=1    # rerun with these, every rank's "
	     "output kept (torchrun --tee 3, srun --output=%%t.out)\npy-spy dump --pid PID    # on a rank that did not "
	     "reach init: what it does instead");
	hit_line(hit, first);
	if (stop)
		hit_line(hit, stop->line);
	return true;
}

/* ---- a link-local GID in use on RoCE ---- */

static bool link_local_text(const char *gid)
{
	return (gid[0] == 'f' || gid[0] == 'F') && (gid[1] == 'e' || gid[1] == 'E') && gid[2] && strchr("89abAB", gid[2]);
}

/* NCCL prints the GID's two halves as little-endian 64-bit numbers: fe80:: is a prefix ending in 80FE. */
static bool link_local_hex(const char *value, int *index)
{
	unsigned long long prefix;

	return sscanf(value, "%d (%llx/", index, &prefix) == 2 && (prefix & 0xc0ffULL) == 0x80feULL;
}

static bool link_local_gid(const struct log_scan *scan, struct log_hit *hit)
{
	const struct log_fact *env = fact(scan, "environment", "NCCL_IB_GID_INDEX="), *gid = NULL;
	const struct log_fact *devices = fact(scan, "ib_devices", NULL), *version = fact(scan, "nccl_version", NULL);
	char shown[160], why[200] = "";
	int index = -1, major = 0, minor = 0;

	for (size_t i = 0; i < scan->fact_count && !gid; i++) {
		const struct log_fact *f = &scan->facts[i];

		if ((strcmp(f->name, "local_gid") == 0 && link_local_text(f->value)) ||
		    (strcmp(f->name, "nccl_gid") == 0 && link_local_hex(f->value, &index)))
			gid = f;
	}
	/* On InfiniBand the fe80:: prefix is the subnet's and right; only RoCE routes by the GID's address */
	if (!gid || (devices && !strstr(devices->value, "/RoCE") && strstr(devices->value, "/IB")))
		return false;
	if (strcmp(gid->name, "local_gid") == 0)
		text(shown, sizeof(shown), "%s", gid->value);
	else
		text(shown, sizeof(shown), "GID %s", gid->value);
	if (index < 0 && env)
		index = atoi(env->value + strlen("NCCL_IB_GID_INDEX="));
	if (env)
		text(why, sizeof(why), "; %s was set in the environment (line %lu)", env->value, env->line);
	else if (version && sscanf(version->value, "%d.%d", &major, &minor) == 2 && (major < 2 || (major == 2 && minor < 21)))
		text(why, sizeof(why), "; NCCL %s takes index 0 unless NCCL_IB_GID_INDEX is set", version->value);
	hit->pattern = &log_cause_patterns[CAUSE_LINK_LOCAL];
	text(hit->quote, sizeof(hit->quote), "%s%s%s", env ? env->value : "", env ? "; local " : "local ", shown);
	if (index >= 0) {
		size_t n = strlen(shown);

		snprintf(shown + n, sizeof(shown) - n, " (GID index %d)", index);
	}
	text(hit->message, sizeof(hit->message), "NCCL uses the link-local GID %s on %s: GID index 0 is the RoCE v1 / "
	     "link-local fe80:: entry of the port's GID table, which does not route between hosts%s. The completion "
	     "errors and timeouts that follow come from it", shown, devices ? "RoCE" : "RoCE (if these ports are "
	     "Ethernet; on InfiniBand this GID is right)", why);
	text(hit->fix, sizeof(hit->fix), "export NCCL_IB_GID_INDEX=3    # the RoCE v2 IPv4 entry on most hosts: check it "
	     "on each node with the next line\nroce-doctor gid --suggest      # on the node: the RoCE v2 GID index of "
	     "each port\nunset NCCL_IB_GID_INDEX        # instead, with NCCL >= 2.21: NCCL picks a RoCE v2 GID itself");
	if (env)
		hit_line(hit, env->line);
	hit_line(hit, gid->line);
	if (env && gid->line < env->line) {   /* lines in order */
		hit->lines[0] = gid->line;
		hit->lines[1] = env->line;
	}
	return true;
}

/* ---- NCCL_IB_HCA naming no HCA this host has ---- */

/* The names of list ("mlx5_0:1,mlx5_O", after NCCL's '^' and '=') whose device number is not a number:
 * "mlx5_O" (the letter O), into out. */
static void misspelt(char *out, size_t size, const char *list)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *at = list + strspn(list, "^="); *at; at += strspn(at, ",")) {
		size_t n = strcspn(at, ",:"), end = strcspn(at, ",");
		const char *under = memrchr(at, '_', n);

		if (under && under + 1 < at + n && strspn(under + 1, "0123456789") != (size_t)(at + n - under - 1) &&
		    o < size)
			o += (size_t)snprintf(out + o, size - o, "%s'%.*s'", o ? ", " : "", (int)n, at);
		at += end;
	}
}

static bool ib_hca_matches_none(const struct log_scan *scan, struct log_hit *hit)
{
	const struct log_fact *env = fact(scan, "environment", "NCCL_IB_HCA="), *others = fact(scan, "ib_devices", NULL);
	const char *list;
	char typo[160], used[200] = "";
	unsigned long none = 0;

	for (size_t i = 0; i < scan->hit_count && !none; i++)
		if (strcmp(scan->hits[i].pattern->id, "log.nccl.ib_no_device") == 0 && scan->hits[i].line_count)
			none = scan->hits[i].lines[0];
	if (!env || !none)
		return false;
	list = env->value + strlen("NCCL_IB_HCA=");
	misspelt(typo, sizeof(typo), list);
	if (others)
		text(used, sizeof(used), "; a rank of this job that found its HCAs uses %s (line %lu)", others->value,
		     others->line);
	hit->pattern = &log_cause_patterns[CAUSE_HCA_NONE];
	text(hit->quote, sizeof(hit->quote), "%s; NET/IB : No device found.", env->value);
	text(hit->message, sizeof(hit->message), "NCCL_IB_HCA=%s matched no RDMA device on the rank that says 'No "
	     "device found'%s%s%s: a name this host does not have (NCCL compares the names as prefixes, '=' exact, "
	     "'^' excludes), or a host with no RDMA device at all%s. NCCL then runs over TCP sockets, or fails where "
	     "NCCL_NET=IB forces the IB transport", list, typo[0] ? " (" : "", typo, typo[0] ? " has a letter "
	     "where the device number goes)" : "", used);
	text(hit->fix, sizeof(hit->fix), "ibv_devices    # on that node: the HCA names NCCL_IB_HCA must match\n"
	     "export NCCL_IB_HCA=%s    # one of those names (with :PORT to pick a port), or unset NCCL_IB_HCA to use "
	     "every port", typo[0] ? "mlx5_0" : "NAME");
	hit_line(hit, env->line);
	hit_line(hit, none);
	return true;
}

/* ---- a rank that died without a word ---- */

/* Whether the logs hold every rank of the job's first communicator (NCCL's "rank R of N" at its init): else
 * the rank that failed first may be one whose log is not given, and a rank that is merely waiting is no
 * suspect. */
static bool all_ranks_given(const struct log_scan *scan)
{
	unsigned char seen[RANKS_MAX / 8] = { 0 }, done[RANKS_MAX / 8] = { 0 };
	char comm[64];
	unsigned nranks = first_comm(scan, comm, seen, done, NULL);

	for (size_t i = 0; i < sizeof(seen); i++)
		seen[i] |= done[i];
	for (size_t i = 0; scan->ranks && i < scan->ranks->count; i++) {
		long r = scan->ranks->items[i].rank;

		if (r >= 0 && r < RANKS_MAX)
			seen[r / 8] |= (unsigned char)(1u << (r % 8));
	}
	return nranks && count(seen, nranks) == nranks;
}

/* Every rank that failed shows only what another's failure causes, and some rank shows no error at all:
 * that one ended first, without a word (SIGKILL: the OOM killer, the scheduler; or a cut log). */
static bool rank_silent(const struct log_scan *scan, struct log_hit *hit)
{
	const struct log_ranks *r = scan->ranks;
	const struct log_rank *effect = NULL, *silent = NULL;
	char silent_name[96], effect_name[96], more[48] = "";
	size_t silent_count = 0;

	/* a cause in these logs, of a line or derived by a rule before this one (a skipped collective) */
	for (size_t i = 0; i < scan->hit_count; i++)
		if (scan->hits[i].pattern->severity == SEVERITY_FAIL && !log_problem_is_effect(scan->hits[i].pattern->id))
			return false;
	for (size_t i = 0; r && i < r->count; i++) {
		const struct log_rank *it = &r->items[i];
		bool failed = it->failure && it->failure->severity == SEVERITY_FAIL;

		if (it->failure_explains || (failed && !it->failure_effect))
			return false;   /* a cause in these logs: this rule is for when there is none */
		if (failed && !effect)
			effect = it;
		if (!failed && it->lines && it->rank >= 0 && silent_count++ == 0)
			silent = it;
	}
	/* a launcher's own lines are no rank of the job: only a rank with its number counts as silent */
	if (!effect || !silent || !all_ranks_given(scan))
		return false;
	log_rank_name(silent, silent_name, sizeof(silent_name));
	log_rank_name(effect, effect_name, sizeof(effect_name));
	if (silent_count > 1)
		text(more, sizeof(more), " (and %zu more)", silent_count - 1);
	hit->pattern = &log_cause_patterns[CAUSE_SILENT];
	text(hit->quote, sizeof(hit->quote), "%s%s: no error in %lu lines; %s: %s", silent_name, more, silent->lines,
	     effect_name, effect->failure->id);
	text(hit->message, sizeof(hit->message), "%s%s printed no error, while %s failed on what another rank's "
	     "failure causes (%s): a rank whose log ends without a word was killed (SIGKILL: the kernel's OOM "
	     "killer, or the scheduler for memory or time), or its log is cut short", silent_name, more, effect_name,
	     effect->failure->id);
	text(hit->fix, sizeof(hit->fix), "dmesg -T | grep -i -E 'killed process|out of memory'    # on %s's node: the "
	     "OOM killer names the process it killed\nsacct -j JOBID -o JobID,State,ExitCode,MaxRSS    # under Slurm: "
	     "how each step ended, and its peak memory", silent_name);
	/* the silent rank's last line (in its own file), then the other rank's failure */
	hit_line(hit, silent->last_line);
	hit_line(hit, effect->failure_line);
	if (silent_count == 1)
		hit->ranks[hit->rank_count++] = (int)(silent - r->items);
	return true;
}

/* ---- too little to tell ---- */

static bool too_little(const struct log_scan *scan, struct log_hit *hit)
{
	if (scan->hit_count || scan->recognised || scan->lines == scan->blank || paste_scan_any(scan->pastes))
		return false;   /* pasted settings or counters (a dcb -j document alone) are something to read */
	hit->pattern = &log_cause_patterns[CAUSE_TOO_LITTLE];
	text(hit->quote, sizeof(hit->quote), "%lu lines, none of them NCCL's, PyTorch's, perftest's or roce-doctor's",
	     scan->lines - scan->blank);
	text(hit->message, sizeof(hit->message), "this log has no line explain reads: NCCL wrote nothing (NCCL_DEBUG "
	     "unset, or no collective ran, so NCCL never started) and no error of PyTorch, perftest or libibverbs is "
	     "in it: it cannot tell what the job did on the network");
	text(hit->fix, sizeof(hit->fix), RERUN_ENV "    # rerun the job with these in every rank's environment\n"
	     "roce-doctor explain JOB.log    # on that run's output, every rank's (torchrun --tee 3, srun "
	     "--output=%%t.out)");
	hit_line(hit, 1);
	return true;
}

/* ---- facts that differ between ranks ---- */

static bool ranks_differ(const struct log_scan *scan, struct log_hit *hit)
{
	const struct log_ranks *r = scan->ranks;
	size_t quote = 0, message = 0;

	for (int f = 0; r && f < RANK_FACTS; f++) {
		const struct log_rank *a = NULL, *b = NULL;
		char an[96], bn[96];

		for (size_t i = 0; i < r->count && !b; i++) {
			const struct log_rank *it = &r->items[i];

			if (!it->facts[f][0])
				continue;
			if (!a)
				a = it;
			else if (strcmp(a->facts[f], it->facts[f]) != 0)
				b = it;
		}
		if (!b)
			continue;
		log_rank_name(a, an, sizeof(an));
		log_rank_name(b, bn, sizeof(bn));
		if (!hit->pattern) {
			hit->pattern = &log_cause_patterns[CAUSE_RANKS_DIFFER];
			hit->ranks[hit->rank_count++] = (int)(a - r->items);
			hit->ranks[hit->rank_count++] = (int)(b - r->items);
			hit_line(hit, a->fact_lines[f]);
			hit_line(hit, b->fact_lines[f]);
		}
		if (quote < sizeof(hit->quote))
			quote += (size_t)snprintf(hit->quote + quote, sizeof(hit->quote) - quote, "%s%s %s on %s, %s on %s",
						  quote ? "; " : "", log_rank_fact_labels[f], a->facts[f], an, b->facts[f], bn);
		if (message < sizeof(hit->message))
			message += (size_t)snprintf(hit->message + message, sizeof(hit->message) - message, "%s%s",
						    message ? ", " : "the ranks of this job do not agree on: ",
						    log_rank_fact_labels[f]);
	}
	if (!hit->pattern)
		return false;
	if (message < sizeof(hit->message))
		snprintf(hit->message + message, sizeof(hit->message) - message, ". Every rank must run the same NCCL "
			 "and reach the others the same way: the rank that differs is on a node set up differently "
			 "(another image, environment or cabling), which may be what failed");
	text(hit->fix, sizeof(hit->fix), "roce-doctor compare NODE-A.json NODE-B.json    # snapshots of both nodes "
	     "(roce-doctor snapshot > NODE.json on each): what else differs\n"
	     "env | grep ^NCCL_    # in each rank's launch environment: the same on every node");
	return true;
}

void log_causes_derive(struct log_scan *scan)
{
	static bool (*const rules[])(const struct log_scan *, struct log_hit *) = {
		skipped_collective, init_waiting, link_local_gid, ib_hca_matches_none, rank_silent, too_little, ranks_differ,
	};
	size_t causes = 0;

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct log_hit hit;

		memset(&hit, 0, sizeof(hit));
		if (rules[i](scan, &hit) && !has_problem(scan, hit.pattern->id))
			add_cause(scan, &causes, &hit);
	}
}
