// SPDX-License-Identifier: GPL-2.0-only
/* mesh's run over the network. Every rank: its serve in a child, one TCP connection to rank 0, its
 * registration (host, serve port, rails, a summary of its snapshot), then the rounds rank 0 sends: the bw runs
 * it makes (each retried once), its outcomes back, which are also the barrier. Rank 0 does the same for its own
 * part and in between plans, waits and judges: nodes that never register or die are named and the rest goes
 * on; --time-limit stops before a round that would pass it. */
#include "cmd/mesh_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/mesh_child.h"
#include "core/mesh/analysis.h"
#include "core/mesh/rails.h"
#include "cmd/mesh_doc.h"
#include "output/mesh_report.h"
#include "output/render.h"
#include "proto/auth.h"
#include "proto/channel.h"
#include "proto/mesh_auth.h"
#include "proto/mesh_chan.h"
#include "verbs/perf.h"

#define SEND_MS 10000
#define HELLO_MS 10000            /* a connection's registration must come within this */

/* ---- what each rank does ---- */

struct self {
	struct mesh_register reg;
	struct mesh_rail rails[MESH_RAILS_MAX];
	size_t rails_count;
	struct mesh_serve serve;
	struct mesh_bw_config bw;
};

static double now_s(void)
{
	return (double)perf_now_ns() / 1e9;
}

/* This node's registration: host, rails from its model, its serve started. */
static int self_init(struct app *app, const struct mesh_run_args *a, const struct mesh_launch *l, struct self *s)
{
	struct host host = { 0 };
	char why[MESH_WHY_MAX];
	int code;

	memset(s, 0, sizeof(*s));
	s->serve.log_fd = -1;
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	s->rails_count = mesh_rails_of_host(&host, s->rails, MESH_RAILS_MAX);
	s->reg.devices = (unsigned)host.device_count;
	host_free(&host);
	s->reg.version = MESH_PROTOCOL_VERSION;
	s->reg.rank = l->rank;
	s->reg.size = l->size;
	if (gethostname(s->reg.host, sizeof(s->reg.host) - 1) < 0)
		snprintf(s->reg.host, sizeof(s->reg.host), "?");
	snprintf(s->reg.tool_version, sizeof(s->reg.tool_version), "%s", ROCE_DOCTOR_VERSION);
	s->reg.rail_count = (unsigned)s->rails_count;
	for (size_t i = 0; i < s->rails_count; i++) {
		struct mesh_reg_rail *r = &s->reg.rails[i];

		snprintf(r->device, sizeof(r->device), "%s", s->rails[i].device);
		r->port = s->rails[i].port;
		snprintf(r->netdev, sizeof(r->netdev), "%s", s->rails[i].netdev);
		snprintf(r->address, sizeof(r->address), "%s", s->rails[i].address);
		r->link_gbps = s->rails[i].link_gbps;
	}
	/* A serve that cannot start is this node's answer for every pair it would serve: registered, not fatal. It
	 * may take --timeout to listen (default 10 s): a loaded node starts it slowly (over 10 s in four emulated
	 * nodes sharing two cores), and a pair should not fail on what a longer --timeout would have waited for. */
	if (mesh_serve_start(a->serve_port, app->secret_file, app->timeout_s ? app->timeout_s : 10, &s->serve, why,
			     sizeof(why)) < 0)
		snprintf(s->reg.serve_error, sizeof(s->reg.serve_error), "%s", why);
	s->reg.serve_port = s->serve.port ? s->serve.port : a->serve_port ? a->serve_port : 1;
	s->bw = (struct mesh_bw_config){ a->seconds, a->bytes, app->timeout_s, app->secret_file, NULL };
	return EXIT_OK;
}

/* One order's bw, retried once when it fails. */
static void run_order(const struct self *s, const struct mesh_round *round, const struct mesh_order *o,
		      struct mesh_outcome *out)
{
	struct mesh_bw_config c = s->bw;
	char device[80];

	if (o->rail >= 0 && (size_t)o->rail < s->rails_count) {
		snprintf(device, sizeof(device), "%s:%u", s->rails[o->rail].device, s->rails[o->rail].port);
		c.device = device;
	}
	c.seconds = round->seconds;
	c.bytes = round->bytes;
	out->rail = o->rail;
	out->peer = o->peer;
	for (out->attempts = 1; out->attempts <= 2; out->attempts++) {
		out->measured = mesh_bw_run(&c, o, &out->gbps, &out->link_gbps, out->why, sizeof(out->why));
		if (out->measured || out->attempts == 2)
			break;
	}
}

/* The orders side by side (a rail plan's: each on its own rail), each in a forked copy of this process that
 * writes its outcome down a pipe; an order whose copy cannot start runs here afterwards. */
