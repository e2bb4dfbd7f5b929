// SPDX-License-Identifier: GPL-2.0-only
/* check --peer: gathers both nodes' models (this node's snapshot, the peer's through a peer source), runs every
 * rule over them (each node's own check, compare of the two, the pair rules), runs the traffic probes through the
 * source, and emits one roce-doctor/pair/v1 report. Nothing here decides: core/pair_*.c does. */
#include "cmd/check_peer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/commands.h"
#include "cmd/pair_report.h"
#include "cmd/snapshot_file.h"
#include "cmd/snapshot_take.h"
#include "core/checks.h"
#include "core/findings_locate.h"
#include "core/pair_self.h"
#include "core/qos/pair_qos.h"
#include "core/system_input.h"
#include "output/pair_text.h"
#include "output/render.h"
#include "util/gidaddr.h"

static const char *const side_names[2] = { "a", "b" };

void peer_pair_close(struct peer_pair *p)
{
	for (int i = 0; i < 2; i++) {
		compare_owned_free(&p->own[i]);
		if (p->snap[i]) {
			snapshot_free(p->snap[i]);
			free(p->snap[i]);
		}
	}
	if (p->src_open && p->src.close)
		p->src.close(p->src.ctx);
	memset(p, 0, sizeof(*p));
}

static int open_source(const struct app *app, const char *peer, const char *fixture, unsigned timeout_s,
		       struct peer_source *src)
{
	struct secret *secret;
	char why[1024];
	int code;

	if (fixture) {
		if (peer_fixture_open(fixture, src, why, sizeof(why)) < 0) {
			fprintf(stderr, "roce-doctor: --peer-fixture: %s\n", why);
			return EXIT_CANNOT_RUN;
		}
		return EXIT_OK;
	}
	code = app_read_secret(app, &secret);
	if (code != EXIT_OK)
		return code;
	if (peer_serve_open(peer, timeout_s, secret, src, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: --peer %s: %s\n", peer, why);
		return EXIT_CANNOT_RUN;
	}
	return EXIT_OK;
}

struct ask_peer {
	const struct app *app;
	const char *peer;
	struct peer_pair *p;
};

/* Once this node's host model is read: refuse a peer that is this host, then ask the peer for its snapshot, so
 * that both nodes read their system sources at once (check --peer then takes the longer of the two, not both). */
static int ask_peer(void *arg, const struct host *host)
{
	const struct ask_peer *a = arg;
	struct peer_source *src = &a->p->src;
	char why[1024], netdev[IF_NAMESIZE];

	if (!a->app->root_dir && src->address_known &&
	    pair_peer_is_self(host, &src->address, netdev, sizeof(netdev))) {
		/* Both ends on one host: every rail, name and address would be compared with itself. */
		fprintf(stderr, "roce-doctor: --peer %s is this host (an address of %s here): run `roce-doctor serve` on "
			"the other node and give its address\n", a->peer, netdev);
		return EXIT_USAGE;
	}
	if (src->ask_snapshot && src->ask_snapshot(src->ctx, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: the peer %s's snapshot: %s\n", a->peer, why);
		return EXIT_CANNOT_RUN;
	}
	return EXIT_OK;
}

int peer_pair_open(const struct app *app, const char *peer, const char *fixture, struct peer_pair *p)
{
	int family = app->family ? app->family : AF_INET, code;
	char why[1024];

	memset(p, 0, sizeof(*p));
	code = open_source(app, peer, fixture, app->timeout_s ? app->timeout_s : PEER_TIMEOUT_DEFAULT_S, &p->src);
	if (code != EXIT_OK)
		return code;
	p->src_open = true;
	p->snap[0] = calloc(1, sizeof(*p->snap[0]));
	p->snap[1] = calloc(1, sizeof(*p->snap[1]));
	if (!p->snap[0] || !p->snap[1]) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		code = EXIT_CANNOT_RUN;
		goto fail;
	}
	if (app->from_file) {
		if (snapshot_file_read(app->from_file, p->snap[0], why, sizeof(why)) < 0) {
			fprintf(stderr, "roce-doctor: %s\n", why);
			code = EXIT_CANNOT_RUN;
			goto fail;
		}
	} else if ((code = snapshot_take_then(app, p->snap[0], ask_peer,
					      &(struct ask_peer){ .app = app, .peer = peer, .p = p })) != EXIT_OK) {
		goto fail;
	}
	if (p->src.fetch_snapshot(p->src.ctx, p->snap[1], why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: the peer %s's snapshot: %s\n", peer, why);
		code = EXIT_CANNOT_RUN;
		goto fail;
	}
	for (int i = 0; i < 2; i++) {
		if (!p->snap[i]->system_known) {
			fprintf(stderr, "roce-doctor: %s's snapshot was taken without the system sources check reads (an "
				"older roce-doctor): take it again with `roce-doctor snapshot > FILE`\n",
				i ? "the peer" : "this node");
			code = EXIT_CANNOT_RUN;
			goto fail;
		}
		if (compare_node_from_snapshot(p->snap[i], side_names[i], NULL, &p->own[i], &p->nodes[i]) < 0) {
			fprintf(stderr, "roce-doctor: out of memory\n");
			code = EXIT_CANNOT_RUN;
			goto fail;
		}
		p->in[i].host = p->own[i].host;
		p->in[i].family = family;
		system_to_check_input(&p->snap[i]->system, &p->hca[i], &p->in[i]);
		/* b's sources are always a recording; a's when it came from --from */
		p->in[i].recorded = i == 1 || app->from_file != NULL;
		p->side[i].node = side_names[i];
		p->side[i].hostname = p->own[i].hostname;
		p->side[i].in = &p->in[i];
	}
	p->src.local_host = p->own[0].host;
	return EXIT_OK;
fail:
	peer_pair_close(p);
	return code;
}

static const char *socket_ifname(const struct system_state *s)
{
	for (size_t i = 0; s->nccl_read && i < s->nccl.count; i++)
		if (s->nccl.items[i].effective && strcmp(s->nccl.items[i].name, "NCCL_SOCKET_IFNAME") == 0)
			return s->nccl.items[i].value;
	return NULL;
}

void peer_bootstrap_address(const struct peer_pair *p, int side, const struct pair_rails *rails, char *buf,
			    size_t size)
{
	const struct host *h = p->own[side].host;
	const char *v = socket_ifname(&p->snap[side]->system);
	int family = p->in[side].family;
	struct nccl_if_list list;

	buf[0] = 0;
	if (v) {
		nccl_if_list_parse(v, NCCL_SOCKET_IFNAME_ENTRIES_MAX, &list);
		for (size_t n = 0; n < h->netdev_count; n++) {
			const struct netdev *nd = &h->netdevs[n];

			if (!nccl_if_list_selects(&list, nd->name, -1))
				continue;
			for (size_t k = 0; nd->addrs_known && k < nd->addr_count; k++)
				if (nd->addrs[k].family == family) {
					char text[64];

					gid_format_ip(&nd->addrs[k].addr, text);
					snprintf(buf, size, "%s", text);
					return;
				}
		}
	}
	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_port *end = side ? &rails->items[i].b : &rails->items[i].a;

		if (end->usable) {
			snprintf(buf, size, "%s", end->end.address);
			return;
		}
	}
}

/* The GID index NCCL would use on an end: a pinned NCCL_IB_GID_INDEX wins over gid --suggest's. */
static struct rail_end probe_end(const struct check_input *in, const struct pair_port *p)
{
	struct rail_end e = p->end;
	char *end;
	long v;

