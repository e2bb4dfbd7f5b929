// SPDX-License-Identifier: GPL-2.0-only
/* The node's serve and each test's bw, run as this binary in a child process: bw's exit status and last
 * line are the test's answer, as a person running bw by hand would read them. */
#include "cmd/mesh_child.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "verbs/perf.h"

#define CHILD_OUTPUT_MAX (1 << 20)

/* fork + exec of /proc/self/exe with argv; stdout to out_fd, stderr to err_fd. The child dies with us. */
static pid_t spawn(char **argv, int out_fd, int err_fd, char *why, size_t why_size)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, why_size, "cannot start %s: %s", argv[1], strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0)
			_exit(127);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "roce-doctor: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(127);
	}
	return pid;
}

/* The last line of text that says why (roce-doctor's own, not a warning), without the "roce-doctor: " prefix. */
static void last_reason(const char *text, char *why, size_t why_size)
{
	const char *best = NULL, *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');

		if (strncmp(line, "roce-doctor: ", 13) == 0 && strncmp(line + 13, "warning:", 8) != 0)
			best = line;
		line = end ? end + 1 : NULL;
	}
	if (!best) {
		why[0] = '\0';
		return;
	}
	best += 13;
	snprintf(why, why_size, "%.*s", (int)(strchrnul(best, '\n') - best), best);
}

/* The whole of an unlinked log file (at most CHILD_OUTPUT_MAX), NUL-terminated; NULL when unreadable. */
static char *file_text(int fd)
{
	char *buf = malloc(CHILD_OUTPUT_MAX + 1);
	ssize_t n = buf ? pread(fd, buf, CHILD_OUTPUT_MAX, 0) : -1;

	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static int serve_port_in(const char *text, unsigned *port)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = strstr(line, "\"event\":\"listening\"");
		const char *at = p ? strstr(line, " port ") : NULL;
		const char *nl = strchr(line, '\n');

		if (p && at && (!nl || at < nl) && sscanf(at, " port %u", port) == 1 && *port > 0 && *port < 65536)
			return 0;
	}
	return -1;
}

int mesh_serve_start(unsigned port, const char *secret_file, unsigned wait_s, struct mesh_serve *s, char *why,
		     size_t why_size)
{
	char port_text[16];
	char *argv[] = { "roce-doctor", "--json", "serve", "--port", port_text, NULL, NULL, NULL };
	uint64_t deadline = perf_now_ns() + (uint64_t)wait_s * 1000000000u;
	FILE *log = tmpfile();
	int status;

	memset(s, 0, sizeof(*s));
	s->log_fd = -1;
	if (!log) {
		snprintf(why, why_size, "did not start: no temporary file for its log: %s", strerror(errno));
		return -1;
	}
	snprintf(port_text, sizeof(port_text), "%u", port);
	if (secret_file) {
		argv[5] = "--secret-file";
		argv[6] = (char *)secret_file;
	}
	s->log_fd = dup(fileno(log));
	fclose(log);
	if (s->log_fd < 0) {
		snprintf(why, why_size, "did not start: %s", strerror(errno));
		return -1;
	}
	fcntl(s->log_fd, F_SETFD, FD_CLOEXEC);
	s->pid = spawn(argv, s->log_fd, s->log_fd, why, why_size);
	if (s->pid < 0) {
		s->pid = 0;
		return -1;
	}
	for (;;) {
		char *text = file_text(s->log_fd);
		bool up = text && serve_port_in(text, &s->port) == 0;
		pid_t done = waitpid(s->pid, &status, WNOHANG);

		if (up && done == 0) {
			free(text);
			return 0;
		}
		if (done == s->pid || perf_now_ns() >= deadline) {
			char reason[200] = "";

			if (text)
				last_reason(text, reason, sizeof(reason));
			if (done == s->pid)
				snprintf(why, why_size, "did not start: %s", reason[0] ? reason : "it said nothing");
			else
				snprintf(why, why_size, "did not listen within %u s: %s", wait_s,
					 reason[0] ? reason : "it said nothing");
			free(text);
			if (done != s->pid)
				mesh_serve_stop(s);
			s->pid = 0;
			return -1;
		}
		free(text);
		nanosleep(&(struct timespec){ 0, 50 * 1000000 }, NULL);
	}
}

void mesh_serve_stop(struct mesh_serve *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (s->log_fd >= 0)
		close(s->log_fd);
	s->pid = 0;
	s->log_fd = -1;
}