static void run_together(const struct self *s, const struct mesh_round *round, struct mesh_report *rep)
{
	int fds[MESH_RAILS_MAX];
	pid_t pids[MESH_RAILS_MAX];

	fflush(NULL);
	for (unsigned i = 0; i < round->count; i++) {
		int p[2];

		pids[i] = -1;
		fds[i] = -1;
		if (pipe2(p, O_CLOEXEC) < 0)
			continue;
		pids[i] = fork();
		if (pids[i] == 0) {
			struct mesh_outcome out = { 0 };

			close(p[0]);
			run_order(s, round, &round->orders[i], &out);
			_exit(write(p[1], &out, sizeof(out)) == (ssize_t)sizeof(out) ? 0 : 1);
		}
		close(p[1]);
		if (pids[i] < 0)
			close(p[0]);
		else
			fds[i] = p[0];
	}
	for (unsigned i = 0; i < round->count; i++) {
		struct mesh_outcome *out = &rep->outcomes[i];
		ssize_t got = -1;

		if (fds[i] >= 0) {
			do
				got = read(fds[i], out, sizeof(*out));
			while (got < 0 && errno == EINTR);
			close(fds[i]);
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (got != (ssize_t)sizeof(*out))
			run_order(s, round, &round->orders[i], out);
		out->why[sizeof(out->why) - 1] = '\0';
	}
	rep->count = round->count;
}

/* The round's bw runs: one after another (each link measured alone), or side by side for a rail plan. */
static void run_orders(struct self *s, const struct mesh_round *round, struct mesh_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->round = round->round;
	if (round->together && round->count > 1) {
		run_together(s, round, rep);
		return;
	}
	for (unsigned i = 0; i < round->count; i++)
		run_order(s, round, &round->orders[i], &rep->outcomes[rep->count++]);
}

/* ---- a rank other than 0 ---- */

/* Connects to rank 0, retrying until --register-timeout; -1 with one line that names rank 0's address, the
 * last reason and what to do about that reason (chan_connect's own advice is about a serve, not rank 0). */
static int reach_rank0(const struct mesh_launch *l, const struct mesh_run_args *a, int *fd)
{
	double deadline = now_s() + a->register_timeout_s, pause = 0.1;
	struct sockaddr_storage addr;
	char err[300] = "", reason[300] = "", advice[200];
	int ret;

	for (;;) {
		ret = chan_resolve(l->rendezvous, a->rendezvous_port, &addr, err, sizeof(err));
		if (ret == 0) {
			ret = chan_connect(&addr, 2000, fd, err, sizeof(err));
			snprintf(reason, sizeof(reason), "%s", strerror(-ret));
		} else {
			snprintf(reason, sizeof(reason), "%s", err);
		}
		if (ret == 0)
			return 0;
		if (now_s() + pause > deadline)
			break;
		/* rank 0 may start later than us under srun: try again, backing off, jittered */
		nanosleep(&(struct timespec){ 0, (long)((pause + (double)(rand() % 100) / 1000) * 1e9) % 1000000000 }, NULL);
		pause = pause * 2 > 1 ? 1 : pause * 2;
	}
	if (strstr(reason, "cannot resolve ") == reason)
		snprintf(advice, sizeof(advice), "give --rendezvous rank 0's address, or a name this node resolves");
	else if (ret == -ECONNREFUSED)
		snprintf(advice, sizeof(advice), "nothing listens there: rank 0's mesh did not start or has ended (its "
			 "own output says why), or --rendezvous names another port");
	else
		snprintf(advice, sizeof(advice), "let TCP port %u through rank 0's firewall, or check the address",
			 a->rendezvous_port);
	fprintf(stderr, "roce-doctor: mesh: rank %u cannot reach rank 0 at %s port %u (from %s) within %u s: %s; %s\n",
		l->rank, l->rendezvous, a->rendezvous_port, l->rendezvous_from, a->register_timeout_s, reason, advice);
	return -1;
}

/* Test hook: ROCE_DOCTOR_TEST_MESH_KILL_ROUND=N makes this rank die by SIGKILL when round N comes, as a node
 * lost mid-run would (its serve goes with it). 0: never. */
static unsigned test_kill_round(void)
{
	const char *v = getenv("ROCE_DOCTOR_TEST_MESH_KILL_ROUND");

	return v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

static int follow(struct self *s, const struct mesh_launch *l, const struct mesh_run_args *a)
{
	struct mesh_msg *m = calloc(1, sizeof(*m)), *rep = calloc(1, sizeof(*rep));
	uint8_t challenge[MESH_NONCE_LEN], answer[MESH_NONCE_LEN];
	char why[MESH_WHY_MAX + 64];
	int fd = -1, code = EXIT_CANNOT_RUN, ret;

	if (!m || !rep) {
		fprintf(stderr, "roce-doctor: mesh: out of memory\n");
		goto out;
	}
	if (reach_rank0(l, a, &fd) < 0)
		goto out;
	/* rank 0 challenges as it accepts; it may be busy taking others' registrations: wait as long as for them */
	ret = mesh_chan_recv(fd, m, (int)(a->register_timeout_s + 30) * 1000, why, sizeof(why));
	if (ret || m->type != MESH_MSG_CHALLENGE) {
		fprintf(stderr, "roce-doctor: mesh: rank 0 at %s port %u sent no challenge: %s (another program on the "
			"port, or a roce-doctor older than this one: run the same version on every node)\n", l->rendezvous,
			a->rendezvous_port, ret ? why : "it sent another message first");
		goto out;
	}
	if (a->token && !m->u.challenge.token) {
		fprintf(stderr, "roce-doctor: mesh: rank %u holds a job token (%s) but rank 0 at %s port %u runs without "
			"one: give every rank the same token\n", l->rank, a->token_from, l->rendezvous, a->rendezvous_port);
		goto out;
	}
	memcpy(challenge, m->u.challenge.nonce, sizeof(challenge));
	memset(m, 0, sizeof(*m));
	m->type = MESH_MSG_REGISTER;
	m->u.reg = s->reg;
	if (a->token) {
		ret = auth_nonce(m->proof.nonce);
		if (ret) {
			fprintf(stderr, "roce-doctor: mesh: cannot draw a nonce: %s\n", strerror(-ret));
			goto out;
		}
		memcpy(answer, m->proof.nonce, sizeof(answer));
		mesh_auth_mac(a->token, false, challenge, answer, l->rank, l->size, m->proof.mac);
		m->proof.given = true;
	}
	ret = mesh_chan_send(fd, m, SEND_MS);
	/* rank 0 answers once every rank is in or its registration time is up: wait as long as that */
	if (ret == 0)
		ret = mesh_chan_recv(fd, m, (int)(a->register_timeout_s + 30) * 1000, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", strerror(-ret));
	if (ret || m->type != MESH_MSG_WELCOME) {
		fprintf(stderr, "roce-doctor: mesh: rank 0 at %s port %u did not take rank %u's registration: %s\n",
			l->rendezvous, a->rendezvous_port, l->rank, ret ? why : m->type == MESH_MSG_REFUSE ? m->u.refuse :
			"it answered something else");
		goto out;
	}
	if (a->token && (!m->proof.given || !mesh_auth_check(a->token, true, challenge, answer, l->rank, l->size,
							      m->proof.mac))) {
		fprintf(stderr, "roce-doctor: mesh: rank 0 at %s port %u does not prove it holds this job's token (%s): it "
			"is not this job's rank 0, or has another token\n", l->rendezvous, a->rendezvous_port, a->token_from);
		goto out;
	}
	for (;;) {
		/* a round can last long (rank 0 runs its own bw, or waits on a slow rank): an EOF ends the wait */
		ret = mesh_chan_recv(fd, m, 24 * 3600 * 1000, why, sizeof(why));
		if (ret) {
			fprintf(stderr, "roce-doctor: mesh: rank %u lost rank 0 at %s: %s\n", l->rank, l->rendezvous, why);
			goto out;
		}
		if (m->type == MESH_MSG_DONE)
			break;
		if (m->type != MESH_MSG_ROUND) {
			fprintf(stderr, "roce-doctor: mesh: rank 0 sent a message out of turn: expected a round\n");
			goto out;
		}
		if (test_kill_round() == m->u.round.round)
			raise(SIGKILL);
		run_orders(s, &m->u.round, &rep->u.report);
		rep->type = MESH_MSG_RESULT;
		if (mesh_chan_send(fd, rep, SEND_MS) < 0) {
			fprintf(stderr, "roce-doctor: mesh: rank %u cannot send round %u's results to rank 0\n", l->rank,
				m->u.round.round);
			goto out;
		}
	}
	code = EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	free(m);
	free(rep);
	return code;
}

/* ---- rank 0 ---- */

enum node_state { NODE_MISSING, NODE_UP, NODE_DEAD };

struct node {
	enum node_state state;
	int fd;
	struct mesh_register reg;
	char address[64];            /* where rank 0 saw its connection come from */
	char gone[MESH_WHY_MAX];     /* why missing or dead */
	bool reported;               /* this round's result is in */
	uint8_t challenge[MESH_NONCE_LEN], answer[MESH_NONCE_LEN];   /* the nonces of its registration */
};

struct leader {
	const struct mesh_run_args *a;
	const struct mesh_launch *l;
	struct self *self;
	struct node *nodes;
	size_t size;
	struct mesh_result *results;
	size_t count, room;
	struct notes warnings;
	unsigned rounds_run;
	bool time_up;
};

static struct mesh_result *result_add(struct leader *g)
{
	if (g->count == g->room) {
		size_t room = g->room ? g->room * 2 : 64;
		struct mesh_result *r = realloc(g->results, room * sizeof(*r));

		if (!r)
			return NULL;
		g->results = r;
		g->room = room;
	}
	memset(&g->results[g->count], 0, sizeof(g->results[0]));
	return &g->results[g->count++];
}

/* The registration's proof of the job's token against rank 0's challenge; "" when it holds (or neither side
 * has a token), else why. */
static void judge_proof(const struct leader *g, const struct mesh_msg *m, const uint8_t challenge[MESH_NONCE_LEN],
			char *why, size_t size)
{
	const struct mesh_register *r = &m->u.reg;
	const struct secret *token = g->a->token;

	if (token && !m->proof.given)
		snprintf(why, size, "rank %u gave no proof of the job's token, and rank 0 holds one (%s): give every rank "
			 "the same", r->rank, g->a->token_from);
	else if (token && !mesh_auth_check(token, false, challenge, m->proof.nonce, r->rank, r->size, m->proof.mac))
		snprintf(why, size, "rank %u's proof does not match rank 0's token (%s): another token, or not one of "
			 "this job's ranks", r->rank, g->a->token_from);
	else if (!token && m->proof.given)
		snprintf(why, size, "rank %u holds a job token and rank 0 none: give rank 0 the same", r->rank);
}

/* A registration checked against the launcher's view; "" when it is taken, else the refusal. */
static void judge_registration(const struct leader *g, const struct mesh_msg *m,
			       const uint8_t challenge[MESH_NONCE_LEN], char *why, size_t size)
{
	const struct mesh_register *r = &m->u.reg;

	why[0] = '\0';
	if (r->version != MESH_PROTOCOL_VERSION)
		snprintf(why, size, "protocol version %u, rank 0 speaks %d: run the same roce-doctor on every node",
			 r->version, MESH_PROTOCOL_VERSION);
	else if (judge_proof(g, m, challenge, why, size), why[0])
		return;
	else if (r->size != g->size)
		snprintf(why, size, "rank %u says the mesh has %u nodes, rank 0's launcher says %zu", r->rank, r->size,
			 g->size);
	else if (r->rank == 0 || r->rank >= g->size)
		snprintf(why, size, "rank %u: rank 0 is this node, the others run 1 to %zu", r->rank, g->size - 1);
	else if (g->nodes[r->rank].state != NODE_MISSING)
		snprintf(why, size, "rank %u is already registered from %.100s: two nodes were given the same rank", r->rank,
			 g->nodes[r->rank].reg.host);
}

static void take_registration(struct leader *g, int fd, const uint8_t challenge[MESH_NONCE_LEN])
{
	struct mesh_msg *m = calloc(1, sizeof(*m));
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char why[MESH_WHY_MAX + 64], who[80] = "?";
	int ret;

	if (getpeername(fd, (struct sockaddr *)&ss, &len) == 0)
		chan_addr_text((struct sockaddr *)&ss, who, sizeof(who), false);
	ret = m ? mesh_chan_recv(fd, m, 2000, why, sizeof(why)) : -ENOMEM;
	if (ret || m->type != MESH_MSG_REGISTER) {
		notes_add(&g->warnings, "a connection from %s was not a mesh registration: %s", who,
			  ret ? why : "another message first");
		close(fd);
		free(m);
		return;
	}
	judge_registration(g, m, challenge, why, sizeof(why));
	if (why[0]) {
		notes_add(&g->warnings, "refused a registration from %s: %s", who, why);
		m->type = MESH_MSG_REFUSE;
		snprintf(m->u.refuse, sizeof(m->u.refuse), "%s", why);
		mesh_chan_send(fd, m, 1000);
		close(fd);
		free(m);
		return;
	}
	struct node *n = &g->nodes[m->u.reg.rank];

	n->state = NODE_UP;
	n->fd = fd;
	n->reg = m->u.reg;
	memcpy(n->challenge, challenge, sizeof(n->challenge));
	memcpy(n->answer, m->proof.nonce, sizeof(n->answer));
	snprintf(n->address, sizeof(n->address), "%s", who);
	for (size_t i = 0; i < g->size; i++)
		if (i != m->u.reg.rank && g->nodes[i].state == NODE_UP && strcmp(g->nodes[i].reg.host, n->reg.host) == 0) {
			notes_add(&g->warnings, "ranks %zu and %u both run on %s: their tests share its NICs and never "
				  "cross the fabric (one rank per node: srun --ntasks-per-node=1, mpirun --map-by ppr:1:node)",
				  i, m->u.reg.rank, n->reg.host);
			break;
		}
	free(m);
}

/* Waits up to --register-timeout for every rank; welcomes those that came once all are in or time is up. Every
 * rank may connect at once (srun starts them within a second): room for each, on the heap. */
static int gather(struct leader *g, int listen_fd)
{
	size_t room = g->size + 16, pending = 0, registered = 1;
	struct pollfd *p = calloc(room + 1, sizeof(*p));
	double deadline = now_s() + g->a->register_timeout_s, *opened = calloc(room, sizeof(*opened));
	uint8_t (*nonces)[MESH_NONCE_LEN] = calloc(room, sizeof(*nonces));   /* each pending connection's challenge */
	struct mesh_msg hello = { .type = MESH_MSG_CHALLENGE }, welcome = { .type = MESH_MSG_WELCOME };

	if (!p || !opened || !nonces) {
		free(p);
		free(opened);
		free(nonces);
		return -ENOMEM;
	}
	p[0] = (struct pollfd){ listen_fd, POLLIN, 0 };
	while (registered < g->size && now_s() < deadline) {
		int wait = (int)((deadline - now_s()) * 1000) + 1;

		if (poll(p, pending + 1, wait < 500 ? wait : 500) < 0 && errno != EINTR)
			break;
		for (size_t i = pending; i >= 1; i--) {
			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)) && now_s() - opened[i - 1] < HELLO_MS / 1000.0)
				continue;
			if (p[i].revents & (POLLIN | POLLHUP | POLLERR))
				take_registration(g, p[i].fd, nonces[i - 1]);
			else
				close(p[i].fd);   /* silent too long */
			p[i] = p[pending];
			opened[i - 1] = opened[pending - 1];
			memcpy(nonces[i - 1], nonces[pending - 1], sizeof(nonces[0]));
			pending--;
		}
		if (p[0].revents & POLLIN) {
			int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

			/* the challenge first: a fresh nonce per connection, so no proof is good twice */
			hello.u.challenge.token = g->a->token != NULL;
			if (fd >= 0 && pending < room && auth_nonce(hello.u.challenge.nonce) == 0 &&
			    (chan_prepare(fd), mesh_chan_send(fd, &hello, 1000) == 0)) {
				p[++pending] = (struct pollfd){ fd, POLLIN, 0 };
				opened[pending - 1] = now_s();
				memcpy(nonces[pending - 1], hello.u.challenge.nonce, sizeof(nonces[0]));
			} else if (fd >= 0) {
				close(fd);   /* more at once than there are ranks: strangers */
			}
		}
		registered = 0;
		for (size_t i = 0; i < g->size; i++)
			registered += g->nodes[i].state == NODE_UP;
	}
	for (size_t i = 1; i <= pending; i++)
		close(p[i].fd);
	free(p);
	free(opened);
	free(nonces);
	for (size_t i = 0; i < g->size; i++) {
		struct node *n = &g->nodes[i];

		if (i > 0 && n->state == NODE_UP && g->a->token) {
			/* rank 0's own proof, which the rank checks before it follows any round */
			welcome.proof.given = true;
			memcpy(welcome.proof.nonce, n->challenge, sizeof(welcome.proof.nonce));
			mesh_auth_mac(g->a->token, true, n->challenge, n->answer, (unsigned)i, (unsigned)g->size,
				      welcome.proof.mac);
		}
		if (n->state == NODE_MISSING)
			snprintf(n->gone, sizeof(n->gone), "never registered within %u s (--register-timeout): its mesh did "
				 "not start, or cannot reach rank 0 port %u", g->a->register_timeout_s, g->a->rendezvous_port);
		else if (i > 0 && mesh_chan_send(n->fd, &welcome, SEND_MS) < 0)
			snprintf(n->gone, sizeof(n->gone), "went away before the first round"), n->state = NODE_DEAD;
	}
	return 0;
}

