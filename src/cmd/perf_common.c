// SPDX-License-Identifier: GPL-2.0-only
/* Port and GID choice for bw, lat and serve, from the probed host: the same answer 'gid --suggest' gives. */
#include "cmd/perf_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/gid_suggest.h"
#include "output/render.h"
#include "proto/channel.h"
#include "util/byte_size.h"
#include "util/gidaddr.h"
#include "util/host_name.h"

static bool subnet_holds_peer(const struct netdev *nd, const struct gid_entry *e, const struct in6_addr *peer)
{
	for (size_t i = 0; nd && nd->addrs_known && i < nd->addr_count; i++) {
		const struct ip_address *a = &nd->addrs[i];
		unsigned bits = a->prefix_len + (a->family == AF_INET ? 96 : 0);

		if (memcmp(&a->addr, &e->gid, sizeof(e->gid)) == 0 && gid_common_prefix(&a->addr, peer) >= bits)
			return true;
	}
	return false;
}

static const struct gid_entry *find_index(const struct rdma_port *p, int index)
{
	for (size_t i = 0; i < p->gid_count; i++)
		if ((int)p->gids[i].index == index)
			return &p->gids[i];
	return NULL;
}

struct candidate {
	const struct rdma_device *dev;
	const struct rdma_port *port;
	const struct gid_entry *entry;  /* NULL on InfiniBand without GIDs */
	int index;
	int score;
	char reason[768];
};

/* Scores one port; -1 when it cannot be used (with why). */
static int consider(const struct host *host, const struct rdma_device *d, const struct rdma_port *p, int gid_index,
		    const struct in6_addr *peer, struct candidate *c, char *why, size_t why_size)
{
	const struct netdev *nd = p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
	int family = gid_is_ipv4_mapped(peer) ? AF_INET : AF_INET6;

	memset(c, 0, sizeof(*c));
	c->dev = d;
	c->port = p;
	if (gid_index >= 0) {
		c->entry = find_index(p, gid_index);
		if (!c->entry && p->link_layer != LINK_LAYER_INFINIBAND) {
			snprintf(why, why_size, "%s/%u has no GID at index %d (see 'roce-doctor gid %s')", d->name, p->num,
				 gid_index, d->name);
			return -1;
		}
		c->index = gid_index;
		snprintf(c->reason, sizeof(c->reason), "GID index %d as asked (-x)", gid_index);
	} else if (p->link_layer == LINK_LAYER_INFINIBAND) {
		c->entry = p->gid_count ? &p->gids[0] : NULL;
		c->index = 0;
		snprintf(c->reason, sizeof(c->reason), "InfiniBand: addressed by LID, GID index 0");
	} else {
		struct gid_choice choice;

		gid_suggest_port(p, nd, family, peer, &choice);
		if (!choice.found) {
			snprintf(why, why_size, "%s/%u: %s", d->name, p->num, choice.reason);
			return -1;
		}
		c->entry = choice.entry;
		c->index = (int)choice.entry->index;
		snprintf(c->reason, sizeof(c->reason), "%s", choice.reason);
	}
	c->score = (p->state == 4 ? 4 : 0) + (c->entry && subnet_holds_peer(nd, c->entry, peer) ? 8 : 0);
	return 0;
}

int perf_choose_target(const struct host *host, const struct port_selection *sel, int gid_index,
		       const struct in6_addr *peer, struct perf_target *out, struct notes *warnings, char *why,
		       size_t why_size)
{
	struct candidate best = { .score = -1 }, c;
	char last_why[1024] = "";
	size_t seen = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < host->device_count; i++) {
		const struct rdma_device *d = &host->devices[i];

		for (size_t j = 0; j < d->port_count; j++) {
			const struct rdma_port *p = &d->ports[j];

			if (!port_selection_matches(sel, d, p))
				continue;
			seen++;
			if (consider(host, d, p, gid_index, peer, &c, last_why, sizeof(last_why)) == 0 && c.score > best.score)
				best = c;
		}
	}
	if (!best.dev) {
		if (host->device_count == 0)
			snprintf(why, why_size, "no RDMA devices on this host (/sys/class/infiniband is empty or missing)");
		else if (seen == 0)
			port_selection_check(host, sel, why, why_size);
		else
			snprintf(why, why_size, "no usable GID%s: %s", seen > 1 ? " on any port" : "", last_why);
		return -1;
	}
	snprintf(out->device, sizeof(out->device), "%s", best.dev->name);
	out->port = best.port->num;
	out->gid_index = best.index;
	snprintf(out->netdev, sizeof(out->netdev), "%s", best.port->netdev);
	out->link_gbps = best.port->rate_gbps;
	out->software = best.dev->parent[0] != '\0';
	snprintf(out->reason, sizeof(out->reason), "%s", best.reason);
	if (best.entry)
		gid_format_ip(&best.entry->gid, out->address);
	if (best.entry && best.port->link_layer == LINK_LAYER_ETHERNET &&
	    (best.entry->type != GID_TYPE_ROCE_V2 || gid_is_link_local(&best.entry->gid)))
		notes_add(warnings, "GID index %d of %s/%u is %s%s: NCCL and most fabrics want a routable RoCE v2 GID "
			  "('roce-doctor gid --suggest')", best.index, best.dev->name, best.port->num,
			  gid_is_link_local(&best.entry->gid) ? "fe80:: link-local " : "",
			  best.entry->type == GID_TYPE_ROCE_V2 ? "RoCE v2" : "RoCE v1");
	if (best.port->state != 4)
		notes_add(warnings, "%s/%u is %s, not ACTIVE", best.dev->name, best.port->num, best.port->state_name);
	return 0;
}

