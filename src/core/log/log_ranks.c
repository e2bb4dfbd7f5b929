// SPDX-License-Identifier: GPL-2.0-only
/* Lines put to ranks, and the job's first failure. A linear search over the ranks kept, tried first at the
 * previous line's rank and at the one a small hash of the line's (host, rank, pid) last found: lines of one
 * rank come in runs, and an interleaved log of many ranks finds each in one probe, so it is rarely walked. */
#include "core/log/log_ranks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log_causes.h"
#include "core/log/log_scan.h"

const char *const log_rank_fact_names[RANK_FACTS] = { "nccl_version", "ib_devices", "gid_index",
						       "bootstrap_interface" };
const char *const log_rank_fact_labels[RANK_FACTS] = { "NCCL version", "HCAs", "GID index", "bootstrap interface" };

/* Problems another rank's failure causes: the peer went away, a collective it never joined timed out, the
 * launcher stopped the job; or that a lower layer's own line explains (Intel MPI's "unexpected DAPL event"
 * after DAPL's). Whatever else a rank shows is read as a cause. */
static const char *const effects[] = {
	"log.nccl.peer_closed", "log.torch.nccl_remote_error", "log.torch.collective_timeout",
	"log.torch.store_wait_clients", "log.job.stopped", "log.perftest.exchange_failed",
	"log.roce_doctor.serve_gone", "log.torch.nccl_error", "log.elastic.child_failed", "log.slurm.task_failed",
	"log.deepspeed.rank_exit", "log.accelerate.process_failed",
	"log.ucx.unreachable", "log.impi.dapl_event", "log.ompi.mpi_error",
};

bool log_problem_is_effect(const char *id)
{
	for (size_t i = 0; i < sizeof(effects) / sizeof(effects[0]); i++)
		if (strcmp(effects[i], id) == 0)
			return true;
	return false;
}

int log_ranks_init(struct log_ranks *r)
{
	memset(r, 0, sizeof(*r));
	r->items = calloc(LOG_RANKS_MAX, sizeof(*r->items));
	r->keys = calloc(LOG_RANKS_MAX, sizeof(*r->keys));
	r->walks = calloc(LOG_RANKS_WALKS, sizeof(*r->walks));
	r->gen = 1;
	r->file = -1;
	r->file_rank = -1;
	r->file_group = -1;
	r->file_unlabelled = -1;
	r->current = -1;
	r->first = -1;
	if (!r->items || !r->keys || !r->walks) {
		log_ranks_free(r);
		return -ENOMEM;
	}
	return 0;
}

