// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env --peer: both nodes' models as check --peer gets them, the rails between them, and pair_env's answer
 * as sh (safe to eval on either node: what is per node is in comments with the file line to add) or JSON. */
#include "cmd/nccl_env_peer.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/check_peer.h"
#include "core/pair_env.h"
#include "output/render.h"

static void put_sh_quoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++)
		fputs(*s == '\'' ? "'\\''" : (char[2]){ *s, 0 }, out);
	fputc('\'', out);
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void print_sh(FILE *out, const json_t *doc)
{
	const json_t *v, *n, *note;
	size_t i, k;

	fprintf(out, "# roce-doctor nccl-env --peer: %s\n", str(doc, "summary"));
	json_array_foreach(json_object_get(doc, "variables"), i, v) {
		fprintf(out, "export %s=", str(v, "name"));
		put_sh_quoted(out, str(v, "value"));
		fprintf(out, "   # %s\n", str(v, "comment"));
	}
	json_array_foreach(json_object_get(doc, "unset"), i, v)
		fprintf(out, "unset %s   # no single value is right on both nodes\n", json_string_value(v));
	json_array_foreach(json_object_get(doc, "notes"), i, note)
		fprintf(out, "# %s\n", json_string_value(note));
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		json_array_foreach(json_object_get(n, "own"), k, v)
			fprintf(out, "# on %s (%s) only: echo '%s=%s' >> ~/.nccl.conf   # %s\n", str(n, "node"),
				str(n, "hostname"), str(v, "name"), str(v, "value"), str(v, "comment"));
	}
	json_array_foreach(json_object_get(doc, "nodes"), i, n)
		fprintf(out, "# on %s (%s): %s\n", str(n, "node"), str(n, "hostname"), str(n, "torchrun"));
	fprintf(out, "# or from a, with the same variables: %s\n", str(doc, "mpirun"));
}

static json_t *vars_json(const struct nccl_var *vars, size_t n)
{
	json_t *list = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "name", vars[i].name, "value", vars[i].value,
						      "comment", vars[i].comment));
	return list;
}

static json_t *env_doc(const struct peer_pair *p, const struct pair_env *e)
{
	json_t *doc = doc_new("nccl-env-peer"), *notes = json_array(), *nodes = json_array();

	for (size_t i = 0; i < e->note_count; i++)
		json_array_append_new(notes, json_string(e->notes[i]));
	for (int s = 0; s < 2; s++)
		json_array_append_new(nodes, json_pack("{s:s, s:o, s:o, s:s}", "node", p->side[s].node, "hostname",
						       json_str_or_null(p->side[s].hostname), "own",
						       vars_json(e->own[s], e->own_count[s]), "torchrun", e->torchrun[s]));
	json_object_set_new(doc, "summary", json_string(e->summary));
	json_object_set_new(doc, "variables", vars_json(e->vars, e->count));
	json_object_set_new(doc, "unset", e->unset_gid_index ? json_pack("[s]", "NCCL_IB_GID_INDEX") : json_array());
	json_object_set_new(doc, "notes", notes);
	json_object_set_new(doc, "master_addr", json_string(e->master_addr));
	json_object_set_new(doc, "nodes", nodes);
	json_object_set_new(doc, "mpirun", json_string(e->mpirun));
	return doc;
}

int nccl_env_peer_run(const struct app *app, const char *peer, const char *fixture, unsigned master_port)
{
	struct peer_pair *p = calloc(1, sizeof(*p));
	struct pair_rails *rails = calloc(1, sizeof(*rails));
	struct pair_env *env = calloc(1, sizeof(*env));
	char addr[2][64], why[512];
	const char *addrs[2] = { addr[0], addr[1] };
	int code = EXIT_CANNOT_RUN;
	json_t *doc;

	if (!p || !rails || !env) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		goto out;
	}
	code = peer_pair_open(app, peer, fixture, p);
	if (code != EXIT_OK)
		goto out;
	code = EXIT_CANNOT_RUN;
	if (pair_rails_build(&p->side[0], &p->side[1], p->in[0].family, rails) < 0) {
		fprintf(stderr, "roce-doctor: out of memory\n");
		goto close;
	}
	peer_bootstrap_address(p, 0, rails, addr[0], sizeof(addr[0]));
	peer_bootstrap_address(p, 1, rails, addr[1], sizeof(addr[1]));
	if (pair_env_build(&p->side[0], &p->side[1], rails, addrs, master_port, env, why, sizeof(why)) < 0) {
		fprintf(stderr, "roce-doctor: nccl-env --peer: %s\n", why);
		code = EXIT_NOT_FOUND;
		goto close;
	}
	doc = env_doc(p, env);
	code = app_emit(app, doc, NULL, print_sh, EXIT_OK);
	json_decref(doc);
close:
	peer_pair_close(p);
out:
	free(p);
	free(rails);
	free(env);
	return code;
}