enum perf_wait perf_wait_for(const struct perf_target *t)
{
	return t->software ? PERF_WAIT_ADAPTIVE : PERF_WAIT_POLL;
}

bool perf_test_corrupt(void)
{
	const char *v = getenv("ROCE_DOCTOR_TEST_CORRUPT");

	return v && strcmp(v, "1") == 0;
}

bool perf_test_bad_rkey(void)
{
	const char *v = getenv("ROCE_DOCTOR_TEST_BAD_RKEY");

	return v && strcmp(v, "1") == 0;
}

void format_bytes(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
		snprintf(buf, size, "%lluM", (unsigned long long)(bytes >> 20));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, size, "%lluK", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, size, "%llu", (unsigned long long)bytes);
}

/* ---- the options and the preparation bw and lat share ---- */

enum { OPT_PORT = 0x300, OPT_MTU, OPT_NO_VERIFY };

static const struct argp_option conn_options[] = {
	{ "port", 'p', "N", 0, "TCP port of the serve (default 18516)", 1 },
	{ "gid-index", 'x', "INDEX", 0, "Local GID index (default: what 'gid --suggest --peer PEER' picks)", 1 },
	{ "mtu", OPT_MTU, "BYTES", 0, "Path MTU: 256, 512, 1024, 2048 or 4096 (default: the smaller active MTU)", 1 },
	{ "no-verify", OPT_NO_VERIFY, NULL, 0, "Do not check the data pattern of the last message of each size", 1 },
	{ 0 }
};