static void node_died(struct leader *g, size_t rank, unsigned round, const char *why)
{
	struct node *n = &g->nodes[rank];

	if (n->state != NODE_UP)
		return;
	n->state = NODE_DEAD;
	snprintf(n->gone, sizeof(n->gone), "died in round %u: %.200s", round, why);
	close(n->fd);
	n->fd = -1;
}

/* The address a reaches b's rail at: b's own for the rail, else where b's connection came from. */
static const char *rail_address(const struct leader *g, unsigned b, int rail)
{
	const struct node *n = &g->nodes[b];

	if (rail >= 0 && (unsigned)rail < n->reg.rail_count && n->reg.rails[rail].address[0])
		return n->reg.rails[rail].address;
	return n->address;
}

/* An outcome for result index i, from its client's report. */
static void record(struct mesh_result *r, const struct mesh_outcome *o)
{
	r->state = o->measured ? MESH_RESULT_MEASURED : MESH_RESULT_FAILED;
	r->gbps = o->measured ? o->gbps : 0;
	r->link_gbps = o->link_gbps;
	r->attempts = o->attempts;
	snprintf(r->why, sizeof(r->why), "%s", o->measured ? "" : o->why);
}

static void apply_report(struct leader *g, size_t rank, const struct mesh_report *rep, size_t first, unsigned round)
{
	for (unsigned k = 0; k < rep->count; k++) {
		const struct mesh_outcome *o = &rep->outcomes[k];
		bool found = false;

		for (size_t i = first; i < g->count && !found; i++) {
			struct mesh_result *r = &g->results[i];

			if (r->a == rank && r->b == o->peer && r->rail == o->rail && r->state == MESH_RESULT_NOT_RUN &&
			    r->round == round) {
				record(r, o);
				found = true;
			}
		}
		if (!found)
			notes_add(&g->warnings, "rank %zu reported a test it was not given in round %u (rail %d with rank %u)",
				  rank, round, o->rail, o->peer);
	}
}

