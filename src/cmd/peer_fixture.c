// SPDX-License-Identifier: GPL-2.0-only
/* A peer source read from files (check --peer-fixture DIR, for the tests): the peer's snapshot from
 * DIR/snapshot.json and the probes' results from DIR/probes.json, validated whole when opened, so that the
 * whole of check --peer runs end to end on fixture pairs without a peer. */
#include "cmd/peer_source.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/snapshot_file.h"
#include "core/pair.h"

#define PROBES_TEXT_MAX (1u << 20)

struct fixture {
	char snapshot[4096];
	char probes_path[4096];
	json_t *probes;
};

static const char *const rdma_outcomes[] = {
	[RAIL_RDMA_NOT_RUN] = "not_run", [RAIL_RDMA_OK] = "ok", [RAIL_RDMA_TIMEOUT] = "timeout",
	[RAIL_RDMA_WC_ERROR] = "wc_error", [RAIL_RDMA_SETUP_FAILED] = "setup_failed", [RAIL_RDMA_REFUSED] = "refused",
	[RAIL_RDMA_PEER_GONE] = "peer_gone",
};
static const char *const tcp_outcomes[] = {
	[TCP_REACH_NOT_RUN] = "not_run", [TCP_REACH_ARRIVED] = "arrived", [TCP_REACH_NOT_ARRIVED] = "not_arrived",
	[TCP_REACH_REFUSED_BY_PEER] = "refused", [TCP_REACH_ERROR] = "error",
};

static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

/* One member's type and bounds; optional members may be absent. why names the path: rails[1].rdma.outcome. */
static int member(const json_t *o, const char *path, const char *key, json_type type, bool optional, char *why,
		  size_t size)
{
	const json_t *v = json_object_get(o, key);

	if (!v && optional)
		return 0;
	if (!v || json_typeof(v) != type || (type == JSON_STRING && json_string_length(v) > 250)) {
		snprintf(why, size, "%s.%s: %s", path, key, !v ? "missing" : type == JSON_STRING && json_is_string(v) ?
			 "longer than 250 bytes" : type == JSON_STRING ? "expected a string" : type == JSON_OBJECT ?
			 "expected an object" : type == JSON_INTEGER ? "expected an integer" : type == JSON_REAL ?
			 "expected a number with a fraction (12.0)" : "expected true or false");
		return -EINVAL;
	}
	return 0;
}

static int check_bool(const json_t *o, const char *path, const char *key, char *why, size_t size)
{
	const json_t *v = json_object_get(o, key);

	if (v && !json_is_boolean(v)) {
		snprintf(why, size, "%s.%s: expected true or false", path, key);
		return -EINVAL;
	}
	return 0;
}

static int validate_rail(const json_t *r, size_t i, char *why, size_t size)
{
	const json_t *rdma = json_object_get(r, "rdma"), *bw = json_object_get(r, "bw"), *v;
	char path[64], sub[80];

	snprintf(path, sizeof(path), "rails[%zu]", i);
	if (!json_is_object(r)) {
		snprintf(why, size, "%s: expected an object", path);
		return -EINVAL;
	}
	if (member(r, path, "a", JSON_STRING, false, why, size) || member(r, path, "b", JSON_STRING, false, why, size) ||
	    member(r, path, "rdma", JSON_OBJECT, false, why, size) || member(r, path, "bw", JSON_OBJECT, true, why, size))
		return -EINVAL;
	snprintf(sub, sizeof(sub), "%s.rdma", path);
	if (member(rdma, sub, "outcome", JSON_STRING, false, why, size) ||
	    member(rdma, sub, "wc_status", JSON_INTEGER, true, why, size) ||
	    member(rdma, sub, "path_mtu", JSON_INTEGER, true, why, size) ||
	    member(rdma, sub, "round_trip_us", JSON_REAL, true, why, size) ||
	    member(rdma, sub, "detail", JSON_STRING, true, why, size) || check_bool(rdma, sub, "seen_by_peer", why, size))
		return -EINVAL;
	if (lookup(rdma_outcomes, sizeof(rdma_outcomes) / sizeof(*rdma_outcomes),
		   json_string_value(json_object_get(rdma, "outcome"))) < 0) {
		snprintf(why, size, "%s.outcome: expected ok, timeout, wc_error, setup_failed, refused, peer_gone or "
			 "not_run", sub);
		return -EINVAL;
	}
	v = json_object_get(rdma, "path_mtu");
	if (v && (json_integer_value(v) < 0 || json_integer_value(v) > 4096)) {
		snprintf(why, size, "%s.path_mtu: expected 0 to 4096", sub);
		return -EINVAL;
	}
	if (!bw)
		return 0;
	snprintf(sub, sizeof(sub), "%s.bw", path);
	if (member(bw, sub, "gbps", JSON_REAL, false, why, size) || member(bw, sub, "detail", JSON_STRING, true, why, size) ||
	    check_bool(bw, sub, "ok", why, size) || check_bool(bw, sub, "serve_gone", why, size))
		return -EINVAL;
	if (json_real_value(json_object_get(bw, "gbps")) < 0 || json_real_value(json_object_get(bw, "gbps")) > 1e4) {
		snprintf(why, size, "%s.gbps: expected 0 to 10000", sub);
		return -EINVAL;
	}
	return 0;
}