static error_t parse_conn(int key, char *arg, struct argp_state *state)
{
	struct perf_conn_args *a = state->input;

	switch (key) {
	case 'p':
		a->tcp_port = (unsigned)parse_count(state, "--port", arg, 1, 65535);
		return 0;
	case 'x':
		a->gid_index = (int)parse_count(state, "-x", arg, 0, 65535);
		return 0;
	case OPT_MTU: {
		char *end;
		long v = strtol(arg, &end, 10);

		/* One rule, one message: 9000 and 1000 are wrong for the same reason. */
		if (arg[0] < '1' || arg[0] > '9' || *end || v > 4096 || !perf_mtu_enum((int)v))
			argp_error(state, "bad --mtu '%s': expected 256, 512, 1024, 2048 or 4096", arg);
		a->mtu = (int)v;
		return 0;
	}
	case OPT_NO_VERIFY:
		a->no_verify = true;
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num > 0)
			argp_error(state, "unexpected argument '%s'", arg);
		if (host_name_check(arg) < 0)
			argp_error(state, "bad PEER '%s': expected a host name or an IPv4 or IPv6 address", arg);
		a->peer = arg;
		return 0;
	case ARGP_KEY_END:
		if (!a->peer)
			argp_error(state, "no PEER: name the node that runs 'roce-doctor serve'");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp perf_conn_argp = { conn_options, parse_conn, NULL, NULL, NULL, NULL, NULL };

/* ---- the message sizes bw and lat share ---- */

#define SWEEP_MIN 2u

static const struct argp_option size_options[] = {
	{ "size", 's', "BYTES", 0, "Message size: 4096, 64K, 64KiB, 1MB ... (powers of 1024; at most 8M; default: bw "
	  "64K, lat 2 as ib_write_lat)", 0 },
	{ "sweep", 'a', NULL, 0, "Every size from 2 B to 8 MiB (or to --size), doubling", 0 },
	{ "inline", 'I', "BYTES", 0, "Send messages up to this size inline (default 220; the device may allow less)", 0 },
	{ 0 }
};

static error_t parse_size(int key, char *arg, struct argp_state *state)
{
	struct perf_size_args *a = state->input;

	switch (key) {
	case 's':
		if (byte_size_parse(arg, PROTO_MAX_SLOT, &a->size) < 0 || a->size == 0)
			argp_error(state, "bad --size '%s': expected 1 B to 8 MiB: " BYTE_SIZE_FORMS, arg);
		return 0;
	case 'a':
		a->sweep = true;
		return 0;
	case 'I':
		a->inline_size = (unsigned)parse_count(state, "--inline", arg, 0, PERF_MAX_INLINE);
		return 0;
	case ARGP_KEY_END:
		if (a->sweep && a->size && a->size < SWEEP_MIN)
			argp_error(state, "--sweep up to --size %llu: the sweep starts at %u bytes",
				   (unsigned long long)a->size, SWEEP_MIN);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp perf_size_argp = { size_options, parse_size, NULL, NULL, NULL, NULL, NULL };

size_t perf_sizes(const struct perf_size_args *a, uint32_t fallback, uint32_t sizes[PERF_SWEEP_COUNT])
{
	size_t n = 0;

	if (!a->sweep) {
		sizes[0] = a->size ? (uint32_t)a->size : fallback;
		return 1;
	}
	for (unsigned i = 0; i < PERF_SWEEP_COUNT && (!a->size || SWEEP_MIN << i <= a->size); i++)
		sizes[n++] = SWEEP_MIN << i;
	return n;
}

void perf_conn_defaults(struct perf_conn_args *a)
{
	memset(a, 0, sizeof(*a));
	a->tcp_port = PROTO_DEFAULT_PORT;
	a->gid_index = -1;
}

static void sockaddr_as_gid(const struct sockaddr_storage *ss, struct in6_addr *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (ss->ss_family == AF_INET6) {
		*gid = ((const struct sockaddr_in6 *)ss)->sin6_addr;
	} else {
		gid->s6_addr[10] = gid->s6_addr[11] = 0xff;
		memcpy(&gid->s6_addr[12], &((const struct sockaddr_in *)ss)->sin_addr, 4);
	}
}

/* perf_client_prepare's work once the secret is read. */
static int prepare_target(const struct app *app, const struct perf_conn_args *a, struct client_config *cfg,
			  struct perf_target *target, struct notes *warnings)
{
	struct port_selection chosen = { .port = 0 };
	struct in6_addr peer_gid;
	struct host host;
	char why[1024];
	int code;

	if (chan_resolve(a->peer, a->tcp_port, &cfg->peer, why, sizeof(why))) {
		fprintf(stderr, "roce-doctor: %s\n", why);
		return EXIT_CANNOT_RUN;
	}
	sockaddr_as_gid(&cfg->peer, &peer_gid);
	code = app_probe_host(app, &host);
	if (code != EXIT_OK)
		return code;
	code = check_selection(&host, &app->device);
	if (code == EXIT_OK &&
	    perf_choose_target(&host, &app->device, a->gid_index, &peer_gid, target, &host.warnings, why,
			       sizeof(why))) {
		fprintf(stderr, "roce-doctor: cannot test the link to %s: %s\n", a->peer, why);
		code = EXIT_NOT_FOUND;
	}
	if (code != EXIT_OK) {
		for (size_t i = 0; i < host.warnings.count; i++)
			fprintf(stderr, "roce-doctor: warning: %s\n", host.warnings.items[i]);
		host_free(&host);
		return code;
	}
	snprintf(chosen.name, sizeof(chosen.name), "%s", target->device);
	chosen.port = target->port;
	app_say_sources(app, &host, &chosen);
	/* The command prints them, and puts them in its document. */
	*warnings = host.warnings;
	memset(&host.warnings, 0, sizeof(host.warnings));
	host_free(&host);
	cfg->device = target->device;
	cfg->port = target->port;
	cfg->gid_index = target->gid_index;
	cfg->mtu_request = a->mtu ? perf_mtu_enum(a->mtu) : 0;
	cfg->timeout_s = app->timeout_s ? app->timeout_s : PERF_TIMEOUT_DEFAULT_S;
	cfg->verify = !a->no_verify;
	return EXIT_OK;
}

int perf_client_prepare(const struct app *app, const struct perf_conn_args *a, struct client_config *cfg,
			struct perf_target *target, struct notes *warnings, struct secret **secret)
{
	int code = app_read_secret(app, secret);

	if (code == EXIT_OK)
		code = prepare_target(app, a, cfg, target, warnings);
	if (code != EXIT_OK) {
		app_free_secret(*secret);
		*secret = NULL;
		return code;
	}
	cfg->secret = *secret;
	return EXIT_OK;
}

static const char *failure_kind(enum client_failure f)
{
	static const char *const names[] = {
		[CLIENT_OK] = "none", [CLIENT_SETUP] = "setup", [CLIENT_CONNECT] = "connect",
		[CLIENT_REFUSED] = "refused", [CLIENT_PROTOCOL] = "protocol", [CLIENT_COMPLETION] = "completion",
		[CLIENT_STALL] = "stall", [CLIENT_PEER_GONE] = "peer-gone", [CLIENT_CHECK] = "data-check",
	};

	return names[f];
}

/* A stall with the serve still answering on TCP: the RDMA packets (or their acknowledgements) are lost. */
static const char stall_explanation[] =
	"the RDMA packets or their acknowledgements are lost on the way while TCP still works: UDP port 4791 "
	"(RoCE v2) filtered by a firewall on either node, a wrong GID index or no route between the two GIDs, or "
	"a path MTU larger than a link. Soft-RoCE then never reports 'retry exceeded'; the transfer just stops. "
	"Run 'roce-doctor check' on both nodes";

static json_t *endpoint_json(const struct perf_endpoint *ep)
{
	struct in6_addr gid;
	char text[64];
	json_t *qpn = json_array();

	memcpy(&gid, ep->gid, sizeof(gid));
	for (unsigned i = 0; i < ep->qps; i++)
		json_array_append_new(qpn, json_integer(ep->qpn[i]));
	gid_format_ip(&gid, text);
	return json_pack("{s:s, s:i, s:o}", "address", text, "mtu", perf_mtu_bytes(ep->mtu), "qpn", qpn);
}

void perf_doc_common(json_t *doc, const struct perf_conn_args *a, const struct perf_target *t,
		     const struct client_report *rep)
{
	json_t *local = json_pack("{s:s, s:i, s:i, s:o, s:o, s:o, s:s}", "device", t->device, "port", (int)t->port,
				  "gid_index", t->gid_index, "address", json_str_or_null(t->address), "netdev",
				  json_str_or_null(t->netdev), "link_gbps",
				  t->link_gbps > 0 ? json_real(t->link_gbps) : json_null(), "gid_reason", t->reason);

	json_object_set_new(doc, "peer", json_string(a->peer));
	json_object_set_new(doc, "tcp_port", json_integer(a->tcp_port));
	if (rep->connected) {
		json_object_set_new(local, "mtu", json_integer(perf_mtu_bytes(rep->local.mtu)));
		json_object_set_new(doc, "remote", endpoint_json(&rep->remote));
		json_object_set_new(doc, "path_mtu", json_integer(perf_mtu_bytes(rep->path_mtu)));
	} else {
		json_object_set_new(doc, "remote", json_null());
		json_object_set_new(doc, "path_mtu", json_null());
	}
	json_object_set_new(doc, "local", local);
	json_object_set_new(doc, "verify", json_boolean(!a->no_verify));
	if (rep->failure == CLIENT_OK) {
		json_object_set_new(doc, "error", json_null());
		return;
	}
	json_object_set_new(doc, "error", json_pack("{s:s, s:s, s:o}", "kind", failure_kind(rep->failure), "message",
						    rep->message, "size",
						    rep->failed_size ? json_integer(rep->failed_size) : json_null()));
	if (rep->wc_valid) {
		json_t *e = json_object_get(doc, "error");
		char why[1024];

		json_object_set_new(e, "wc_status", json_integer(rep->wc.status));
		json_object_set_new(e, "wc_status_name", json_string(perf_wc_status_name(rep->wc.status)));
		perf_wc_explanation(rep, t, why, sizeof(why));
		json_object_set_new(e, "explanation", json_string(why));
	} else if (rep->failure == CLIENT_STALL && rep->stalled_in_run) {
		json_object_set_new(json_object_get(doc, "error"), "explanation", json_string(stall_explanation));
	}
}

void perf_wc_explanation(const struct client_report *rep, const struct perf_target *t, char *buf, size_t size)
{
	/* The software device's addition tells to run fewer QPs: only where there were several. */
	const char *more = t->software && rep->connected && rep->local.qps > 1 ?
				   perf_wc_explain_software(rep->wc.status) : NULL;

	snprintf(buf, size, "%s%s%s", perf_wc_explain(rep->wc.status), more ? "; " : "", more ? more : "");
}

int perf_report_failure(const struct client_report *rep, const struct perf_target *t)
{
	char why[1024];

	fprintf(stderr, "roce-doctor: %s\n", rep->message);
	if (rep->wc_valid) {
		perf_wc_explanation(rep, t, why, sizeof(why));
		fprintf(stderr, "roce-doctor: what it usually means: %s\n", why);
	} else if (rep->failure == CLIENT_STALL && rep->stalled_in_run)
		fprintf(stderr, "roce-doctor: what it usually means: %s\n", stall_explanation);
	switch (rep->failure) {
	case CLIENT_SETUP:
	case CLIENT_CONNECT:
	case CLIENT_REFUSED:
		return EXIT_CANNOT_RUN;
	default:
		return 1;
	}
}

const char *perf_check_name(enum client_check c)
{
	return c == CLIENT_CHECK_OK ? "ok" : c == CLIENT_CHECK_BAD ? "MISMATCH" : "off";
}