/* The results of round (its results from first on): every live rank's report, until the deadline. */
static void collect(struct leader *g, unsigned round, size_t first, double deadline)
{
	struct mesh_msg *m = malloc(sizeof(*m));
	struct pollfd *p = calloc(g->size, sizeof(*p));
	size_t *idx = calloc(g->size, sizeof(*idx));
	char why[MESH_WHY_MAX + 64];

	for (;;) {
		size_t n = 0;

		for (size_t i = 1; i < g->size; i++)
			if (g->nodes[i].state == NODE_UP && !g->nodes[i].reported && p && idx) {
				p[n] = (struct pollfd){ g->nodes[i].fd, POLLIN, 0 };
				idx[n++] = i;
			}
		if (!n || now_s() >= deadline || !m)
			break;
		if (poll(p, n, (int)((deadline - now_s()) * 1000) + 1) < 0 && errno != EINTR)
			break;
		for (size_t k = 0; k < n; k++) {
			struct node *node = &g->nodes[idx[k]];
			int ret;

			if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ret = mesh_chan_recv(node->fd, m, 5000, why, sizeof(why));
			if (ret == 0 && (m->type != MESH_MSG_RESULT || m->u.report.round != round)) {
				snprintf(why, sizeof(why), "it sent something other than round %u's results", round);
				ret = -EPROTO;
			}
			if (ret) {
				node_died(g, idx[k], round, ret == -ECONNRESET ? "its connection to rank 0 closed" : why);
				continue;
			}
			apply_report(g, idx[k], &m->u.report, first, round);
			node->reported = true;
		}
	}
	for (size_t i = 1; i < g->size; i++)
		if (g->nodes[i].state == NODE_UP && !g->nodes[i].reported)
			node_died(g, i, round, "it did not report the round's results in time");
	free(m);
	free(p);
	free(idx);
}