static int validate_tcp(const json_t *t, size_t i, char *why, size_t size)
{
	char path[64];
	json_int_t port;

	snprintf(path, sizeof(path), "tcp[%zu]", i);
	if (!json_is_object(t)) {
		snprintf(why, size, "%s: expected an object", path);
		return -EINVAL;
	}
	if (member(t, path, "purpose", JSON_STRING, false, why, size) ||
	    member(t, path, "outcome", JSON_STRING, false, why, size) ||
	    member(t, path, "port", JSON_INTEGER, false, why, size) ||
	    member(t, path, "connect_errno", JSON_INTEGER, true, why, size) ||
	    member(t, path, "detail", JSON_STRING, true, why, size))
		return -EINVAL;
	if (lookup(tcp_outcomes, sizeof(tcp_outcomes) / sizeof(*tcp_outcomes),
		   json_string_value(json_object_get(t, "outcome"))) < 0) {
		snprintf(why, size, "%s.outcome: expected arrived, not_arrived, refused, error or not_run", path);
		return -EINVAL;
	}
	port = json_integer_value(json_object_get(t, "port"));
	if (port < 1 || port > 65535) {
		snprintf(why, size, "%s.port: expected 1 to 65535", path);
		return -EINVAL;
	}
	return 0;
}

static int load_probes(struct fixture *f, char *why, size_t size)
{
	json_error_t err;
	struct stat st;
	const json_t *rails, *tcp, *it;
	char inner[256] = "";
	size_t i;

	if (stat(f->probes_path, &st) < 0) {
		snprintf(why, size, "cannot read %s: %s", f->probes_path, strerror(errno));
		return -errno;
	}
	if (st.st_size > PROBES_TEXT_MAX) {
		snprintf(why, size, "cannot read %s: larger than %u bytes", f->probes_path, PROBES_TEXT_MAX);
		return -EFBIG;
	}
	f->probes = json_load_file(f->probes_path, JSON_REJECT_DUPLICATES, &err);
	if (!f->probes) {
		snprintf(why, size, "%s: line %d column %d: %s", f->probes_path, err.line, err.column, err.text);
		return -EINVAL;
	}
	rails = json_object_get(f->probes, "rails");
	tcp = json_object_get(f->probes, "tcp");
	if (!json_is_object(f->probes) || !json_is_array(rails) || json_array_size(rails) > PAIR_RAILS_MAX)
		snprintf(inner, sizeof(inner), "rails: expected an array of at most %d rails", PAIR_RAILS_MAX);
	else if (!json_is_array(tcp) || json_array_size(tcp) > PAIR_REACH_MAX)
		snprintf(inner, sizeof(inner), "tcp: expected an array of at most %d probes", PAIR_REACH_MAX);
	json_array_foreach(inner[0] ? NULL : rails, i, it)
		if (!inner[0])
			validate_rail(it, i, inner, sizeof(inner));
	json_array_foreach(inner[0] ? NULL : tcp, i, it)
		if (!inner[0])
			validate_tcp(it, i, inner, sizeof(inner));
	if (inner[0]) {
		snprintf(why, size, "%s: %s", f->probes_path, inner);
		return -EINVAL;
	}
	return 0;
}

static int fetch_snapshot(void *ctx, struct snapshot *out, char *why, size_t size)
{
	const struct fixture *f = ctx;

	return snapshot_file_read(f->snapshot, out, why, size);
}

static const json_t *find_rail(const struct fixture *f, const struct rail_end *l, const struct rail_end *r)
{
	char a[96], b[96];
	const json_t *it;
	size_t i;

	snprintf(a, sizeof(a), "%s/%u", l->device, l->port);
	snprintf(b, sizeof(b), "%s/%u", r->device, r->port);
	json_array_foreach(json_object_get(f->probes, "rails"), i, it)
		if (strcmp(json_string_value(json_object_get(it, "a")), a) == 0 &&
		    strcmp(json_string_value(json_object_get(it, "b")), b) == 0)
			return it;
	return NULL;
}

static void copy_detail(const json_t *o, char *buf, size_t size)
{
	const char *s = json_string_value(json_object_get(o, "detail"));

	snprintf(buf, size, "%s", s ? s : "");
}