/* Reads out and err (pipes) to EOF, at most CHILD_OUTPUT_MAX each, until deadline; then the exit status, the
 * child killed when the deadline passed (*late). */
static int collect(pid_t pid, int fds[2], char *bufs[2], size_t lens[2], uint64_t deadline, bool *late)
{
	int open_fds = 2, status = 0;

	*late = false;
	while (open_fds) {
		struct pollfd p[2] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 } };
		uint64_t now = perf_now_ns();

		if (now >= deadline) {
			*late = true;
			break;
		}
		if (poll(p, 2, (int)((deadline - now) / 1000000 + 1)) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			char chunk[4096];
			ssize_t n;

			if (fds[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[i], chunk, sizeof(chunk));
			if (n <= 0) {
				close(fds[i]);
				fds[i] = -1;
				open_fds--;
				continue;
			}
			if (lens[i] + (size_t)n <= CHILD_OUTPUT_MAX) {
				memcpy(bufs[i] + lens[i], chunk, (size_t)n);
				lens[i] += (size_t)n;
			}
		}
	}
	if (*late)
		kill(pid, SIGKILL);
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	bufs[0][lens[0]] = bufs[1][lens[1]] = '\0';
	return status;
}

/* bw's document: the first size's average and the local port's link rate. */
static bool read_document(const char *text, double *gbps, double *link_gbps)
{
	json_t *doc = json_loads(text, 0, NULL);
	const json_t *row = json_array_get(json_object_get(doc, "results"), 0);
	bool ok = json_is_number(json_object_get(row, "avg_gbps"));

	if (ok) {
		*gbps = json_number_value(json_object_get(row, "avg_gbps"));
		*link_gbps = json_number_value(json_object_get(json_object_get(doc, "local"), "link_gbps"));
	}
	json_decref(doc);
	return ok;
}

bool mesh_bw_run(const struct mesh_bw_config *c, const struct mesh_order *order, double *gbps, double *link_gbps,
		 char *why, size_t why_size)
{
	char seconds[32], bytes[16], port[16], timeout[16];
	char *argv[20] = { "roce-doctor", "--json", "bw", "-D", seconds, "-s", bytes, "-p", port };
	char *bufs[2] = { malloc(CHILD_OUTPUT_MAX + 1), malloc(CHILD_OUTPUT_MAX + 1) };
	size_t lens[2] = { 0, 0 }, n = 9;
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, fds[2], status;
	unsigned wait_s = (c->timeout_s ? c->timeout_s : 10) * 2 + 15;
	bool late, ok = false;
	pid_t pid;

	*gbps = *link_gbps = 0;
	snprintf(seconds, sizeof(seconds), "%g", c->seconds);
	snprintf(bytes, sizeof(bytes), "%u", c->bytes);
	snprintf(port, sizeof(port), "%u", order->serve_port);
	if (c->device) {
		argv[n++] = "-d";
		argv[n++] = (char *)c->device;
	}
	if (c->timeout_s) {
		snprintf(timeout, sizeof(timeout), "%u", c->timeout_s);
		argv[n++] = "--timeout";
		argv[n++] = timeout;
	}
	if (c->secret_file) {
		argv[n++] = "--secret-file";
		argv[n++] = (char *)c->secret_file;
	}
	argv[n++] = "--";
	argv[n++] = (char *)order->address;
	if (!bufs[0] || !bufs[1] || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		snprintf(why, why_size, "cannot start bw: %s", strerror(errno ? errno : ENOMEM));
		goto out;
	}
	pid = spawn(argv, out[1], err[1], why, why_size);
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	if (pid < 0)
		goto out;
	fds[0] = out[0];
	fds[1] = err[0];
	out[0] = err[0] = -1;   /* collect closes them */
	status = collect(pid, fds, bufs, lens, perf_now_ns() + (uint64_t)(c->seconds + wait_s) * 1e9, &late);
	if (late) {
		snprintf(why, why_size, "bw did not end within %.0f s: killed", c->seconds + wait_s);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && read_document(bufs[0], gbps, link_gbps)) {
		ok = true;
		why[0] = '\0';
	} else {
		char reason[MESH_WHY_MAX];

		last_reason(bufs[1], reason, sizeof(reason));
		if (WIFEXITED(status))
			snprintf(why, why_size, "bw exit %d: %s", WEXITSTATUS(status), reason[0] ? reason : "it said nothing");
		else
			snprintf(why, why_size, "bw killed by signal %d", WTERMSIG(status));
	}
out:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
		free(bufs[i]);
	}
	return ok;
}