/* The tests of plan round r, expanded to one per rail (a test over every rail: the rails both nodes have). */
static int round_results(struct leader *g, const struct mesh_plan *p, size_t r, struct mesh_test *t)
{
	long n = mesh_plan_round(p, r, t);

	if (n < 0)
		return -ENOMEM;
	for (long i = 0; i < n; i++) {
		unsigned ra = p->rails[t[i].a], rb = p->rails[t[i].b], shared = ra < rb ? ra : rb;
		int from = t[i].rail == MESH_RAIL_EVERY ? 0 : t[i].rail;
		int to = t[i].rail == MESH_RAIL_EVERY ? (int)shared - 1 : t[i].rail;

		for (int k = from; k <= to; k++) {
			struct mesh_result *x = result_add(g);

			if (!x)
				return -ENOMEM;
			*x = (struct mesh_result){ .a = t[i].a, .b = t[i].b, .rail = k, .state = MESH_RESULT_NOT_RUN,
						   .round = (unsigned)r + 1 };
		}
	}
	return 0;
}

static void not_run(struct mesh_result *x, const char *why)
{
	x->round = 0;
	snprintf(x->why, sizeof(x->why), "%s", why);
}

/* One round: the orders out, rank 0's own bw, the reports in. */
static void drive_round(struct leader *g, const struct mesh_plan *p, size_t r, size_t first)
{
	struct mesh_msg *m = calloc(1, sizeof(*m)), *own = calloc(1, sizeof(*own));
	unsigned most = 0;

	for (size_t i = first; i < g->count; i++) {
		struct mesh_result *x = &g->results[i];
		const struct node *na = &g->nodes[x->a], *nb = &g->nodes[x->b];

		if (na->state != NODE_UP || nb->state != NODE_UP) {
			const struct node *gone = na->state != NODE_UP ? na : nb;
			char why[MESH_WHY_MAX];

			snprintf(why, sizeof(why), "rank %u %.200s", gone == na ? x->a : x->b, gone->gone);
			not_run(x, why);
		} else if (nb->reg.serve_error[0]) {
			/* no serve to run bw against: the pair fails with the serve's own reason, without a try */
			x->state = MESH_RESULT_FAILED;
			snprintf(x->why, sizeof(x->why), "rank %u's serve %.230s", x->b, nb->reg.serve_error);
		}
	}
	for (size_t i = 0; i < g->size && m && own; i++) {
		struct node *n = &g->nodes[i];
		struct mesh_round *d = &m->u.round;

		if (n->state != NODE_UP)
			continue;
		memset(m, 0, sizeof(*m));
		m->type = MESH_MSG_ROUND;
		*d = (struct mesh_round){ .round = (unsigned)r + 1, .rounds = (unsigned)p->rounds, .seconds = g->a->seconds,
					  .bytes = g->a->bytes, .together = p->kind == MESH_PLAN_RAIL };
		for (size_t k = first; k < g->count && d->count < MESH_RAILS_MAX; k++) {
			const struct mesh_result *x = &g->results[k];

			if (x->a != i || x->round == 0 || x->state != MESH_RESULT_NOT_RUN)
				continue;
			d->orders[d->count++] = (struct mesh_order){ .rail = x->rail, .peer = x->b,
								     .serve_port = g->nodes[x->b].reg.serve_port };
			snprintf(d->orders[d->count - 1].address, sizeof(d->orders[0].address), "%s",
				 rail_address(g, x->b, x->rail));
		}
		most = d->count > most ? d->count : most;
		n->reported = i == 0;
		if (i == 0)
			own->u.round = *d;
		else if (mesh_chan_send(n->fd, m, SEND_MS) < 0)
			node_died(g, i, (unsigned)r + 1, "rank 0 could not send it the round");
	}
	if (m && own) {
		/* each bw: its seconds, its timeouts, once more on a retry; then a margin for the slowest rank */
		double per_bw = g->a->seconds + (g->self->bw.timeout_s ? g->self->bw.timeout_s : 10) * 2 + 15;
		double deadline;

		run_orders(g->self, &own->u.round, &m->u.report);
		apply_report(g, 0, &m->u.report, first, (unsigned)r + 1);
		deadline = now_s() + most * 2 * per_bw + 30;
		collect(g, (unsigned)r + 1, first, deadline);
	}
	/* a test whose client died before it reported */
	for (size_t i = first; i < g->count; i++) {
		struct mesh_result *x = &g->results[i];

		if (x->state == MESH_RESULT_NOT_RUN && x->round) {
			x->state = MESH_RESULT_FAILED;
			x->attempts = 1;
			snprintf(x->why, sizeof(x->why), "rank %u %.200s", x->a, g->nodes[x->a].gone[0] ?
				 g->nodes[x->a].gone : "gave no result for it");
		}
	}
	free(m);
	free(own);
}