void log_ranks_free(struct log_ranks *r)
{
	free(r->items);
	free(r->keys);
	free(r->walks);
	r->items = NULL;
	r->keys = NULL;
	r->walks = NULL;
	r->count = 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

long log_rank_from_file_name(const char *name)
{
	const char *base = strrchr(name, '/'), *end, *p;

	base = base ? base + 1 : name;
	end = strchr(base, '.');
	if (!end)
		end = base + strlen(base);
	/* "rank3", "-r3", "_r3", ".r3" anywhere before the extension */
	for (p = base; p < end; p++) {
		const char *d = NULL;

		if (end - p > 4 && strncmp(p, "rank", 4) == 0 && is_digit(p[4]))
			d = p + 4;
		else if ((p[0] == '-' || p[0] == '_') && p[1] == 'r' && p + 2 < end && is_digit(p[2]))
			d = p + 2;
		if (d) {
			const char *q = d;

			while (q < end && is_digit(*q))
				q++;
			if (q == end || *q == '-' || *q == '_')
				return strtol(d, NULL, 10);
		}
	}
	/* "3.log", "node-3.out": digits alone at the end of the name */
	p = end;
	while (p > base && is_digit(p[-1]))
		p--;
	if (p < end && end - p <= 6 && (p == base || p[-1] == '-' || p[-1] == '_'))
		return strtol(p, NULL, 10);
	/* Open MPI's --output-filename DIR: DIR/1/rank.3/stdout and stderr, the rank in the directory's name */
	if (base - name > 7) {
		const char *dir = base - 1;

		while (dir > name && dir[-1] != '/')
			dir--;
		if (strncmp(dir, "rank.", 5) == 0 && is_digit(dir[5])) {
			for (p = dir + 5; is_digit(*p); p++)
				;
			if (p == base - 1)
				return strtol(dir + 5, NULL, 10);
		}
	}
	return -1;
}

void log_ranks_file(struct log_ranks *r, const char *name, unsigned long scan_lines)
{
	r->file++;
	r->gen++;   /* a line that names nothing is the file's: walks answer anew */
	snprintf(r->file_name, sizeof(r->file_name), "%s", name);
	r->file_rank = log_rank_from_file_name(name);
	r->file_start = scan_lines;
	r->file_group = -1;
	r->file_unlabelled = -1;
	r->current = -1;
}

static unsigned host_hash(const char *host)
{
	unsigned h = 0;

	for (const char *c = host; *c; c++)
		h = h * 31 + (unsigned char)*c;
	return h;
}

/* items[i] changed its host, rank or pid (or was made): its key follows. */
static void key_update(struct log_ranks *r, size_t i)
{
	const struct log_rank *it = &r->items[i];

	r->gen++;
	r->keys[i] = (struct log_rank_key){ .rank = it->rank, .pid = it->pid, .host_hash = host_hash(it->host),
					    .has_host = it->host[0] != '\0', .file = it->file };
}

/* Whether rank i is the one host/rank/pid (each "" / -1 / 0 when unknown; hh the host's hash) name; exact:
 * every field the line gives is the rank's too (else: none contradicts it). A line that names nothing
 * matches by file. Host names are compared only where their hashes agree. */
static bool same(const struct log_ranks *r, size_t i, const char *host, unsigned hh, long rank, long pid, bool exact)
{
	const struct log_rank_key *k = &r->keys[i];

	if (!host[0] && rank < 0 && pid == 0)
		return k->file == r->file && !k->has_host && k->rank < 0;
	if (exact)
		return k->rank == rank && k->pid == pid && k->has_host == (host[0] != '\0') && k->host_hash == hh &&
		       strcmp(r->items[i].host, host) == 0;
	return (k->rank < 0 || rank < 0 || k->rank == rank) && (k->pid == 0 || pid == 0 || k->pid == pid) &&
	       (!k->has_host || !host[0] || (k->host_hash == hh && strcmp(r->items[i].host, host) == 0));
}

static long walk(struct log_ranks *r, const char *host, unsigned hh, long rank, long pid)
{
	struct log_rank *it;

	for (int exact = 1; exact >= 0; exact--)
		for (size_t i = 0; i < r->count; i++)
			if (same(r, i, host, hh, rank, pid, exact)) {
				bool filled = false;

				it = &r->items[i];
				if (!it->host[0] && host[0]) {   /* what the line adds: "[rank1]:" then "vm:1069:" */
					snprintf(it->host, sizeof(it->host), "%s", host);
					filled = true;
				}
				if (it->rank < 0 && rank >= 0) {
					it->rank = rank;
					filled = true;
				}
				if (!it->pid && pid) {
					it->pid = pid;
					filled = true;
				}
				if (filled)
					key_update(r, i);
				return (long)i;
			}
	if (r->count == LOG_RANKS_MAX)
		return -1;
	it = &r->items[r->count];
	memset(it, 0, sizeof(*it));
	snprintf(it->host, sizeof(it->host), "%s", host);
	it->rank = rank;
	it->pid = pid;
	it->file = r->file;
	snprintf(it->file_name, sizeof(it->file_name), "%s", r->file_name);
	it->last_at = -1;
	it->failure_at = -1;
	key_update(r, r->count);
	return (long)r->count++;
}

/* walk, answered from r->walks when no key changed since the same walk: it would find the same rank and
 * change nothing. */
static long find_walk(struct log_ranks *r, const char *host, unsigned hh, long rank, long pid)
{
	struct log_rank_walk *w;
	unsigned long gen = r->gen;
	long at;

	if (!r->walks)   /* the tests' reference: every walk done */
		return walk(r, host, hh, rank, pid);
	w = &r->walks[(hh ^ (unsigned)rank * 2654435761u ^ (unsigned)pid * 40503u) % LOG_RANKS_WALKS];
	if (w->gen == gen && w->rank == rank && w->pid == pid && strcmp(w->host, host) == 0)
		return w->at;
	at = walk(r, host, hh, rank, pid);
	if (r->gen == gen && strlen(host) < sizeof(w->host)) {
		snprintf(w->host, sizeof(w->host), "%s", host);
		w->rank = rank;
		w->pid = pid;
		w->gen = gen;
		w->at = at;
	}
	return at;
}

static unsigned slot(const char *host, long rank, long pid)
{
	unsigned h = (unsigned)rank * 2654435761u ^ (unsigned)pid * 40503u;

	for (const char *c = host; *c; c++)
		h = h * 31 + (unsigned char)*c;
	return (h ^ h >> 8) & 255;
}

static long find(struct log_ranks *r, const char *host, long rank, long pid)
{
	unsigned hh = host_hash(host), h = slot(host, rank, pid);
	long at;

	if (r->current >= 0 && same(r, (size_t)r->current, host, hh, rank, pid, true))
		return r->current;
	/* what this key found last time, even by what the line left out ("[rank1]:" to "vm rank 1 pid 1069") */
	if (r->recent[h] && same(r, (size_t)r->recent[h] - 1, host, hh, rank, pid, false))
		return r->recent[h] - 1;
	at = find_walk(r, host, hh, rank, pid);
	if (at >= 0)
		r->recent[h] = (int)at + 1;
	return at;
}

void log_ranks_line(struct log_ranks *r, const struct log_origin *o, unsigned long scan_line)
{
	long rank = o->rank >= 0 ? o->rank : r->file_rank;
	bool labelled = o->rank >= 0 || o->host[0] || o->pid;
	long at;

	if (!labelled && r->file_group >= 0)
		at = r->file_group;   /* a traceback's lines in a rank's own file */
	else
		at = find(r, o->host, rank, o->pid);
	if (labelled && at >= 0)
		r->file_group = r->file_group == -1 || r->file_group == at ? at : -2;
	r->current = at;
	if (at < 0) {
		r->cut_lines++;
		return;
	}
	r->items[at].lines++;
	if (r->items[at].file == r->file)
		r->items[at].last_line = scan_line - r->file_start;
	if (o->at >= 0) {
		r->items[at].last_at = o->at;
		/* both are char[40]: a plain copy, not snprintf, which costs more than the rest of the line */
		_Static_assert(sizeof(r->items[at].last_time) == sizeof(o->time), "last_time holds a time");
		memcpy(r->items[at].last_time, o->time, sizeof(o->time));
	}
}

void log_ranks_silent(struct log_ranks *r)
{
	if (r->file_rank >= 0)
		r->current = find(r, "", r->file_rank, 0);
}

/* The word after the first of keys in text[0..len) (up to a space, comma or ')'), into out. */
static void word_after(char *out, size_t size, const char *text, size_t len, const char *const *keys)
{
	for (const char *const *k = keys; *k && !out[0]; k++) {
		const char *at = memmem(text, len, *k, strlen(*k));
		size_t n = 0;

		if (!at)
			continue;
		at += strlen(*k);
		while (at + n < text + len && n + 1 < size && !strchr(" ,)'\"", at[n]))
			n++;
		memcpy(out, at, n);
		out[n] = '\0';
	}
}

/* Warnings whose cause makes a later failure of the same rank happen, with the failures they explain:
 * that failure is what the warning's cause looks like a few lines on, so the warning is the rank's first
 * failure (libibverbs with no provider lists no device: rdma_getaddrinfo then says "No such device"). A
 * pair is listed only where the program's code goes from the one to the other. */
static const char *const no_device_failures[] = {
	"log.rdmacm.call_failed", "log.rdmacm.event_error", "log.perftest.no_devices", "log.perftest.device_not_found",
	"log.perftest.no_context", "log.roce_doctor.no_device", "log.verbs.device_list_failed",
	"log.ucx.device_unavailable", "log.nccl.no_net_plugin", NULL
};
/* NCCL_NET=IB forced with no IB transport: plugin/net.cc finds no net of that name and fails */
static const char *const no_ib_failures[] = { "log.nccl.no_net_plugin", NULL };
/* registrations (and the queues' buffers) past RLIMIT_MEMLOCK fail with ENOMEM */
static const char *const memlock_failures[] = {
	"log.nccl.reg_mr", "log.nccl.reg_mr_nomem", "log.nccl.create_qp", "log.perftest.alloc_mr",
	"log.perftest.create_qp", "log.roce_doctor.memlock", "log.ucx.memlock", NULL
};
/* NCCL's WARN where a call failed, then PyTorch's wrapping of the error NCCL returned */
static const char *const nccl_error_failures[] = { "log.torch.nccl_error", "log.torch.nccl_remote_error", NULL };
/* UCX's error, then Open MPI's UCX PML failing on it (pml_ucx.c "ucx %s failed", "Failed to resolve UCX
 * endpoint") */
static const char *const ucx_error_failures[] = { "log.ompi.ucx_failed", NULL };
static const struct {
	const char *warning;
	const char *const *failures;
} explainers[] = {
	{ "log.verbs.no_provider", no_device_failures },
	{ "log.nccl.ib_no_device", no_ib_failures },
	{ "log.nccl.ibverbs_missing", no_ib_failures },
	{ "log.nccl.ib_disabled", no_ib_failures },
	{ "log.accelerate.ib_disabled", no_ib_failures },
	{ "log.nccl.net_plugin_missing", no_ib_failures },
	{ "log.verbs.memlock_low", memlock_failures },
	{ "log.nccl.warn_unlisted", nccl_error_failures },
	{ "log.ucx.error_unlisted", ucx_error_failures },
};

/* The failures warning explains, NULL when it explains none. */
static const char *const *explained_by(const struct log_pattern *warning)
{
	for (size_t i = 0; warning->severity == SEVERITY_WARN && i < sizeof(explainers) / sizeof(explainers[0]); i++)
		if (strcmp(explainers[i].warning, warning->id) == 0)
			return explainers[i].failures;
	return NULL;
}

bool log_warning_explains(const struct log_pattern *warning, const struct log_pattern *failure)
{
	const char *const *failures = explained_by(warning);

	for (; failures && *failures; failures++)
		if (strcmp(*failures, failure->id) == 0)
			return true;
	return false;
}

/* 0: a fatal cause, or a warning that explains a failure after it; 1: a fatal effect; 2: a warning that
 * can explain a failure; 3: another warning's cause; 4: a warning's effect. A fatal error outranks a
 * warning that is true but beside the point (no IB device on a host whose failure is elsewhere). */
static int kind(const struct log_pattern *p, bool effect, const struct log_pattern *explains)
{
	if (explains)
		return 0;
	if (p->severity == SEVERITY_FAIL)
		return effect ? 1 : 0;
	return explained_by(p) ? 2 : effect ? 4 : 3;
}

static int rank_kind(const struct log_rank *it)
{
	return kind(it->failure, it->failure_effect, it->failure_explains);
}

/* The rank whose pid text's "(pid: N)" names, into *it; *it unchanged when none does. */
static void pid_rank(struct log_ranks *r, const char *text, size_t len, struct log_rank **it)
{
	const char *at = memmem(text, len, "(pid: ", 6);
	long pid;

	if (!at || at + 6 >= text + len || !is_digit(at[6]))
		return;
	pid = strtol(at + 6, NULL, 10);
	for (size_t i = 0; pid > 0 && i < r->count; i++)
		if (r->items[i].pid == pid && r->items[i].rank >= 0) {
			*it = &r->items[i];
			return;
		}
}

void log_ranks_problem(struct log_ranks *r, const struct log_pattern *p, const char *text, size_t len,
		       unsigned long scan_line)
{
	/* DAPL names the peer's address "DST 10.0.0.2,9001" (cma) or "connect ERROR: -> 10.0.0.2" (scm) */
	static const char *const peer_keys[] = { "from peer ", "remote peer ", "peer ", "onnect to ", "DST ",
						 "connect ERROR: -> ", NULL };
	/* NCCL >= 2.19 ends its completion errors with "hca mlx5_0"; "HCA 0 'eth0'" is an index, not a name;
	 * UCX names the device UCX_NET_DEVICES asked for ("network device 'rxe0:1' is not available") */
	static const char *const hca_keys[] = { "hca ", "HCA ", "network device '", NULL };
	struct log_rank *it;
	bool effect = log_problem_is_effect(p->id);

	if (r->current < 0)
		return;
	it = &r->items[r->current];
	/* a launcher's line about a rank's process ("failed (exitcode: -9) local_rank: 1 (pid: 611)"): that
	 * rank's failure, when its own lines gave its pid */
	pid_rank(r, text, len, &it);
	/* a warning kept as its failure whose cause this failure is: the warning stays, as a cause */
	if (it->failure && !it->failure_explains && log_warning_explains(it->failure, p)) {
		it->failure_explains = p;
		return;
	}
	/* its first failure of the best kind (a later one of the same kind adds nothing) */
	if (it->failure && rank_kind(it) <= kind(p, effect, NULL))
		return;
	it->failure = p;
	it->failure_explains = NULL;
	it->failure_effect = effect;
	it->failure_line = scan_line;   /* counted within its file already */
	snprintf(it->failure_file, sizeof(it->failure_file), "%s", r->file_name);
	it->failure_seq = ++r->seq;
	it->failure_at = it->last_at;
	snprintf(it->failure_time, sizeof(it->failure_time), "%s", it->last_time);
	it->peer[0] = it->hca[0] = '\0';
	word_after(it->peer, sizeof(it->peer), text, len, peer_keys);
	word_after(it->hca, sizeof(it->hca), text, len, hca_keys);
	if (!((it->hca[0] >= 'a' && it->hca[0] <= 'z') || (it->hca[0] >= 'A' && it->hca[0] <= 'Z')))
		it->hca[0] = '\0';
}

/* The failing connection's HCA when its line names none: the rank's one HCA, from NCCL's "NET/IB : Using
 * [0]mlx5_2:1/RoCE" ("[0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE" names two: then it is not known). */
static void hca_from_facts(struct log_rank *it)
{
	const char *hcas = it->facts[RANK_FACT_HCAS], *name = strchr(hcas, ']');
	size_t n;

	if (it->hca[0] || !name || strchr(name + 1, ']'))
		return;
	name++;
	n = strcspn(name, ": ");
	if (n && n < sizeof(it->hca)) {
		memcpy(it->hca, name, n);
		it->hca[n] = '\0';
	}
}

void log_ranks_fact(struct log_ranks *r, const char *name, const char *value, unsigned long line)
{
	struct log_rank *it;

	if (r->current < 0)
		return;
	it = &r->items[r->current];
	for (int f = 0; f < RANK_FACTS; f++)
		if (strcmp(name, log_rank_fact_names[f]) == 0 && !it->facts[f][0]) {
			snprintf(it->facts[f], sizeof(it->facts[f]), "%s", value);
			it->fact_lines[f] = line;
		}
	/* NCCL's "comm 0x.. rank N of M: START" says whose lines these are, before any launcher prefix does */
	if (strcmp(name, "comm_init") == 0 && it->rank < 0) {
		const char *at = strstr(value, " rank ");

		if (at && is_digit(at[6])) {
			it->rank = strtol(at + 6, NULL, 10);
			key_update(r, (size_t)r->current);
		}
	}
}

/* Whether a failed before b: by kind (a fatal cause first), then by time where both have one,
 * else in the order they were read. */
static bool before(const struct log_rank *a, const struct log_rank *b)
{
	int ka = rank_kind(a), kb = rank_kind(b);

	if (ka != kb)
		return ka < kb;
	if (a->failure_at >= 0 && b->failure_at >= 0 && a->failure_at != b->failure_at)
		return a->failure_at < b->failure_at;
	return a->failure_seq < b->failure_seq;
}

void log_ranks_finish(struct log_ranks *r, const struct log_scan *scan)
{
	/* a cause the whole job shows, of the rank it names (rank 1 skipped the collective rank 0 timed out in) */
	for (size_t h = 0; h < scan->hit_count; h++) {
		const struct log_hit *hit = &scan->hits[h];
		struct log_rank *it;

		if (hit->pattern < log_cause_patterns || hit->pattern >= log_cause_patterns + log_cause_count ||
		    hit->pattern->severity != SEVERITY_FAIL || hit->rank_count != 1)
			continue;
		it = &r->items[hit->ranks[0]];
		if (it->failure && rank_kind(it) <= kind(hit->pattern, false, NULL))
			continue;
		it->failure = hit->pattern;
		it->failure_effect = false;
		it->failure_explains = NULL;
		it->failure_line = hit->line_count ? hit->lines[0] : 0;
		snprintf(it->failure_file, sizeof(it->failure_file), "%s", it->file_name);
		it->failure_seq = ++r->seq;
		it->failure_at = -1;
		it->failure_time[0] = it->peer[0] = it->hca[0] = '\0';
	}
	r->first = -1;
	for (size_t i = 0; i < r->count; i++)
		if (r->items[i].failure && !r->items[i].failure_effect && r->items[i].peer[0])
			hca_from_facts(&r->items[i]);
	for (size_t i = 0; i < r->count; i++)
		if (r->items[i].failure && r->items[i].failure->severity > SEVERITY_INFO &&
		    (r->first < 0 || before(&r->items[i], &r->items[r->first])))
			r->first = (long)i;
}

void log_rank_name(const struct log_rank *rank, char *out, size_t size)
{
	if (rank->host[0] && rank->rank >= 0)
		snprintf(out, size, "%s rank %ld", rank->host, rank->rank);
	else if (rank->rank >= 0)
		snprintf(out, size, "rank %ld", rank->rank);
	else if (rank->host[0] && rank->pid)
		snprintf(out, size, "%s pid %ld", rank->host, rank->pid);
	else if (rank->host[0])
		snprintf(out, size, "%s", rank->host);
	else
		snprintf(out, size, "%s", rank->file_name);
}