static int probe_rail(void *ctx, const struct rail_end *local, const struct rail_end *remote, unsigned timeout_s,
		      struct rail_rdma_probe *out, char *why, size_t size)
{
	const json_t *rail = find_rail(ctx, local, remote), *rdma = json_object_get(rail, "rdma");

	(void)timeout_s;
	(void)why;
	(void)size;
	memset(out, 0, sizeof(*out));
	if (!rail) {
		snprintf(out->detail, sizeof(out->detail), "probes.json has no rail %s/%u <-> %s/%u", local->device,
			 local->port, remote->device, remote->port);
		return 0;
	}
	out->outcome = (enum rail_rdma_outcome)lookup(rdma_outcomes, sizeof(rdma_outcomes) / sizeof(*rdma_outcomes),
						      json_string_value(json_object_get(rdma, "outcome")));
	out->wc_status = (int)json_integer_value(json_object_get(rdma, "wc_status"));
	out->seen_by_peer = json_is_true(json_object_get(rdma, "seen_by_peer"));
	out->path_mtu_bytes = (unsigned)json_integer_value(json_object_get(rdma, "path_mtu"));
	out->round_trip_us = json_real_value(json_object_get(rdma, "round_trip_us"));
	copy_detail(rdma, out->detail, sizeof(out->detail));
	return 0;
}

static int probe_bw(void *ctx, const struct rail_end *local, const struct rail_end *remote, unsigned timeout_s,
		    struct rail_bw_probe *out, char *why, size_t size)
{
	const json_t *bw = json_object_get(find_rail(ctx, local, remote), "bw");

	(void)timeout_s;
	(void)why;
	(void)size;
	memset(out, 0, sizeof(*out));
	if (!bw)
		return 0;
	out->run = true;
	out->ok = json_object_get(bw, "ok") ? json_is_true(json_object_get(bw, "ok")) : true;
	out->gbps = json_real_value(json_object_get(bw, "gbps"));
	out->serve_gone = json_is_true(json_object_get(bw, "serve_gone"));
	copy_detail(bw, out->detail, sizeof(out->detail));
	return 0;
}

static int probe_tcp(void *ctx, const char *local_address, const char *remote_address, uint16_t port,
		     unsigned timeout_s, struct tcp_reach_probe *out, char *why, size_t size)
{
	const struct fixture *f = ctx;
	const json_t *it;
	size_t i;

	(void)timeout_s;
	(void)why;
	(void)size;
	snprintf(out->local_address, sizeof(out->local_address), "%s", local_address);
	snprintf(out->remote_address, sizeof(out->remote_address), "%s", remote_address);
	out->outcome = TCP_REACH_NOT_RUN;
	out->port = port;
	json_array_foreach(json_object_get(f->probes, "tcp"), i, it) {
		if (strcmp(json_string_value(json_object_get(it, "purpose")), out->purpose) != 0)
			continue;
		out->outcome = (enum tcp_reach_outcome)lookup(tcp_outcomes, sizeof(tcp_outcomes) / sizeof(*tcp_outcomes),
							      json_string_value(json_object_get(it, "outcome")));
		if (!port)
			out->port = (uint16_t)json_integer_value(json_object_get(it, "port"));
		out->connect_errno = (int)json_integer_value(json_object_get(it, "connect_errno"));
		out->connect_failed = out->connect_errno != 0;
		copy_detail(it, out->detail, sizeof(out->detail));
		break;
	}
	return 0;
}

static void fixture_close(void *ctx)
{
	struct fixture *f = ctx;

	json_decref(f->probes);
	free(f);
}

int peer_fixture_open(const char *dir, struct peer_source *src, char *why, size_t size)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int ret;

	memset(src, 0, sizeof(*src));
	if (!f) {
		snprintf(why, size, "cannot open the peer fixture: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if ((size_t)snprintf(f->snapshot, sizeof(f->snapshot), "%s/snapshot.json", dir) >= sizeof(f->snapshot) ||
	    (size_t)snprintf(f->probes_path, sizeof(f->probes_path), "%s/probes.json", dir) >= sizeof(f->probes_path)) {
		snprintf(why, size, "--peer-fixture %.64s...: path too long", dir);
		free(f);
		return -ENAMETOOLONG;
	}
	ret = load_probes(f, why, size);
	if (ret < 0) {
		fixture_close(f);
		return ret;
	}
	src->ctx = f;
	src->fetch_snapshot = fetch_snapshot;
	src->probe_rail = probe_rail;
	src->probe_bw = probe_bw;
	src->probe_tcp = probe_tcp;
	src->close = fixture_close;
	return 0;
}