/* A connection per rank: the soft limit of descriptors (1024 by default) up to the hard one when the mesh needs
 * more. */
static void raise_fd_limit(size_t size)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < size + 64 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int lead(struct app *app, struct self *s, const struct mesh_launch *l, const struct mesh_run_args *a)
{
	struct leader g = { .a = a, .l = l, .self = s, .size = l->size };
	struct mesh_plan p;
	struct mesh_test *t = NULL;
	struct mesh_node_view *views;
	unsigned *rails = NULL;
	double started = now_s(), slowest = 0;
	char err[300];
	int listen_fd = -1, code = EXIT_CANNOT_RUN;
	json_t *doc;

	raise_fd_limit(l->size);
	if (chan_listen(NULL, a->rendezvous_port, &listen_fd, err, sizeof(err)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: rank 0 %s: the other ranks register there (--rendezvous HOST:PORT "
			"moves it)\n", err);
		return EXIT_CANNOT_RUN;
	}
	g.nodes = calloc(g.size, sizeof(*g.nodes));
	rails = calloc(g.size, sizeof(*rails));
	if (!g.nodes || !rails) {
		fprintf(stderr, "roce-doctor: mesh: out of memory for %zu nodes\n", g.size);
		goto out;
	}
	if (!a->token)
		notes_add(&g.warnings, "the control connection had no job token: whoever reached TCP port %u first could "
			  "have taken a rank's place; export the same ROCE_DOCTOR_MESH_TOKEN to every rank (or give "
			  "--secret-file)", a->rendezvous_port);
	g.nodes[0] = (struct node){ .state = NODE_UP, .fd = -1, .reg = s->reg };
	snprintf(g.nodes[0].address, sizeof(g.nodes[0].address), "%.63s", l->rendezvous);
	if (gather(&g, listen_fd) < 0) {
		fprintf(stderr, "roce-doctor: mesh: out of memory for %zu nodes\n", g.size);
		goto out;
	}
	close(listen_fd);
	listen_fd = -1;
	for (size_t i = 0; i < g.size; i++)
		rails[i] = g.nodes[i].reg.rail_count ? g.nodes[i].reg.rail_count : 1;
	if (mesh_plan_init(&p, a->kind, g.size, rails, err, sizeof(err)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: %s\n", err);
		goto out;
	}
	t = malloc((p.round_tests_max + 1) * sizeof(*t));
	for (size_t r = 0; t && r < p.rounds; r++) {
		size_t first = g.count;
		double round_s = mesh_plan_round_seconds(&p, a->seconds), at = now_s();

		if (round_results(&g, &p, r, t) < 0)
			break;
		if (slowest > round_s)
			round_s = slowest;
		if (a->time_limit > 0 && (g.time_up || at - started + round_s > a->time_limit)) {
			char why[MESH_WHY_MAX];

			g.time_up = true;
			snprintf(why, sizeof(why), "not measured: --time-limit %g s came first (round %zu of %zu, about %.0f s "
				 "each)", a->time_limit, r + 1, p.rounds, round_s);
			for (size_t i = first; i < g.count; i++)
				not_run(&g.results[i], why);
			continue;
		}
		drive_round(&g, &p, r, first);
		g.rounds_run++;
		if (now_s() - at > slowest)
			slowest = now_s() - at;
	}
	for (size_t i = 1; i < g.size; i++)
		if (g.nodes[i].state == NODE_UP) {
			struct mesh_msg done = { .type = MESH_MSG_DONE };

			mesh_chan_send(g.nodes[i].fd, &done, SEND_MS);
			close(g.nodes[i].fd);
		}
	views = calloc(g.size, sizeof(*views));
	for (size_t i = 0; views && i < g.size; i++)
		views[i] = (struct mesh_node_view){ g.nodes[i].state == NODE_UP ? "ok" : g.nodes[i].state == NODE_DEAD ?
						    "died" : "missing", &g.nodes[i].reg, g.nodes[i].address, g.nodes[i].gone };
	doc = views ? mesh_run_doc(&(struct mesh_run_input){ .kind = a->kind, .seconds = a->seconds, .bytes = a->bytes,
							     .expect_gbps = a->expect_gbps,
							     .expect_link_pct = a->expect_link_pct,
							     .time_limit = a->time_limit, .rounds = p.rounds,
							     .rounds_run = g.rounds_run, .elapsed = now_s() - started,
							     .launcher = mesh_launcher_name(l->launcher) },
				   g.results, g.count, views, g.size, p.rails_max) : NULL;
	free(views);
	if (!doc) {
		fprintf(stderr, "roce-doctor: mesh: out of memory\n");
		goto out;
	}
	code = json_is_true(json_object_get(doc, "ok")) ? EXIT_OK : EXIT_FAILED;
	if (a->plot && mesh_plot_write(a->plot, doc, err, sizeof(err)) < 0) {
		fprintf(stderr, "roce-doctor: mesh: %s\n", err);
		code = EXIT_CANNOT_RUN;
	}
	code = app_emit(app, doc, &g.warnings, mesh_print_run, code);
	json_decref(doc);
out:
	if (listen_fd >= 0)
		close(listen_fd);
	free(t);
	free(rails);
	free(g.nodes);
	free(g.results);
	notes_free(&g.warnings);
	return code;
}

int mesh_run(struct app *app, const struct mesh_run_args *a, const struct mesh_launch *l)
{
	struct self *s = calloc(1, sizeof(*s));
	int code;

	if (!s) {
		fprintf(stderr, "roce-doctor: mesh: out of memory\n");
		return EXIT_CANNOT_RUN;
	}
	srand((unsigned)getpid());
	code = self_init(app, a, l, s);
	if (code == EXIT_OK)
		code = l->rank == 0 ? lead(app, s, l, a) : follow(s, l, a);
	mesh_serve_stop(&s->serve);
	free(s);
	return code;
}