	if (in->gid_index_value && *in->gid_index_value) {
		v = strtol(in->gid_index_value, &end, 10);
		if (!*end && v >= 0 && v < HOST_GIDS_MAX)
			e.gid_index = (int)v;
	}
	return e;
}

static int run_probes(struct peer_pair *p, const struct check_peer_args *args, unsigned timeout_s,
		      const struct pair_rails *rails, struct pair_probes *probes)
{
	static const char *const purposes[2] = { "ephemeral", "master_port" };
	char why[1024], local[64], remote[64];
	bool gone = false;

	memset(probes, 0, sizeof(*probes));
	probes->rdma_run = true;
	probes->bw_run = !args->no_bw;
	for (size_t i = 0; i < rails->count; i++) {
		const struct pair_rail *r = &rails->items[i];
		struct rail_end a, b;

		if (r->link == RAIL_LINK_MISSING || !r->a.usable || !r->b.usable)
			continue;
		/* A serve that died or froze on one rail answers no other: asking would cost a timeout per rail
		 * and per bootstrap probe before the verdict (issue 12, scenario 9). */
		if (gone) {
			snprintf(probes->rdma[i].detail, sizeof(probes->rdma[i].detail), "b's serve had stopped "
				 "answering on an earlier rail");
			continue;
		}
		a = probe_end(&p->in[0], &r->a);
		b = probe_end(&p->in[1], &r->b);
		if (p->src.probe_rail(p->src.ctx, &a, &b, timeout_s, &probes->rdma[i], why, sizeof(why)) < 0)
			goto fail;
		gone = probes->rdma[i].outcome == RAIL_RDMA_PEER_GONE;
		if (probes->bw_run && probes->rdma[i].outcome == RAIL_RDMA_OK &&
		    p->src.probe_bw(p->src.ctx, &a, &b, timeout_s, &probes->bw[i], why, sizeof(why)) < 0)
			goto fail;
		gone = gone || probes->bw[i].serve_gone;
	}
	if (gone)
		return 0;   /* the bootstrap probes need the same serve: the rail's finding says it went */
	peer_bootstrap_address(p, 0, rails, local, sizeof(local));
	peer_bootstrap_address(p, 1, rails, remote, sizeof(remote));
	if (!local[0] || !remote[0])
		return 0;   /* no address to test from or to: the rails' findings say why */
	for (size_t k = 0; k < 2; k++) {
		struct tcp_reach_probe *t = &probes->reach[probes->reach_count++];

		snprintf(t->purpose, sizeof(t->purpose), "%s", purposes[k]);
		if (p->src.probe_tcp(p->src.ctx, local, remote, k ? (uint16_t)args->master_port : 0, timeout_s, t, why,
				     sizeof(why)) < 0)
			goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "roce-doctor: the peer %s: %s\n", args->peer, why);
	return -EIO;
}

static struct text_style pair_style;

static void print_pair(FILE *out, const json_t *doc)
{
	pair_text_print(out, doc, &pair_style);
}

static void own_findings(const struct peer_pair *p, int i, const struct check_peer_args *args, struct findings *f)
{
	f->only = args->only;
	f->skip = args->skip;
	checks_run(&p->in[i], f);
	findings_locate(f, p->own[i].host);
}

int check_peer_run(const struct app *app, const struct check_peer_args *args)
{
	struct pair_findings *pf = calloc(1, sizeof(*pf));
	struct pair_rails *rails = calloc(1, sizeof(*rails));
	struct pair_probes *probes = calloc(1, sizeof(*probes));
	struct peer_pair *p = calloc(1, sizeof(*p));
	struct pair_causes *causes = malloc(sizeof(*causes));
	struct findings own[2] = { { 0 }, { 0 } }, cmp = { 0 };
	struct notes warnings = { 0 };
	json_t *doc = NULL;
	int code = EXIT_CANNOT_RUN;

	if (!pf || !rails || !probes || !p || !causes) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		goto out;
	}
	code = peer_pair_open(app, args->peer, args->fixture, p);
	if (code != EXIT_OK)
		goto out;
	code = EXIT_CANNOT_RUN;
	own_findings(p, 0, args, &own[0]);
	own_findings(p, 1, args, &own[1]);
	if (compare_nodes(p->nodes, 2, p->in[0].family, &cmp) < 0 ||
	    pair_rails_build(&p->side[0], &p->side[1], p->in[0].family, rails) < 0) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		goto out;
	}
	pair_rails_check(&p->side[0], &p->side[1], rails, pf);
	pair_qos_check(&p->side[0], &p->side[1], rails, pf);
	if (run_probes(p, args, app->timeout_s ? app->timeout_s : PEER_TIMEOUT_DEFAULT_S, rails, probes) < 0)
		goto out;
	pair_classify(&p->side[0], &p->side[1], rails, probes, args->master_port, pf);
	pair_causes_group(&(const struct pair_causes_input){ .list = { &own[0], &own[1], &cmp, &pf->list },
							     .pair_node = pf->node,
							     .hostname = { p->side[0].hostname, p->side[1].hostname } },
			  causes);
	doc = pair_report_doc(&(const struct pair_report){ .side = p->side, .own = own, .compare = &cmp, .pair = pf,
							   .rails = rails, .probes = probes, .causes = causes,
							   .peer = args->peer, .master_port = args->master_port });
	if (!doc) {
		fprintf(stderr, "roce-doctor: cannot build the report: %s\n", strerror(ENOMEM));
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		const struct notes *n[2] = { &p->own[i].host->warnings, &p->snap[i]->system.warnings };

		for (int k = 0; k < 2; k++)
			for (size_t w = 0; w < n[k]->count; w++)
				notes_add(&warnings, "%s: %s", side_names[i], n[k]->items[w]);
	}
	text_style_resolve(&pair_style, args->colour, app_output_fd(app));
	pair_style.verbose = app->verbose > 0;
	code = app_emit(app, doc, &warnings, print_pair, pair_report_exit_code(doc));
out:
	json_decref(doc);
	notes_free(&warnings);
	findings_free(&own[0]);
	findings_free(&own[1]);
	findings_free(&cmp);
	if (pf)
		findings_free(&pf->list);
	if (p && p->snap[0])
		peer_pair_close(p);
	free(p);
	free(pf);
	free(rails);
	free(probes);
	free(causes);
	return code;
}
